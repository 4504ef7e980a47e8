"""The quarterly summary's count of gaming days, on the page, in the PDF and in the CSV, for a
quarter with one gaming day opened and one date with only a tournament played on it
(ND 99-01.3-08-15 asks no gaming day of a tournament): the date is named apart, never counted as a
gaming day."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import csv
import io
from datetime import date

import pytest

from accounting.summaries import quarter_summary
from cardroom.models import Role
from core.periods import Quarter
from reports.kinds import quarterly
from tests.accounting.books_days import closed_day, on, tournament_day
from tests.page_support import at_site
from tests.reports.test_kind_daily import auditor_api, download, pdf_text, run_report  # noqa: F401

pytestmark = pytest.mark.django_db

OPENED, TOURNAMENT = date(2026, 8, 13), date(2026, 8, 15)  # a gaming day; a tournament alone
Q3 = Quarter(2026, 3)


@pytest.fixture
def quarter_played(cast, site):
    closed_day(cast, site, OPENED)
    tournament_day(cast, site, TOURNAMENT)


def quarterly_report(api, site) -> tuple[str, list[dict[str, str]]]:
    """The quarter's PDF text (whitespace folded) and its CSV's rows by column name."""
    with on(site, date(2026, 11, 20)):
        run = run_report(api, kind="quarterly", site=site.pk, quarter=str(Q3))
        text = " ".join(pdf_text(download(api, run)).split())
        header, *rows = csv.reader(io.StringIO(download(api, run, "csv").decode()))
    names = [column.name for column in quarterly.COLUMNS if column.name != "count"]
    assert len(header) == len(names)
    return text, [dict(zip(names, row, strict=True)) for row in rows]


def test_a_tournament_only_date_is_not_counted_as_a_gaming_day(site, quarter_played):
    summary = quarter_summary(site, Q3)
    assert [d.gaming_date for d in summary.days] == [OPENED, TOURNAMENT]  # both days of the books
    assert summary.gaming_days == 1 and [d.gaming_date for d in summary.record_only_days] == [TOURNAMENT]


def test_the_quarterly_pdf_and_csv_count_one_gaming_day_and_name_the_tournament_date(auditor_api, site, quarter_played):
    text, rows = quarterly_report(auditor_api, site)
    assert "1 gaming day " in text and "2 gaming days" not in text
    assert f"{TOURNAMENT}: tournament play (ND 99-01.3-08-15" in text
    (counted,) = [r for r in rows if r["row"] == "gaming_days"]
    assert counted["label"] == "1 gaming day"
    assert f"{TOURNAMENT}: tournament play" in counted["note"] and "not counted as gaming days" in counted["note"]


def test_the_quarter_page_counts_one_gaming_day_and_names_the_tournament_date(client, cast, site, quarter_played):
    html = at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/quarter/?quarter={Q3}").content.decode()
    said = html.split('id="gaming-days">', 1)[1].split("</p>", 1)[0]
    assert said.startswith("1 gaming day;") and f"{TOURNAMENT}: tournament play" in said
