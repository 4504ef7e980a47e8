"""A day of the books with no gaming day opened on it closes on its records at every pack, as a
fees site's did: the demo's Bismarck quarter listed 2026-11-30 (an adjustment recorded that day,
a tournament played) among its days, its PDF said "books not closed: 2026-11-30", filing needed
every day closed, and closing it was refused ("there is no gaming day"), so the quarter could
never be filed. The days of the books are one predicate (accounting.summaries.day_of_the_books):
the quarter lists them, the services close them, the daily page offers to. Driven through the
services and the daily page."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError

from accounting import rules, services, summaries
from cardroom.models import Role
from core.periods import Quarter
from floor import services as floor
from tests.accounting.books_days import adjusted, closed_day, count_bank, on, tournament_day
from tests.factories import TableFactory
from tests.page_support import at_site, page

CLOSED, PLAYED, ENTERED, NOTHING = date(2026, 9, 30), date(2026, 11, 27), date(2026, 11, 30), date(2026, 11, 29)


@pytest.fixture
def adjustment(cast, site):
    """The demo's: a $20 drop of 2026-09-30's table 1 recorded on 2026-11-30, no gaming day opened then."""
    return adjusted(cast, closed_day(cast, site, CLOSED), TableFactory(site=site, number=1), ENTERED)


def close(cast, site, day):
    """Closed the morning after, once the day's business day has ended (its books do not close
    while it still runs: accounting.services._check_business_day_ended)."""
    with on(site, day + timedelta(days=1), hour=site.business_day_start_hour + 1):
        return services.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=day)


def refusal(cast, site, day) -> str:
    with pytest.raises(ValidationError) as refused:
        close(cast, site, day)
    return refused.value.message_dict["gaming_date"][0]


def daily_page(client, cast, site, day) -> str:
    """The day's page the morning after, when its books may close (during the day its close also
    needs its business day ended: `test_the_daily_page_of_a_day_still_running_says_it_needs_it_ended`)."""
    with on(site, day + timedelta(days=1), hour=site.business_day_start_hour + 1):
        return page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={day}"))


def test_the_daily_page_of_a_day_still_running_says_it_needs_it_ended(cast, site, adjustment, client):
    with on(site, ENTERED):
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={ENTERED}"))
    needs = shown.split('id="close-needs">')[1].split("</span>")[0]
    assert needs.startswith("Needs its business day ended (2026-12-01 06:00 C") and needs.endswith(").")


def test_a_day_whose_only_record_is_an_adjustment_closes_without_a_bank_count(cast, site, adjustment):
    assert [d.gaming_date for d in summaries.quarter_summary(site, Quarter(2026, 4)).days] == [ENTERED]
    books = close(cast, site, ENTERED)
    assert books.figures["total"]["drop_cents"] == 2_000 and books.figures["adjustments_recorded"]
    day = summaries.daily_summary(site, ENTERED)
    assert day.books_closed and not day.gaming_day_closed


def test_a_cash_entry_on_such_a_day_asks_for_the_bank_count_and_counts_in_the_quarters_cash_profit(cast, site, client):
    """A cash entry counts in the cash profit of the day it is recorded on, which a bank count alone
    makes known: the day closed uncounted (its only records adjustments), the entry stayed out of the
    quarter's cash profit for ever, while the page said it waited for the counts."""
    closed = closed_day(cast, site, CLOSED)
    with on(site, ENTERED):
        services.record_adjustment(
            acting_user=cast[Role.GAMING_MANAGER].user, books_close=closed, table=None, field=rules.CASH_FIGURE,
            amount_cents=2_000, reason="A $20 bill found under the cage drawer.", recorded_on=ENTERED,
        )  # fmt: skip
    message = refusal(cast, site, ENTERED)
    assert message.startswith(rules.BANK_RECORDS.at(site)) and "cash bank count of 2026-11-30 is missing" in message
    assert "an adjusting entry to the cash" in message
    needs = daily_page(client, cast, site, ENTERED).split('id="close-needs">')[1].split("</span>")[0]
    assert needs.startswith("Needs the bank counted (the adjusting entry to the cash counts in this day's cash profit)")
    quarter = Quarter(2026, 4)
    before = summaries.quarter_summary(site, quarter).cash_profit_cents
    with on(site, ENTERED):
        count_bank(cast, site, ENTERED)  # the same cash at both ends: nothing else moved
    close(cast, site, ENTERED)
    day = summaries.daily_summary(site, ENTERED)
    assert day.books_closed and day.cash.cash_profit_cents == 2_000
    assert summaries.quarter_summary(site, quarter).cash_profit_cents == (before or 0) + 2_000


