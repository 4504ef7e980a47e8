"""The daily summary's default day at a fees-only site (its tables open no gaming day: the latest
day of its fees, not an empty today) and an adjusting entry's row (no hold: it corrects an
earlier day's figure). Driven through the services: fees recorded and counted, the bank counted,
the books closed, an adjustment recorded."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounting import services as books
from accounting.models import BooksClose
from cage import services as cage
from cardroom.models import Role
from fees import services as fees
from tests.factories import fees_site, make_person, player_banked_table, witness_pin

from .conftest import FIRST_DAY

pytestmark = pytest.mark.django_db

FEE_DAY = date(2026, 8, 18)  # two days before the clock's 2026-08-20 (tests/dashboard/conftest.py)
PACIFIC = ZoneInfo("America/Los_Angeles")


def _at(hour: int) -> datetime:
    return datetime.combine(FEE_DAY, datetime.min.time(), tzinfo=PACIFIC) + timedelta(hours=hour)


def _closed_fee_day(cast, site) -> None:
    """FEE_DAY's two table fees ($16) collected, counted by two people, the bank counted at both
    ends, the books closed (by the organization's gaming manager); no gaming day opened."""
    table = player_banked_table(site)
    cast = {
        role: make_person(site.organization, role, site) for role in (Role.PIT_BOSS, Role.CASHIER, Role.SHIFT_MANAGER)
    } | {Role.GAMING_MANAGER: cast[Role.GAMING_MANAGER]}
    for hour in (14, 15):
        fees.record_fee(
            acting_user=cast[Role.PIT_BOSS].user, table=table, basis="per_player", period_minutes=30,
            rate_cents=200, count=4, collected_at=_at(hour),
        )  # fmt: skip
    fees.count_fees(
        acting_user=cast[Role.CASHIER].user, site=site, gaming_date=FEE_DAY, counted_cents=1600,
        witness=cast[Role.SHIFT_MANAGER], witness_pin=witness_pin(cast[Role.SHIFT_MANAGER]), counted_at=_at(22),
    )  # fmt: skip
    for kind, hour, bills in (("start", 13, 10), ("end", 23, 26)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=FEE_DAY, kind=kind, cash={100: bills},
            chips={}, at=_at(hour),
        )  # fmt: skip
    books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=FEE_DAY)


def test_a_fees_only_sites_daily_summary_opens_on_its_latest_day_of_fees(client, cast, org):
    tacoma = fees_site(org)
    _closed_fee_day(cast, tacoma)
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/daily/?site={tacoma.pk}").content.decode()
    assert "Tuesday 2026-08-18" in html and 'id="no-gaming-day"' not in html
    assert "No gaming day was opened and no fee was recorded" not in html
    assert "Fees collected (2 collections)" in " ".join(html.replace("<", " <").split())


def test_an_adjusting_entrys_row_shows_no_hold(client, cast, site, make_play):
    play = make_play(1, 2)
    books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=FIRST_DAY)
    adjustment = books.record_adjustment(
        acting_user=cast[Role.GAMING_MANAGER].user,
        books_close=BooksClose.objects.get(site=site, gaming_date=FIRST_DAY),
        field="drop",
        amount_cents=2_000,
        table=play.tables[0],
        reason="a box found after the count",
        recorded_on=FIRST_DAY + timedelta(days=1),
    )
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/daily/?site={site.pk}&date={FIRST_DAY + timedelta(days=1)}").content.decode()
    start = html.index(f'data-adjustment="{adjustment.pk}"')
    row = html[start : html.index("</tr>", start)]
    assert "$20.00" in row and "%" not in row
    assert row.split("</td>")[-3].endswith(">—")  # the hold cell, before the reason's
