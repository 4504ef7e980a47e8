"""Prepare fill and credit slips from many threads at once and check the numbering.

    python manage.py bench_slips --clients 16 --slips 2000

Each run creates its own scratch organization ("Slip benchmark <id>") with one site, a few
tables and one employee per client, so demo and real data are never touched. Slips are
append-only records, so the scratch data stays; it is marked by its organization's name.
"""

import multiprocessing
import threading
import time
import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.utils import timezone

from cardroom.models import ChipDenomination, Employee, Membership, Organization, Role, Site, Table
from cardroom.rules import CHIP_SPECS
from floor import services
from floor.calculations import business_date
from floor.models import Slip, SlipKind

TABLES = 6
LINES = [{"denomination": 2500, "quantity": 20}, {"denomination": 500, "quantity": 20}]
TRAY = [
    {"denomination": 2500, "quantity": 40},
    {"denomination": 500, "quantity": 160},
    {"denomination": 100, "quantity": 200},
]


class Command(BaseCommand):
    help = "Prepare slips concurrently on the configured database; print slips/s and whether numbering is gapless."

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument("--slips", type=int, default=2000)
        parser.add_argument(
            "--processes",
            type=int,
            default=2,
            help="worker processes sharing the clients, as a server runs several (default 2: one per core)",
        )

    def handle(self, *args, clients, slips, processes, **options):
        if clients < 1 or slips < clients or not 1 <= processes <= clients:
            raise CommandError("Give at least one client, as many slips as clients, and 1 to `clients` processes.")
        site, tables, people = self._scratch_floor(clients)
        per_client = [slips // clients + (1 if i < slips % clients else 0) for i in range(clients)]
        started = time.perf_counter()
        errors = self._run_processes(people, tables, per_client, processes)
        elapsed = time.perf_counter() - started
        gapless = all(self._gapless(site, kind) for kind in SlipKind.values)
        made = Slip.objects.filter(site=site).count()
        self.stdout.write(
            f"database: {connection.vendor}; clients: {clients} in {processes} process(es); site: {site} (id {site.pk})"
        )
        self.stdout.write(f"{made} slips in {elapsed:.2f} s: {made / elapsed:.0f} slips/s")
        self.stdout.write(f"numbering gapless and without reuse: {'yes' if gapless else 'NO'}; errors: {len(errors)}")
        for error in errors[:5]:
            self.stderr.write(repr(error))
        if errors or not gapless:
            raise CommandError("the benchmark found errors or a gap")

    def _scratch_floor(self, clients):
        tag = uuid.uuid4().hex[:8]
        org = Organization.objects.create(name=f"Slip benchmark {tag}")
        for value, spec in CHIP_SPECS.items():
            ChipDenomination.objects.create(
                organization=org, value_cents=value, primary_colour=spec.primary_colour, edge_spots=spec.edge_spots
            )
        site = Site.objects.create(organization=org, name="Benchmark site")
        tables = [
            Table.objects.create(site=site, number=n, min_wager_cents=100, max_wager_cents=2500)
            for n in range(1, TABLES + 1)
        ]
        boss = self._person(org, site, f"b{tag}", "B0", [Role.SHIFT_MANAGER])
        # Cashiers who are also pit bosses: they prepare fills (initialing as cashier) and credits
        # for any table (ND 99-01.3-08-05(3)); a dealer is seated at each table, whose initials
        # the credits carry (08-05(3)(c)).
        people = [
            self._person(org, site, f"c{tag}{i}", f"C{i:03d}"[:4], [Role.CASHIER, Role.PIT_BOSS])
            for i in range(clients)
        ]
        dealers = [self._person(org, site, f"d{tag}{n}", f"D{n:03d}"[:4], [Role.DEALER]) for n in range(len(tables))]
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

    def _run_processes(self, people, tables, per_client, processes):
        """Split the clients over forked worker processes (a server runs several); each runs
        its clients as threads. SQLite and PostgreSQL both see separate connections."""
        if processes == 1:
            return self._run(people, tables, per_client)
        context = multiprocessing.get_context("fork")
        results = context.Queue()
        connections.close_all()  # no connection may cross a fork

        def worker(part):
            errors = self._run([people[i] for i in part], tables, [per_client[i] for i in part])
            results.put([repr(e) for e in errors])

        parts = [list(range(n, len(people), processes)) for n in range(processes)]
        workers = [context.Process(target=worker, args=(part,)) for part in parts]
        for process in workers:
            process.start()
        errors = [error for _ in workers for error in results.get()]
        for process in workers:
            process.join()
        return errors

    def _run(self, people, tables, per_client):
        errors, barrier = [], threading.Barrier(len(people))

        def client(index, employee):
            try:
                user = get_user_model().objects.get(pk=employee.user_id)
                barrier.wait()
                for n in range(per_client[index]):
                    prepare = services.prepare_fill if n % 2 == 0 else services.prepare_credit
                    prepare(acting_user=user, table=tables[(index + n) % len(tables)], chips=LINES)
            except Exception as exc:  # noqa: BLE001 - counted and reported
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=client, args=(i, p)) for i, p in enumerate(people)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return errors

    def _gapless(self, site, kind) -> bool:
        numbers = list(Slip.objects.filter(site=site, kind=kind).order_by("number").values_list("number", flat=True))
        return numbers == list(range(1, len(numbers) + 1))
