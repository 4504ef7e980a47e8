"""Washington house-banked blackjack: the Washington State Gambling Commission's Blackjack game
rules (rev. April 2018), numbered rules 1-11 plus the notes on splitting, doubling, insurance
and surrender.

The options those rules say "must be documented in internal controls" (hit soft 17, which pairs
split, which hands double, insurance, surrender, the payout and its rounding) are checked against
the site's internal controls by the `approvals` app's registered table check, not here
(`table.internal_controls`).

The single-wager limit is not in the WSGC rules: the game approvals bind operators to "the
authorized limits set out in WAC 230-15-040 and WAC 230-15-140", and WAC 230-15-140 sets it
(`WAGER_LIMITS`, effective-dated: the row in force on a day is the last that began by then).

Payout rounding (rule 7: licensees "must post ... the payouts for blackjack games offered for
play, including how rounding the payout will occur"): a payout that can produce a fraction of
the table's whole-dollar wagers (3 to 2 on an odd wager, 6 to 5 on one not a multiple of $5)
needs its posted rounding rule; 2 to 1 and even money never do.
"""

from ..base import Limit, WagerLimits
from ..common import is_twenty_one, wager_errors

WSGC_BLACKJACK_RULES = "WSGC Blackjack Game Rules (rev. April 2018)"
WAGER_LIMIT_RULE = "WAC 230-15-140"
# WAC 230-15-140 "Wagering limits for house-banked card games". No held text states the number:
# the public rule-making record does (shared/regulations/wa-wager-limits.md). WSR 16-20-098
# (Oct 2016): "Currently, wagers on house-banked card games are limited to $300"; WSR 23-03-060
# says the limits "have not been increased since 2009". The start of the $300 limit is therefore
# assumed (in force before any day the product records: effective_from None). The 2023 proposals
# ($500, then $400, WSR 23-09-065) are not confirmed in force: when the commission's change
# applies, a row with its own effective date and source is added after this one. Whole dollars
# from $1 are the house's own control.
WAGER_LIMITS = (
    WagerLimits(
        f"{WAGER_LIMIT_RULE} (the $300 single-wager limit as WSR 16-20-098 records it; its start date is "
        "assumed; whole dollars from $1: House control)",
        100,
        30_000,
        100,
    ),
)

DECKS_MAX = 8  # rule 1
PLAYERS_MAX = 9  # rule 1
HAND_DEALT_DECKS_MAX = 2  # rule 3
FRACTIONAL_PAYOUTS = frozenset({"3:2", "6:5"})  # rule 7: these need a posted rounding rule


# The settings a Washington house-banked table states (beyond `packs.base.COMMON_TABLE_FIELDS`):
# decks, players and the deal (rules 1, 3), the payout and its rounding (rule 7), the options the
# notes leave to the internal controls and the settings a game approval may fix (`approvals`).
# No tie option (rule 11: a tie is a push), no player bank (the house banks) and none of North
# Dakota's dealing-method or tip-bet settings.
TABLE_OPTIONS = (
    "decks", "max_players", "betting_spaces", "dealt_from", "dealer_hits_soft_17", "blackjack_payout",
    "payout_rounding", "split_pairs", "resplit_allowed", "split_aces_one_card", "double_on", "double_after_split",
    "double_down", "insurance_allowed", "even_money_offered", "surrender",
)  # fmt: skip


def rule(number) -> str:
    """A rule of the WSGC Blackjack Game Rules, cited as the approvals cite them ("..., rule 7")."""
    return f"{WSGC_BLACKJACK_RULES}, rule {number}"


CITATIONS = {
    "decks": rule(1),
    "max_players": rule(1),
    "dealt_from": rule(3),
    # "Card room operators must deal blackjack from a dealing shoe or a shuffling device we have
    # approved": a shuffler table names its approved model (approvals.checks.shuffler_errors).
    "approved_shuffler": rule(3),
    "tie_option": rule(11),
    "payout_rounding": rule(7),
    "wagers": WAGER_LIMIT_RULE,
    # The options the rules' notes say must be documented in internal controls (approvals).
    "internal_controls": WSGC_BLACKJACK_RULES,
    # Game approvals by the Commission, with their conditions (approvals; seed 004).
    "game_approval": "WSGC game approval",
}


def table_defaults(given) -> dict[str, object]:
    """A new blackjack table's options not given, at the rules' own play where the model's default
    is not it: identical cards split ("When a player receives two identical cards, they are
    considered a pair", Splitting Pairs; the model's default also splits any two ten-valued cards)
    and split aces drawn to as any hand ("treat each as it were the first card dealt in a hand"),
    so a table given no options is no modification its internal controls must document
    (approvals.rules.DOCUMENTED_OPTIONS)."""
    from cardroom.models import Game

    if given.get("game", Game.TWENTY_ONE) != Game.TWENTY_ONE:  # the model's game when none is given
        return {}
    return {"split_pairs": "identical", "split_aces_one_card": False}


def table_rules(table) -> dict[str, str]:
    errors = wager_errors(table)
    if not is_twenty_one(table):
        return errors
    if table.decks > DECKS_MAX:
        errors["decks"] = f"{rule(1)}: blackjack is played using up to eight decks (got {table.decks})."
    if table.max_players > PLAYERS_MAX:
        errors["max_players"] = (
            f"{rule(1)}: up to nine players can play on one blackjack table (got {table.max_players})."
        )
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
            f"{rule(11)}: if a player has the same total as the dealer, it is considered a push; no other tie "
            "rule may be set."
        )
    if table.banker != "house":
        errors["banker"] = (
            f"House control: the {WSGC_BLACKJACK_RULES} govern house-banked blackjack; the house banks this "
            "table, not a player."
        )
    if table.min_bank_cents is not None:
        errors["min_bank_cents"] = (
            "House control: the house banks this table; a player's minimum bank has no place here."
        )
    return errors


# The numbers of the rules the checks above read (`Pack.constants`, held by the law ledger); the
# rules are held as revised April 2018 without a day, so in force from before any day recorded.
CONSTANTS = (
    Limit("table.decks_max", DECKS_MAX, "up to eight decks", rule(1)),
    Limit("table.players_max", PLAYERS_MAX, "up to nine players", rule(1)),
    Limit("table.hand_dealt_decks_max", HAND_DEALT_DECKS_MAX, "single or double deck games by hand", rule(3)),
    Limit("table.fractional_payouts", FRACTIONAL_PAYOUTS, "payouts posted with their rounding", rule(7)),
)
