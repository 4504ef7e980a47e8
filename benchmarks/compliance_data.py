"""Scratch data for `manage.py bench_compliance`: a state's sites at the density of
docs/domain.md section 8, written with bulk inserts (the services would audit every row; the
benchmark measures the scan, not the writes).

- Organizations of 1 to 60 sites (most charities run a few, some 20-60).
- A small site (70%): 1-3 tables, open 4-5 nights a week, drop $100-$800 a night in all;
  its wagers stay at $2, so its gross proceeds (above $10,000 a quarter) do not require video
  surveillance (ND 99-01.3-08-04 applies to wagers above $2).
  A busy site (30%): 4-6 tables, open 6-7 nights a week, $800-$4,000 per table a night; its
  gross proceeds require video surveillance (ND 99-01.3-08-04), so it has it: a status
  required since before the data, a camera and a recording unit per table, a recording of
  each table-day from opener to closer, and its organization's chips meet 08-03(3).
- Each table-day: opener and closer trays of $1,000-$3,000, 0-3 fills and 0-2 credits
  (verified and received, numbered in the order they are prepared), a drop removed at the
  close and counted the next day by a team of two, the day's bank deposit made the next
  banking day (ND 99-01.3-03-10(1): by the third); table-day hold from about -5% to +40% (12-18% over a quarter).
- What the rules must find, at realistic rates: a slip never received (1 in 400), a number
  skipped in a series (1 in 500), a drop box removed late (1 in 1,000), a deposit made on the
  fifth banking day (1 in 300 gaming days), a low-hold quarter at a
  surveillance site (1 in 40 busy site-quarters) and a quarter whose prizes exceed gross
  proceeds (1 in 150 small site-quarters).

Not built (so their rules see nothing to judge): dealer shifts (hence review logs), outages,
equipment changes, tournaments, cage counts."""

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model

from cage.models import BankDeposit
from cardroom.models import ChipDenomination, Employee, Organization, Site, Table
from core.periods import Quarter, add_banking_days
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature, Drop, DropBox, DropRemoval
from floor.models import GamingDay, GamingDayClose, Slip, SlipStep, TableInventory
from packs.nd.chips import SPECS as CHIP_SPECS
from surveillance.models import Equipment, Recording, SurveillanceStatus

BATCH = 2000
COPY_ROWS = 50_000
CACHE_VERSION = 3  # bump when the data built changes (bench_compliance --cache)
SURVEILLANCE_SINCE = date(2020, 1, 1)
UNRECEIVED_ONE_IN, SKIPPED_ONE_IN, LATE_REMOVAL_ONE_IN = 400, 500, 1000
LOW_HOLD_ONE_IN, PRIZES_OVER_GP_ONE_IN, LATE_DEPOSIT_ONE_IN = 40, 150, 300
SMALL_SITE_MAX_WAGER_CENTS = 200


def _at(day: date, hours: float) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=hours)


def organization_sizes(sites: int, rng: random.Random) -> list[int]:
    sizes = []
    while sum(sizes) < sites:
        sizes.append(rng.randint(20, 60) if rng.random() < 0.1 else rng.randint(1, 6))
    sizes[-1] -= sum(sizes) - sites
    return [s for s in sizes if s > 0]


@dataclass
class Built:
    sites: list[int]  # ids
    organizations: int
    rows: int
    expected: dict  # what the data calls for, by kind

    def summary(self) -> str:
        return (
            f"{len(self.sites)} sites in {self.organizations} organizations, {self.rows} rows; "
            f"the data calls for {self.expected}"
        )


