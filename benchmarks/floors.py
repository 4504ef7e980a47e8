"""Floors: the least work that does what a benchmark measures, timed in the same run (issue 37).

A figure alone says as much about the machine as about the code: machines of this kind differ
by 2-3x from one session to the next. Each benchmark therefore times its floor in the same run,
on the same database with the same clients, and ends with one line,

    ratio to floor: 1.62 (target 2)

beside the machine reading (`benchmarks.machine`). A ratio compares across machines; its
absolute figures compare only between runs with similar machine readings.

The floors themselves live beside their benchmark (`bench_slips` inserts numbered rows and
chain events by plain SQL, `bench_audit` reads and hashes the same rows with hashlib, ...);
this module holds what they share: the scratch SQL of the slip floor, the audit floor, and
the printing.
"""

import contextlib
import hashlib
import json
import multiprocessing
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.db import connection, connections, models, transaction

from benchmarks.machine import LOOP, loop_seconds


@dataclass(frozen=True)
class Ratio:
    """A product's figure over its floor's figure (both "lower is better": seconds)."""

    product: float
    floor: float
    target: float

    @property
    def value(self) -> float:
        return self.product / self.floor if self.floor else float("inf")

    @property
    def met(self) -> bool:
        return self.value <= self.target

    def line(self) -> str:
        verdict = "" if self.met else " - MISSED"
        return f"ratio to floor: {self.value:.2f} (target {self.target:g}){verdict}"


def machine_line(before: float, after: float) -> str:
    return (
        f"machine: a fixed Python loop of {LOOP:,} additions took {before:.2f} s before and {after:.2f} s after "
        "(benchmarks.machine; absolute figures compare only between runs with similar readings)"
    )


class Machine:
    """The machine loop read before (`start()`) and after (`stop()`) a benchmark; `line()`."""

    def start(self) -> "Machine":
        self.before = loop_seconds()
        return self

    def stop(self) -> None:
        self.after = loop_seconds()

    def line(self) -> str:
        return machine_line(self.before, self.after)


# --- where the CPU goes: the clients' processes and the database server's -------------------

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _server_ticks() -> int | None:
    """CPU ticks of the PostgreSQL server on this machine so far: each live postgres process's
    own, plus what the postmaster reaped from its exited children (a backend whose client closed
    its connection). None where it cannot be read (no /proc, not PostgreSQL, or a server on
    another machine: no postgres process here)."""
    if connection.vendor != "postgresql" or not Path("/proc").is_dir():
        return None
    total, found = 0, False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # exited while read
        name, fields = text[text.find("(") + 1 : text.rfind(")")], text[text.rfind(")") + 2 :].split()
        if name != "postgres" and not name.startswith("postgres:"):
            continue
        found = True
        # After the name: state (0), ..., utime (11), stime (12), cutime (13), cstime (14).
        total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return total if found else None


class CpuSplit:
    """CPU seconds spent by this process and the children it has waited for (the benchmark's
    clients) and by the database server on this machine, between `start()` and `stop()`: where a
    piece of work's time goes when the clients and the server share the cores."""

    def start(self) -> "CpuSplit":
        time.sleep(0.05)  # the postmaster reaps the backends a previous phase closed
        self._clients, self._server = self._client_seconds(), _server_ticks()
        return self

    def stop(self) -> "CpuSplit":
        time.sleep(0.05)
        server = _server_ticks()
        self.clients = self._client_seconds() - self._clients
        self.server = None if server is None or self._server is None else (server - self._server) / _TICK
        return self

    @staticmethod
    def _client_seconds() -> float:
        times = os.times()
        return times.user + times.system + times.children_user + times.children_system


def cpu_line(label: str, clients: float, server: float | None, count: int, noun: str) -> str:
    """`label: CPU a <noun>: clients X ms, database server Y ms` (seconds summed over `count`)."""
    if not count:
        return f"{label}: no CPU a {noun} (nothing made)"
    shown = "not measured (no PostgreSQL server on this machine)" if server is None else (
        f"{server * 1000 / count:.2f} ms"
    )  # fmt: skip
    return f"{label}: CPU a {noun}: clients {clients * 1000 / count:.2f} ms, database server {shown}"


