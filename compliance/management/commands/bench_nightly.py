"""`python manage.py bench_nightly --quarters 4`: busy quarters of play (benchmarks/data.py, one
scratch site each, each append-only row recorded by its row event), then the time of the
nightly jobs from all history and from their checkpoints: the slip-series check
(compliance.slip_series) and `verify_audit_log` (core.audit_verify), with the data size
they ran on. The tables are analysed first; every job runs once, after the caches are emptied
(benchmarks/db.py). `--workers 2`: the nightly verification split in two slices as the Celery
task splits it (core.audit_verify.plan_nightly), each slice timed on its own, one after another
in this process: with that many workers the pass takes the plan, the slowest slice and the
join. Each time is the wall clock's and the process's CPU time (SQLite runs in the process; a
PostgreSQL server's is not counted), which a loaded machine inflates less. The machine's
reading (benchmarks.machine) is printed before and after. Rolled back at
the end; the anchors go to a temporary directory."""

import tempfile
import time
from datetime import date, timedelta

from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from benchmarks import db
from benchmarks.data import build
from benchmarks.machine import loop_seconds
from compliance.models import SlipSeriesCheckpoint
from compliance.slip_series import series_problems
from core.audit_anchors import anchor_chains
from core.audit_verify import RECHECK_DAYS, ROLLING_NIGHTS, join_slices, plan_nightly, verify_chain, verify_slice
from core.management.base import DatabaseCommand
from core.models import AuditEvent
from core.periods import Quarter
from core.plurals import plural
from floor.models import Slip


class Rollback(Exception):
    pass


class Command(DatabaseCommand):
    help = "Time the nightly slip-series check and verify_audit_log, from all history and from their checkpoints."

    def add_arguments(self, parser):
        parser.add_argument("--quarters", type=int, default=4, help="busy quarters of play, one scratch site each")
        parser.add_argument("--days", type=int, default=92, help="gaming days of each quarter")
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument(
            "--workers", type=int, default=1, help="also time the nightly verification split this many ways"
        )

    def handle(self, *args, quarters, days, tables, workers, **options):
        if min(quarters, days, tables, workers) < 1:
            raise CommandError("--quarters, --days, --tables and --workers must be at least 1")
        self.size, self.workers = {"days": days, "tables": tables}, workers
        self.stdout.write(f"machine: loop {loop_seconds():.2f} s (benchmarks.machine)")
        try:
            with db.frozen_heap(), transaction.atomic(), tempfile.TemporaryDirectory() as anchors:
                with override_settings(AUDIT_ANCHOR_DIR=anchors):
                    self._run(quarters)
                raise Rollback
        except Rollback:
            self.stdout.write(f"machine: loop {loop_seconds():.2f} s")
            self.stdout.write("Scratch data rolled back.")

    def _run(self, quarters: int) -> None:
        started = time.perf_counter()
        sites = [build(quarter=Quarter(2026, 1 + n % 4), seed=n, **self.size).site for n in range(quarters)]
        db.analyze()
        self.stdout.write(
            f"database: {connection.vendor}; {plural(quarters, 'busy quarter', 'busy quarters')} at {plural(len(sites), 'site')} written in "
            f"{time.perf_counter() - started:.1f} s: {Slip.objects.count()} slips, {AuditEvent.objects.count()} "
            f"audit events; tables analysed; each job run once, {db.COLD_NOTE}"
        )
        self._slip_check(sites)
        self._verify()

    def _time(self, label: str, work, *, empty_caches: bool = True) -> object:
        connection.queries_log.clear()
        if empty_caches:
            db.empty_caches()
        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            result = work()
            self.elapsed, self.cpu = time.perf_counter() - started, time.process_time() - cpu
        self.stdout.write(
            f"  {label:<52} {self.elapsed * 1000:9.1f} ms ({self.cpu * 1000:.0f} ms of CPU), {len(queries)} queries"
        )
        return result

    def _slip_check(self, sites) -> None:
        by_id, start, end = {s.pk: s for s in sites}, date(2026, 1, 1), date(2026, 12, 31)
        SlipSeriesCheckpoint.objects.filter(site_id__in=by_id).delete()
        self.stdout.write(f"slip-series check (ND 99-01.3-08-05(2)), {plural(len(sites), 'site')}:")
        found = self._time("from all history (no checkpoint)", lambda: series_problems(by_id, start, end))
        again = self._time("from the checkpoints (no slip since)", lambda: series_problems(by_id, start, end))
        self.stdout.write(f"  findings: {len(found)} from all history, {len(again)} new from the checkpoints")

    def _verify(self) -> None:
        anchor_chains()  # --full ignores the checkpoints (append-only: never deleted) and appends its own
        self.stdout.write("verify_audit_log (chains, anchors, rows):")
        full = self._time("--full (every event and row)", lambda: verify_chain(full=True))
        # The first week after the checkpoints are written, the nightly pass reads every row again
        # (they are all recent); a week on, only that week's rows and a slice of the older ones.
        since = self._time("from the checkpoints (no event since)", lambda: verify_chain(full=False))
        week = timezone.now() + timedelta(days=RECHECK_DAYS + 1)
        later = self._time(
            f"the same, {RECHECK_DAYS + 1} nights on (a slice of the rows)", lambda: verify_chain(full=False, now=week)
        )
        results = [full, since, later]
        if self.workers > 1:
            results.append(self._split(week))
        for result in results:
            if not result.ok:
                raise CommandError(f"verification failed: {result.problem}")
        self.stdout.write(
            f"  events verified: {full.checked} full, {since.checked} from the checkpoints; "
            f"rows: {full.rows_checked} full, {since.rows_checked} from the checkpoints in their first week, "
            f"{later.rows_checked} a week on (1/{ROLLING_NIGHTS} of them a night, and the week's new rows)"
        )

    def _split(self, week):
        """The week-on pass again, split over the workers: the plan, each slice, the join."""
        self.stdout.write(f"the same, split in {self.workers} slices (each a worker's task):")
        plan = self._time("plan (checkpoints, counts, ranges dealt)", lambda: plan_nightly(self.workers, now=week))
        spent, cpu, slices, parts = self.elapsed, self.cpu, [], []
        for index in range(len(plan["slices"])):
            parts.append(self._time(f"slice {index + 1}", lambda index=index: verify_slice(plan, index)))
            slices.append((self.elapsed, self.cpu))
            self.stdout.write(f"    {parts[-1]['counts'][1]} rows, {parts[-1]['counts'][0]} events")
        result = self._time("join (checkpoints appended)", lambda: join_slices(plan, parts), empty_caches=False)
        spent, cpu = spent + self.elapsed + max(s[0] for s in slices), cpu + self.cpu + max(s[1] for s in slices)
        self.stdout.write(
            f"  with {self.workers} workers: {spent * 1000:.1f} ms (plan, slowest slice, join; {cpu * 1000:.0f} ms of "
            f"CPU); one after another {(spent - max(s[0] for s in slices) + sum(s[0] for s in slices)) * 1000:.1f} ms"
        )
        return result
