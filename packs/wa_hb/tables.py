"""Washington house-banked blackjack: the Washington State Gambling Commission's Blackjack game
rules (rev. April 2018), numbered rules 1-11 plus the notes on splitting, doubling, insurance
and surrender.

The options those rules say "must be documented in internal controls" (hit soft 17, which pairs
split, which hands double, insurance, surrender, payout rounding) are checked against the site's
internal controls by the `approvals` app's registered table check, not here. The WSGC rules set
no wager limit (`WAGER_LIMITS`).

Payout rounding (rule 7: licensees "must post ... the payouts for blackjack games offered for
play, including how rounding the payout will occur"): a payout that can produce a fraction of
the table's whole-dollar wagers (3 to 2 on an odd wager, 6 to 5 on one not a multiple of $5)
needs its posted rounding rule; 2 to 1 and even money never do.
"""

from ..base import WagerLimits
from ..common import is_twenty_one, wager_errors

WSGC_BLACKJACK_RULES = "WSGC Blackjack Game Rules (rev. April 2018)"
# The WSGC house-banked Blackjack game rules set no wager limit: the card room sets its limits
# in its internal controls. WAC 230-40-125(4)'s $25 maximum governs only the player-banked
# "Washington blackjack" game (WA-BJ), which is not a house-banked table, so it is not cited here.
WAGER_LIMITS = (WagerLimits(f"House control (the {WSGC_BLACKJACK_RULES} set no wager limit)", 100, None, 100),)

DECKS_MAX = 8  # rule 1
PLAYERS_MAX = 9  # rule 1
HAND_DEALT_DECKS_MAX = 2  # rule 3
FRACTIONAL_PAYOUTS = frozenset({"3:2", "6:5"})  # rule 7: these need a posted rounding rule


def rule(number) -> str:
    return f"{WSGC_BLACKJACK_RULES} rule {number}"


CITATIONS = {
    "decks": rule(1),
    "max_players": rule(1),
    "dealt_from": rule(3),
    "tie_option": rule(11),
    "payout_rounding": rule(7),
    "wagers": WSGC_BLACKJACK_RULES,
}


def table_rules(table) -> dict[str, str]:
    errors = wager_errors(table)
    if not is_twenty_one(table):
        return errors
    if table.decks > DECKS_MAX:
        errors["decks"] = f"{rule(1)}: blackjack is played using up to eight decks (got {table.decks})."
    if table.max_players > PLAYERS_MAX:
        errors["max_players"] = f"{rule(1)}: up to nine players can play on one blackjack table (got {table.max_players})."
    if table.dealt_from == "hand" and table.decks > HAND_DEALT_DECKS_MAX:
        errors["dealt_from"] = (
            f"{rule(3)}: blackjack is dealt from a dealing shoe or an approved shuffling device; only single "
            f"or double deck games may be dealt by hand (this table uses {table.decks} decks)."
        )
    if table.blackjack_payout in FRACTIONAL_PAYOUTS and not table.payout_rounding:
        errors["payout_rounding"] = (
            f"{rule(7)}: the blackjack payout ({table.blackjack_payout}) must be posted with how rounding "
            "the payout will occur: choose rounding down or up."
        )
    if table.tie_option is not None:
        errors["tie_option"] = (
            f"{rule(11)}: a tie is a push at a Washington table; the tie option is New York's (9 NYCRR 4620.5(h))."
        )
    if table.banker != "house":
        errors["banker"] = (
            "House control: a player-banked table is Washington blackjack (WAC 230-40-125), a site of the WA-BJ "
            f"pack; the {WSGC_BLACKJACK_RULES} govern house-banked tables."
        )
    if table.min_bank_cents is not None:
        errors["min_bank_cents"] = (
            "House control: a minimum bank is the player-banker's (WAC 230-40-125(3)); the house banks this table."
        )
    return errors
