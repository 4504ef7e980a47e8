"""A deposit of another amount than the day's closed books expect is recorded (the bank's slip
says what it says) and said at once: the API's answer gives `expected_cents` and
`difference_cents`, as its list does, and the deposit page's message warns with the shortfall.
Before, both took it without a word (only the daily page and its PDF flagged it)."""

from datetime import timedelta
from decimal import Decimal

from django.contrib.messages import get_messages

from accounting.models import BooksClose
from cardroom.models import Role
from core.money import format_money
from tests.accounting.test_books_close import DAY, close, play
from tests.factories import TableFactory
from tests.page_support import at_site


def _closed(scenario, site, cast) -> int:
    play(scenario, TableFactory(site=site, number=1))
    close(cast[Role.SHIFT_MANAGER], site)
    expected = BooksClose.objects.get(site=site, gaming_date=DAY).figures["cash"]["deposit_expected_cents"]
    assert expected > 1_200
    return expected


def test_the_api_says_how_far_a_deposit_is_from_what_the_closed_books_expect(
    scenario, site, cast, client_for, django_assert_max_num_queries
):
    expected = _closed(scenario, site, cast)
    api = client_for(cast[Role.CASHIER])
    payload = {
        "site": site.pk,
        "gaming_date": str(DAY),
        "amount_cents": expected - 1_200,
        "deposited_on": str(DAY + timedelta(days=1)),
    }
    created = api.post("/api/v1/cage/deposits/", payload, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["expected_cents"], body["difference_cents"]) == (expected, -1_200)
    listed = api.get("/api/v1/cage/deposits/").json()["results"]
    assert [(d["expected_cents"], d["difference_cents"]) for d in listed] == [(expected, -1_200)]


def test_the_deposit_page_warns_of_a_shortfall(scenario, site, cast, client):
    from floor.models import GamingDay

    expected = _closed(scenario, site, cast)
    day = GamingDay.objects.get(site=site, gaming_date=DAY)
    cashier = at_site(client, cast[Role.CASHIER], site)
    posted = {"amount_cents": str(Decimal(expected - 1_200) / 100), "deposited_on": str(DAY + timedelta(days=1))}
    response = cashier.post(f"/cage/deposits/day/{day.pk}/", posted)
    assert response.status_code == 302
    [message] = list(get_messages(response.wsgi_request))
    assert message.level_tag == "warning"
    assert f"; $12.00 short of the {format_money(expected)} the day's closed books expect" in message.message
