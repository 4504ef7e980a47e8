"""A demo tournament at the busy demo site, written through the services.

    extend_demo(demo)

Tonight's "Demo: Twenty-one Tournament" (North Dakota's name for the game; played on whatever
day the demo is loaded, so no weekday in its name): $100 entry for 500 chips, $50 rebuys for
500 chips, $25 add-ons for 250 chips (ND 99-01.3-08-15(1)); six players, one of whom pays the
full $200.00 (entry, rebuy and two add-ons); one rebuy rung up twice and voided; a $300 cash
prize to the winner and a $60 merchandise prize for second place. It is dated on today's
business day, whose books are still open (the cage's demo closes only earlier days): the
hour before now, or in the business day's first hour the part of it that has passed.

Idempotent: it does nothing when the demo tournament is already at the site (by its name or an
earlier one), nor when a person has opened today's gaming day there (the demo writes into no
day a person entered).
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from floor.calculations import business_date, gaming_day_bounds

from . import services
from .models import FeeKind, Tournament

NAME = "Demo: Twenty-one Tournament"
# Its names before (before the packs named their games, packs.GameNames; then with a weekday it
# was not always played on): a demo loaded then has one, and loading again adds no second.
EARLIER_NAMES = ("Demo: Friday Night Blackjack Tournament", "Demo: Friday Night Twenty-one Tournament")
PLAY = timedelta(hours=1)
PLAYERS = ("Arne Olson", "Birgit Haugen", "Carl Nygaard", "Dorothy Pederson", "Emil Fjeld", "Frida Strand")


def extend_demo(demo: dict) -> None:
    """The hook `manage.py load_demo` calls last: the busy site only."""
    site, people = demo["sites"]["busy"], demo["people"]
    if Tournament.objects.filter(site=site, name__in=(NAME, *EARLIER_NAMES)).exists():
        return
    from floor.demo import entered_by_hand

    now = timezone.now()
    today = business_date(now, site.time_zone, site.business_day_start_hour)
    if entered_by_hand(site).filter(gaming_date=today).exists():
        return
    # An hour of play ending now; in the business day's first hour, the time it has had, so
    # that every moment of it is today's (the day before is over, its books closed by the
    # cage's demo) and none is in the future.
    opened = gaming_day_bounds(today, site.time_zone, site.business_day_start_hour)[0]
    span = min(PLAY, now - opened)
    start, scale = now - span, span / PLAY
    boss, cashier = people["shift"], people["cashier"]
    with transaction.atomic():
        tournament = services.announce_tournament(
            acting_user=boss.user,
            site=site,
            name=NAME,
            gaming_date=today,
            entry_fee_cents=10000,
            chips_per_entry=500,
            rebuy_fee_cents=5000,
            chips_per_rebuy=500,
            add_on_fee_cents=2500,
            chips_per_add_on=250,
            betting_spaces=1,
            rotating_button=True,
            length_of_play="Two preliminary rounds of 25 hands, a final of 30 hands",
            minimum_bet_chips=10,
            maximum_bet_chips=500,
            advancement="The two players with the most chips at each table advance to the final.",
            prizes_offered="Winner: $300 cash. Second place: a club jacket (value $60).",
            at=start,
        )
        _play(tournament, cashier, boss, lambda minutes: start + timedelta(minutes=minutes) * scale)


def _play(tournament, cashier, boss, at) -> None:
    """The tournament's hour; `at(minutes)`: the moment so many minutes into it."""

    def fee(kind, minutes, **who):
        return services.collect_fee(acting_user=cashier.user, tournament=tournament, kind=kind, at=at(minutes), **who)

    players = [fee(FeeKind.ENTRY, 5 + n, player_name=name).player for n, name in enumerate(PLAYERS)]
    fee(FeeKind.REBUY, 20, player=players[0])
    fee(FeeKind.ADD_ON, 30, player=players[0])
    fee(FeeKind.ADD_ON, 31, player=players[0])  # $200.00: the most a player may pay (08-15(1))
    twice = fee(FeeKind.REBUY, 22, player=players[2])
    fee(FeeKind.REBUY, 23, player=players[2])
    services.void_fee(acting_user=boss.user, fee=twice, reason="Demo: rung up twice", at=at(25))
    for player, kind, cents, what, minutes in (
        (players[0], "cash", 30000, "", 55),
        (players[2], "merchandise", 6000, "Club jacket", 56),
    ):
        services.award_prize(
            acting_user=boss.user,
            tournament=tournament,
            player=player,
            round_name="Final",
            kind=kind,
            amount_cents=cents,
            description=what,
            at=at(minutes),
        )
