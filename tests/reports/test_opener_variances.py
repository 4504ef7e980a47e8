"""An opener that differs from its table's last closer is a variance to explain (docs/domain.md,
House control): recorded with its reason through the API, it is shown where an auditor reads the
day: the daily page beside its tables, the daily report's day section and the table's CSV row."""

from datetime import timedelta

import pytest

from cardroom.models import Role
from tests.floor.conftest import TRAY, in_day, today
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import csv_rows, download, pdf_tables, pdf_text, run_report

pytestmark = pytest.mark.django_db

REASON = "Recount at opening: one green chip found under the tray"


def _yesterday_with_tray(client, site, table, day) -> dict:
    """The gaming day before `day` opened, `table` opened and closed with TRAY, each at a time of
    that day (a day over is entered with the time on its paper, core.moments)."""
    before = day - timedelta(days=1)
    opened = {"site": site.pk, "gaming_date": str(before), "opened_at": in_day(site, before, 1).isoformat()}
    yesterday = _post(client, "/api/v1/gaming-days/", opened)
    for kind, hours in (("opener", 2), ("closer", 12)):
        body = {"table": table.pk, "kind": kind, "chips": TRAY, "counted_at": in_day(site, before, hours).isoformat()}
        _post(client, "/api/v1/table-inventories/", body)
    return yesterday


def _post(client, url, data):
    response = client.post(url, data, format="json")
    assert response.status_code in (200, 201), response.json()
    return response.json()


@pytest.fixture
def opened_short(client_for, cast, site, table, chips):
    """Yesterday the table closed at $2,000.00; today it opened at $1,975.00 (a green chip short), the reason given."""
    client = client_for(cast[Role.SHIFT_MANAGER])
    day = today(site)
    yesterday = _yesterday_with_tray(client, site, table, day)
    _post(client, f"/api/v1/gaming-days/{yesterday['id']}/close/", {})
    _post(client, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(day)})
    short = [{"denomination": 2500, "quantity": 39}, *TRAY[1:]]
    opener = {"table": table.pk, "kind": "opener", "chips": short, "variance_reason": REASON}
    assert _post(client, "/api/v1/table-inventories/", opener)["variance_cents"] == -2500
    return day


def statement(day) -> str:
    return f"Opener $1,975.00 is $25.00 under the last closer $2,000.00 ({day - timedelta(days=1)}): {REASON}"


def test_the_daily_page_shows_the_openers_difference_and_its_reason(client, cast, site, opened_short):
    shown = page(at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/daily/?date={opened_short}"))
    assert "Openers that differ from the table's last count" in shown
    assert f'<li data-table="1">Table 1: {statement(opened_short)}</li>' in shown


def test_the_daily_report_shows_it_in_the_days_section_and_on_the_tables_csv_row(client_for, cast, site, opened_short):
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="daily", site=site.pk, start=str(opened_short), end=str(opened_short))
    content = download(api, run)
    text = " ".join(pdf_text(content).split())
    assert "Openers that differ from the table's last count (1): a difference is a variance to explain" in text
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Table" and len(g[0]) == 2)
    assert grid[1] == ["Table 1", statement(opened_short)]
    header, *rows = csv_rows(api, run)
    row = next(r for r in rows if r[1] == "1")
    assert row[header.index("Figure")] == statement(opened_short) and row[header.index("Amount")] == "-25.00"


def test_an_opener_equal_to_the_last_closer_shows_no_difference(client, client_for, cast, site, table, chips):
    client_api = client_for(cast[Role.SHIFT_MANAGER])
    day = today(site)
    yesterday = _yesterday_with_tray(client_api, site, table, day)
    _post(client_api, f"/api/v1/gaming-days/{yesterday['id']}/close/", {})
    _post(client_api, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(day)})
    _post(client_api, "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": TRAY})
    shown = page(at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/daily/?date={day}"))
    assert "opener-variances" not in shown
    api = client_for(cast[Role.AUDITOR])
    text = pdf_text(download(api, run_report(api, kind="daily", site=site.pk, start=str(day), end=str(day))))
    assert "Openers that differ" not in text
