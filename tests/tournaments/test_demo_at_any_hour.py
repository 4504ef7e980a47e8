"""The demo tournament is played on the busy site's last demo night (tournaments.demo), whatever
the hour the demo is loaded: a night with its gaming day and its bank counted, whose books the
books' demo closes after it, so the night's figures, its daily report and the quarter's row of
that date carry the tournament beside the tables. It was dated today, on a business day with no
gaming day and no bank count: the quarter's row of that date read $0.00 while the tournament's
$750.00 was in the tax's site line. Before that it was dated an hour before now, which in the
business day's first hour (06:00-07:00 in Chicago) fell on the day before, whose books the
cage's demo had closed: loading the demo failed then, and with it every test that loads the
short demo."""

from datetime import UTC, datetime

import pytest
import time_machine

from accounting.published import closed_books_of, daily_summary
from cage.demo import close_last_night
from cage.models import BankCount
from floor.demo import built_dates, entered_by_hand
from floor.models import GamingDay
from tests.api.demo import load_short_demo
from tournaments.demo import NAME, extend_demo
from tournaments.models import Tournament, TournamentFee, TournamentPrize

pytestmark = pytest.mark.django_db

AT_THE_OPENING = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)  # 06:00 in Chicago: the busy site's business day starts
TWENTY_MINUTES_IN = datetime(2026, 11, 26, 12, 20, tzinfo=UTC)
EVENING = datetime(2026, 11, 27, 2, 0, tzinfo=UTC)  # 20:00 in Chicago


@pytest.mark.parametrize("now", [AT_THE_OPENING, TWENTY_MINUTES_IN, EVENING], ids=["opening", "20-min-in", "evening"])
def test_the_demo_tournament_is_played_on_the_busy_sites_last_demo_night_inside_its_gaming_day(now):
    with time_machine.travel(now, tick=False):
        demo = load_short_demo(weeks=1)
    site = demo["sites"]["busy"]
    tournament = Tournament.objects.get(site=site, name=NAME)
    night = GamingDay.objects.get(site=site, gaming_date=tournament.gaming_date)
    assert tournament.gaming_date == max(built_dates(site))  # the demo's own night, never a person's
    assert not entered_by_hand(site).filter(gaming_date=tournament.gaming_date).exists()
    assert BankCount.objects.filter(site=site, gaming_date=night.gaming_date).count() == 2  # start and end
    moments = [tournament.announced_at]
    moments += TournamentFee.objects.filter(tournament=tournament).values_list("collected_at", flat=True)
    moments += TournamentPrize.objects.filter(tournament=tournament).values_list("awarded_at", flat=True)
    assert len(moments) > 10
    assert all(night.opened_at < moment < night.closed_at <= now for moment in moments), (night, sorted(moments))


def test_the_demo_tournaments_night_closes_with_the_tournament_and_its_row_carries_the_tables(db):
    """Its night's books, closed by the books' demo after it, froze the tournament with the
    tables; the night's summary has table play and a counted bank beside the tournament, so the
    quarter's row of its date is not a row of $0.00 beside a tournament counted elsewhere."""
    with time_machine.travel(EVENING, tick=False):
        demo = load_short_demo(weeks=1)
        close_last_night(demo)
        site = demo["sites"]["busy"]
        tournament = Tournament.objects.get(site=site, name=NAME)
        day = daily_summary(site, tournament.gaming_date)
        closed = closed_books_of(site, tournament.gaming_date)
        again = Tournament.objects.count(), TournamentFee.objects.count(), TournamentPrize.objects.count()
        extend_demo(demo)  # loaded again: nothing new
    assert (day.tournaments.gross_proceeds_cents, day.tournaments.prizes_cents) == (75000, 36000)
    assert day.tables and day.twenty_one.gross_proceeds_cents > 0 and day.cash.cash_profit_cents is not None
    assert closed is not None and closed.figures["tournaments"]["gross_proceeds_cents"] == 75000
    assert (Tournament.objects.count(), TournamentFee.objects.count(), TournamentPrize.objects.count()) == again


def test_the_demo_tournament_bears_north_dakotas_name_for_the_game_and_an_older_demo_gets_no_second(monkeypatch):
    """ND 99-01.3-08 names the game twenty-one (packs.GameNames); a demo loaded when the
    tournament was named "... Blackjack Tournament" keeps its one tournament on a later load."""
    import tournaments.demo
    from tournaments.demo import EARLIER_NAMES, extend_demo

    assert "Twenty-one" in NAME and "Blackjack" not in NAME and "Friday" not in NAME
    with time_machine.travel(EVENING, tick=False):
        with monkeypatch.context() as older:  # the demo as an earlier version loaded it
            older.setattr(tournaments.demo, "NAME", EARLIER_NAMES[0])
            demo = load_short_demo(weeks=1)
        extend_demo(demo)  # loaded again by this version
    site = demo["sites"]["busy"]
    assert list(Tournament.objects.filter(site=site).values_list("name", flat=True)) == [EARLIER_NAMES[0]]