class _Rows:
    """Rows as plain dicts of attnames (no model instances: building 25 million of them was
    most of the build), with ids handed out here from each table's largest id: the builder
    is the only writer of its scratch database while it runs. A writer subclass sends them."""

    def __init__(self, connection):
        self.connection, self.rows, self.next_id, self.layout = connection, 0, {}, {}

    def _layout(self, model):
        """The model's columns, each with its default (evaluated once: a callable default
        such as a timestamp is the same for every row the builder leaves it to). A column with
        a database default that the builder never sets is left to the database."""
        fields = [f for f in model._meta.concrete_fields if not f.has_db_default()]
        columns = [(f.attname, None if f.primary_key else f.get_default()) for f in fields]
        pk = model._meta.pk
        auto = pk.get_internal_type() in ("AutoField", "BigAutoField", "SmallAutoField")
        if auto:
            with self.connection.cursor() as cursor:
                cursor.execute(f'SELECT COALESCE(MAX("{pk.column}"), 0) FROM "{model._meta.db_table}"')
                self.next_id[model] = cursor.fetchone()[0] + 1
        self.layout[model] = (columns, fields, pk.attname if auto else None)
        self.start_table(model)
        return self.layout[model]

    def start_table(self, model):
        pass

    def add(self, model, values: dict) -> int | None:
        """Queue one row; returns its id."""
        columns, _, pk = self.layout.get(model) or self._layout(model)
        if pk is not None:
            values[pk] = self.next_id[model]
            self.next_id[model] += 1
        self.rows += 1
        self.send(model, tuple([values[name] if name in values else default for name, default in columns]))
        return values.get(pk)

    def send(self, model, row: tuple):
        raise NotImplementedError

    def organization_done(self):
        pass

    def close(self):
        pass

    def abort(self):
        pass


class _BulkWriter(_Rows):
    """SQLite (and any database at small sizes): the rows become model instances written with
    `bulk_create` in the caller's transaction at the end, so append-only rows get their
    `row.created` audit events as anywhere else."""

    def __init__(self, connection):
        super().__init__(connection)
        self.queued = {}

    def start_table(self, model):
        self.queued[model] = []

    def send(self, model, row):
        self.queued[model].append(row)

    def close(self):
        for model, rows in self.queued.items():  # parents were queued first
            names = [f.attname for f in self.layout[model][1]]
            model.objects.bulk_create([model(**dict(zip(names, row, strict=True))) for row in rows], batch_size=BATCH)


