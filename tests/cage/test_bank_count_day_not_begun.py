"""A bank count is never for a gaming day after the site's current one (House control, the
floor's gaming day state): the day after the current gaming day is refused on `gaming_date`
through the API (400) and the bank page (inline), writing nothing, at any hour (between midnight
and the day's start hour the current gaming day is the calendar day before)."""

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from cage.models import BankCount
from cardroom.models import Role
from core.moments import gaming_date_of


def test_the_api_refuses_a_bank_count_of_the_next_gaming_day(client_for, cashier, site, chips):
    current = gaming_date_of(site, timezone.now())
    ahead = current + timedelta(days=1)
    cash = [{"value_cents": 10000, "quantity": 3}]
    payload = {"site": site.pk, "gaming_date": ahead.isoformat(), "kind": "start", "cash": cash, "chips": {}}
    response = client_for(cashier).post("/api/v1/cage/bank-counts/", payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["gaming_date"] == [
        f"House control: the gaming day {ahead} has not begun yet at {site} (its current gaming day is {current})."
    ]
    assert not BankCount.objects.exists()


def test_the_bank_page_refuses_a_count_of_the_next_gaming_day_inline(cast, site, chips):
    ahead = gaming_date_of(site, timezone.now()) + timedelta(days=1)
    client = Client()
    client.force_login(cast[Role.CASHIER].user)
    response = client.post(
        "/cage/", {"form": "count", "gaming_date": ahead.isoformat(), "kind": "start", "cash_10000": "3"}
    )
    assert response.status_code == 400
    assert f"House control: the gaming day {ahead} has not begun yet" in response.content.decode()
    assert not BankCount.objects.exists()
