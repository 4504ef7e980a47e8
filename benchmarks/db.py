"""Shared measuring tools of the benchmark commands: statistics before timing, cold and warm
runs, and the SQL a piece of work sends (to time that SQL alone, as the work's floor).

- `analyze()`: PostgreSQL plans from statistics, and autovacuum may be off (it is on the
  development server), so freshly written scratch data is planned blind and times swing;
  every benchmark analyses the tables before it times anything. SQLite's ANALYZE feeds its
  planner too (sqlite_stat1), so it runs there as well.
- `Timing` / `timed()` / `paired()`: a cold run first (Django's and the connection's caches
  emptied: PostgreSQL's cached plans discarded, SQLite's page cache of the connection freed;
  the operating system's file cache stays warm, which the output says), then the best of
  `repeat` warm runs.
- `frozen_heap()`: for the length of a benchmark, the objects alive before it (the
  interpreter's and Django's modules, a test runner's) out of the collector's reach
  (`gc.freeze`): each `gc.collect()` before a timed run then walks only what the benchmark
  made (in a pytest process each collect took about 0.2 s, 42 of them 8.7 s of a 12 s run).
- `statements()` / `replay()`: the statements (SQL and parameters) a piece of work sends,
  and running exactly those and fetching every row: the cheapest SQL that returns what the
  work needs, aggregated by the database as the work aggregates, so a ratio against it
  measures what the work adds (Python, round trips), not a different query.
"""

import gc
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.db import connection

COLD_NOTE = "cold: the first run with Django's and the connection's caches emptied (the OS file cache stays warm)"


def analyze() -> None:
    """Refresh the planner's statistics of every table (inside the benchmark's transaction:
    PostgreSQL's ANALYZE sees the transaction's own scratch rows)."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def empty_caches() -> None:
    """What a first request after a restart would find: no cached plans, no cached pages of
    this connection, no Django lookups cached."""
    ContentType.objects.clear_cache()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DISCARD PLANS")
        elif connection.vendor == "sqlite":
            cursor.execute("PRAGMA shrink_memory")
    gc.collect()


@contextmanager
def frozen_heap():
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@dataclass(frozen=True)
class Timing:
    cold: float  # seconds
    warm: float  # seconds, the best of the warm runs

    def describe(self) -> str:
        return f"cold {self.cold * 1000:.1f} ms, warm {self.warm * 1000:.1f} ms"


def _once(work: Callable) -> tuple[float, object]:
    gc.collect()  # each run starts from the same collector state, as timeit does
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def timed(work: Callable, repeat: int) -> tuple[Timing, object]:
    """A cold run, then the best of `repeat` warm runs; and the last result."""
    empty_caches()
    cold, result = _once(work)
    warm = float("inf")
    for _ in range(repeat):
        seconds, result = _once(work)
        warm = min(warm, seconds)
    return Timing(cold, warm), result


def paired(work: Callable, baseline: Callable, repeat: int) -> tuple[Timing, Timing, object]:
    """`work` and `baseline` each cold (baseline first, then work, each after emptying the
    caches), then warm in turn so that a machine slowing down weighs on both alike."""
    empty_caches()
    base_cold, _ = _once(baseline)
    empty_caches()
    work_cold, result = _once(work)
    best_work = best_base = float("inf")
    for _ in range(repeat):
        best_base = min(best_base, _once(baseline)[0])
        seconds, result = _once(work)
        best_work = min(best_work, seconds)
    return Timing(work_cold, best_work), Timing(base_cold, best_base), result


Statement = tuple[str, tuple]


def statements(work: Callable) -> tuple[list[Statement], object]:
    """Run `work` once; the statements it sent (SQL with its parameters, in order) and its result."""
    sent: list[Statement] = []

    def record(execute, sql, params, many, context):
        sent.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        result = work()
    return sent, result


def replay(sent: list[Statement]) -> int:
    """Send exactly these statements and fetch every row; returns the rows fetched."""
    rows = 0
    with connection.cursor() as cursor:
        for sql, params in sent:
            cursor.execute(sql, params)
            if cursor.description is not None:  # a statement that returns rows (not a write)
                rows += len(cursor.fetchall())
    return rows
