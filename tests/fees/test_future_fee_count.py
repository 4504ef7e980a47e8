"""A fee cash count is never for a gaming day after the site's current one (house control): a
count dated ahead would put that future day's over/short on the daily page. Refused on
`gaming_date` through the API (400) and the page (inline), writing nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from core.moments import gaming_date_of
from fees.models import FeeCount
from tests.factories import witness_pin
from tests.page_support import page

pytestmark = pytest.mark.django_db

COUNTS = "/api/v1/fee-counts/"


def _count(cast, site, day):
    return {
        "site": site.pk,
        "gaming_date": day.isoformat(),
        "counted_cents": 1600,
        "witness": cast[Role.PIT_BOSS].pk,
        "witness_pin": witness_pin(cast[Role.PIT_BOSS]),
    }


def test_the_api_refuses_a_count_of_a_day_not_begun(cast, client_for, site, bj_table):
    current = gaming_date_of(site, timezone.now())
    ahead = current + timedelta(days=2)
    response = client_for(cast[Role.CASHIER]).post(COUNTS, _count(cast, site, ahead), format="json")
    assert response.status_code == 400
    (message,) = response.json()["gaming_date"]
    assert message.startswith(f"House control: the gaming day {ahead} has not begun yet")
    assert f"its current gaming day is {current}" in message
    assert not FeeCount.objects.exists()
    # the current gaming day is counted
    response = client_for(cast[Role.CASHIER]).post(COUNTS, _count(cast, site, current), format="json")
    assert response.status_code == 201, response.content
    assert FeeCount.objects.get().gaming_date == current


def test_the_page_refuses_a_count_of_a_day_not_begun_inline(client, cast, site, bj_table):
    ahead = gaming_date_of(site, timezone.now()) + timedelta(days=2)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    form = {
        "gaming_date": ahead.isoformat(),
        "counted_cents": "16.00",
        "witness": cast[Role.CASHIER].pk,
        "witness_pin": witness_pin(cast[Role.CASHIER]),
    }
    refused = client.post("/fees/count/", form)
    assert refused.status_code == 400
    html = page(refused)
    assert f"House control: the gaming day {ahead} has not begun yet" in html
    assert f"Fee cash of {ahead} counted" not in html
    assert not FeeCount.objects.exists()