# --- the slip floor: numbered rows with their chain events, by plain SQL ---------------------

SLIP_FLOOR_TABLES = ("bench_floor_event", "bench_floor_chain", "bench_floor_row", "bench_floor_series")


def create_slip_floor() -> None:
    """Scratch tables of the slip floor: a per-series number, the numbered rows, a chain head per
    organization and its events (dropped by `drop_slip_floor`)."""
    drop_slip_floor()
    serial = "BIGSERIAL PRIMARY KEY" if connection.vendor == "postgresql" else "INTEGER PRIMARY KEY AUTOINCREMENT"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_floor_series (site INTEGER NOT NULL, kind VARCHAR(10) NOT NULL, "
            "last INTEGER NOT NULL, PRIMARY KEY (site, kind))"
        )
        cursor.execute(
            f"CREATE TABLE bench_floor_row (id {serial}, site INTEGER NOT NULL, kind VARCHAR(10) NOT NULL, "
            "number INTEGER NOT NULL, amount_cents BIGINT NOT NULL, made_at VARCHAR(40) NOT NULL, "
            "UNIQUE (site, kind, number))"
        )
        cursor.execute(
            "CREATE TABLE bench_floor_chain (org INTEGER PRIMARY KEY, seq INTEGER NOT NULL, head VARCHAR(64) NOT NULL)"
        )
        cursor.execute(
            f"CREATE TABLE bench_floor_event (id {serial}, org INTEGER NOT NULL, seq INTEGER NOT NULL, "
            "prev_hash VARCHAR(64) NOT NULL, hash VARCHAR(64) NOT NULL, content TEXT NOT NULL, UNIQUE (org, seq))"
        )


def drop_slip_floor() -> None:
    with connection.cursor() as cursor:
        for table in SLIP_FLOOR_TABLES:
            cursor.execute(f"DROP TABLE IF EXISTS {table}")


def seed_slip_floor(series: list[tuple[int, int, str]]) -> None:
    """(organization, site, kind) of every series: their number rows and chain heads."""
    with connection.cursor() as cursor:
        for _org, site, kind in series:
            cursor.execute("INSERT INTO bench_floor_series (site, kind, last) VALUES (%s, %s, 0)", [site, kind])
        for org in sorted({org for org, _, _ in series}):
            cursor.execute("INSERT INTO bench_floor_chain (org, seq, head) VALUES (%s, 0, %s)", [org, "0" * 64])


def floor_slip(org: int, site: int, kind: str, amount_cents: int) -> None:
    """One numbered row and its chain event in one transaction: the next number of the series
    under its row lock, the row, the chain head under its lock, the event, the head moved."""
    lock = " FOR UPDATE" if connection.vendor == "postgresql" else ""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE bench_floor_series SET last = last + 1 WHERE site = %s AND kind = %s RETURNING last", [site, kind]
        )
        (number,) = cursor.fetchone()
        made_at = time.strftime("%Y-%m-%dT%H:%M:%S")
        cursor.execute(
            "INSERT INTO bench_floor_row (site, kind, number, amount_cents, made_at) VALUES (%s, %s, %s, %s, %s)",
            [site, kind, number, amount_cents, made_at],
        )
        cursor.execute(f"SELECT seq, head FROM bench_floor_chain WHERE org = %s{lock}", [org])
        seq, head = cursor.fetchone()
        content = json.dumps(
            {"site": site, "kind": kind, "number": number, "amount_cents": amount_cents, "at": made_at},
            sort_keys=True,
        )
        digest = hashlib.sha256((head + content).encode()).hexdigest()
        cursor.execute(
            "INSERT INTO bench_floor_event (org, seq, prev_hash, hash, content) VALUES (%s, %s, %s, %s, %s)",
            [org, seq + 1, head, digest, content],
        )
        cursor.execute("UPDATE bench_floor_chain SET seq = %s, head = %s WHERE org = %s", [seq + 1, digest, org])


