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

Then its floor (issue 37), timed in the same run by the same clients on the same database: the
same number of numbered rows, each with its chain event, inserted by plain SQL (a per-series
number under a lock, a chain head per organization, one transaction a row; no Django model or
service; `benchmarks.floors`), checked gapless too. The product and the floor are timed in
turns, `--rounds` times (3 by default: product, floor, product, floor, ...), each round
`--slips` slips and as many rows, so a machine whose speed drifts during the run moves both
sides of a round alike; each round's ratio is printed. The last lines are the machine reading
and `ratio to floor: X (target 2)`, the median round's product time a slip over its floor's.
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

from benchmarks import floors
from cardroom.models import ChipDenomination, Employee, Membership, Organization, Role, Site, Table
from core.management.base import DatabaseCommand
from floor import services
from floor.calculations import site_today
from floor.models import Slip, SlipKind
from packs.nd.chips import SPECS as CHIP_SPECS

TABLES = 6
TARGET = 2  # the product's time a slip within twice its floor's (issue 37)
LINES = [{"denomination": 2500, "quantity": 20}, {"denomination": 500, "quantity": 20}]
FLOOR_AMOUNT = sum(line["denomination"] * line["quantity"] for line in LINES)
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
            "--rounds",
            type=int,
            default=3,
            help="product and floor timed in turns this many times, each round --slips slips (default 3)",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=2,
            help="worker processes sharing the clients, as a server runs several (default 2: one per core)",
        )

    def handle(self, *args, clients, slips, sites, processes, rounds, **options):
        if clients < 1 or slips < clients or not 1 <= processes <= clients or not 1 <= sites <= clients:
            raise CommandError(
                "Give at least one client, as many slips as clients, 1 to `clients` sites and 1 to `clients` processes."
            )
        if not 1 <= rounds <= 20:
            raise CommandError("--rounds must be 1-20.")
        floors_ = [self._scratch_floor(clients, n, sites) for n in range(sites)]
        queries = self._count_queries(floors_[0])
        people = [(floors_[i % sites][2][i // sites], floors_[i % sites][1]) for i in range(clients)]
        per_client = [slips // clients + (1 if i < slips % clients else 0) for i in range(clients)]
        scratch_sites = [f[0] for f in floors_]
        before = Slip.objects.filter(site__in=scratch_sites).count()
        machine = floors.Machine().start()
        timed, errors, phases, cpus, self.floor_cpus = [], [], Counter(), [], []
        floors.create_slip_floor()
        try:
            floors.seed_slip_floor(
                [(site.organization_id, site.pk, kind) for site, _, _ in floors_ for kind in SlipKind.values]
            )
            for _ in range(rounds):
                made_before = Slip.objects.filter(site__in=scratch_sites).count()
                cpu = floors.CpuSplit().start()
                started = time.perf_counter()
                round_errors, round_phases = self._run_processes(people, per_client, processes)
                elapsed = time.perf_counter() - started
                cpus.append(cpu.stop())
                errors += round_errors
                phases.update(round_phases)
                made = Slip.objects.filter(site__in=scratch_sites).count() - made_before
                if errors:
                    break
                floor_elapsed, floor_made = self._floor(people, per_client, processes)
                timed.append((elapsed, made, floor_elapsed, floor_made))
            floor_gapless = floors.slip_floor_gapless()
        finally:
            floors.drop_slip_floor()
        machine.stop()
        series = [(site, kind) for site, _, _ in floors_ for kind in SlipKind.values]
        broken = [f"{site.pk}/{kind}" for site, kind in series if not self._gapless(site, kind)]
        made = Slip.objects.filter(site__in=scratch_sites).count() - before
        elapsed = sum(t[0] for t in timed)
        self.stdout.write(
            f"database: {connection.vendor}; clients: {clients} in {processes} process(es); "
            f"sites: {sites} (one per organization, ids {', '.join(str(site.pk) for site in scratch_sites)})"
        )
        if elapsed:
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
        floor_elapsed, floor_made = sum(t[2] for t in timed), sum(t[3] for t in timed)
        self.stdout.write(
            f"floor (plain SQL: a numbered row and its chain event a transaction, the same clients): {floor_made} rows "
            f"in {floor_elapsed:.2f} s: {floor_made / floor_elapsed:.0f} rows/s; gapless: "
            f"{'yes' if floor_gapless else 'NO'}"
        )
        self._cpu_lines(cpus[: len(timed)], sum(t[1] for t in timed), floor_made)
        ratios = [floors.Ratio(e / m, fe / fm, TARGET) for e, m, fe, fm in timed]
        for n, each in enumerate(ratios, 1):
            self.stdout.write(
                f"round {n}: product {each.product * 1000:.1f} ms a slip, floor {each.floor * 1000:.1f} ms, "
                f"ratio {each.value:.2f}"
            )
        self.stdout.write(machine.line())
        ratio = sorted(ratios, key=lambda each: each.value)[(len(ratios) - 1) // 2]
        self.stdout.write(
            f"time a slip: product {ratio.product * 1000:.1f} ms, floor {ratio.floor * 1000:.1f} ms (mean under load, "
            f"the median round of {len(ratios)})"
        )
        self.stdout.write(ratio.line())
        if not floor_gapless:
            raise CommandError("the floor's numbering has a gap: the floor itself is wrong")

    def _floor(self, people, per_client, processes) -> tuple[float, int]:
        """One round of the floor: the same clients insert the same number of numbered rows, each
        with its chain event, by plain SQL (benchmarks.floors), into the scratch tables."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM bench_floor_row")
            (before,) = cursor.fetchone()
        cpu = floors.CpuSplit().start()
        started = time.perf_counter()
        errors, _ = self._run_processes(people, per_client, processes, floor=True)
        elapsed = time.perf_counter() - started
        self.floor_cpus.append(cpu.stop())
        if errors:
            raise CommandError(f"the floor failed: {errors[0]!r}")
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM bench_floor_row")
            (made,) = cursor.fetchone()
        return elapsed, made - before

    def _cpu_lines(self, cpus: list, made: int, floor_made: int) -> None:
        """Where the CPU went, the timed rounds summed: the clients' (this process and its worker
        processes) and the database server's on this machine, a slip and a floor row."""
        for label, splits, count in (("product", cpus, made), ("floor", self.floor_cpus, floor_made)):
            servers = [split.server for split in splits]
            server = None if None in servers else sum(servers)
            clients = sum(split.clients for split in splits)
            self.stdout.write(floors.cpu_line(label, clients, server, count, "slip" if label == "product" else "row"))

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
                organization=org,
                value_cents=value,
                primary_colour=spec.primary_colour,
                edge_spots=spec.edge_spots,
                marking=org.name,
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
        today = site_today(site)
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

    def _run_processes(self, people, per_client, processes, floor=False):
        """Split the clients over forked worker processes (a server runs several); each runs
        its clients as threads. SQLite and PostgreSQL both see separate connections."""
        if processes == 1:
            return self._run(people, per_client, floor)
        context = multiprocessing.get_context("fork")
        results = context.Queue()
        connections.close_all()  # no connection may cross a fork

        def worker(part):
            errors, phases = self._run([people[i] for i in part], [per_client[i] for i in part], floor)
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

    def _run(self, people, per_client, floor=False):
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
                if floor:
                    barrier.wait()
                    site = tables[0].site
                    for n in range(per_client[index]):
                        kind = SlipKind.values[n % 2]
                        floors.floor_slip(site.organization_id, site.pk, kind, FLOOR_AMOUNT)
                    return
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
