"""A day of the books with no gaming day opened on it (a tournament, an adjustment, fees or
sessions recorded on it), as the daily report shows it: its heading says no gaming day was
opened, with its books' state, at every pack, as the daily page does."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import date

import pytest

from cardroom.models import Role
from floor import services as floor
from reports.kinds import daily
from tests.accounting.books_days import adjusted, closed_day, on
from tests.factories import TableFactory
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import (  # noqa: F401
    auditor_api,
    csv_rows,
    download,
    pdf_tables,
    pdf_text,
    run_report,
)
from tests.tournaments.conftest import announce
from tournaments import services as tournaments
from tournaments.models import FeeKind

pytestmark = pytest.mark.django_db


def a_tournament_played(cast, site):
    """A tournament today, an entry fee collected: a day of the books with no gaming day opened."""
    tournament = announce(cast[Role.SHIFT_MANAGER], site)
    tournaments.collect_fee(
        acting_user=cast[Role.CASHIER].user, tournament=tournament, kind=FeeKind.ENTRY, player_name="Ann Lee"
    )
    return tournament.gaming_date


def heading(api, site, day) -> str:
    text = pdf_text(download(api, run_report(api, kind="daily", site=site.pk, start=str(day), end=str(day))))
    return next(line for line in text.splitlines() if line.startswith(f"Gaming date {day}"))


def test_a_tournament_day_without_a_gaming_day_is_headed_no_gaming_day_opened(auditor_api, cast, site):
    day = a_tournament_played(cast, site)
    assert heading(auditor_api, site, day) == f"Gaming date {day} (no gaming day opened; books NOT CLOSED)"


def test_a_gaming_day_opened_and_not_closed_is_still_headed_not_closed(auditor_api, cast, site):
    day = a_tournament_played(cast, site)
    floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=day)
    assert heading(auditor_api, site, day) == f"Gaming date {day} (gaming day NOT CLOSED)"


def test_the_daily_page_and_the_report_say_the_same_of_the_day(auditor_api, client, cast, site):
    day = a_tournament_played(cast, site)
    shown = page(at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/daily/?date={day}"))
    assert "No gaming day was opened on the floor on this date: its books rest on its tournament play" in shown
    assert "no gaming day opened" in heading(auditor_api, site, day)


# --- The adjustments behind a day's figures ----------------------------------------------------

CLOSED, ENTERED = date(2026, 9, 30), date(2026, 11, 30)  # the demo's: recorded on a day with no gaming day


@pytest.fixture
def adjustment(cast, site):
    table = TableFactory(site=site, number=1)
    return adjusted(cast, closed_day(cast, site, CLOSED), table, ENTERED)


def test_the_daily_report_lists_the_adjustment_its_figures_come_from(auditor_api, site, adjustment):
    with on(site, ENTERED):
        run = run_report(auditor_api, kind="daily", site=site.pk, start=str(ENTERED), end=str(ENTERED))
        content = download(auditor_api, run)
        rows = csv_rows(auditor_api, run)
    text = " ".join(pdf_text(content).split())
    assert "(no gaming day opened; books NOT CLOSED)" in text
    assert "No table activity recorded: the day's figures are the adjusting entries recorded this day" in text
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Corrects")
    assert text.index(daily.ADJUSTMENTS_RECORDED) < text.index("Corrects")
    # Above the totals it is counted in (it came after them, pages later on a busy day), and they say so.
    totals = "Site totals: each game apart, then the total (the tables and the adjusting entries recorded this day)"
    assert text.index("Corrects") < text.index(totals)
    # counted on the day it was entered (2026-11-30), the gaming day the page says it counts on
    assert grid[0][:2] == ["Corrects", "Counted on"]
    assert grid[1][:5] == ["2026-09-30", "2026-11-30", "drop table 1", "$20.00", "$20.00"]
    assert grid[1][5].startswith("Drop box recounted")
    header = rows[0]  # a row of its own, as the page's: the tables' and the adjustments' rows add up to the total
    line = next(r for r in rows if r[header.index("Table")] == "adjustment")
    assert line[header.index("Drop")] == "20.00" and line[header.index("Amount")] == "20.00"
    assert line[header.index("Figure")].startswith("corrects 2026-09-30: drop table 1 (Drop box recounted")


def test_the_corrected_days_report_lists_it_as_corrected_later(auditor_api, site, adjustment):
    with on(site, ENTERED):
        run = run_report(auditor_api, kind="daily", site=site.pk, start=str(CLOSED), end=str(CLOSED))
        text = " ".join(pdf_text(download(auditor_api, run)).split())
    assert daily.CORRECTED_LATER in text and daily.ADJUSTMENTS_RECORDED not in text
    assert "2026-09-30 2026-11-30 drop table 1 $20.00" in text
