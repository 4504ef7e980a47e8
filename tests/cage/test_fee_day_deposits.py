"""The bank deposit of a day of the books with no gaming day: a Washington blackjack site that
records table fees (Tacoma in the demo) collects cash at the cage every day without opening a
gaming day on the floor, and its books close on those fees (accounting.close_books). Its deposit
belongs to the site and the date of those books: recorded once they are closed (through the
service, the API and the deposits page), once a date, never on a date with nothing of the books,
and judged by the overdue-deposit check as a gaming day is (a house control at a WA site).
Before, a deposit named a gaming day: a fee day had none, so it could not be deposited and was
never judged. Driven through the services: fees recorded, counted, the bank counted, the books
closed, the compliance scan run."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from accounting import services as books
from cage import services
from cage.models import BankDeposit
from cardroom.models import Role
from compliance import providers
from compliance.engine import run_scan
from compliance.models import Alert
from compliance.thresholds import ThresholdBook
from core.appendonly import installed_trigger_names
from fees import services as fees
from floor.models import GamingDay
from tests.factories import fees_site, player_banked_table, witness_pin
from tests.page_support import at_site, page

DAY = date(2026, 8, 14)  # a Friday: its deposit is due by the third banking day, Wednesday the 19th
DUE = date(2026, 8, 19)
PACIFIC = ZoneInfo("America/Los_Angeles")


@pytest.fixture
def site(org):
    return fees_site(org)


@pytest.fixture
def bj_table(site):
    return player_banked_table(site)


def _at(hour: int) -> datetime:
    return datetime(2026, 8, 14, hour, tzinfo=PACIFIC)


@pytest.fixture
def fee_day(cast, site, bj_table):
    """DAY's two table fees ($16) collected, counted by two people, the bank counted at both
    ends; no gaming day opened on the floor. Its books are still open."""
    for hour in (14, 15):
        fees.record_fee(
            acting_user=cast[Role.PIT_BOSS].user,
            table=bj_table,
            basis="per_player",
            period_minutes=30,
            rate_cents=200,
            count=4,
            collected_at=_at(hour),
        )
    fees.count_fees(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=DAY,
        counted_cents=1600,
        witness=cast[Role.SHIFT_MANAGER],
        witness_pin=witness_pin(cast[Role.SHIFT_MANAGER]),
        counted_at=_at(22),
    )
    for kind, hour, bills in (("start", 13, 10), ("end", 23, 26)):
        services.record_bank_count(
            acting_user=cast[Role.CASHIER].user,
            site=site,
            gaming_date=DAY,
            kind=kind,
            cash={100: bills},
            chips={},
            at=_at(hour),
        )
    assert not GamingDay.objects.filter(site=site).exists()
    return DAY


@pytest.fixture
def closed_fee_day(cast, site, fee_day):
    books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=fee_day)
    return fee_day


def _deposit(cast, site, gaming_date=DAY, **overrides):
    values = {"amount_cents": 1600, "deposited_on": date(2026, 8, 17), **overrides}
    return services.record_deposit(acting_user=cast[Role.CASHIER].user, site=site, gaming_date=gaming_date, **values)


def _refusal(cast, site, gaming_date=DAY) -> str:
    with pytest.raises(ValidationError) as refused:
        _deposit(cast, site, gaming_date)
    return refused.value.message_dict["gaming_date"][0]


# --- The service -----------------------------------------------------------------------------------


def test_a_closed_fee_days_deposit_is_recorded_for_its_site_and_date(cast, site, closed_fee_day):
    deposit = _deposit(cast, site)
    assert (deposit.site, deposit.gaming_date, deposit.gaming_day) == (site, DAY, None)
    assert deposit.amount_cents == 1600 and deposit.due_on == DUE and not deposit.late


def test_a_fee_days_deposit_is_refused_while_its_books_are_open(cast, site, fee_day):
    assert _refusal(cast, site) == (
        f"House control: the books of {DAY} at {site} are not closed; "
        "close the day's books (daily page) before recording its deposit."
    )
    assert not BankDeposit.objects.exists()


def test_a_fee_day_is_deposited_once(cast, site, closed_fee_day):
    _deposit(cast, site)
    assert _refusal(cast, site) == f"House control: the deposit of {DAY} is already recorded."
    assert BankDeposit.objects.count() == 1


def test_the_database_holds_one_deposit_a_site_and_date(cast, site, closed_fee_day):
    first = _deposit(cast, site)
    with pytest.raises(IntegrityError), transaction.atomic():
        BankDeposit.objects.create(
            site=site,
            gaming_date=DAY,
            amount_cents=1,
            deposited_on=DAY,
            due_on=DUE,
            recorded_at=first.recorded_at,
            recorded_by=first.recorded_by,
            initials="XX",
        )


def test_a_date_with_nothing_of_the_books_on_it_takes_no_deposit(cast, site, closed_fee_day):
    refusal = _refusal(cast, site, date(2026, 8, 15))
    assert refusal.startswith(f"House control: nothing of the books of {site} is recorded on 2026-08-15")
    assert "there is no day's cash to deposit" in refusal
    assert not BankDeposit.objects.exists()


def test_a_deposit_names_its_date(cast, site, closed_fee_day):
    with pytest.raises(ValidationError) as refused:
        services.record_deposit(
            acting_user=cast[Role.CASHIER].user, site=site, amount_cents=1600, deposited_on=date(2026, 8, 17)
        )
    assert "gaming_date" in refused.value.message_dict


# --- The API ---------------------------------------------------------------------------------------


def test_the_api_records_a_fee_days_deposit_by_site_and_date(client_for, cast, site, closed_fee_day):
    api = client_for(cast[Role.CASHIER])
    payload = {"site": site.pk, "gaming_date": "2026-08-14", "amount_cents": 1600, "deposited_on": "2026-08-17"}
    created = api.post("/api/v1/cage/deposits/", payload, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["gaming_date"] == "2026-08-14" and created.json()["gaming_day"] is None
    again = api.post("/api/v1/cage/deposits/", payload, format="json")
    assert again.status_code == 400 and "already recorded" in str(again.json()["gaming_date"])


def test_the_api_answers_400_naming_the_field_of_a_date_with_no_books(client_for, cast, site, closed_fee_day):
    api = client_for(cast[Role.CASHIER])
    payload = {"site": site.pk, "gaming_date": "2026-08-15", "amount_cents": 1600, "deposited_on": "2026-08-17"}
    refused = api.post("/api/v1/cage/deposits/", payload, format="json")
    assert refused.status_code == 400 and "nothing of the books" in str(refused.json()["gaming_date"])
    refused = api.post("/api/v1/cage/deposits/", {**payload, "gaming_date": "2026-02-30"}, format="json")
    assert refused.status_code == 400 and "gaming_date" in refused.json()
    assert not BankDeposit.objects.exists()


# --- The deposits page -----------------------------------------------------------------------------


def _row(html: str) -> str:
    start = html.index(f'id="date-{DAY.isoformat()}"')
    return html[start : html.index("</tr>", start)]


def test_the_deposits_page_lists_a_closed_fee_day_and_records_its_deposit(client, cast, site, closed_fee_day):
    cashier = at_site(client, cast[Role.CASHIER], site)
    row = _row(page(cashier.get("/cage/deposits/")))
    assert '<td class="books">closed</td>' in row and "deposit-form" in row
    assert f'action="/cage/deposits/on/{DAY.isoformat()}/"' in row
    posted = {"amount_cents": "16.00", "deposited_on": "2026-08-17", "reference": "slip 7"}
    assert cashier.post(f"/cage/deposits/on/{DAY.isoformat()}/", posted).status_code == 302
    row = _row(page(cashier.get("/cage/deposits/")))
    assert "deposit-form" not in row and "$16.00" in row
    assert BankDeposit.objects.get().gaming_date == DAY


def test_the_deposits_page_shows_the_refusal_of_a_date_with_no_books(client, cast, site, closed_fee_day):
    cashier = at_site(client, cast[Role.CASHIER], site)
    posted = {"amount_cents": "16.00", "deposited_on": "2026-08-17", "reference": ""}
    response = cashier.post("/cage/deposits/on/2026-08-15/", posted)
    assert response.status_code == 400 and "nothing of the books" in page(response)
    assert not BankDeposit.objects.exists()


# --- The overdue-deposit check ---------------------------------------------------------------------


def test_a_closed_fee_day_with_no_deposit_is_flagged_and_clears_once_deposited(cast, site, closed_fee_day):
    run_scan(site_ids=[site.pk], day_ranges=[(DAY, DAY)])
    alert = Alert.objects.get(rule="deposit_late", site=site)
    assert alert.period_start == DAY and alert.due_date == DUE
    assert alert.citation == "House control"  # no WA text states the deadline: the house's third banking day
    assert alert.action_required.startswith(f"House control: the deposit for {DAY} was due by the 3rd banking day")

    _deposit(cast, site, deposited_on=DUE)
    assert providers.late_deposits([site], DAY, DAY, ThresholdBook(DAY)) == []
    run_scan(site_ids=[site.pk], day_ranges=[(DAY, DAY)])
    assert Alert.objects.filter(rule="deposit_late").count() == 1  # no new alert


def test_a_closed_fee_day_with_no_gaming_day_still_takes_a_deposit_everywhere(
    client_for, client, cast, site, closed_fee_day
):
    """Its fees are cash collected: unlike a day whose only records are adjusting entries
    (tests/cage/test_adjustment_only_day_deposits.py), it takes a deposit."""
    from cage.queries import days_not_deposited
    from tests.reports.test_kind_daily import download, pdf_text, run_report

    assert days_not_deposited([site.pk], DAY, DAY) == [(site.pk, DAY)]
    api = client_for(cast[Role.AUDITOR])
    text = " ".join(
        pdf_text(download(api, run_report(api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY)))).split()
    )
    assert f"Bank deposit due by {DUE} (House control): not recorded" in text
    shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={DAY}"))
    assert 'id="deposit-due"' in shown and 'id="no-deposit"' not in shown


# --- The append-only guard after the migration -----------------------------------------------------


def test_a_fee_days_deposit_stays_append_only_in_the_database(cast, site, closed_fee_day):
    deposit = _deposit(cast, site)
    table = BankDeposit._meta.db_table
    expected = (
        {f"{table}_append_only", f"{table}_append_only_truncate"}
        if connection.vendor == "postgresql"
        else {f"{table}_no_update", f"{table}_no_delete"}
    )
    assert expected <= installed_trigger_names(connection, table)
    with pytest.raises(IntegrityError), transaction.atomic():
        BankDeposit.objects.filter(pk=deposit.pk).update(amount_cents=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        BankDeposit.objects.filter(pk=deposit.pk).delete()
    assert BankDeposit.objects.get().amount_cents == 1600


# --- The site's own date ---------------------------------------------------------------------------


def _post_deposit(api, site, gaming_date, deposited_on):
    payload = {"site": site.pk, "gaming_date": str(gaming_date), "amount_cents": 1600, "deposited_on": deposited_on}
    return api.post("/api/v1/cage/deposits/", payload, format="json")


def test_a_deposit_is_not_dated_tomorrow_at_the_site_when_the_servers_date_has_turned(
    client_for, cast, site, closed_fee_day, time_machine
):
    """23:30 Monday at Tacoma is 01:30 Tuesday in Chicago, the server's zone (an API request runs
    in it): Tuesday has not come at the site, so a deposit dated then is in the future."""
    time_machine.move_to(datetime(2026, 8, 17, 23, 30, tzinfo=PACIFIC), tick=False)
    api = client_for(cast[Role.CASHIER])
    refused = _post_deposit(api, site, DAY, "2026-08-18")
    assert refused.status_code == 400, refused.content
    assert refused.json()["deposited_on"] == ["House control: a deposit cannot be dated in the future."]
    assert _post_deposit(api, site, DAY, "2026-08-17").status_code == 201


def test_a_deposit_dated_today_at_the_site_is_taken_before_the_servers_date_has_turned(client_for, org, time_machine):
    """00:30 Friday in New York is 23:30 Thursday in Chicago: the Kingston cashier's deposit of
    Friday, the site's today, is no deposit in the future."""
    from tests.factories import SiteFactory, make_person
    from tests.fees.conftest import session_two_days_ago

    time_machine.move_to(datetime(2026, 11, 20, 0, 30, tzinfo=ZoneInfo("America/New_York")), tick=False)
    kingston = SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    session, close_books = session_two_days_ago(org, kingston, make_person(org, Role.SHIFT_MANAGER, kingston))
    close_books()
    api = client_for(make_person(org, Role.CASHIER, kingston))
    created = _post_deposit(api, kingston, session.gaming_date, "2026-11-20")
    assert created.status_code == 201, created.content
    refused = _post_deposit(api, kingston, session.gaming_date, "2026-11-21")
    assert refused.json()["deposited_on"] == ["House control: a deposit cannot be dated in the future."]


def test_the_nightly_check_judges_a_deposit_late_on_the_sites_own_date(cast, site, closed_fee_day, time_machine):
    """At 23:30 on its due day at Tacoma (Wednesday), 01:30 Thursday in Chicago where the Celery
    worker's clock runs, the deposit not yet recorded is not late: the cashier has the evening.
    At 23:30 Thursday at Tacoma it is."""
    time_machine.move_to(datetime(2026, 8, 19, 23, 30, tzinfo=PACIFIC), tick=False)
    assert providers.late_deposits([site], DAY, DAY, ThresholdBook(DAY)) == []
    time_machine.move_to(datetime(2026, 8, 20, 23, 30, tzinfo=PACIFIC), tick=False)
    assert [f.due_date for f in providers.late_deposits([site], DAY, DAY, ThresholdBook(DAY))] == [DUE]
