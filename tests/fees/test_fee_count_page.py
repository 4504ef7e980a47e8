"""The fee cash count on the table fees page (a WA-BJ site, as Tacoma): the two-person count
entered in the browser through fees.services.count_fees, as `POST /api/v1/fee-counts/` records
it, with the service's refusals inline (400, nothing written), offered to the API's counters;
then the day's books close from the daily page."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from accounting import summaries
from cage import services as cage
from cardroom.models import Employee, Role
from fees.models import FeeCollection, FeeCount
from tests.factories import make_person, witness_pin
from tests.page_support import form_token, page

pytestmark = pytest.mark.django_db

DAY = date(2026, 8, 14)
PACIFIC = ZoneInfo("America/Los_Angeles")
FEE = {"basis": "per_player", "period_minutes": "30", "rate_cents": "2", "count": "4", "amount_cents": ""}


def _count_form(cast, **changes):
    """The form as filled in, the chosen witness typing their own PIN (unless `changes` say)."""
    form = {
        "gaming_date": DAY.isoformat(),
        "counted_cents": "16.00",
        "witness": cast[Role.SHIFT_MANAGER].pk,
        "counted_at": "2026-08-14T22:00",
        **changes,
    }
    chosen = Employee.objects.filter(pk=form["witness"]).first()  # "999999": nobody
    if chosen is not None and "witness_pin" not in changes:
        form["witness_pin"] = witness_pin(chosen)
    return form


@pytest.fixture
def collected(client, cast, bj_table):
    """Two fees of $8 collected on the page by the pit boss that afternoon (from paper)."""
    client.force_login(cast[Role.PIT_BOSS].user)
    for hour in (14, 15):
        fee = {**FEE, "table": bj_table.pk, "collected_at": f"2026-08-14T{hour}:00"}
        assert client.post("/fees/", fee).status_code == 302
    assert FeeCollection.objects.filter(gaming_date=DAY).count() == 2
    client.logout()


def test_the_fees_are_collected_counted_by_two_and_the_books_closed_all_in_the_browser(
    client, cast, site, bj_table, collected
):
    client.force_login(cast[Role.CASHIER].user)
    html = page(client.get("/fees/"))
    assert 'id="fee-count-form"' in html and "counted by two people" in html
    counted = client.post("/fees/count/", _count_form(cast), follow=True)
    assert counted.status_code == 200
    assert "Fee cash of 2026-08-14 counted: $16.00" in page(counted)  # what was recorded, and what comes next
    # Who may close them, as accounting.rules.BOOKS_CLOSERS says: a shift manager too.
    assert "a gaming manager or shift manager closes the day's books on the daily page (House control)" in page(counted)
    count = FeeCount.objects.get()
    assert (count.counted_cents, count.counted_by, count.witness) == (
        1600,
        cast[Role.CASHIER],
        cast[Role.SHIFT_MANAGER],
    )
    for kind, dollars, hour in (("start", 10, 13), ("end", 26, 23)):  # the cage's part: the bank counted
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, kind=kind, cash={100: dollars},
            chips={}, at=datetime(2026, 8, 14, hour, tzinfo=PACIFIC),
        )  # fmt: skip
    client.force_login(cast[Role.GAMING_MANAGER].user)
    daily = page(client.get("/dashboard/daily/", {"site": site.pk, "date": DAY.isoformat()}))
    assert 'id="close-books"' in daily
    closed = client.post(f"/dashboard/daily/books/close/?site={site.pk}", {"date": DAY.isoformat()}, follow=True)
    assert closed.status_code == 200
    assert summaries.daily_summary(site, DAY).books_closed


@pytest.mark.parametrize(
    "changes, words",
    [
        (
            {"counted_at": "2026-08-14T14:30"},
            "House control: the fee cash of 2026-08-14 is counted once it is collected",
        ),
        ({"counted_cents": "-1.00"}, "The fee cash counted is from $0.00 to $1,000,000.00 (House control)"),
        ({"witness": "999999"}, "House control: the witness is someone of the organization at this site."),
    ],
)
def test_a_refused_count_is_shown_inline_citing_its_rule_and_writes_nothing(
    client, cast, bj_table, collected, changes, words
):
    client.force_login(cast[Role.CASHIER].user)
    refused = client.post("/fees/count/", _count_form(cast, **changes))
    assert refused.status_code == 400
    assert words in page(refused) and "counted_cents:" not in page(refused)
    assert not FeeCount.objects.exists()


def test_the_witness_is_someone_other_than_the_counter(client, cast, bj_table, collected):
    client.force_login(cast[Role.CASHIER].user)
    refused = client.post("/fees/count/", _count_form(cast, witness=cast[Role.CASHIER].pk))
    assert refused.status_code == 400 and "House control: the witness is someone" in page(refused)
    assert not FeeCount.objects.exists()


@pytest.mark.parametrize(
    "role, counts, reads",
    [
        (Role.CASHIER, True, True),
        (Role.SHIFT_MANAGER, True, True),
        (Role.COUNT_TEAM, True, False),
        (Role.PIT_BOSS, False, True),
        (Role.GAMING_MANAGER, False, True),
    ],
)
def test_the_count_form_is_offered_to_the_apis_counters(
    client, org, cast, site, bj_table, collected, role, counts, reads
):
    person = cast[role] if role != Role.COUNT_TEAM else make_person(org, Role.COUNT_TEAM, site)
    client.force_login(person.user)
    html = page(client.get("/fees/"))
    assert ('id="fee-count-form"' in html) is counts
    assert ('id="collections"' in html) is reads  # a counter who reads no fee records counts without them
    assert 'href="/fees/"' in html  # the menu leads there
    posted = client.post("/fees/count/", _count_form(cast, witness=cast[Role.DEALER].pk))
    assert posted.status_code == (302 if counts else 403)
    assert FeeCount.objects.count() == (1 if counts else 0)


def test_the_same_count_form_sent_twice_is_recorded_once(client, cast, bj_table, collected):
    client.force_login(cast[Role.CASHIER].user)
    token = form_token(page(client.get("/fees/")), "fee-count-form")
    first = client.post("/fees/count/", {**_count_form(cast), "form_token": token})
    again = client.post("/fees/count/", {**_count_form(cast), "form_token": token}, follow=True)
    assert first.status_code == 302 and again.status_code == 200
    assert "Already recorded" in page(again)
    assert FeeCount.objects.count() == 1  # a second one would have been a recount correcting the first


def test_the_same_fee_form_sent_twice_is_recorded_once_and_a_new_form_records_again(client, cast, bj_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    fee = {**FEE, "table": bj_table.pk}
    token = form_token(page(client.get("/fees/")), "fee-form")
    assert client.post("/fees/", {**fee, "form_token": token}).status_code == 302
    again = client.post("/fees/", {**fee, "form_token": token})
    assert again.status_code == 302 and again.url == "/fees/"
    assert FeeCollection.objects.count() == 1
    shown = page(client.get("/fees/"))
    assert "Already recorded" in shown and "Fee of $8.00 at table 1 recorded" in shown
    fresh = form_token(shown, "fee-form")
    assert fresh != token
    assert client.post("/fees/", {**fee, "form_token": fresh}).status_code == 302
    assert FeeCollection.objects.count() == 2


def test_a_refused_form_keeps_no_token_so_its_correction_is_recorded(client, cast, bj_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    token = form_token(page(client.get("/fees/")), "fee-form")
    wrong = client.post("/fees/", {**FEE, "table": bj_table.pk, "amount_cents": "7", "form_token": token})
    assert wrong.status_code == 400 and not FeeCollection.objects.exists()
    right = client.post("/fees/", {**FEE, "table": bj_table.pk, "amount_cents": "8", "form_token": token})
    assert right.status_code == 302 and FeeCollection.objects.count() == 1


def test_a_token_that_is_not_one_the_page_drew_is_refused(client, cast, bj_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    refused = client.post("/fees/", {**FEE, "table": bj_table.pk, "form_token": "twice"})
    assert refused.status_code == 400 and "House control: a form's one-time token" in refused.content.decode()
    assert not FeeCollection.objects.exists()
