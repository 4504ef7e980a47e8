"""A day whose only records are adjusting entries takes no bank deposit: nothing was collected on it
(a cash correction on a day never bank-counted stays out of the quarter's cash profit). Its books
close (it is a day of the books, `core.closing.closed_days`), yet no deposit falls due for it
(`core.closing.collecting_days`): the daily report and page say so, the deposits page, the
deposits still to make (`cage.queries.days_not_deposited`), the obligations calendar and the
nightly late-deposit check leave it out. Before, it read "Bank deposit due ... not recorded (LATE)"
everywhere. A gaming day, a tournament, a fee (tests/cage/test_fee_day_deposits.py) or a session
day with no gaming day still takes one. Driven through the services, the pages and the API."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounting import services as books
from cage.queries import days_not_deposited, deposit_days, deposits_maybe_late
from cardroom.models import Role
from compliance import providers
from compliance.thresholds import ThresholdBook
from core import closing
from tests.accounting.books_days import adjusted, closed_day, count_bank, on, tournament_day
from tests.factories import SiteFactory, TableFactory, make_person
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import csv_rows, download, pdf_text, run_report

pytestmark = pytest.mark.django_db

# The demo's: 2026-09-30 played and closed, a drop correction of it recorded on 2026-11-30 (a
# Monday: a deposit would be due by Thursday 3 December), no gaming day opened then.
CLOSED, ENTERED, PLAYED = date(2026, 9, 30), date(2026, 11, 30), date(2026, 11, 27)
LATER = date(2026, 12, 10)  # every deadline of those days passed


def close_books(cast, site, day):
    """The day's books closed the morning after, once its business day has ended."""
    with on(site, day + timedelta(days=1), hour=site.business_day_start_hour + 1):
        return books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=day)


@pytest.fixture
def adjustment_day(cast, site):
    """2026-11-30's books closed on its one adjusting entry; 2026-09-30's gaming day closed, neither deposited."""
    adjusted(cast, closed_day(cast, site, CLOSED), TableFactory(site=site, number=1), ENTERED)
    close_books(cast, site, ENTERED)
    return ENTERED


# --- The cage's days ---------------------------------------------------------------------------------


def test_the_adjustment_day_is_a_closed_day_of_the_books_that_collects_nothing(site, adjustment_day):
    assert closing.closed_days([site.pk], CLOSED, LATER) == {(site.pk, ENTERED)}  # a day of the books
    assert closing.collecting_days([site.pk], CLOSED, LATER) == set()


def test_the_deposits_still_to_make_are_the_gaming_days_not_the_adjustment_day(site, adjustment_day):
    assert days_not_deposited([site.pk], CLOSED, LATER) == [(site.pk, CLOSED)]
    assert list(deposits_maybe_late([site.pk], CLOSED, LATER, within_days=3)) == [(site.pk, CLOSED)]


def test_the_deposits_page_lists_the_gaming_day_and_not_the_adjustment_day(client, cast, site, adjustment_day):
    assert [d.gaming_date for d in deposit_days(site)] == [CLOSED]
    with on(site, LATER):
        response = at_site(client, cast[Role.CASHIER], site).get("/cage/deposits/")
    assert response.status_code == 200
    shown = page(response)
    assert str(CLOSED) in shown  # the gaming day's row
    assert f'id="date-{ENTERED}"' not in shown and str(ENTERED) not in shown


def test_the_calendar_has_no_deposit_for_the_adjustment_day(client, manager, site, adjustment_day):
    with on(site, LATER):
        client.force_login(manager.user)
        december = page(client.get("/compliance/calendar/?month=2026-12"))
        october = page(client.get("/compliance/calendar/?month=2026-10"))
    assert 'id="calendar"' in december and f"Bank deposit of {ENTERED}" not in december
    assert f"Bank deposit of {CLOSED}" in october  # the gaming day's, as before


def test_the_nightly_check_finds_no_late_deposit_of_the_adjustment_day(site, adjustment_day):
    with on(site, LATER):
        late = providers.late_deposits([site], CLOSED, ENTERED, ThresholdBook(ENTERED))
    assert [f.period_start for f in late] == [CLOSED]


# --- The daily report and page -----------------------------------------------------------------------


def test_the_daily_report_says_no_deposit_is_due_for_the_adjustment_day(client_for, cast, site, adjustment_day):
    api = client_for(cast[Role.AUDITOR])
    with on(site, LATER):
        run = run_report(api, kind="daily", site=site.pk, start=str(CLOSED), end=str(ENTERED))
        text = " ".join(pdf_text(download(api, run)).split())
        rows = csv_rows(api, run)
    entered_day = text[text.index(f"Gaming date {ENTERED}") :]
    assert "Bank deposit due" not in entered_day
    assert (
        "No bank deposit due: nothing was collected this day (its only records are adjusting entries)." in entered_day
    )
    assert (
        f"Gaming date {CLOSED}" in text
        and "Bank deposit due by 2026-10-05 (the third banking day after the gaming date, ND 99-01.3-03-10(1)): not recorded (LATE)."
        in text
    )
    header = rows[0]
    due = {r[0]: r[header.index("Deposit due")] for r in rows[1:] if r[header.index("Table")] == "total"}
    assert due == {str(CLOSED): "2026-10-05", str(ENTERED): ""}