def slip_floor_gapless() -> bool:
    """Every floor series numbered 1..n, and every chain's events 1..n."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT site, kind, COUNT(*), MIN(number), MAX(number) FROM bench_floor_row GROUP BY site, kind")
        rows = cursor.fetchall()
        cursor.execute("SELECT org, COUNT(*), MIN(seq), MAX(seq) FROM bench_floor_event GROUP BY org")
        events = cursor.fetchall()
    return all(low == 1 and high == count for *_, count, low, high in rows + events)


# --- the audit floor: the same events and rows read and hashed by plain SQL -------------------


def audit_floor(event_table: str, row_tables: list[str], batch: int = 2000) -> tuple[float, int, int]:
    """Read every event in (chain, seq) order and hash each onto the previous one, then read every
    append-only row in id order and hash it: (seconds, events, rows). Plain SQL and hashlib, no
    model, no comparison: what any verification of the same data must at least do."""
    started = time.perf_counter()
    events = rows = 0
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {event_table} ORDER BY chain, seq")
        head = ""
        while chunk := cursor.fetchmany(batch):
            for row in chunk:
                head = hashlib.sha256((head + json.dumps(row, default=str)).encode()).hexdigest()
            events += len(chunk)
        for table in row_tables:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY id")
            while chunk := cursor.fetchmany(batch):
                for row in chunk:
                    hashlib.sha256(json.dumps(row, default=str).encode()).hexdigest()
                rows += len(chunk)
    return time.perf_counter() - started, events, rows


# --- the compliance floor: one aggregating pass over the tables the scan reads ---------------

_TABLE_IN_SQL = re.compile(r'\b(?:FROM|JOIN)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?', re.IGNORECASE)
_NUMERIC = (models.IntegerField, models.BigIntegerField, models.PositiveIntegerField, models.SmallIntegerField)


def tables_read(statements: list[str]) -> list[str]:
    """The tables these SQL statements read (FROM and JOIN), that belong to a model."""
    known = {model._meta.db_table: model for model in apps.get_models()}
    found = {
        name
        for sql in statements
        if sql.lstrip().upper().startswith(("SELECT", "WITH"))
        for name in _TABLE_IN_SQL.findall(sql)
    }
    return sorted(found & set(known))


def aggregate_sql(table: str) -> str:
    """One statement reading every row of `table` between two ids and aggregating it: the row
    count and the sum of every plain integer column (so each row is read, not only an index)."""
    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    quote = connection.ops.quote_name
    columns = [
        f.column
        for f in model._meta.concrete_fields
        if isinstance(f, _NUMERIC) and not f.is_relation and not f.primary_key
    ]
    sums = "".join(f", SUM({quote(column)})" for column in columns)
    return f"SELECT COUNT(*){sums} FROM {quote(table)} WHERE {quote('id')} BETWEEN %s AND %s"


def id_ranges(table: str, parts: int) -> list[tuple[int, int]]:
    """`parts` contiguous id ranges covering the table, one for each worker."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MIN(id), MAX(id) FROM {connection.ops.quote_name(table)}")
        low, high = cursor.fetchone()
    if low is None:
        return []
    step = (high - low) // parts + 1
    return [(low + n * step, min(high, low + (n + 1) * step - 1)) for n in range(parts)]


def compliance_floor(tables: list[str], workers: int, session=contextlib.nullcontext) -> float:
    """Seconds for `workers` forked processes (the scan's worker count) to read and aggregate
    every row of `tables`, each its share of every table's ids, one statement per table, each
    process under the scan's own session settings (`session`, a context manager: on PostgreSQL
    no parallel workers of a statement's own, which would give the floor cores the scan's
    chunks do not take)."""
    plans = {table: (aggregate_sql(table), id_ranges(table, workers)) for table in tables}
    context = multiprocessing.get_context("fork")
    connections.close_all()  # no connection may cross a fork

    def work(part: int) -> None:
        with session(), connection.cursor() as cursor:
            for sql, ranges in plans.values():
                if part < len(ranges):
                    cursor.execute(sql, list(ranges[part]))
                    cursor.fetchall()
        connection.close()

    started = time.perf_counter()
    processes = [context.Process(target=work, args=(part,)) for part in range(workers)]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    elapsed = time.perf_counter() - started
    if any(process.exitcode for process in processes):
        raise RuntimeError("a floor process failed")
    return elapsed
