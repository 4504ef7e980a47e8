"""The fill/credit slip register (ND 99-01.3-08-05(2)) read back against the slip-register API."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import io
from datetime import date, timedelta

import pdfplumber
import pytest

from core.money import format_money
from floor.models import SlipStep
from reports.kinds import slip_register
from tests.accounting.scenario import at
from tests.factories import TableFactory
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    context,
    csv_rows,
    download,
    pdf_tables,
    pdf_text,
    people,
    run_report,
    scenario,
)

DAY = date(2026, 8, 14)


@pytest.fixture
def slips(scenario, site, people):
    table = TableFactory(site=site, number=2)
    scenario.slip(table, DAY, "fill", 20_000, number=1)
    voided = scenario.slip(table, DAY, "fill", 99_900, number=2, void=True)
    scenario.slip(table, DAY, "fill", 30_000, number=4)  # 3 is missing
    scenario.slip(table, DAY, "fill", 12_500, number=6)
    scenario.slip(table, DAY + timedelta(days=1), "fill", 5_000, number=5)  # used after 6: out of order
    verified = scenario.slip(table, DAY, "credit", 7_500, number=1)
    SlipStep.objects.create(slip=verified, kind="verify", employee=people["shift"], initials="SM", at=at(DAY, 22))
    return voided


def _api_register(api, site, start, end):
    return api.get(f"/api/v1/sites/{site.pk}/slip-register/?start={start}&end={end}").json()


def test_the_register_lists_every_number_with_its_status_as_the_api_does(auditor_api, site, slips):
    end = DAY + timedelta(days=1)
    run = run_report(auditor_api, kind="slip_register", site=site.pk, start=str(DAY), end=str(end))
    content = download(auditor_api, run)
    grids = [g for g in pdf_tables(content) if g[0][0] == "Number"]
    api = _api_register(auditor_api, site, DAY, end)
    assert len(grids) == 2
    for grid, series in zip(grids, api["series"], strict=True):
        expected = [e for e in series["entries"] if e["status"] != "unused"]
        assert [int(row[0]) for row in grid[1:]] == [e["number"] for e in expected]
        for row, entry in zip(grid[1:], expected, strict=True):
            assert row[1].lower().startswith(entry["status"])
            assert ("(out of order)" in row[1]) == entry["out_of_order"]
            if entry["slip"]:
                assert row[3] == str(entry["slip"]["table_number"])
                assert row[4] == format_money(entry["slip"]["total_cents"])
    fills = api["series"][0]
    assert (fills["missing"], fills["out_of_order"]) == ([3], [5])
    text = " ".join(pdf_text(content).split())
    assert "5 numbers used, 1 voided. Missing: 3. Out of order: 5." in text
    assert grids[0][2][1] == "VOIDED" and grids[0][2][6] == "SM"
    assert grids[0][3][1] == "MISSING"
    assert grids[1][1][1] == "verified"


def test_the_register_csv_holds_the_same_numbers(auditor_api, site, slips):
    run = run_report(auditor_api, kind="slip_register", site=site.pk, start=str(DAY), end=str(DAY))
    rows = csv_rows(auditor_api, run)
    api = _api_register(auditor_api, site, DAY, DAY)
    assert rows[0] == slip_register.CSV_HEADER
    expected = [[s["kind"], str(e["number"]), e["status"]] for s in api["series"] for e in s["entries"]]
    assert [row[:3] for row in rows[1:]] == expected


def test_every_table_and_the_signatures_span_the_frame_as_the_page_header_rule_does(auditor_api, site, slips, scenario):
    """The fill slips' table ends at the page header rule's right end; the credit slips' table (the
    last, which goes on with the sign-off) and the signature table ended 6 points past it."""
    table = TableFactory(site=site, number=3)
    for number in range(2, 50):  # the credit slips run on to a second page
        scenario.slip(table, DAY, "credit", 1_000 + number, number=number)
    run = run_report(auditor_api, kind="slip_register", site=site.pk, start=str(DAY), end=str(DAY))
    with pdfplumber.open(io.BytesIO(download(auditor_api, run))) as pdf:
        for page in pdf.pages:
            rule = min((line for line in page.lines if line["x1"] - line["x0"] > 400), key=lambda line: line["top"])
            grids = page.find_tables()
            assert grids, page.page_number
            for grid in grids:
                x0, _, x1, _ = grid.bbox
                heading = grid.extract()[0][:2]
                assert abs(x0 - rule["x0"]) < 1 and abs(x1 - rule["x1"]) < 1, (page.page_number, heading, grid.bbox)


def test_building_the_register_takes_bounded_queries_however_many_slips(
    site, scenario, slips, django_assert_max_num_queries
):
    table = TableFactory(site=site, number=3)
    for n in range(40):
        scenario.slip(table, DAY + timedelta(days=2 + n % 20), "credit", 1_000, number=10 + n)
    for start, end in ((DAY, DAY), (DAY, DAY + timedelta(days=30))):
        with django_assert_max_num_queries(12):
            data = slip_register.build(context(site, start, end))
    assert len(data.series[1].lines) == 41 + 8  # 1, 10-49, and 2-9 missing
