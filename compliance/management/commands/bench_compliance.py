"""`python manage.py bench_compliance --sites 50 --quarters 8`: a full compliance scan over
scratch data (rolled back at the end), with its time and number of SQL queries, and the
same scan over half the sites to show the number of queries does not grow with them."""

import time
from collections import Counter

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from benchmarks.compliance_data import build
from cardroom.periods import Quarter
from compliance.engine import DAY_PROVIDERS, QUARTER_PROVIDERS, _load_providers, sites_for
from compliance.models import SlipSeriesCheckpoint
from compliance.thresholds import ThresholdBook, ensure_seeded


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time a full compliance scan over many sites and quarters; print queries per scan."

    def add_arguments(self, parser):
        parser.add_argument("--sites", type=int, default=50)
        parser.add_argument("--quarters", type=int, default=8)
        parser.add_argument("--last-quarter", default="2026Q3")

    def handle(self, *args, sites, quarters, last_quarter, **options):
        _load_providers()
        ensure_seeded()
        try:
            with transaction.atomic():
                built = build(sites=sites, quarters=quarters, last=Quarter.parse(last_quarter))
                self._report(built, quarters, Quarter.parse(last_quarter))
                raise Rollback
        except Rollback:
            self.stdout.write("Scratch data rolled back.")

    def _scan(self, sites, quarter_list):
        SlipSeriesCheckpoint.objects.all().delete()  # each scan reads the slips from the start (compliance.slip_series)
        started, rules = time.perf_counter(), Counter()
        with CaptureQueriesContext(connection) as captured:
            for quarter in quarter_list:
                book = ThresholdBook(quarter.end)
                for provider in QUARTER_PROVIDERS:
                    rules.update(f.rule for f in provider(sites_for(provider, sites), quarter, book))
                for provider in DAY_PROVIDERS:
                    rules.update(f.rule for f in provider(sites_for(provider, sites), quarter.start, quarter.end, book))
        return time.perf_counter() - started, len(captured), rules

    def _report(self, sites, quarters, last):
        quarter_list = [last]
        while len(quarter_list) < quarters:
            quarter_list.insert(0, quarter_list[0].previous())
        providers = len(QUARTER_PROVIDERS) + len(DAY_PROVIDERS)
        seconds, queries, findings = self._scan(sites, quarter_list)
        half_seconds, half_queries, _ = self._scan(sites[: max(1, len(sites) // 2)], quarter_list)
        self.stdout.write(f"database: {connection.vendor}; {len(sites)} sites x {quarters} quarters; {providers} rule providers")
        self.stdout.write(f"full scan: {seconds:.2f} s, {queries} SQL queries, {sum(findings.values())} findings "
                          f"({', '.join(f'{rule}: {n}' for rule, n in sorted(findings.items()))})")
        self.stdout.write(f"half the sites: {half_seconds:.2f} s, {half_queries} SQL queries")
        self.stdout.write(f"queries per quarter scanned: {queries / quarters:.1f}; "
                          f"{'constant' if queries == half_queries else 'GROWS'} with the number of sites")