def test_a_tournament_day_without_a_gaming_day_closes_once_its_bank_is_counted(cast, site):
    tournament_day(cast, site, PLAYED)
    message = refusal(cast, site, PLAYED)
    assert message.startswith(rules.BANK_RECORDS.at(site)) and "cash bank count of 2026-11-27 is missing" in message
    assert "cash was at the cage: tournament fees or prizes or an adjusting entry to the cash;" in message
    assert "only records are adjustments of other figures needs no bank count" in message
    assert "fees or sessions" not in message and "session" not in message  # another pack's records
    with on(site, PLAYED):
        count_bank(cast, site, PLAYED, 100_000, 110_000)
    assert close(cast, site, PLAYED).figures["tournaments"]["gross_proceeds_cents"] == 10_000


def test_a_gaming_day_opened_on_such_a_day_is_still_closed_first(cast, site):
    tournament_day(cast, site, PLAYED)
    with on(site, PLAYED):
        floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=PLAYED)
        count_bank(cast, site, PLAYED)
    assert refusal(cast, site, PLAYED).startswith(f"{rules.TRAY_COUNT}: the gaming day is not closed")


def test_a_date_with_nothing_recorded_still_has_nothing_to_close(cast, site, adjustment, client):
    message = refusal(cast, site, NOTHING)
    assert message.startswith(rules.GAMING_DAY_STATE) and "its books have nothing to close" in message
    shown = daily_page(client, cast, site, NOTHING)
    assert 'id="close-books"' not in shown and 'id="nothing-to-close"' in shown


def test_the_quarter_files_once_its_days_without_a_gaming_day_are_closed(cast, site, adjustment):
    tournament_day(cast, site, PLAYED)
    after = datetime.combine(date(2027, 1, 5), time(12), tzinfo=ZoneInfo(site.time_zone))

    def file():
        with time_machine.travel(after, tick=True):
            return services.file_quarter(
                acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Quarter(2026, 4)
            )

    with pytest.raises(ValidationError) as refused:
        file()
    assert "2026-11-27, 2026-11-30" in refused.value.message_dict["quarter"][0]
    with on(site, PLAYED):
        count_bank(cast, site, PLAYED, 100_000, 110_000)
    close(cast, site, PLAYED)
    close(cast, site, ENTERED)
    assert all(d.books_closed for d in summaries.quarter_summary(site, Quarter(2026, 4)).days)
    assert file().figures_sha256


def test_the_daily_page_offers_to_close_an_adjustment_day_and_says_what_it_rests_on(cast, site, adjustment, client):
    shown = daily_page(client, cast, site, ENTERED)
    assert "No gaming day was opened on the floor on this date: its books rest on the adjusting entries" in shown
    assert 'id="close-books"' in shown and 'id="nothing-to-close"' not in shown
    assert "Needs nothing more: no cash was at the cage (its only records are adjusting entries to figures" in shown


def test_the_daily_page_of_a_tournament_day_asks_for_the_bank_count(cast, site, client):
    tournament_day(cast, site, PLAYED)
    shown = daily_page(client, cast, site, PLAYED)
    assert "its books rest on its tournament play" in shown and 'id="close-books"' in shown
    assert 'id="close-needs">Needs the bank counted.' in shown
