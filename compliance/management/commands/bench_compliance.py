"""`python manage.py bench_compliance --sites 1000 --quarters 8`: the full compliance scan of a
state's sites (benchmarks/compliance_data.py: docs/domain.md section 8 density), fanned out by
organization through the broker to real Celery worker processes that this command starts
(`--concurrency 1` each), with 1 and then 2 workers.

The data is built once in a scratch database (`<database>_bench_compliance`, or a file
under VAR_DIR on SQLite), committed, and ANALYZEd (VACUUMed too on PostgreSQL, as autovacuum would have); each worker count scans its own copy of
it, so each cold run (the first after building) opens the alerts the data calls for, and the
warm run that follows (the same scan again: every alert already open) measures a rerun. The
scratch databases are dropped at the end unless `--keep`. `--schema-from` starts the scratch
database from one already migrated (a test run's migrated template) instead of migrating it.

Its floor (issue 37), on the same copy after the scans, split over as many processes as there
are workers: one SQL statement a table, for every table the scan reads (found by running the
first chunk's scan in this process, rolled back), reading every row of its share of the ids and
aggregating them (`benchmarks.floors.compliance_floor`), under the scan's session settings
(`compliance.tasks.scan_settings`), the best of two runs. The last lines
are the machine reading and `ratio to floor: X (target 3)`, the cold full scan over its floor
with the most workers timed."""

import dataclasses
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from contextlib import closing
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.test.utils import CaptureQueriesContext

from benchmarks import floors
from benchmarks.compliance_data import CACHE_VERSION, Built, build, deferred_indexes
from benchmarks.machine import LOOP, loop_seconds
from cardroom.models import Site
from compliance.models import Alert
from compliance.tasks import chunk_size, fan_out, organization_chunks, scan_chunk, scan_settings
from compliance.thresholds import ensure_seeded
from config.celery import app
from core.periods import Quarter

