"""A day's tournament play in its cash (ND 99-01.3-08-15: a tournament is twenty-one conducted under
the chapter; 08-16(1)(e)-(g)): the cashier collects its fees into the cash bank and pays its cash
prizes from it, so the bank count holds them; the day's cash long (short) is against the AGP of
the tables and the tournaments together, and nothing of the tournaments' cash is left unexplained.
Driven through the floor's, the cage's and the tournaments' services."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from accounting import frozen
from accounting.summaries import daily_summary, quarter_summary
from cardroom.models import Role
from core.money import format_money
from core.periods import Quarter
from floor import services as floor
from tests.accounting.books_days import count_bank, on
from tests.tournaments.conftest import announce
from tournaments import services as tournaments
from tournaments.models import FeeKind

pytestmark = pytest.mark.django_db

DAY = date(2026, 8, 14)
START_CASH = 100_000  # $1,000.00 in the bank as the day opens


def at(site, hour: int, minute: int = 0) -> datetime:
    return datetime(DAY.year, DAY.month, DAY.day, hour, minute, tzinfo=ZoneInfo(site.time_zone))


@pytest.fixture
def tournament_night(cast, site):
    return play_tournament_night(cast, site)


def play_tournament_night(cast, site):
    """DAY: a gaming day opened with no table play; a tournament with two $100 entries collected
    by the cashier, a $150 cash prize paid and a $45 jacket awarded; the bank counted at the start
    and the end, the end holding the fees less the cash prize ($1,050.00). The tournament."""
    boss, cashier = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    with on(site, DAY, 15):
        floor.open_gaming_day(acting_user=boss.user, site=site, gaming_date=DAY)
    with on(site, DAY, 22):
        t = announce(boss, site, gaming_date=DAY, at=at(site, 16))
        ann, bob = (
            tournaments.collect_fee(
                acting_user=cashier.user, tournament=t, kind=FeeKind.ENTRY, player_name=name, at=at(site, 17, n)
            ).player
            for n, name in enumerate(("Ann Lee", "Bob Ray"))
        )
        for player, kind, cents, what in ((ann, "cash", 15_000, ""), (bob, "merchandise", 4_500, "Jacket")):
            tournaments.award_prize(
                acting_user=boss.user, tournament=t, player=player, round_name="Final", kind=kind,
                amount_cents=cents, description=what, at=at(site, 21),
            )  # fmt: skip
        count_bank(cast, site, DAY, START_CASH, START_CASH + 20_000 - 15_000)
    return t


def test_a_days_tournament_cash_in_the_bank_is_not_left_unexplained(site, tournament_night):
    day = daily_summary(site, DAY)
    played = day.tournaments
    assert (played.gross_proceeds_cents, played.prizes_cents, played.agp_cents) == (20_000, 19_500, 500)
    cash = day.cash
    # the bank holds $50.00 more; the jacket ($45.00) took no cash: the cash profit is the AGP
    assert cash.cash_profit_cents == 5_000 - 4_500 == played.agp_cents
    assert cash.long_short_cents == 0 and cash.unexplained_cents == 0
    assert cash.deposit_expected_cents == 5_000  # the cash to deposit: the jacket back in (03-10(1))
    quarter = quarter_summary(site, Quarter.containing(DAY))
    assert quarter.cash_profit_cents == 500 and quarter.long_short_cents == 0 and quarter.unexplained_cents == 0


def test_the_daily_page_shows_no_unexplained_tournament_cash(client, cast, site, tournament_night):
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    assert f'id="long-short">{format_money(0)}<' in html
    assert f'id="unexplained">{format_money(0)}<' in html


def test_a_closed_day_of_an_earlier_format_keeps_its_own_cash_figures(site, tournament_night):
    """Versions 1 to 3 of the frozen format set the bank's cash against the tables' AGP only: a
    document stored in them is still compared in its own version (accounting.frozen)."""
    day = daily_summary(site, DAY)
    earlier = frozen.daily(day, 3)["cash"]
    assert (earlier["cash_profit_cents"], earlier["long_short_cents"]) == (5_000, 5_000)
    now = frozen.daily(day)
    assert now[frozen.VERSION_KEY] == frozen.FORMAT_VERSION and now["cash"]["long_short_cents"] == 0