class _CopyWriter(_Rows):
    """PostgreSQL bulk loader: rows queued per table and sent with COPY (psycopg's
    `cursor.copy`) in batches of `COPY_ROWS`, each batch its own transaction on the loader's
    own connection, so the build of 1,000 sites never holds one 25-million-row transaction.

    - The loader's session runs with `session_replication_role = replica` (a superuser's
      session setting: the way PostgreSQL lets a bulk load skip triggers). That skips the
      foreign-key checks (one lookup per row and key; the rows are built parents first with
      the ids handed out by `_Rows`, so they hold) and the append-only triggers, which refuse
      only UPDATE, DELETE and TRUNCATE, statements the loader never sends. The setting ends
      with the loader's connection; the benchmark's scan and workers run with every trigger.
    - No `row.created` audit events: the compliance scan never reads the audit chain, and
      hashing 25 million events in Python would be most of the build (`_BulkWriter`, the
      SQLite path, still writes them).
    - The identity sequences are moved past the ids handed out, so later inserts (alerts,
      runs) get fresh ids."""

    def __init__(self, connection):
        import psycopg

        super().__init__(connection)
        self.queued = {}
        params = connection.get_connection_params()
        self.conn = psycopg.connect(
            **{k: v for k, v in params.items() if k not in ("cursor_factory", "context")}, autocommit=True
        )
        self.conn.execute("SET session_replication_role = replica")
        self.conn.execute("SET synchronous_commit = off")

    def start_table(self, model):
        self.queued[model] = []

    def send(self, model, row):
        queued = self.queued[model]
        queued.append(row)
        if len(queued) >= COPY_ROWS:
            self._flush(model)

    def _flush(self, model):
        rows = self.queued[model]
        if not rows:
            return
        columns = ", ".join(f'"{f.column}"' for f in self.layout[model][1])
        with self.conn.cursor() as cursor, cursor.copy(f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row(row)
        self.queued[model] = []

    def close(self):
        for model in self.queued:
            self._flush(model)
        for model, next_id in self.next_id.items():
            self.conn.execute(
                "SELECT setval(pg_get_serial_sequence(%s, %s), %s, false)",
                (f'"{model._meta.db_table}"', model._meta.pk.column, next_id),
            )
        self.conn.close()

    def abort(self):
        self.conn.close()


def build(*, sites: int, quarters: int, last: Quarter, seed: int = 1, copy: bool = False) -> Built:
    """`copy=True` (PostgreSQL only): load with COPY through `_CopyWriter`, committed in
    batches outside the caller's transaction; otherwise `bulk_create` in the caller's."""
    from django.db import connection

    rng = random.Random(seed)
    writer = _CopyWriter(connection) if copy else _BulkWriter(connection)
    try:
        built = _build(rng, writer, sites=sites, quarters=quarters, last=last)
    except BaseException:
        writer.abort()
        raise
    writer.close()
    return built


def _build(rng, w, *, sites, quarters, last) -> Built:
    expected = {
        "unreceived": 0,
        "skipped": 0,
        "late_removal": 0,
        "low_hold_quarters": 0,
        "prizes_over_gp_quarters": 0,
        "late_deposit": 0,
    }
    quarter_list = [last]
    while len(quarter_list) < quarters:
        quarter_list.insert(0, quarter_list[0].previous())
    User = get_user_model()
    stamp = int(datetime.now(UTC).timestamp())
    all_sites = []
    for org_index, size in enumerate(organization_sizes(sites, rng)):
        org = w.add(Organization, {"name": f"Bench charity {stamp}-{org_index}"})
        users = [w.add(User, {"username": f"bench-{org}-{i}"}) for i in (1, 2)]
        staff, second = (
            w.add(Employee, {"organization_id": org, "user_id": u, "initials": f"B{i}"}) for i, u in enumerate(users, 1)
        )
        org_sites = [w.add(Site, {"organization_id": org, "name": f"Bench site {org_index}-{n}"}) for n in range(size)]
        busy = {s: rng.random() < 0.3 for s in org_sites}
        if any(busy.values()):
            for value, spec in CHIP_SPECS.items():
                w.add(
                    ChipDenomination,
                    {
                        "organization_id": org,
                        "value_cents": value,
                        "primary_colour": spec.primary_colour,
                        "edge_spots": spec.edge_spots,
                        "edge_colour": spec.default_edge_colour,
                        "marking": f"Bench charity {stamp}-{org_index}",
                    },
                )
        for site in org_sites:
            _build_site(w, rng, site, busy[site], quarter_list, staff, second, expected)
        all_sites += org_sites
        w.organization_done()
    return Built(all_sites, org_index + 1, w.rows, expected)


def _build_site(w, rng, site, busy, quarter_list, staff, second, expected):
    max_wager = 2500 if busy else SMALL_SITE_MAX_WAGER_CENTS
    tables = [
        (w.add(Table, {"site_id": site, "number": n + 1, "min_wager_cents": 100, "max_wager_cents": max_wager}), n + 1)
        for n in range(rng.randint(4, 6) if busy else rng.randint(1, 3))
    ]
    boxes = {t: w.add(DropBox, {"site_id": site, "table_id": t, "number": number}) for t, number in tables}
    recorders = {}
    if busy:
        w.add(
            SurveillanceStatus,
            {
                "site_id": site,
                "required": True,
                "since": SURVEILLANCE_SINCE,
                "operational_on": SURVEILLANCE_SINCE,
                "reason": "Benchmark: a busy site's gross proceeds require surveillance (ND 99-01.3-08-04).",
                "recorded_at": _at(SURVEILLANCE_SINCE, 0),
            },
        )
        for t, _ in tables:
            for kind in (Equipment.Kind.CAMERA, Equipment.Kind.RECORDING_UNIT):
                e = w.add(
                    Equipment,
                    {
                        "site_id": site,
                        "table_id": t,
                        "kind": kind,
                        "make_model": "Bench",
                        "installed_on": SURVEILLANCE_SINCE,
                    },
                )
                if kind == Equipment.Kind.RECORDING_UNIT:
                    recorders[t] = e
    nights = rng.randint(6, 7) if busy else rng.randint(4, 5)
    weekdays = sorted(rng.sample(range(7), nights))
    numbers = {"fill": 0, "credit": 0}
    for quarter in quarter_list:
        mean_hold = 0.15
        if busy and rng.randrange(LOW_HOLD_ONE_IN) == 0:
            mean_hold, expected["low_hold_quarters"] = 0.05, expected["low_hold_quarters"] + 1
        elif not busy and rng.randrange(PRIZES_OVER_GP_ONE_IN) == 0:
            mean_hold, expected["prizes_over_gp_quarters"] = -0.3, expected["prizes_over_gp_quarters"] + 1
        days = [
            d
            for d in (quarter.start + timedelta(days=i) for i in range((quarter.end - quarter.start).days + 1))
            if d.weekday() in weekdays
        ]
        _build_quarter(w, rng, site, tables, boxes, recorders, days, mean_hold, numbers, staff, second, expected)


def _build_quarter(w, rng, site, tables, boxes, recorders, days, mean_hold, numbers, staff, second, expected):
    """Each gaming day's rows, parents first (the COPY loader skips the foreign-key checks)."""
    busy = bool(recorders)
    for d in days:
        opened, counted = _at(d, 18), _at(d, 35)
        g = w.add(GamingDay, {"site_id": site, "gaming_date": d, "opened_at": opened, "opened_by_id": staff})
        w.add(GamingDayClose, {"gaming_day_id": g, "closed_at": _at(d, 30), "closed_by_id": staff})
        session = w.add(
            CountSession,
            {
                "site_id": site,
                "gaming_date": d,
                "first_member_id": staff,
                "second_member_id": second,
                "opened_by_id": staff,
                "opened_at": _at(d, 34),
            },
        )
        for member, initials in ((staff, "B1"), (second, "B2")):
            w.add(
                CountSignature,
                {"session_id": session, "member_id": member, "initials": initials, "signed_at": _at(d, 34)},
            )
        day_win, prepared = 0, 0
        night_drop = rng.randint(10_000, 80_000)  # a small site's whole night
        for table, table_number in tables:
            drop = rng.randint(80_000, 400_000) if busy else max(2_000, night_drop // len(tables))
            win = int(drop * max(-0.05, min(0.40, rng.gauss(mean_hold, 0.10))))
            opener = rng.randrange(100_000, 300_001, 500)
            amounts = {
                kind: [rng.randrange(20_000, 100_001, 500) for _ in range(rng.randint(0, limit))]
                for kind, limit in (("fill", 3), ("credit", 2))
            }
            closer = opener + win - drop + sum(amounts["fill"]) - sum(amounts["credit"])
            while closer < 0:  # the table ran out of chips: one more fill
                amounts["fill"].append(rng.randrange(50_000, 100_001, 500))
                closer += amounts["fill"][-1]
            day_win += win
            for kind, cents, hour in (("opener", opener, 19), ("closer", closer, 29)):
                w.add(
                    TableInventory,
                    {
                        "gaming_day_id": g,
                        "table_id": table,
                        "kind": kind,
                        "total_cents": cents,
                        "counted_at": _at(d, hour),
                        "counted_by_id": staff,
                    },
                )
            for kind, values in amounts.items():
                for cents in values:
                    if rng.randrange(SKIPPED_ONE_IN) == 0:
                        numbers[kind] += 1
                        expected["skipped"] += 1
                    numbers[kind] += 1
                    slip = w.add(
                        Slip,
                        {
                            "site_id": site,
                            "kind": kind,
                            "number": numbers[kind],
                            "table_id": table,
                            "gaming_day_id": g,
                            "game": "21",
                            "table_number": table_number,
                            "prepared_at": _at(d, 19.5 + prepared / 20),
                            "prepared_by_id": staff,
                            "total_cents": cents,
                        },
                    )
                    prepared += 1
                    unreceived = rng.randrange(UNRECEIVED_ONE_IN) == 0
                    expected["unreceived"] += unreceived
                    for step in ("verify",) if unreceived else ("verify", "receive"):
                        w.add(
                            SlipStep,
                            {"slip_id": slip, "kind": step, "employee_id": staff, "initials": "B1", "at": _at(d, 22.5)},
                        )
            late = rng.randrange(LATE_REMOVAL_ONE_IN) == 0
            expected["late_removal"] += late
            removed = _at(d, 29 + (24 if late else 0))
            drop_id = w.add(
                Drop,
                {
                    "site_id": site,
                    "drop_box_id": boxes[table],
                    "table_id": table,
                    "gaming_date": d,
                    "placed_at": opened,
                    "placed_by_id": staff,
                },
            )
            w.add(
                DropRemoval,
                {
                    "drop_id": drop_id,
                    "removed_at": removed,
                    "transported_by_id": staff,
                    "sole_employee_on_duty": True,
                    "storage_place": "safe",
                    "key_holder_id": staff,
                    "recorded_at": removed,
                },
            )
            entry = w.add(
                CountEntry,
                {
                    "session_id": session,
                    "drop_id": drop_id,
                    "kind": "member",
                    "entered_by_id": staff,
                    "entered_at": counted,
                    "total_cents": drop,
                },
            )
            w.add(
                CountAgreement,
                {
                    "session_id": session,
                    "drop_id": drop_id,
                    "entry_id": entry,
                    "source": "match",
                    "total_cents": drop,
                    "agreed_at": counted,
                },
            )
            if busy:
                w.add(
                    Recording,
                    {
                        "table_id": table,
                        "recorder_id": recorders[table],
                        "gaming_date": d,
                        "started_at": _at(d, 19),
                        "stopped_at": _at(d, 29.5),
                        "release_on": d + timedelta(days=365),
                        "operated_by_id": staff,
                        "recorded_at": _at(d, 29.5),
                    },
                )
        late_deposit = rng.randrange(LATE_DEPOSIT_ONE_IN) == 0
        expected["late_deposit"] += late_deposit
        deposited = add_banking_days(d, 5 if late_deposit else 1)
        w.add(
            BankDeposit,
            {
                "site_id": site,
                "gaming_day_id": g,
                "gaming_date": d,
                "amount_cents": max(0, day_win),
                "deposited_on": deposited,
                "due_on": add_banking_days(d, 3),
                "recorded_by_id": staff,
                "recorded_at": _at(deposited, 15),
            },
        )


class deferred_indexes:
    """PostgreSQL: drop the plain (non-unique, constraint-free) indexes of the public tables
    before a bulk load and create them again from their own definitions afterwards, which is
    faster than maintaining them row by row. Unique indexes and constraints stay, so the
    loaded schema is the migrated one; the caller ANALYZEs after."""

    def __init__(self, connection):
        self.connection, self.definitions = connection, []

    def __enter__(self):
        with self.connection.cursor() as cursor:
            cursor.execute("""
                SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
                FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
                WHERE n.nspname = 'public' AND NOT i.indisunique AND NOT i.indisprimary
                  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)""")
            self.definitions = cursor.fetchall()
            for name, _ in self.definitions:
                cursor.execute(f"DROP INDEX {name}")
        return self

    def __exit__(self, *exc):
        with self.connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '512MB'")
            for _, definition in self.definitions:
                cursor.execute(definition)
        return False
