"""A quarter's return is due at the registry on the last day of the month after the quarter
(ND's `return_due_months`, assumed: our texts name no due date): received that day in Bismarck it
is on time, the day after it is late, at the end of each of the four quarters (months of 30 and
31 days alike; before, "30 days after the quarter" made three of them due a day early)."""

from datetime import UTC, date, datetime, timedelta
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from openpyxl import load_workbook

from core import filing_package
from core.periods import Quarter
from registry.models import Agency

from .test_registry_api import LICENSEES, _licensee, licensee_client, package, post_filing, regulator_client
from .test_registry_time_zone import page_client

BISMARCK = ZoneInfo("America/Chicago")
DUE = {
    "2026Q1": date(2026, 4, 30),
    "2026Q2": date(2026, 7, 31),
    "2026Q3": date(2026, 10, 31),
    "2026Q4": date(2027, 1, 31),
}


@pytest.mark.parametrize(("quarter", "due"), DUE.items())
def test_the_due_day_is_the_last_day_of_the_month_after_the_quarter(quarter, due):
    assert Quarter.parse(quarter).month_end_after(1) == due


@pytest.mark.parametrize("quarter", DUE)
@pytest.mark.parametrize(("days_after_due", "state"), [(0, "on time"), (1, "late")])
def test_a_return_received_on_its_due_day_is_on_time_and_the_day_after_late(db, quarter, days_after_due, state):
    agency = Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
    _row, issued = _licensee(agency, "Elks", "G-1")
    received = datetime.combine(DUE[quarter] + timedelta(days=days_after_due), datetime.min.time(), BISMARCK)
    with time_machine.travel(received.replace(hour=23, minute=30), tick=False):
        assert post_filing(licensee_client(issued), package(site_id=1, quarter=quarter)).status_code == 201
    with time_machine.travel(datetime(2027, 3, 1, 18, tzinfo=UTC), tick=False):
        body = regulator_client(agency).get(LICENSEES).json()["results"][0]
        client = page_client(agency, "state-page")
        html = client.get("/registry/").content.decode()
        quarter_page = client.get("/registry/quarter/", {"quarter": quarter}).content.decode()
    assert [q["quarter"] for q in body["late"]] == ([quarter] if state == "late" else [])
    assert quarter not in [q["quarter"] for q in body["missing"]]
    late_cell = html[html.index('data-label="Late"') : html.index('data-label="Missing"')]
    assert (f"Elks Lodge {quarter} (due {DUE[quarter]}" in late_cell) == (state == "late")
    assert f"(due {DUE[quarter]})" in quarter_page
    lead = html[html.index('id="licensees-lead">') : html.index("</p>", html.index('id="licensees-lead">'))]
    assert "A return is late when received after its due date, and missing when due and not received" in lead


def test_a_new_york_quarter_has_no_due_day_on_its_page_or_in_its_downloads(db):
    """New York's texts set no day a return is due (`return_due_months` None): its quarter page said
    so above a "Due" column, and its CSV and XLSX carried `due_on` and `timeliness`. Now neither
    the page nor a download has them; North Dakota's keep them (above)."""
    agency = Agency.objects.create(name="New York State Gaming Commission - games of chance", jurisdiction="NY")
    _row, issued = _licensee(agency, "Kingston Fire Hall Association", "NY-GC-4620")
    body = package(site_id=7, jurisdiction="NY", licence="NY-GC-4620", name="Kingston Fire Hall Association")
    sessions = {"sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000}
    figures = {"summary": {"site": 7, "quarter": "2026Q3", "pack": {"sessions": sessions}, "cash_profit_cents": 0}}
    body = {**body, "figures": figures, "figures_sha256": filing_package.digest(figures), "tax": None}
    assert post_filing(licensee_client(issued), body).status_code == 201
    client = page_client(agency, "nystate")
    html = client.get("/registry/quarter/", {"quarter": "2026Q3"}).content.decode()
    assert "rules set no day a return is due" in " ".join(html.split())
    table = html[html.index('id="quarter-rows"') :]
    assert "NY-2026-000001" in table and "<th>Due</th>" not in table and 'class="due"' not in table
    assert "on time" not in table and "late" not in table
    csv_header = client.get("/registry/quarter/", {"quarter": "2026Q3", "format": "csv"}).content.decode()
    assert "received_at" in csv_header.splitlines()[0]
    assert "due_on" not in csv_header and "timeliness" not in csv_header
    workbook = client.get("/registry/quarter/", {"quarter": "2026Q3", "format": "xlsx"}).content
    header = [c.value for c in next(load_workbook(BytesIO(workbook)).active.iter_rows(max_row=1))]
    assert "received_at" in header and "due_on" not in header and "timeliness" not in header
