"""Washington blackjack (player-banked): WAC 230-40-125 as amended in the 1999 proposal (WSR
99-07-095 preproposal; the first of the three versions shown, OTS-2905.3, "Up to six ... decks").
Cited as "WAC 230-40-125(n) (1999 proposed amendment)".

(1) fees only on a time basis by direct collection (the `fees` app); (2) up to six decks, dealt
from a shoe at all times, a player who is both the dealer and the banker; (3) a minimum bank set by
house rule not over $500; (4) a maximum wager not over $25 (`WAGER_LIMITS`);
(5) a natural collects 1.5 times the bet and all ties push. Soft 17 (13), the conditions of doubling
(14), insurance (16) and additional splits (17) are set by house rule; that a wager may be doubled
(14) and a pair split (17) is not, nor that a doubled wager receives only one more card, the
player then standing on those three cards (14).
"""

from ..base import Limit, WagerLimits
from ..common import choose, is_twenty_one, money, wager_errors

WA_BLACKJACK_RULE = "WAC 230-40-125 (1999 proposed amendment)"
# (4): "in no event shall the maximum wager exceed twenty-five dollars"; the limits are otherwise
# set by house rule (whole dollars from $1: house control).
WAGER_LIMITS = (
    WagerLimits(
        "WAC 230-40-125(4) (1999 proposed amendment) (the $25 maximum; whole dollars from $1: house control)",
        100,
        2500,
        100,
    ),
)

DECKS_MAX = 6  # (2)
MIN_BANK_MAX_CENTS = 50_000  # (3)
NATURAL_PAYOUT = "3:2"  # (5): "one and a half (1.5) times the amount of their bet"


# The settings a Washington blackjack table states (beyond `packs.base.COMMON_TABLE_FIELDS`): its
# decks and shoe and the player dealer/banker (2), the minimum bank (3), the natural's payout (5)
# and what the rule leaves to house rule: soft 17 (13), doubling (14), insurance (16) and further
# splits (17). No tie option ((5): all ties push), no surrender, no payout rounding. Its seats (its
# betting spaces) are the house's, as its players are: a fee per seat is charged for at most that
# many (`fees.services`, House control; before, every table kept the model's 7, whatever its players).
TABLE_OPTIONS = (
    "decks", "max_players", "betting_spaces", "dealt_from", "banker", "min_bank_cents", "blackjack_payout", "dealer_hits_soft_17",
    "double_on", "double_after_split", "insurance_allowed", "split_pairs", "resplit_allowed",
)  # fmt: skip


def cite(subsection: int) -> str:
    return f"WAC 230-40-125({subsection}) (1999 proposed amendment)"


CITATIONS = {
    "fees": cite(1),
    "decks": cite(2),
    "dealt_from": cite(2),
    "banker": cite(2),
    "min_bank_cents": cite(3),
    "wagers": cite(4),
    "blackjack_payout": cite(5),
    "tie_option": cite(5),
    "surrender": cite(7),
    "double_on": cite(14),
    "split_pairs": cite(17),
    "rule": WA_BLACKJACK_RULE,
}


# (2): "a player who is both the dealer and banker (dealer/banker)", the cards "dealt from a shoe at
# all times": the table form offers neither the house as banker nor another deal (`Pack.fixed_options`);
# (5): a natural collects 1.5 times the bet, so no other payout.
FIXED_OPTIONS = {"banker": "player", "dealt_from": "shoe", "blackjack_payout": NATURAL_PAYOUT}
# (14): the conditions of doubling are the house's, but a wager may be doubled and takes one more card
# only (no doubling again after each card); (17): a pair may be split (which pairs, the house's). The
# form offers these and no other (`Pack.fixed_options`); `table_rules` refuses another, citing the text.
DOUBLING = ("any_two", "ten_eleven", "nine_to_eleven")
PAIRS = ("any_pair", "identical")
ALLOWED_OPTIONS = {**FIXED_OPTIONS, "double_on": DOUBLING, "split_pairs": PAIRS}


def table_defaults(given) -> dict[str, object]:
    """A new Washington blackjack table's options not given, as (2) fixes them: a player who deals
    the cards and banks the game (the model's default is the house) and cards dealt from a shoe."""
    from cardroom.models import Game

    if given.get("game", Game.TWENTY_ONE) != Game.TWENTY_ONE:  # the model's game when none is given
        return {}
    return dict(FIXED_OPTIONS)


def table_rules(table) -> dict[str, str]:
    errors = wager_errors(table)
    if not is_twenty_one(table):
        return errors
    if table.decks > DECKS_MAX:
        errors["decks"] = f"{cite(2)}: up to six standard fifty-two-card decks shall be used (got {table.decks})."
    if table.dealt_from != "shoe":
        errors["dealt_from"] = f"{cite(2)}: the cards shall be dealt from a shoe at all times."
    if table.banker != "player":
        errors["banker"] = (
            f"{cite(2)}: the game is played with a player who is both the dealer and banker (dealer/banker); "
            f"{choose(table, 'banker', 'player')}."
        )
    if table.min_bank_cents is not None and table.min_bank_cents > MIN_BANK_MAX_CENTS:
        errors["min_bank_cents"] = (
            f"{cite(3)}: a minimum bank established by house rule shall not exceed {money(MIN_BANK_MAX_CENTS)} "
            f"(got {money(table.min_bank_cents)})."
        )
    if table.blackjack_payout != NATURAL_PAYOUT:
        errors["blackjack_payout"] = (
            f"{cite(5)}: a natural 21 collects 1.5 times the bet (3 to 2) (got {table.blackjack_payout})."
        )
    if table.tie_option is not None:
        errors["tie_option"] = (
            f"{cite(5)}: all ties result in the players and the dealer/banker recovering their wagers; "
            "no other tie rule may be set."
        )
    if table.double_on not in DOUBLING:
        errors["double_on"] = (
            f"{cite(14)}: a doubled wager receives only one more card and the player must then stand on those "
            "three cards; no doubling again after each card received. Choose the first two cards a player may "
            "double on."
            if table.double_on == "any_card"
            else f"{cite(14)}: the conditions for doubling down are set by house rule, provided that the wager may "
            "be doubled (the player receiving only one more card); choose the first two cards a player may double on."
        )
    if table.split_pairs not in PAIRS:
        errors["split_pairs"] = (
            f"{cite(17)}: a player whose first two cards are a pair may split the pair into two separate hands "
            "(additional splits by house rule); choose identical cards or identical cards and any two ten-valued "
            "cards."
        )
    if table.surrender != "none":
        errors["surrender"] = (
            f"{cite(7)}: the player stands or hits (with doubling, insurance and splits by house rule); "
            "the rule provides no surrender."
        )
    return errors


# The numbers of the rule the checks above read (`Pack.constants`, held by the law ledger): the seed
# is a proposal held without an adoption date, so in force from before any day recorded.
CONSTANTS = (
    Limit("table.decks_max", DECKS_MAX, "up to six decks", cite(2)),
    Limit("table.min_bank_max_cents", MIN_BANK_MAX_CENTS, "a minimum bank of at most $500", cite(3)),
    Limit("table.blackjack_payout", NATURAL_PAYOUT, "a natural collects 1.5 times the bet", cite(5)),
)