def test_the_daily_page_says_no_deposit_is_due_for_the_adjustment_day(client, cast, site, adjustment_day):
    with on(site, LATER):
        manager = at_site(client, cast[Role.GAMING_MANAGER], site)
        entered = page(manager.get(f"/dashboard/daily/?date={ENTERED}"))
        played = page(manager.get(f"/dashboard/daily/?date={CLOSED}"))
    assert 'id="no-deposit"' in entered and 'id="deposit-late"' not in entered
    assert 'id="no-deposit"' not in played and 'id="deposit-late"' in played


def test_the_daily_page_of_a_date_with_nothing_recorded_says_no_deposit_is_due_never_late(client, cast, site):
    """A past date with nothing of the books on it read "due by ... late" beside "its books have
    nothing to close"."""
    empty = date(2026, 11, 29)
    with on(site, LATER):
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={empty}"))
    assert 'id="nothing-to-close"' in shown
    assert '<span id="no-deposit">no deposit due: nothing of the books is recorded on this day</span>' in shown
    assert 'id="deposit-late"' not in shown and "due by" not in shown


def test_the_daily_summary_api_gives_no_deposit_due_for_the_adjustment_day(client_for, cast, site, adjustment_day):
    """The report and the page said no deposit was due while the API still gave a due date."""
    api = client_for(cast[Role.AUDITOR])
    with on(site, LATER):
        entered = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={ENTERED}")
        played = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={CLOSED}")
    assert entered.status_code == played.status_code == 200
    assert entered.json()["cash"]["deposit_due"] is None
    assert played.json()["cash"]["deposit_due"] == "2026-10-05"


# --- Days that still take a deposit ------------------------------------------------------------------


def test_a_tournament_day_without_a_gaming_day_still_takes_a_deposit(cast, site):
    tournament_day(cast, site, PLAYED)
    with on(site, PLAYED):
        count_bank(cast, site, PLAYED, 100_000, 110_000)
    close_books(cast, site, PLAYED)
    assert days_not_deposited([site.pk], PLAYED, PLAYED) == [(site.pk, PLAYED)]
    assert [d.gaming_date for d in deposit_days(site)] == [PLAYED]


def test_a_new_york_session_day_without_a_gaming_day_still_takes_a_deposit(org, time_machine):
    from tests.fees.conftest import session_two_days_ago

    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=ZoneInfo("America/New_York")), tick=False)
    kingston = SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    session, close = session_two_days_ago(org, kingston, make_person(org, Role.SHIFT_MANAGER, kingston))
    close()
    day = session.gaming_date
    assert days_not_deposited([kingston.pk], day, day) == [(kingston.pk, day)]
    assert [d.gaming_date for d in deposit_days(kingston)] == [day]


def test_a_tournament_day_whose_only_fee_was_voided_takes_no_deposit(cast, site):
    """Its tournament collected nothing (tests/cage/test_voided_fee_day_deposits.py: a fees pack's day)."""
    from tournaments import services as tournaments
    from tournaments.models import TournamentFee

    tournament_day(cast, site, PLAYED)
    with on(site, PLAYED, hour=15):
        tournaments.void_fee(
            acting_user=cast[Role.SHIFT_MANAGER].user, fee=TournamentFee.objects.get(), reason="Rung up twice."
        )
    close_books(cast, site, PLAYED)  # no bank count: nothing was at the cage
    assert closing.closed_days([site.pk], PLAYED, PLAYED) == {(site.pk, PLAYED)}
    assert closing.collecting_days([site.pk], PLAYED, PLAYED) == set()
    assert days_not_deposited([site.pk], PLAYED, PLAYED) == [] and deposit_days(site) == []


# --- A deposit of it is refused, by the API and the page alike ----------------------------------------

NOTHING_COLLECTED = (
    f"ND 99-01.3-03-10: nothing was collected at {{site}} on {ENTERED} (its only records are adjusting "
    "entries, or its fees, sessions or tournament fees were all voided): no bank deposit is due for it."
)


def test_the_api_refuses_a_deposit_of_the_adjustment_day_as_the_page_does(
    client, client_for, cast, site, adjustment_day
):
    """The API took a deposit of a day the deposits page does not list (nothing was collected on it);
    the page's own address for a day's deposit took it too. Both now refuse it in the same words."""
    from cage.models import BankDeposit

    body = {"site": site.pk, "gaming_date": str(ENTERED), "amount_cents": 2_000, "deposited_on": str(ENTERED)}
    with on(site, LATER):
        answer = client_for(cast[Role.CASHIER]).post("/api/v1/cage/deposits/", body, format="json")
        posted = at_site(client, cast[Role.CASHIER], site).post(
            f"/cage/deposits/on/{ENTERED}/", {"amount_cents": "20.00", "deposited_on": str(ENTERED)}
        )
    said = NOTHING_COLLECTED.format(site=site)
    assert answer.status_code == 400 and answer.json() == {"gaming_date": [said]}
    assert posted.status_code == 400
    assert f'<div class="alert alert-danger" role="alert" id="deposit-refused">{said} </div>' in page(posted)
    assert not BankDeposit.objects.exists()


def test_the_gaming_day_whose_adjustment_day_took_none_still_takes_its_deposit(client_for, cast, site, adjustment_day):
    body = {"site": site.pk, "gaming_date": str(CLOSED), "amount_cents": 0, "deposited_on": str(ENTERED)}
    with on(site, LATER):
        answer = client_for(cast[Role.CASHIER]).post("/api/v1/cage/deposits/", body, format="json")
    assert answer.status_code == 201, answer.content
