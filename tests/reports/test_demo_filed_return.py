"""The demo's filed quarterly return reads every fact it states as the demo leaves them: `load_demo`
records a site's surveillance before it generates the return's report and files it. (The return
the demo filed for 2026Q3 said "Bismarck Elks Lodge does not require video surveillance on
2026-09-30" while the surveillance page said "Video surveillance required since 2026-04-11": the
report was made before the surveillance demo recorded the site's status.)"""

import io
from datetime import UTC, datetime

import pdfplumber
import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from accounting.models import QuarterFiling
from accounting.published import low_hold_review
from cardroom.models import Site
from core.periods import Quarter
from registry.models import ReceivedDocument
from reports.models import ReportFile
from statefiling.models import Submission
from surveillance.queries import surveillance_required

pytestmark = pytest.mark.django_db

THURSDAY_NOON = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)  # 12:00 in Chicago


def _words(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return " ".join(" ".join(page.extract_text() for page in document.pages).split())


def test_the_demos_filed_return_says_what_the_site_requires_of_surveillance(monkeypatch):
    """Each North Dakota site's filed return (its report as filed, and the state's copy of it)
    says whether the site requires video surveillance as the site's records say at the quarter's
    end; the busy site's does. Loaded without nights (the builders' order is what is judged)."""
    monkeypatch.setattr("floor.demo.demo_days", lambda *args, **kwargs: [])
    with time_machine.travel(THURSDAY_NOON, tick=True):
        call_command("load_demo", stdout=io.StringIO())
        quarter = Quarter.containing(timezone.localdate()).previous()
    sites = list(Site.objects.filter(jurisdiction="ND").order_by("pk"))
    assert sites and any(surveillance_required(site, quarter.end) for site in sites)
    for site in sites:
        filing = QuarterFiling.objects.get(site=site, quarter=str(quarter))
        [listed] = [r for r in Submission.objects.get(filing=filing, amendment__isnull=True).package["reports"]]
        ours = ReportFile.objects.get(pdf_sha256=listed["pdf_sha256"])
        states = ReceivedDocument.objects.get(filing__site_ref=site.pk, filing__quarter=str(quarter))
        sentence = low_hold_review(site, quarter.end)
        assert ("does not require" in sentence) != surveillance_required(site, quarter.end), sentence
        assert bytes(states.content) == bytes(ours.pdf)
        assert " ".join(sentence.split()) in _words(bytes(ours.pdf)), site.name
