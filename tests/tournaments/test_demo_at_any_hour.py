"""The demo tournament is built at any hour (tournaments.demo): its hour of play is today's
business day's, however little of that day has passed, and none of it is in the future. It
was dated an hour before now, which in the business day's first hour (06:00-07:00 in
Chicago) fell on the day before, whose books the cage's demo had closed: loading the demo
failed then, and with it every test that loads the short demo."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from floor.calculations import business_date, gaming_day_bounds
from tests.api.demo import load_short_demo
from tournaments.demo import NAME
from tournaments.models import Tournament, TournamentFee, TournamentPrize

pytestmark = pytest.mark.django_db

AT_THE_OPENING = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)  # 06:00 in Chicago: the busy site's business day starts
TWENTY_MINUTES_IN = datetime(2026, 11, 26, 12, 20, tzinfo=UTC)
EVENING = datetime(2026, 11, 27, 2, 0, tzinfo=UTC)  # 20:00 in Chicago


@pytest.mark.parametrize("now", [AT_THE_OPENING, TWENTY_MINUTES_IN, EVENING], ids=["opening", "20-min-in", "evening"])
def test_the_demo_tournament_is_played_within_todays_business_day(now):
    with time_machine.travel(now, tick=False):
        demo = load_short_demo(weeks=1)
        site = demo["sites"]["busy"]
        today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    tournament = Tournament.objects.get(site=site, name=NAME)
    assert tournament.gaming_date == today
    opened = gaming_day_bounds(today, site.time_zone, site.business_day_start_hour)[0]
    moments = [tournament.announced_at]
    moments += TournamentFee.objects.filter(tournament=tournament).values_list("collected_at", flat=True)
    moments += TournamentPrize.objects.filter(tournament=tournament).values_list("awarded_at", flat=True)
    assert len(moments) > 10
    assert all(opened <= moment <= now for moment in moments), (opened, now, sorted(moments))
    # The hour of play (its last prize 56 minutes in), or as much of it as the day has had.
    assert max(moments) - min(moments) == timedelta(minutes=56) * min(1, (now - opened) / timedelta(hours=1))


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
