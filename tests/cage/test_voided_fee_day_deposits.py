"""A day of the books whose every fee collection was voided collected nothing: no bank deposit is
due for it. A Washington blackjack site (WA-BJ, the demo's Tacoma) opens no gaming day; a fee
rung up by mistake is voided by a new row pointing back (`fees.services.void_fee`), so a day whose
fees were all voided holds its records (a day of the books, closed as any other) and no fee.
The daily report, the daily page and the figures API said no deposit was due for it
(`accounting.summaries.takes_deposit`) while the cage asked one (`core.closing.collecting_days`
counted every fee row, voided or not): the deposits page listed it, the nightly check flagged it
late. Now each says no deposit is due; its books close without a fee cash count or a bank count
(nothing was at the cage). A day with one of its two fees voided still takes a deposit. A New York
day whose only session was voided collected nothing either (a North Dakota day whose only
tournament fee was voided: tests/cage/test_adjustment_only_day_deposits.py). Driven through the
services, the pages and the API."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from accounting import services as books
from accounting.models import BooksClose
from cage import services as cage
from cage.queries import days_not_deposited, deposit_days, deposits_maybe_late
from cardroom.models import Role
from compliance import providers
from compliance.thresholds import ThresholdBook
from core import closing
from fees import services as fees
from fees.models import FeeCollection
from tests.accounting.books_days import on
from tests.factories import SiteFactory, fees_site, make_person, player_banked_table, witness_pin
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import download, pdf_text, run_report

pytestmark = pytest.mark.django_db

DAY = date(2026, 8, 14)  # a Friday: a deposit would be due by Wednesday the 19th
LATER = date(2026, 8, 31)  # every deadline of the day passed
PACIFIC = ZoneInfo("America/Los_Angeles")


@pytest.fixture
def site(org):
    return fees_site(org)


def _at(hour: int) -> datetime:
    return datetime(2026, 8, 14, hour, tzinfo=PACIFIC)


@pytest.fixture
def two_fees(cast, site):
    """DAY's two table fees ($8 each) collected at table 1; no gaming day opened on the floor."""
    table = player_banked_table(site)
    return [
        fees.record_fee(
            acting_user=cast[Role.PIT_BOSS].user,
            table=table,
            basis="per_player",
            period_minutes=30,
            rate_cents=200,
            count=4,
            collected_at=_at(hour),
        )
        for hour in (14, 15)
    ]


def _void(cast, fee):
    return fees.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=fee, reason="Rung up twice.", voided_at=_at(16))


def _close(cast, site, day=DAY):
    return books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=day)


@pytest.fixture
def voided_day(cast, site, two_fees):
    """DAY's two fees both voided, its books closed through the service: no fee cash to count and
    no bank count (nothing was at the cage)."""
    for fee in two_fees:
        _void(cast, fee)
    _close(cast, site)
    return DAY


@pytest.fixture
def half_voided_day(cast, site, two_fees):
    """DAY's second fee voided, the first ($8) counted by two people, the bank counted at both ends
    ($8 more at the end), its books closed."""
    _void(cast, two_fees[1])
    fees.count_fees(
        acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, counted_cents=800,
        witness=cast[Role.SHIFT_MANAGER], witness_pin=witness_pin(cast[Role.SHIFT_MANAGER]), counted_at=_at(22),
    )  # fmt: skip
    for kind, hour, cents in (("start", 13, 100_000), ("end", 23, 100_800)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, kind=kind, cash={100: cents // 100},
            chips={}, at=_at(hour),
        )  # fmt: skip
    _close(cast, site)
    return DAY


def _report_text(api, site) -> str:
    run = run_report(api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    return " ".join(pdf_text(download(api, run)).split())


# --- Every fee voided: no deposit due anywhere --------------------------------------------------------


def test_a_day_whose_fees_were_all_voided_is_a_closed_day_of_the_books_that_collects_nothing(site, voided_day):
    assert closing.closed_days([site.pk], DAY, LATER) == {(site.pk, DAY)}  # its books closed on its records
    assert closing.collecting_days([site.pk], DAY, LATER) == set()


def test_the_cage_asks_no_deposit_of_a_day_whose_fees_were_all_voided(client, cast, site, voided_day):
    assert days_not_deposited([site.pk], DAY, LATER) == []
    assert deposits_maybe_late([site.pk], DAY, LATER, within_days=3) == {}
    assert deposit_days(site) == []
    with on(site, LATER):
        shown = page(at_site(client, cast[Role.CASHIER], site).get("/cage/deposits/"))
    assert f'id="date-{DAY}"' not in shown


def test_the_api_refuses_a_deposit_of_a_day_whose_fees_were_all_voided(client_for, cast, site, voided_day):
    """It took one: the deposits page did not list the day, yet the API recorded its deposit."""
    from cage.models import BankDeposit

    body = {"site": site.pk, "gaming_date": str(DAY), "amount_cents": 0, "deposited_on": str(DAY)}
    with on(site, LATER):
        answer = client_for(cast[Role.CASHIER]).post("/api/v1/cage/deposits/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["gaming_date"] == [
        f"House control: nothing was collected at {site} on {DAY} (its only records are adjusting entries, or its "
        "fees, sessions or tournament fees were all voided): no bank deposit is due for it."
    ]
    assert not BankDeposit.objects.exists()


def test_the_nightly_check_finds_no_late_deposit_of_a_day_whose_fees_were_all_voided(site, voided_day):
    with on(site, LATER):
        assert providers.late_deposits([site], DAY, DAY, ThresholdBook(DAY)) == []


def test_the_report_page_and_api_say_no_deposit_is_due_for_a_day_whose_fees_were_all_voided(
    client_for, client, cast, site, voided_day
):
    api = client_for(cast[Role.AUDITOR])
    with on(site, LATER):
        text = _report_text(api, site)
        figures = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}")
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={DAY}"))
    assert "No bank deposit due: nothing was collected this day (every table fee recorded on it was voided)." in text
    assert "Bank deposit due" not in text
    assert figures.status_code == 200 and figures.json()["cash"]["deposit_due"] is None
    assert (
        '<span id="no-deposit">no deposit due: nothing was collected this day '
        "(every table fee recorded on it was voided)</span>" in shown
    )
    assert 'id="deposit-late"' not in shown and 'id="deposit-due"' not in shown


def test_the_daily_page_says_a_voided_days_books_need_no_count(client, cast, site, two_fees):
    for fee in two_fees:
        _void(cast, fee)
    with on(site, LATER):
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={DAY}"))
    assert "its fee records" in shown  # the day rests on them: a day of the books
    assert "counted by two people" not in shown and "the bank counted" not in shown
    assert (
        'id="close-needs">Needs nothing more: no cash was at the cage (every table fee recorded on it was voided), '
        "so no bank count is needed." in shown
    )


# --- One of two fees voided: a deposit is still due ---------------------------------------------------


def test_a_day_with_one_of_its_two_fees_voided_still_takes_a_deposit_everywhere(
    client_for, client, cast, site, half_voided_day
):
    assert closing.collecting_days([site.pk], DAY, LATER) == {(site.pk, DAY)}
    assert days_not_deposited([site.pk], DAY, LATER) == [(site.pk, DAY)]
    assert [d.gaming_date for d in deposit_days(site)] == [DAY]
    api = client_for(cast[Role.AUDITOR])
    with on(site, LATER):
        assert [f.period_start for f in providers.late_deposits([site], DAY, DAY, ThresholdBook(DAY))] == [DAY]
        text = _report_text(api, site)
        figures = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}")
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={DAY}"))
    assert "Bank deposit due by 2026-08-19 (House control): not recorded (LATE)." in text
    assert "No bank deposit due" not in text
    assert figures.json()["cash"]["deposit_due"] == "2026-08-19"
    assert 'id="deposit-due"' in shown and 'id="no-deposit"' not in shown


