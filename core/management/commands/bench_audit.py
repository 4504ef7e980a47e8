"""`python manage.py bench_audit --events 100000`: busy quarters of play (benchmarks/data.py,
bulk inserts, each append-only row recorded by its row event) in scratch organizations until
the audit log holds at least `--events` events, then the time and SQL queries of one full
`verify_audit_log` pass (chains, anchors, rows) with every chain anchored. Rolled back at the
end; the anchors go to a temporary directory."""

import tempfile
import time

from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings

from benchmarks.data import build
from core.audit import verify_chain
from core.audit_anchors import anchor_chains
from core.management.base import DatabaseCommand
from core.models import AuditEvent
from core.periods import Quarter


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
        connection.queries_log.clear()  # the build's queries would fill the log and hide the count
        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            result = verify_chain(every=10**12)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        if not result.ok:
            raise CommandError(f"verification failed: {result.problem}")
        self.stdout.write(f"database: {connection.vendor}; {quarters} busy quarter(s) written in {built:.1f} s")
        self.stdout.write(
            f"verify_audit_log: {result.checked} events in {result.chains} chain(s), {result.rows_checked} rows, "
            f"{result.anchors_checked} anchor(s) in {elapsed:.2f} s ({cpu:.2f} s of this process's CPU) "
            f"({result.checked / elapsed:.0f} events/s, {result.rows_checked / elapsed:.0f} rows/s), "
            f"{len(queries)} SQL queries"
        )
