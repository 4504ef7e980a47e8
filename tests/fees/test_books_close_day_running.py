"""The books of a day with no gaming day opened on the floor (a fees site's, WA-BJ) close once its
business day has ended at the site, never while it still runs: Tacoma's books of 2026-12-06 were
closed at 02:03 local on 12-07 (its day starts at 06:00), and a fee of 12-06 recorded after that
was refused as in closed books. Driven through the services."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError

from accounting import services as books
from cage import services as cage
from cardroom.models import Role
from core.moments import gaming_day_bounds
from fees import services
from floor.models import GamingDay
from tests.factories import witness_pin

from .test_books import DAY, _fee

PACIFIC = ZoneInfo("America/Los_Angeles")


def _counted(cast, site, bj_table):
    for hour in (14, 15):
        _fee(cast, bj_table, hour)
    services.count_fees(
        acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, counted_cents=1600,
        witness=cast[Role.SHIFT_MANAGER], witness_pin=witness_pin(cast[Role.SHIFT_MANAGER]),
        counted_at=datetime(2026, 8, 14, 22, tzinfo=PACIFIC),
    )  # fmt: skip
    for kind, hour, singles in (("start", 13, 10), ("end", 23, 26)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, kind=kind, cash={100: singles},
            chips={}, at=datetime(2026, 8, 14, hour, tzinfo=PACIFIC),
        )  # fmt: skip


def _close(cast, site):
    return books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=DAY)


def test_a_fee_days_books_close_only_once_its_business_day_has_ended(client, cast, site, bj_table):
    end = gaming_day_bounds(site, DAY)[1]
    assert end == datetime(2026, 8, 15, site.business_day_start_hour, tzinfo=PACIFIC)
    with time_machine.travel(datetime(2026, 8, 15, 2, 3, tzinfo=PACIFIC), tick=False):
        _counted(cast, site, bj_table)
        assert not GamingDay.objects.filter(site=site).exists()
        with pytest.raises(ValidationError) as refused:
            _close(cast, site)
        message = refused.value.message_dict["gaming_date"][0]
        assert message.startswith("House control: the gaming day 2026-08-14 at Tacoma Blackjack Room runs until")
        assert "its books close once it has ended" in message
        # The daily page's close button says so before it is pressed, beside what else it needs.
        client.force_login(cast[Role.GAMING_MANAGER].user)
        page = client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
        needs = page.split('id="close-needs">')[1].split("</span>")[0]
        assert needs.endswith(f"its business day ended ({end:%Y-%m-%d} 06:00 PDT).") and "the bank counted" in needs
    with time_machine.travel(end, tick=False):
        assert _close(cast, site).gaming_date == DAY
