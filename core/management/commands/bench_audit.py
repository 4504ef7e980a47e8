"""`python manage.py bench_audit --events 100000`: busy quarters of play (benchmarks/data.py,
bulk inserts, each append-only row recorded by its row event) in scratch organizations until
the audit log holds at least `--events` events, then the time and SQL queries of one full
`verify_audit_log` pass (chains, anchors, rows) with every chain anchored. Rolled back at the
end; the anchors go to a temporary directory.

Its floor (issue 37), timed before and after the verification on the same data: reading every
event in chain order and hashing each onto the previous, then every append-only row, by plain
SQL and hashlib (`benchmarks.floors.audit_floor`). Ends with the machine reading and
`ratio to floor: X (target 2)`."""

import tempfile
import time

from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings

from benchmarks import floors
from benchmarks.data import build
from core.audit_anchors import anchor_chains
from core.audit_rows import covered_models
from core.audit_verify import verify_chain
from core.management.base import DatabaseCommand
from core.models import AuditEvent
from core.periods import Quarter

TARGET = 2  # the verification within twice its floor (issue 37)


class Rollback(Exception):
    pass


class Command(DatabaseCommand):
    help = "Time verify_audit_log over a scratch audit log of at least --events events (rolled back)."

    def add_arguments(self, parser):
        parser.add_argument("--events", type=int, default=100_000)

    def handle(self, *args, events, **options):
        if events < 1:
            raise CommandError("--events must be at least 1")
        try:
            with transaction.atomic(), tempfile.TemporaryDirectory() as anchors:
                with override_settings(AUDIT_ANCHOR_DIR=anchors):
                    self._run(events)
                raise Rollback
        except Rollback:
            pass

    def _run(self, target: int) -> None:
        started, quarters = time.perf_counter(), 0
        while AuditEvent.objects.count() < target:
            build(quarter=Quarter(2026, 1 + quarters % 4), seed=quarters)
            quarters += 1
        built = time.perf_counter() - started
        anchor_chains()
        machine = floors.Machine().start()
        tables = [model._meta.db_table for model in covered_models()]
        floor_before = floors.audit_floor(AuditEvent._meta.db_table, tables)
        connection.queries_log.clear()  # the build's queries would fill the log and hide the count
        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            result = verify_chain(every=10**12)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        floor_after = floors.audit_floor(AuditEvent._meta.db_table, tables)
        machine.stop()
        if not result.ok:
            raise CommandError(f"verification failed: {result.problem}")
        floor, floor_events, floor_rows = min(floor_before, floor_after)
        self.stdout.write(f"database: {connection.vendor}; {quarters} busy quarter(s) written in {built:.1f} s")
        self.stdout.write(
            f"verify_audit_log: {result.checked} events in {result.chains} chain(s), {result.rows_checked} rows, "
            f"{result.anchors_checked} anchor(s) in {elapsed:.2f} s ({cpu:.2f} s of this process's CPU) "
            f"({result.checked / elapsed:.0f} events/s, {result.rows_checked / elapsed:.0f} rows/s), "
            f"{len(queries)} SQL queries"
        )
        self.stdout.write(
            f"floor (plain SQL and hashlib: {floor_events} events chained, {floor_rows} rows hashed): {floor:.2f} s "
            f"(best of two, before and after the verification)"
        )
        self.stdout.write(machine.line())
        self.stdout.write(floors.Ratio(elapsed, floor, TARGET).line())
