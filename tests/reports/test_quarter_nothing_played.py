"""A seasonal site's quarter out of its season (the ND demo's Medora Summer Hall plays July to
September): no gaming day was opened, nothing was played, so no bank count is missing. Its quarter
says so, and its cash profit and long (short) are $0.00, never "not known (no bank count)", on the
page, in the PDF and the CSV, and on the return's line; a quarter whose play went without a bank
count still says "not known"."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import csv
import io
from datetime import date

import pytest

from accounting.summaries import organization_tax, quarter_summary
from cardroom.models import Role
from core.money import format_money
from core.periods import Quarter
from reports.kinds import quarterly
from tests.accounting.books_days import on, tournament_day
from tests.factories import SiteFactory
from tests.page_support import at_site
from tests.reports.test_kind_daily import auditor_api, download, pdf_text, run_report  # noqa: F401

pytestmark = pytest.mark.django_db

OUT_OF_SEASON = Quarter(2026, 1)


@pytest.fixture
def summer_hall(org):
    return SiteFactory(organization=org, name="Medora Summer Hall", seasonal=True)


def test_a_quarter_with_nothing_played_reads_zero_not_not_known(summer_hall):
    summary = quarter_summary(summer_hall, OUT_OF_SEASON)
    assert summary.days == () and summary.nothing_played
    line = next(
        row for row in organization_tax(summer_hall.organization, OUT_OF_SEASON).sites if row[0] == summer_hall.name
    )
    assert line[4] == 0  # the return's cash profit: nothing was played


def test_the_quarter_page_says_nothing_was_played(client, cast, summer_hall):
    html = at_site(client, cast[Role.GAMING_MANAGER], summer_hall).get(
        f"/dashboard/quarter/?site={summer_hall.pk}&quarter={OUT_OF_SEASON}"
    )
    text = html.content.decode()
    said = text.split('id="net-cash">', 1)[1].split("</p>", 1)[0]
    assert "not known" not in said and format_money(0) in said
    assert "nothing was played" in said and "seasonal site" in said
    assert f'id="cash-profit">{format_money(0)}<' in text and f'id="long-short">{format_money(0)}<' in text


def test_the_quarterly_report_says_nothing_was_played(auditor_api, summer_hall):
    with on(summer_hall, date(2026, 5, 20)):
        run = run_report(auditor_api, kind="quarterly", site=summer_hall.pk, quarter=str(OUT_OF_SEASON))
        text = " ".join(pdf_text(download(auditor_api, run)).split())
        header, *rows = csv.reader(io.StringIO(download(auditor_api, run, "csv").decode()))
    assert "not known (no bank count)" not in text and "nothing was played" in text
    assert f"Net cash long (short) for the quarter: {format_money(0)}." in text
    names = [column.name for column in quarterly.COLUMNS if column.name != "count"]
    cash = [dict(zip(names, row, strict=True)) for row in rows if row[0] == "cash"]
    profit = next(r for r in cash if r["label"].startswith("Cash profit"))
    assert profit["amount"] == "0.00"
    assert any("nothing was played" in r["note"] for r in cash)


def test_play_without_a_bank_count_is_still_not_known(cast, client, site):
    tournament_day(cast, site, date(2026, 2, 14))  # a tournament, no gaming day, no bank count
    summary = quarter_summary(site, OUT_OF_SEASON)
    assert not summary.nothing_played and summary.cash_profit_cents is None
    html = at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/quarter/?quarter={OUT_OF_SEASON}")
    assert "not known" in html.content.decode().split('id="net-cash">', 1)[1].split("</p>", 1)[0]


def test_the_quarter_api_gives_the_pages_cash_where_nothing_was_played(client_for, cast, summer_hall):
    """The API's quarter is the page's and the report's: $0.00 cash where nothing was played, not
    null ("not known", as if a bank count were missing), as the return's line in the tax API."""
    api = client_for(cast[Role.AUDITOR])
    quarter = api.get(f"/api/v1/sites/{summer_hall.pk}/quarter-summary/?quarter={OUT_OF_SEASON}").json()
    cash = ("cash_profit_cents", "long_short_cents", "chips_outside_change_cents", "unexplained_cents")
    assert {name: quarter[name] for name in cash} == dict.fromkeys(cash, 0)
    tax = api.get(f"/api/v1/organizations/{summer_hall.organization_id}/tax/?quarter={OUT_OF_SEASON}").json()
    line = next(row for row in tax["sites"] if row["site"] == summer_hall.name)
    assert line["cash_profit_cents"] == quarter["cash_profit_cents"] == 0


def test_a_site_made_seasonal_since_is_not_said_to_have_been_out_of_its_season_then(client, cast, site, auditor_api):
    """A quarter with nothing played is said "out of its season" only of a site seasonal then: a
    site made seasonal after the quarter (cardroom.services.update_site) was not out of a season it
    did not have, on the page or in the report."""
    from cardroom.services import update_site

    update_site(acting_user=cast[Role.GAMING_MANAGER].user, site=site, seasonal=True)
    html = at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/quarter/?quarter={OUT_OF_SEASON}")
    said = html.content.decode().split('id="net-cash">', 1)[1].split("</p>", 1)[0]
    assert "nothing was played" in said and "seasonal" not in said
    with on(site, date(2026, 5, 20)):
        run = run_report(auditor_api, kind="quarterly", site=site.pk, quarter=str(OUT_OF_SEASON))
        text = " ".join(pdf_text(download(auditor_api, run)).split())
    assert "nothing was played" in text and "seasonal" not in text
