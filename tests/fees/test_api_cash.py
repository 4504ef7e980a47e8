"""The figures API at a fees (WA-BJ) or session (NY) site says what its daily page and reports
say: no cash long (short) nor its reconciling lines, which are reconciled against a drop-based
AGP such a pack has not (reading "unexplained" as the fees themselves was the fault the page and
the PDF had fixed). At a North Dakota site they stand as before. Driven through the services."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from cage import services as cage
from cardroom.models import Role
from core.periods import Quarter
from fees import services
from fees.models import GameSession

from .conftest import one_days_start

DAY = date(2026, 8, 14)
PACIFIC = ZoneInfo("America/Los_Angeles")
NOT_RECONCILED = ("long_short_cents", "chips_outside_change_cents", "unexplained_cents")


def bank(cashier, site, day, moments, cash_cents):
    """The cash bank counted at the start and the end of `day` (whole dollars)."""
    for kind, at, cents in zip(("start", "end"), moments, cash_cents, strict=True):
        cage.record_bank_count(
            acting_user=cashier.user, site=site, gaming_date=day, kind=kind, cash={100: cents // 100}, chips={}, at=at
        )


def summary(api, site, day) -> dict:
    response = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={day}")
    assert response.status_code == 200, response.content
    return response.json()


def quarter(api, site, day) -> dict:
    response = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter={Quarter.containing(day)}")
    assert response.status_code == 200, response.content
    return response.json()


def assert_no_reconciliation(api, site, day, profit_cents):
    cash = summary(api, site, day)["cash"]
    assert cash["cash_profit_cents"] == profit_cents  # the page's cash profit: the fees or receipts in the bank
    assert [cash[name] for name in NOT_RECONCILED] == [None, None, None]
    q = quarter(api, site, day)
    assert q["cash_profit_cents"] == profit_cents
    assert [q[name] for name in (*NOT_RECONCILED, "long_short_without_chip_count_cents")] == [None] * 4
    assert [[d["cash"][name] for name in NOT_RECONCILED] for d in q["days"]] == [[None, None, None]]


def test_the_daily_summary_of_a_fee_site_has_no_long_short_as_its_page(client_for, cast, site, bj_table):
    for hour in (14, 15):
        services.record_fee(
            acting_user=cast[Role.PIT_BOSS].user, table=bj_table, basis="per_player", period_minutes=30,
            rate_cents=200, count=4, collected_at=datetime(2026, 8, 14, hour, tzinfo=PACIFIC),
        )  # fmt: skip
    moments = (datetime(2026, 8, 14, 13, tzinfo=PACIFIC), datetime(2026, 8, 14, 23, tzinfo=PACIFIC))
    bank(cast[Role.CASHIER], site, DAY, moments, (1_000, 2_600))
    assert_no_reconciliation(client_for(cast[Role.AUDITOR]), site, DAY, 1_600)


def test_the_daily_summary_of_a_session_site_has_no_long_short_as_its_page(client_for, cast, ny_site, ny_shift):
    start = one_days_start(ny_site, timedelta(hours=3))
    services.record_session(
        acting_user=ny_shift.user, site=ny_site, licence_number="NY-1", started_at=start,
        ended_at=start + timedelta(hours=2), receipts_cents=5_000, prizes_cents=1_500,
    )  # fmt: skip
    day = GameSession.objects.get().gaming_date  # read, never written
    bank(ny_shift, ny_site, day, (start, start + timedelta(hours=3)), (1_000, 4_500))
    assert_no_reconciliation(client_for(cast[Role.AUDITOR]), ny_site, day, 3_500)
