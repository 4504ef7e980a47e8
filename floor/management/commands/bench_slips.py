"""Prepare fill and credit slips from many threads at once and check the numbering.

    python manage.py bench_slips --clients 16 --slips 2000 --sites 4

Each run creates its own scratch organizations ("Slip benchmark <id> #n"), `--sites` of
them with one site each, a few tables per site and one employee per client; the clients are
spread over the sites round-robin. Organizations share no lock (each has its own audit
chain; each site its own number series), so with four sites four clients never wait for
each other. Demo and real data are never touched. Slips are append-only records, so the
scratch data stays; it is marked by its organizations' names.

Printed: slips/s, whether every series (site and kind) is gapless and without reuse, the
queries one fill and one credit make (counted before the timed run), and where a slip's
time goes under load: waiting for the series' next number, for the chain's lock and head,
in other SQL, and the rest (Python, commits).
"""

import multiprocessing
import threading
import time
import uuid
from collections import Counter

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.models import ChipDenomination, Employee, Membership, Organization, Role, Site, Table
from core.management.base import DatabaseCommand
from floor import services
from floor.calculations import business_date
from floor.models import Slip, SlipKind
from packs.nd.chips import SPECS as CHIP_SPECS

TABLES = 6
LINES = [{"denomination": 2500, "quantity": 20}, {"denomination": 500, "quantity": 20}]
TRAY = [
    {"denomination": 2500, "quantity": 40},
    {"denomination": 500, "quantity": 160},
    {"denomination": 100, "quantity": 200},
]


