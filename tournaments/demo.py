"""A demo tournament at the busy demo site, written through the services.

    extend_demo(demo)

The "Demo: Twenty-one Tournament" (North Dakota's name for the game; no weekday in its name, it
was once played on whatever day the demo was loaded): $100 entry for 500 chips, $50 rebuys for
500 chips, $25 add-ons for 250 chips (ND 99-01.3-08-15(1)); six players, one of whom pays the
full $200.00 (entry, rebuy and two add-ons); one rebuy rung up twice and voided; a $300 cash
prize to the winner and a $60 merchandise prize for second place.

It is played on the busy site's last demo night (`floor.demo.built_dates`), an hour into that
gaming day: a night with its tables, whose bank the cage's demo counts afterwards (its ending
count holds the fees the cashier took in less the cash prize paid out, `cage.demo._day_flows`:
the bank's cash is the tournament's too, accounting.summaries.cash_figures) and whose books the
books' demo closes (`cage.demo.close_last_night`, from `accounting.demo_books`), so the closed
figures, the daily and quarterly reports and the return carry the tournament with the night's
tables. `manage.py load_demo` runs this after the floor and the counts, before the cage and the
books (`_extensions`). It was dated today, on a business day with no gaming day and no bank count:
that day's row in the quarter's days read $0.00 while its $750.00 was in the tax's site line.

Idempotent: it does nothing when the demo tournament is already at the site (by its name or an
earlier one, whatever day it was dated), nor where the site has no demo night, or its last one's
books are closed. It writes into no day a person entered: only a night the demo built.
"""

from datetime import timedelta

from django.db import transaction

from core.closing import books_closed
from floor.models import GamingDay

from . import services
from .models import FeeKind, Tournament

NAME = "Demo: Twenty-one Tournament"
# Its names before (before the packs named their games, packs.GameNames; then with a weekday it
# was not always played on): a demo loaded then has one, and loading again adds no second.
EARLIER_NAMES = ("Demo: Friday Night Blackjack Tournament", "Demo: Friday Night Twenty-one Tournament")
INTO_THE_NIGHT = timedelta(hours=1)  # its announcement, after the gaming day opened
PLAYERS = ("Arne Olson", "Birgit Haugen", "Carl Nygaard", "Dorothy Pederson", "Emil Fjeld", "Frida Strand")


def extend_demo(demo: dict) -> None:
    """`manage.py load_demo` hook, before the cage's (which counts the night's bank) and the
    books' (which close the night): the busy site only."""
    from floor.demo import built_dates

    site, people = demo["sites"]["busy"], demo["people"]
    if Tournament.objects.filter(site=site, name__in=(NAME, *EARLIER_NAMES)).exists():
        return
    built = built_dates(site)  # the demo's nights only, never a day a person entered
    if not built or books_closed(site.pk, max(built)):
        return
    night = GamingDay.objects.get(site=site, gaming_date=max(built))
    start = night.opened_at + INTO_THE_NIGHT
    boss, cashier = people["shift"], people["cashier"]
    with transaction.atomic():
        tournament = services.announce_tournament(
            acting_user=boss.user,
            site=site,
            name=NAME,
            gaming_date=night.gaming_date,
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
        _play(tournament, cashier, boss, lambda minutes: start + timedelta(minutes=minutes))


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