def test_a_day_with_one_of_its_two_fees_voided_closes_only_on_its_fee_count(cast, site, two_fees):
    _void(cast, two_fees[1])
    with pytest.raises(ValidationError) as refused:
        _close(cast, site)
    assert "have no two-person count of their cash yet" in refused.value.message_dict["gaming_date"][0]


# --- A session voided ---------------------------------------------------------------------------------


def test_a_new_york_day_whose_only_session_was_voided_takes_no_deposit(org, time_machine):
    from tests.fees.conftest import session_two_days_ago

    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=ZoneInfo("America/New_York")), tick=False)
    kingston = SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    shift = make_person(org, Role.SHIFT_MANAGER, kingston)
    session, close = session_two_days_ago(org, kingston, shift)
    fees.void_session(acting_user=shift.user, session=session, reason="A test entry.")
    close()
    day = session.gaming_date
    assert closing.closed_days([kingston.pk], day, day) == {(kingston.pk, day)}
    assert closing.collecting_days([kingston.pk], day, day) == set()
    assert days_not_deposited([kingston.pk], day, day) == [] and deposit_days(kingston) == []


# --- A fee voided beside an adjusting entry -----------------------------------------------------------

NEXT = date(2026, 8, 17)  # a later day of the books, no gaming day opened on it


def test_a_day_whose_fee_was_voided_beside_an_adjusting_entry_says_both(client_for, client, cast, site, voided_day):
    """Its voided fee is a record of the day too: the page and the report read "its only records are
    adjusting entries" where the day also held a fee, voided."""
    table = FeeCollection.objects.filter(site=site).first().table
    with on(site, NEXT, hour=14):
        fee = fees.record_fee(
            acting_user=cast[Role.PIT_BOSS].user, table=table, basis="per_player", period_minutes=30, rate_cents=200,
            count=4,
        )  # fmt: skip
    with on(site, NEXT, hour=15):
        fees.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=fee, reason="Rung up at the wrong table.")
    with on(site, NEXT, hour=16):
        books.record_adjustment(
            acting_user=cast[Role.GAMING_MANAGER].user, books_close=BooksClose.objects.get(site=site, gaming_date=DAY),
            field="fees", amount_cents=800, reason="A fee collected on the 14th was left off its sheet.",
            recorded_on=NEXT,
        )  # fmt: skip
    api = client_for(cast[Role.AUDITOR])
    with on(site, LATER):
        run = run_report(api, kind="daily", site=site.pk, start=str(NEXT), end=str(NEXT))
        text = " ".join(pdf_text(download(api, run)).split())
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={NEXT}"))
    why = "every table fee recorded on it was voided, and its other records are adjusting entries"
    assert f"No bank deposit due: nothing was collected this day ({why})." in text
    assert f'<span id="no-deposit">no deposit due: nothing was collected this day ({why})</span>' in shown
    assert (
        'id="close-needs">Needs nothing more: no cash was at the cage (every table fee recorded on it was voided, and '
        "its other records are adjusting entries to figures other than the cash), so no bank count is needed." in shown
    )
    assert "its only records are adjusting entries" not in text + shown
