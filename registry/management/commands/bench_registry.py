"""Benchmark the registry: a night of filings and anchor pushes from many sites, on top of
their history, then the registry's verification of every filing it holds.

Everything is written in one transaction that is rolled back at the end (scratch data on the
configured database). Each site is a licensee of its own with a credential; the history
(every quarter but the last) is received through the service, the night (the last quarter's
filing and one anchor per site) through the HTTP API in process (Django's test client: the
view, the credential check, the JSON parsing and the chain append, without the network).
"""

import os
import time
import uuid
from datetime import date

from django.db import transaction
from django.test import Client

from benchmarks.machine import LOOP, loop_seconds
from core import filing_package
from core.management.base import DatabaseCommand
from core.periods import Quarter
from core.plurals import plural
from registry import services
from registry.models import Agency, Licensee


def _package(site: int, quarter: Quarter) -> dict:
    days = [
        {"gaming_date": str(quarter.start.replace(day=d)), "agp_cents": 100_00 * d, "books_sha256": "e" * 64}
        for d in range(1, 29)
    ]
    figures = {"summary": {"site": site, "quarter": str(quarter), "total": {"agp_cents": 1_000_000}, "days": days}}
    return {
        "format": filing_package.FORMAT,
        "organization": {"name": f"Bench {site}", "licence_number": f"B-{site}"},
        "site": {"id": site, "name": f"Bench site {site}", "jurisdiction": "ND"},
        "quarter": str(quarter),
        "filed_at": "2026-10-05T15:00:00+00:00",
        "filed_by": "GM",
        "figures": figures,
        "figures_sha256": filing_package.digest(figures),
        "tax": {"organization_tax_cents": 10_000},
        "chain_head": {"chain": f"org-{site}", "seq": 1000, "hash": "a" * 64},
        "reports": [],
        "amends": None,
    }


class Rollback(Exception):
    pass


class Command(DatabaseCommand):
    help = "Time a night of filings and anchor pushes from many sites, and the registry's verification."

    def add_arguments(self, parser):
        parser.add_argument("--sites", type=int, default=1000)
        parser.add_argument("--quarters", type=int, default=8, help="quarters of history, the last filed tonight")

    def handle(self, *args, sites, quarters, **options):
        speed_before, load = loop_seconds(), os.getloadavg()[0]
        try:
            with transaction.atomic():
                self._run(sites, max(1, quarters))
                raise Rollback
        except Rollback:
            self.stdout.write("(scratch data rolled back)")
        self.stdout.write(
            f"machine: {LOOP:,} loop additions in {speed_before:.2f} s before and {loop_seconds():.2f} s after, "
            f"load average {load:.1f} at the start (benchmarks.machine: compare runs with similar readings)"
        )

    def _run(self, sites: int, quarters: int) -> None:
        agency = Agency.objects.create(name=f"Bench agency {uuid.uuid4().hex[:8]}", jurisdiction="ND")
        secrets = {}
        for site in range(1, sites + 1):
            licensee = Licensee.objects.create(
                agency=agency, name=f"Bench {site}", licence_number=f"B-{site}", expected_from=date(2024, 1, 1)
            )
            secrets[site] = services.issue_credential(acting_user=None, licensee=licensee)
        last = Quarter.containing(date(2026, 10, 1)).previous()
        history = [last]
        for _ in range(quarters - 1):
            history.insert(0, history[0].previous())
        started = time.perf_counter()
        for quarter in history[:-1]:
            for site, issued in secrets.items():
                services.receive_filing(
                    credential=issued.credential, idempotency_key=uuid.uuid4().hex, package=_package(site, quarter)
                )
        earlier = time.perf_counter() - started
        client = Client(HTTP_HOST="127.0.0.1")
        started = time.perf_counter()
        for site, issued in secrets.items():
            auth = {"HTTP_AUTHORIZATION": f"Licensee {issued.secret}"}
            filed = client.post(
                "/registry/api/v1/filings/",
                {"package": _package(site, last)},
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
                **auth,
            )
            head = {
                "chain": f"org-{site}",
                "seq": 1000 + site,
                "hash": f"{site:064x}",
                "head_at": "2026-11-28T09:20:00+00:00",
            }
            anchored = client.post(
                "/registry/api/v1/anchors/", {"anchors": [head]}, content_type="application/json", **auth
            )
            assert filed.status_code == 201 and anchored.status_code == 201, (filed.content, anchored.content)
        night = time.perf_counter() - started
        started = time.perf_counter()
        check = services.verify_filings(agency)
        verified = time.perf_counter() - started
        total = sites * quarters
        self.stdout.write(
            f"{sites} sites, {plural(quarters, 'quarter')}: history of {total - sites} filings received in {earlier:.1f} s "
            f"through the service ({(total - sites) / earlier if earlier else 0:.0f} receipts/s)"
        )
        self.stdout.write(
            f"the night over HTTP (in process): {sites} filings and {sites} anchor pushes in {night:.1f} s, "
            f"{sites / night:.1f} receipts/s with their anchors"
        )
        self.stdout.write(
            f"verify_filings: {check.filings} filings in {verified:.2f} s ({'OK' if check.ok else check.problem})"
        )
