"""North Dakota's law for twenty-one tournaments (08-15, 08-16(1)(e),(f)): rule key -> citation.

A site whose pack states `tournaments.tournament` may record tournaments (tournaments.rules);
elsewhere the register is refused rather than held to North Dakota's caps. `LIMITS`: the cap of
08-15(1) (as amended October 1, 2006)."""

from datetime import date

from ..base import Limit

ND_08_15_DATE = date(2006, 10, 1)  # 08-15 amended effective October 1, 2006

CITATIONS: dict[str, str] = {
    # 08-15: a tournament is conducted according to chapter 08 except as 08-15 provides, and its
    # rules are disclosed to players.
    "tournaments.tournament": "ND 99-01.3-08-15",
    "tournaments.disclosure": "ND 99-01.3-08-15",
    # The law a tournament is played under, as the disclosure to players names it.
    "tournaments.governing_law": "North Dakota Administrative Code chapter 99-01.3-08",
    # 08-15(1): the entry fee for a fixed number of no-value chips; rebuys and add-ons at most
    # the entry fee; at most $200 per player in all; a register of players and fees.
    "tournaments.fees": "ND 99-01.3-08-15(1)",
    # 08-15(2): one or two betting spaces, a rotating button, the length of play.
    "tournaments.play": "ND 99-01.3-08-15(2)",
    # 08-15(3): no moving, pausing or transferring chips; a minimum bet (and optional maximum).
    "tournaments.betting": "ND 99-01.3-08-15(3)",
    # 08-15(4): the most chips wins; prizes per round; two players may split; cash or merchandise.
    "tournaments.prizes": "ND 99-01.3-08-15(4)",
    # 08-16(1)(e): the fees collected, each player's name, the collecting employee's initials, the date.
    "tournaments.fee_record": "ND 99-01.3-08-16(1)(e)",
    # 08-16(1)(f): the prize register and the record of win.
    "tournaments.prize_record": "ND 99-01.3-08-16(1)(f)",
    # 08-16(1)(g): the daily summary of gross proceeds, prizes and adjusted gross proceeds.
    "tournaments.daily_summary": "ND 99-01.3-08-16(1)(g)",
}

LIMITS: tuple[Limit, ...] = (
    # 08-15(1): "The cumulative entry fee, including rebuys or add-ons, for an entire tournament
    # cannot exceed two hundred dollars per player."
    Limit("tournaments.max_cumulative_fee_cents", 20_000, "$200.00 per player", "ND 99-01.3-08-15(1)", ND_08_15_DATE),
)