class Command(DatabaseCommand):
    help = "Prepare slips concurrently on the configured database; print slips/s and whether numbering is gapless."

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument("--slips", type=int, default=2000)
        parser.add_argument(
            "--sites",
            type=int,
            default=1,
            help="organizations with one site each; clients are spread over them round-robin (default 1)",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=2,
            help="worker processes sharing the clients, as a server runs several (default 2: one per core)",
        )

    def handle(self, *args, clients, slips, sites, processes, **options):
        if clients < 1 or slips < clients or not 1 <= processes <= clients or not 1 <= sites <= clients:
            raise CommandError(
                "Give at least one client, as many slips as clients, 1 to `clients` sites and 1 to `clients` processes."
            )
        floors = [self._scratch_floor(clients, n, sites) for n in range(sites)]
        queries = self._count_queries(floors[0])
        people = [(floors[i % sites][2][i // sites], floors[i % sites][1]) for i in range(clients)]
        per_client = [slips // clients + (1 if i < slips % clients else 0) for i in range(clients)]
        before = Slip.objects.filter(site__in=[f[0] for f in floors]).count()
        started = time.perf_counter()
        errors, phases = self._run_processes(people, per_client, processes)
        elapsed = time.perf_counter() - started
        series = [(site, kind) for site, _, _ in floors for kind in SlipKind.values]
        broken = [f"{site.pk}/{kind}" for site, kind in series if not self._gapless(site, kind)]
        made = Slip.objects.filter(site__in=[f[0] for f in floors]).count() - before
        self.stdout.write(
            f"database: {connection.vendor}; clients: {clients} in {processes} process(es); "
            f"sites: {sites} (one per organization, ids {', '.join(str(f[0].pk) for f in floors)})"
        )
        self.stdout.write(f"{made} slips in {elapsed:.2f} s: {made / elapsed:.0f} slips/s")
        self.stdout.write(
            f"queries per slip: fill {queries['fill']}, credit {queries['credit']} "
            f"(mean {(queries['fill'] + queries['credit']) / 2:.1f})"
        )
        if made:
            self.stdout.write(self._phases_line(phases, made))
        self.stdout.write(
            f"numbering gapless and without reuse: {'NO (' + ', '.join(broken) + ')' if broken else 'yes'} "
            f"({len(series)} series); errors: {len(errors)}"
        )
        for error in errors[:5]:
            self.stderr.write(repr(error))
        if errors or broken:
            raise CommandError("the benchmark found errors or a gap")

    def _phases_line(self, phases: Counter, made: int) -> str:
        def ms(seconds):
            return f"{seconds * 1000 / made:.1f} ms"

        other = phases["slip"] - phases["number"] - phases["chain"] - phases["sql"]
        return (
            f"per slip (mean, under load): {ms(phases['slip'])}, of which the statement drawing the next number "
            f"(waiting for the series; on PostgreSQL it also takes the chain lock) {ms(phases['number'])}, "
            f"chain lock and head elsewhere (waiting for the organization) {ms(phases['chain'])}, "
            f"other SQL {ms(phases['sql'])}, Python and commit {ms(other)}"
        )

    def _count_queries(self, floor) -> dict[str, int]:
        """The queries of one fill and one credit, on the first site before the timed run (a
        warm-up: the series' rows exist by then, as on any day but a site's first)."""
        _, tables, people = floor
        user = get_user_model().objects.get(pk=people[0].user_id)
        counted = {}
        for _ in range(2):
            for kind, prepare in (("fill", services.prepare_fill), ("credit", services.prepare_credit)):
                with CaptureQueriesContext(connection) as queries:
                    prepare(acting_user=user, table=tables[0], chips=LINES)
                counted[kind] = len(queries.captured_queries)
        return counted

    def _scratch_floor(self, clients, n, sites):
        tag = uuid.uuid4().hex[:8]
        org = Organization.objects.create(name=f"Slip benchmark {tag} #{n + 1}")
        for value, spec in CHIP_SPECS.items():
            ChipDenomination.objects.create(
                organization=org, value_cents=value, primary_colour=spec.primary_colour, edge_spots=spec.edge_spots
            )
        site = Site.objects.create(organization=org, name=f"Benchmark site {n + 1}")
        tables = [
            Table.objects.create(site=site, number=t, min_wager_cents=100, max_wager_cents=2500)
            for t in range(1, TABLES + 1)
        ]
        boss = self._person(org, site, f"b{tag}", "B0", [Role.SHIFT_MANAGER])
        # Cashiers who are also pit bosses: they prepare fills (initialing as cashier) and credits
        # for any table (ND 99-01.3-08-05(3)); a dealer is seated at each table, whose initials
        # the credits carry (08-05(3)(c)).
        people = [
            self._person(org, site, f"c{tag}{i}", f"C{i:03d}"[:4], [Role.CASHIER, Role.PIT_BOSS])
            for i in range(n, clients, sites)
        ]
        dealers = [self._person(org, site, f"d{tag}{t}", f"D{t:03d}"[:4], [Role.DEALER]) for t in range(len(tables))]
        today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
        services.open_gaming_day(acting_user=boss.user, site=site, gaming_date=today)
        for table, dealer in zip(tables, dealers, strict=True):
            services.record_table_inventory(acting_user=boss.user, table=table, kind="opener", chips=TRAY)
            services.start_dealer_shift(acting_user=boss.user, table=table, dealer=dealer)
        return site, tables, people

    def _person(self, org, site, username, initials, roles) -> Employee:
        user = get_user_model().objects.create(username=username)
        employee = Employee.objects.create(organization=org, user=user, initials=initials)
        for role in roles:
            Membership.objects.create(employee=employee, site=site, role=role)
        return employee

    def _run_processes(self, people, per_client, processes):
        """Split the clients over forked worker processes (a server runs several); each runs
        its clients as threads. SQLite and PostgreSQL both see separate connections."""
        if processes == 1:
            return self._run(people, per_client)
        context = multiprocessing.get_context("fork")
        results = context.Queue()
        connections.close_all()  # no connection may cross a fork

        def worker(part):
            errors, phases = self._run([people[i] for i in part], [per_client[i] for i in part])
            results.put(([repr(e) for e in errors], dict(phases)))

        parts = [list(range(n, len(people), processes)) for n in range(processes)]
        workers = [context.Process(target=worker, args=(part,)) for part in parts]
        for process in workers:
            process.start()
        errors, phases = [], Counter()
        for _ in workers:
            worker_errors, worker_phases = results.get()
            errors += worker_errors
            phases.update(worker_phases)
        for process in workers:
            process.join()
        return errors, phases

    def _run(self, people, per_client):
        errors, barrier, lock, phases = [], threading.Barrier(len(people)), threading.Lock(), Counter()

        def client(index, employee, tables):
            mine = Counter()

            def timed(execute, sql, params, many, context):
                started = time.perf_counter()
                try:
                    return execute(sql, params, many, context)
                finally:
                    phase = (
                        "number" if "sequences_sequence" in sql else "chain" if "advisory_xact_lock" in sql else "sql"
                    )
                    mine[phase] += time.perf_counter() - started

            try:
                user = get_user_model().objects.get(pk=employee.user_id)
                barrier.wait()
                with connection.execute_wrapper(timed):
                    for n in range(per_client[index]):
                        prepare = services.prepare_fill if n % 2 == 0 else services.prepare_credit
                        started = time.perf_counter()
                        prepare(acting_user=user, table=tables[(index + n) % len(tables)], chips=LINES)
                        mine["slip"] += time.perf_counter() - started
            except Exception as exc:  # noqa: BLE001 - counted and reported
                errors.append(exc)
            finally:
                connection.close()
                with lock:
                    phases.update(mine)

        threads = [threading.Thread(target=client, args=(i, p, t)) for i, (p, t) in enumerate(people)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return errors, phases

    def _gapless(self, site, kind) -> bool:
        numbers = list(Slip.objects.filter(site=site, kind=kind).order_by("number").values_list("number", flat=True))
        return numbers == list(range(1, len(numbers) + 1))
