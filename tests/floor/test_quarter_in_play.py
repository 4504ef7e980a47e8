"""A day whose play has not ended (its gaming day opened, not closed) is on its own page with its
live figures, and listed by its quarter, but not in the quarter's table totals nor in the sums the
compliance scan reads (game_totals): a table still in play counts its opener as paid out until its
closer is entered."""

from accounting import published, summaries
from cardroom.models import Role
from core.periods import Quarter
from floor import services

from .conftest import TRAY, closed_last_night, today

TRAY_CENTS = 2_000_00


def test_a_day_still_in_play_is_not_in_the_quarters_totals(site, table, chips, cast):
    user = cast[Role.SHIFT_MANAGER].user
    closed_last_night(site, user, [table])  # a day over (opener = closer) and today's gaming day open
    quarter = Quarter.containing(today(site))
    before = summaries.quarter_summary(site, quarter)
    summed = summaries.game_totals([site.pk], quarter.start, quarter.end)  # the compliance scan's sums

    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY)  # no closer yet

    day = summaries.daily_summary(site, today(site))
    assert day.in_play and day.total.opener_cents == TRAY_CENTS and day.total.agp_cents == -TRAY_CENTS  # its page
    after = summaries.quarter_summary(site, quarter)
    assert after.total == before.total and after.hold_ratio == before.hold_ratio
    assert after.twenty_one == before.twenty_one
    assert [d.gaming_date for d in after.days_in_play] == [today(site)]
    assert str(today(site)) in published.in_play_statement(after)
    assert summaries.game_totals([site.pk], quarter.start, quarter.end) == summed
    assert summed[(site.pk, "21")] == after.twenty_one
    by_quarter = summaries.quarter_game_totals([site.pk], quarter, quarter)[quarter]
    assert by_quarter[(site.pk, "21")] == after.twenty_one


def test_the_quarter_page_api_and_report_list_a_day_in_play_apart(client, client_for, site, table, chips, cast):
    from tests.page_support import at_site, page
    from tests.reports.test_kind_daily import csv_rows, download, pdf_text, run_report

    user = cast[Role.SHIFT_MANAGER].user
    closed_last_night(site, user, [table])
    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY)
    quarter, day = Quarter.containing(today(site)), str(today(site))
    said = f"1 gaming day still in play ({day}): its gaming day is not closed"
    shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/quarter/?quarter={quarter}"))
    assert 'id="days-in-play"' in shown and said in shown
    api = client_for(cast[Role.AUDITOR])
    assert api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter={quarter}").json()["days_in_play"] == [day]
    run = run_report(api, kind="quarterly", site=site.pk, quarter=str(quarter))
    assert said in " ".join(pdf_text(download(api, run)).split())
    header, *rows = csv_rows(api, run)
    assert [r for r in rows if r[header.index("Row")] == "days_in_play"][0][header.index("Note")].startswith(said)