WORKER_START_TIMEOUT = 120
SCAN_TIMEOUT = 3600
RESULT_POLL_SECONDS = 0.05
TARGET = 3  # the full scan within 3x of its floor (issue 37)


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the fanned-out compliance scan of many sites and quarters on 1 and 2 Celery workers."

    def add_arguments(self, parser):
        parser.add_argument("--sites", type=int, default=50)
        parser.add_argument("--quarters", type=int, default=8)
        parser.add_argument("--last-quarter", default="2026Q3")
        parser.add_argument("--workers", default="1,2", help="worker counts to time, e.g. 1,2")
        parser.add_argument("--chunk-sites", type=int, default=None, help="sites per chunk (COMPLIANCE_CHUNK_SITES)")
        parser.add_argument("--keep", action="store_true", help="keep the scratch databases")
        parser.add_argument(
            "--cold-only",
            action="store_true",
            help="time only the cold scan and the nightly jobs (large sizes: halves the time)",
        )
        parser.add_argument(
            "--schema-from",
            default=None,
            help="start from this database, migrated to the same schema and holding no sites (one that does is refused), instead of applying every migration "
            "(SQLite: a file, copied; PostgreSQL: a database, the template of the scratch one)",
        )
        parser.add_argument(
            "--cache",
            action="store_true",
            help="PostgreSQL: keep the built data as a template database and reuse it on reruns",
        )

    def handle(
        self, *args, sites, quarters, last_quarter, workers, chunk_sites, keep, cache, cold_only, schema_from, **options
    ):
        self.cold_only = cold_only
        if not 1 <= sites <= 5000 or not 1 <= quarters <= 16:
            raise CommandError("--sites must be 1-5000 and --quarters 1-16.")
        try:
            counts = [int(w) for w in workers.split(",")]
        except ValueError as exc:
            raise CommandError("--workers: a list of worker counts, e.g. 1,2") from exc
        last = Quarter.parse(last_quarter)
        quarter_list = [last]
        while len(quarter_list) < quarters:
            quarter_list.insert(0, quarter_list[0].previous())
        self.chunk_sites = chunk_sites or settings.COMPLIANCE_CHUNK_SITES
        self.spec = {
            "quarters": [str(q) for q in quarter_list],
            "day_ranges": [(str(q.start), str(q.end)) for q in quarter_list],
        }
        use_cache = cache
        creation, original, self.copies = connection.creation, connection.settings_dict["NAME"], []
        connection.settings_dict.setdefault("TEST", {})["NAME"] = self._scratch_name(original)
        broker = urlsplit(settings.CELERY_BROKER_URL).scheme  # redis in production; filesystem polls
        self.stdout.write(
            f"database: {connection.vendor}; broker: {broker}; building {sites} sites x {quarters} quarters ..."
        )
        started = time.perf_counter()
        cache = self._cache_name(original, sites, quarters, last) if use_cache else None
        built = self._from_cache(cache) if cache else None
        if built is None:
            if schema_from:
                self._copy_schema(schema_from)
            # Kept (keepdb): the copied schema, where `migrate` then only checks every migration is applied.
            creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=bool(schema_from))
        migrated = time.perf_counter()
        try:
            if built is None:
                self._refuse_sites_copied(schema_from)
                built = self._build(sites, quarters, last)
                self.stdout.write(
                    f"built in {time.perf_counter() - migrated:.1f} s (schema {migrated - started:.1f} s)"
                    f"{'; VACUUMed and ANALYZEd' if connection.vendor == 'postgresql' else ''}: {built.summary()}"
                )
                if cache:
                    self._save_cache(cache, built)
            else:
                self.stdout.write(f"copied from the cache {cache} in {migrated - started:.1f} s: {built.summary()}")
            self._prepare_copy()
            for count in counts:
                self.copies.append(count)
                self._timed(count, len(built.sites), quarters)
            self.stdout.write(self.ratio.line())
        finally:
            for count in self.copies if not keep else ():
                self._drop_copy(count)
            creation.destroy_test_db(original, verbosity=0, keepdb=keep)
        self.stdout.write("Scratch databases " + ("kept." if keep else "dropped."))

    # --- the scratch databases ------------------------------------------------------------------

    def _build(self, sites: int, quarters: int, last: Quarter) -> Built:
        ensure_seeded()
        if connection.vendor == "postgresql":
            # COPY in committed batches, the plain indexes built once after the load
            # (benchmarks/compliance_data.py, _CopyWriter and deferred_indexes).
            with deferred_indexes(connection):
                built = build(sites=sites, quarters=quarters, last=last, copy=True)
        else:
            with transaction.atomic():
                built = build(sites=sites, quarters=quarters, last=last)
        self._analyze()
        return built

    def _cache_name(self, original: str, sites: int, quarters: int, last: Quarter) -> str:
        """PostgreSQL: a template database named by the hash of what it holds (the sizes, the
        builder's version and the schema's latest migrations), so a rerun skips the build."""
        if connection.vendor != "postgresql":
            raise CommandError("--cache needs PostgreSQL (a template database)")
        leaves = sorted(MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes())
        key = json.dumps([sites, quarters, str(last), CACHE_VERSION, leaves])
        return f"{original}_bcc_{hashlib.sha256(key.encode()).hexdigest()[:12]}"

    def _from_cache(self, cache: str) -> Built | None:
        with connection._nodb_cursor() as cursor:
            cursor.execute("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [cache])
            row = cursor.fetchone()
            if not row or not row[0]:
                return None
            scratch = connection.settings_dict["TEST"]["NAME"]
            cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
            cursor.execute(f'CREATE DATABASE "{scratch}" TEMPLATE "{cache}"')
        connection.close()
        connection.settings_dict["NAME"] = scratch
        return Built(**json.loads(row[0]))

    def _save_cache(self, cache: str, built: Built) -> None:
        scratch = connection.settings_dict["NAME"]
        connection.close()
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{cache}"')
            cursor.execute(f'CREATE DATABASE "{cache}" TEMPLATE "{scratch}"')
            # The description marks the copy complete (a build cut short leaves none).
            cursor.execute(f'COMMENT ON DATABASE "{cache}" IS %s', [json.dumps(dataclasses.asdict(built))])
        self.stdout.write(f"kept as the cache {cache} (drop it with DROP DATABASE)")

    def _copy_schema(self, source: str) -> None:
        """The scratch database as a copy of `source`, a database already migrated (a test run's
        migrated template: tests/migrated_template.py), so that the migrations are not applied again."""
        scratch = connection.settings_dict["TEST"]["NAME"]
        if connection.vendor == "sqlite":
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{scratch}{suffix}").unlink(missing_ok=True)
            with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(scratch)) as dst:
                src.backup(dst)
            return
        name, template = connection.ops.quote_name(scratch), connection.ops.quote_name(source)
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {name}")
            cursor.execute(f"CREATE DATABASE {name} TEMPLATE {template}")

    def _refuse_sites_copied(self, source: str | None) -> None:
        """A copied schema must come without sites: `--schema-from` copies the data with the schema,
        and every site copied would be scanned (and chunked, and floored) with the bench's."""
        if source and (copied := Site.objects.count()):
            raise CommandError(
                f"--schema-from: {source} holds {copied} site{'s' if copied != 1 else ''}, which would be scanned "
                "with the bench's; name a database migrated and empty (a test run's migrated template)."
            )

    def _scratch_name(self, name: str) -> str:
        if connection.vendor == "sqlite":
            return str(Path(settings.VAR_DIR) / "bench-compliance.sqlite3")
        return f"{name}_bench_compliance"

    def _analyze(self) -> None:
        """Statistics for the planner before timing, and on PostgreSQL the state autovacuum keeps
        a production database in (it may be off on a development server): rows loaded by COPY
        are not yet marked visible to all, so until a VACUUM every index lookup also reads the
        table's row, which a database that has been running for two years does not."""
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")

    def _checkpoint(self) -> None:
        """PostgreSQL: write out the copy just made before the clock starts. The copy goes
        through the write-ahead log (CREATE DATABASE's default strategy from PostgreSQL 15), and
        the checkpoint that log forces would otherwise write gigabytes during the timed scan
        (full scans of the same code varied from 30 s to 35 s with it)."""
        if connection.vendor != "postgresql":
            return
        try:
            with connection.cursor() as cursor:
                cursor.execute("CHECKPOINT")
        except DatabaseError as exc:  # CHECKPOINT needs a superuser or pg_checkpoint
            self.stdout.write(f"  (no CHECKPOINT before timing: {exc})")
        connection.close()

    def _prepare_copy(self) -> None:
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()

    def _copy_name(self, count: int) -> str:
        return connection.creation.get_test_db_clone_settings(f"w{count}")["NAME"]

    def _drop_copy(self, count: int) -> None:
        name = self._copy_name(count)
        if connection.vendor == "sqlite":
            for path in (Path(name), Path(f"{name}-wal"), Path(f"{name}-shm")):
                path.unlink(missing_ok=True)
        else:
            connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0, suffix=f"w{count}")

    def _database_url(self, name: str) -> str:
        if connection.vendor == "sqlite":
            return f"sqlite:///{name}"
        parts = urlsplit(settings.DATABASE_URL)
        return urlunsplit(parts._replace(path=f"/{name}"))

    # --- one worker count ---------------------------------------------------------------------

    def _timed(self, count: int, sites: int, quarters: int) -> None:
        connection.creation.clone_test_db(suffix=f"w{count}", verbosity=0, autoclobber=True, keepdb=False)
        copy = self._copy_name(count)
        scanned = connection.settings_dict["NAME"]
        connection.close()
        connection.settings_dict["NAME"] = copy
        self._checkpoint()
        queue = f"bench-compliance-{uuid.uuid4().hex[:8]}"
        previous_queue, app.conf.task_default_queue = app.conf.task_default_queue, queue
        workers = self._start_workers(count, copy, queue)
        try:
            self.workers = count
            chunks = organization_chunks(self.chunk_sites, count)
            speed_before = loop_seconds()
            cold = self._scan()
            mailed = self._notifications_sent(cold["opened"])
            warm = (
                self._scan()
                if not self.cold_only
                else {"wall": float("nan"), "already_open": 0, "opened": 0, "queries": 0}
            )
            alerts = Alert.objects.count()
            # The nightly jobs' scans (compliance.tasks.run_daily_checks, run_quarter_checks)
            # over every site, after the full scan (their alerts mostly already open, as on a
            # night that follows others).
            last_day = date.fromisoformat(self.spec["day_ranges"][-1][1])
            daily = self._scan({"quarters": [], "day_ranges": [(str(last_day - timedelta(days=6)), str(last_day))]})
            quarterly = self._scan({"quarters": self.spec["quarters"][-1:], "day_ranges": []})
            floor, tables = self._floor(count, chunks)
            speed_after = loop_seconds()
        finally:
            self._stop_workers(workers)
            app.conf.task_default_queue = previous_queue
            connection.close()
            connection.settings_dict["NAME"] = scanned
        site_quarters = sites * quarters
        label = f"{count} worker{'s' if count > 1 else ''}"
        self.stdout.write(
            f"full scan with {label}: {cold['wall']:.2f} s (cold: alerts opened {cold['opened']}); "
            f"warm {warm['wall']:.2f} s (rerun: {warm['already_open']} already open, "
            f"{warm['opened']} opened); {len(chunks)} chunks of ~{chunk_size(sites, self.chunk_sites, count)} sites; "
            f"the opened alerts' e-mails (queued below the rules' tasks: compliance.tasks.MAIL_PRIORITY) "
            f"all sent {mailed:.2f} s after the cold scan, {cold['wall'] + mailed:.2f} s after its start"
        )
        self.stdout.write(
            f"  queries: {cold['queries']} cold, {warm['queries']} warm; per site-quarter "
            f"{cold['queries'] / site_quarters:.2f} cold, {warm['queries'] / site_quarters:.2f} warm; "
            f"time per site-quarter {1000 * cold['wall'] / site_quarters:.1f} ms cold, "
            f"{1000 * warm['wall'] / site_quarters:.1f} ms warm; slowest chunk {cold['seconds']:.2f} s; "
            f"{alerts} alerts in the database"
        )
        self.stdout.write(
            f"  nightly jobs with {label}: daily rules (the last 7 days, every site) {daily['wall']:.2f} s, "
            f"{daily['queries']} queries; quarter rules of {self.spec['quarters'][-1]} {quarterly['wall']:.2f} s, "
            f"{quarterly['queries']} queries"
        )
        self.stdout.write(
            f"  floor with {label}: {floor:.2f} s to read and aggregate every row of the {len(tables)} tables "
            f"the scan reads, one statement a table for each worker's share; full scan over floor: "
            f"cold {cold['wall'] / floor:.2f}x" + (f", warm {warm['wall'] / floor:.2f}x" if not self.cold_only else "")
        )
        self.stdout.write(
            f"  machine: a fixed Python loop of {LOOP:,} additions took {speed_before:.2f} s before the "
            f"scans and {speed_after:.2f} s after (benchmarks.machine: compare runs with similar readings)"
        )
        self.ratio = floors.Ratio(cold["wall"], floor, TARGET)

    def _floor(self, count: int, chunks: list[list[int]]) -> tuple[float, list[str]]:
        """The tables the scan reads (the first chunk scanned here, rolled back), then the best of
        two floor passes over them with `count` processes."""
        try:
            with transaction.atomic(), CaptureQueriesContext(connection) as queries:
                scan_chunk(chunks[0], self.spec["quarters"], [list(r) for r in self.spec["day_ranges"]])
                raise _Rollback
        except _Rollback:
            pass
        tables = floors.tables_read([q["sql"] for q in queries.captured_queries])
        return min(floors.compliance_floor(tables, count, scan_settings) for _ in range(2)), tables

    def _notifications_sent(self, opened: int) -> float:
        """Each opened alert queues its e-mail (compliance.tasks.notify_alert): wait for the
        workers to send them all, so that the warm run does not share the workers with them."""
        from compliance.models import Notification

        started, deadline = time.perf_counter(), time.monotonic() + SCAN_TIMEOUT
        while Notification.objects.filter(kind=Notification.Kind.OPENED).count() < opened:
            if time.monotonic() > deadline:
                raise CommandError("the workers did not send the alerts' e-mails in time")
            time.sleep(0.2)
        return time.perf_counter() - started

    def _scan(self, spec: dict | None = None) -> dict:
        started = time.perf_counter()
        outcome = fan_out(
            chunk_sites=self.chunk_sites, workers=self.workers, in_process_if_one_chunk=False, **(spec or self.spec)
        )
        # Polled every 50 ms on the file result backend (Celery's default, 0.5 s, added up to half
        # a second to every scan's time; Redis answers without polling).
        result = outcome.get(timeout=SCAN_TIMEOUT, propagate=True, interval=RESULT_POLL_SECONDS)
        return {**result, "wall": time.perf_counter() - started}

    def _start_workers(self, count: int, database: str, queue: str) -> list[tuple[subprocess.Popen, Path]]:
        env = {
            **os.environ,
            "DATABASE_URL": self._database_url(database),
            "CELERY_QUEUE": queue,
            "VAR_DIR": str(settings.VAR_DIR),
            "CELERY_FS_ROOT": str(settings.CELERY_FS_ROOT),
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"),
        }
        workers = []
        for n in range(count):
            logfile = Path(settings.VAR_DIR) / f"{queue}-{n}.log"
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--concurrency",
                    "1",
                    "-Q",
                    queue,
                    "-n",
                    f"{queue}-{n}@%h",
                    "-l",
                    "info",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "-f",
                    str(logfile),
                ],
                cwd=settings.BASE_DIR,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            workers.append((process, logfile))
        deadline = time.monotonic() + WORKER_START_TIMEOUT
        for process, logfile in workers:
            while not (logfile.exists() and " ready." in logfile.read_text(errors="replace")):
                if process.poll() is not None or time.monotonic() > deadline:
                    self._stop_workers(workers)
                    raise CommandError(f"a Celery worker did not start; see {logfile}")
                time.sleep(0.2)
        return workers

    def _stop_workers(self, workers) -> None:
        for process, _ in workers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process, logfile in workers:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            logfile.unlink(missing_ok=True)
