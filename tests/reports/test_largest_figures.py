"""No money wraps in any cell of any report kind, at the largest figures the demo could show.

Each kind is built from a week of the demo, then every money figure of its data is scaled up
so that the largest reaches LARGEST_CENTS ($9,999,999.99: more than any quarter of the demo's
busiest site, $283,896.00 over two quarters) and drawn. Reading the PDF back, every money value
is one unbroken word ("$9,999,999.99", never "$9,999,999." over "99"), inside the page; the
sign-off block shares its last page with the end of the report. The count sheet and the slip
are checked the same way."""

import copy
import dataclasses
import io
import math

import pdfplumber
import pytest

from cardroom.models import Site
from core.pdf import Provenance, ReportDocument, TitleBlock
from reports.catalogue import load_kinds
from reports.registry import ReportContext
from tests.reports.test_pdf_render import REQUESTED_AT, check_pdf, money_fragments, run_for

# A week of the demo, built once for the module on one process (pytest.ini: --dist loadgroup).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reports-largest-figures")]

LARGEST_CENTS = 999_999_999
# Chip values and currency denominations are what they are (a $25 chip): only amounts grow.
NOT_AMOUNTS = ("value_cents", "denomination_cents", "denominations")


def _amounts(data, found: list[int]) -> None:
    _walk(data, lambda name, value: found.append(abs(value)) or value)


def scaled(data, factor: int):
    """A copy of `data` (frozen dataclasses, lists, tuples, dicts) with every `*_cents` integer
    multiplied by `factor`."""
    return _walk(data, lambda name, value: value * factor)


def _walk(value, change, name: str = ""):
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        result = copy.copy(value)
        for f in dataclasses.fields(value):
            object.__setattr__(result, f.name, _walk(getattr(value, f.name), change, f.name))
        return result
    if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
        return type(value)(_walk(item, change, name) for item in value)
    if isinstance(value, dict):
        return {key: _walk(item, change, name) for key, item in value.items()}
    if isinstance(value, int) and not isinstance(value, bool) and _is_amount(name):
        return change(name, value)
    return value


def _is_amount(name: str) -> bool:
    return name.endswith("_cents") and not name.endswith(NOT_AMOUNTS)


def at_largest(data):
    found: list[int] = []
    _amounts(data, found)
    largest = max(found, default=0)
    return scaled(data, max(1, math.ceil(LARGEST_CENTS / largest))) if largest else data


def signoff_not_alone(pdf: bytes) -> bool:
    """The last page holds more than the sign-off block and the page furniture."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        last = document.pages[-1].extract_text() or ""
    before = last.split("Prepared and reviewed")[0]
    return len([line for line in before.splitlines() if line.strip()]) > 3  # more than the page's header


@pytest.fixture
def gm(a_week_of_the_demo):
    return a_week_of_the_demo["people"]["gm"]


def test_no_report_kind_wraps_money_at_the_largest_figures(gm):
    sites = list(Site.objects.select_related("organization").order_by("pk"))
    drawn = []
    for code, kind in sorted(load_kinds().items()):
        site = next((s for s in sites if kind.applies_to(s)), None)
        if site is None:
            continue
        run = run_for(kind, site, gm.user)
        data = at_largest(kind.build(ReportContext(site.organization, site, run.start, run.end, "", run.end)))
        title = TitleBlock(site.organization.name, site.name, run.period_label, kind.title_at(site),
                           kind.rule_at(site), site.organization.licence_number, site.time_zone)  # fmt: skip
        provenance = Provenance(REQUESTED_AT, gm.name, "0" * 64, "", "", generated_by_initials=gm.initials)
        pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
        check_pdf(f"largest-{code}", pdf, landscape=kind.landscape, licence=site.organization.licence_number)
        assert signoff_not_alone(pdf), f"{code}: the sign-off block sits alone on the last page"
        drawn.append(code)
    assert {"quarterly", "daily", "count_sheets", "dealer_hold"} <= set(drawn)


def test_the_scaling_reaches_the_largest_figure():
    @dataclasses.dataclass(frozen=True)
    class Line:
        amount_cents: int
        value_cents: int

    data = at_largest([Line(12_345, 2500), Line(-100, 100)])
    assert data[0] == Line(LARGEST_CENTS // 12_345 * 12_345 + 12_345, 2500)
    assert data[1].amount_cents < 0 and data[1].value_cents == 100
    assert money_fragments([{"text": "$9,999,999."}, {"text": "99"}, {"text": "$1,000"}]) == ["$9,999,999."]


def test_the_count_sheet_and_the_slip_print_iso_dates_the_chain_head_and_who_prepared_them(gm, client):
    from django.urls import reverse

    from core.audit import chain_head
    from counts.models import CountSession
    from floor.models import Slip

    client.force_login(gm.user)
    session = CountSession.objects.filter(signatures__isnull=False).select_related("site").first()
    head = chain_head(session.site.organization_id)
    pdf = client.get(reverse("counts:sheet", args=[session.pk])).content
    text = " ".join(check_pdf("count-sheet", pdf, landscape=False, licence=session.site.organization.licence_number)
                    .split())  # fmt: skip
    assert f"#{head.seq} {head.hash}" in text
    team = f"{session.first_member} and {session.second_member}"
    assert f"Prepared by {team} {session.first_member.initials}, {session.second_member.initials}" in text
    assert gm.name not in text.split("Prepared by")[1].split("Reviewed by")[0]  # the downloader: in the footer only

    slip = Slip.objects.filter(steps__kind="receive").select_related("site", "gaming_day").first()
    pdf = client.get(reverse("floor:slip_pdf", args=[slip.pk])).content
    text = check_pdf("slip", pdf, landscape=False, signoff=False, licence=slip.site.organization.licence_number)
    assert f"Gaming day {slip.gaming_day.gaming_date:%Y-%m-%d}" in text
    assert "Audit chain head at generation:" in text and "/20" not in text  # no US-style dates
