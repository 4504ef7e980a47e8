"""New York games of chance: 9 NYCRR 4620.5 "Black Jack".

Each refusal names the paragraph of 4620.5 that sets the rule. The maximum bet of $5 (f)(2) is
`WAGER_LIMITS`. The tie option (h) is the organization's, set out in its
licence application (schedule 7 of GC-2B); the natural's payout follows from it: option one pays a
winning natural 3 to 2, options two and three pay it 2 to 1 (h)(2).
"""

from cardroom.table_rules import Required

from ..base import GameNames, Limit, WagerLimits
from ..common import choose, is_twenty_one, wager_errors

RULE = "9 NYCRR 4620.5"
# 4620.5's name for game 21, its heading's and its text's ("a Black Jack table", (a)(1)).
GAMES = GameNames(twenty_one="Black Jack", twenty_one_word="Black Jack")
# (f)(2): maximum bet $5 (whole dollars from $1: the house's own control).
WAGER_LIMITS = (WagerLimits(f"{RULE}(f)(2) (the $5 maximum; whole dollars from $1: house control)", 100, 500, 100),)
DECKS_MAX = 4  # (a)(2)
SPACES_MAX = 7  # (a)(1)
PLAYERS_MAX = 7  # (c)
# (h)(2): the natural's payout under each tie option.
NATURAL_PAYOUT = {1: "3:2", 2: "2:1", 3: "2:1"}
TIE_OPTIONS = {
    1: 'Option one: all ties are "pushes."',
    2: 'Option two: "push" on natural 21 only; the house wins all other ties.',
    3: "Option three: house wins all ties.",
}

# The settings a New York table states (beyond `packs.base.COMMON_TABLE_FIELDS`): its spaces, decks
# and players ((a), (c)), the organization's tie option and the natural's payout under it ((h)),
# soft 17 ((i)(3)), splitting ((k)), doubling ((l), (k)(6)) and insurance ((m)). The dealer banks
# ((b)(1)): no banker or minimum bank; no payout rounding, dealing shoe choice or tip bets.
TABLE_OPTIONS = (
    "decks", "max_players", "betting_spaces", "tie_option", "blackjack_payout", "dealer_hits_soft_17", "split_pairs",
    "resplit_allowed", "split_aces_one_card", "double_on", "double_after_split", "insurance_allowed",
)  # fmt: skip

CITATIONS = {
    "betting_spaces": f"{RULE}(a)(1)",
    "decks": f"{RULE}(a)(2)",
    "banker": f"{RULE}(b)(1)",
    "max_players": f"{RULE}(c)",
    "wagers": f"{RULE}(f)(2)",
    "tie_option": f"{RULE}(h)",
    # (h): the licence reflects the organization's tie option; every table under it follows it
    # (approvals.Licence, checked by the approvals app's registered table check).
    "licence": f"{RULE}(h)",
    "blackjack_payout": f"{RULE}(h)(2)",
    "surrender": f"{RULE}(h)(3)",
    "dealer_hits_soft_17": f"{RULE}(i)(3)",
    "split_pairs": f"{RULE}(k)(1)",
    "resplit_allowed": f"{RULE}(k)(3)",
    "split_aces_one_card": f"{RULE}(k)(4)",
    "double_after_split": f"{RULE}(k)(6)",
    "double_on": f"{RULE}(l)(1)",
    "insurance_allowed": f"{RULE}(m)",
}


def _c(name: str) -> str:
    return CITATIONS[name]


def _tie_option_required() -> str:
    return f"{_c('tie_option')}: the organization's tie option (1, 2 or 3, as its licence reflects) is required."


# (l)(1): doubling "on a first two cards totalling 10 or 11" only; (k)(1): "any two identical cards and
# any two ten-valued cards" split as a pair: the table form offers no other (`Pack.fixed_options`; one
# posted anyway is refused, `table_rules`).
FIXED_OPTIONS = {"double_on": "ten_eleven", "split_pairs": "any_pair"}


def table_defaults(given) -> dict[str, object]:
    """A new New York table's options not given, as 4620.5 fixes them: doubling on a first two
    cards of 10 or 11 only ((l)(1)), none on split pairs ((k)(6)), the natural paid as the tie
    option says ((h)(2)). Its decks (one to four, (a)(2)) and the organization's tie option ((h))
    have no single value: a table not given them is refused, naming each (`Required`). A table
    not given its game is the model's game 21, Black Jack, as at the other packs (before, it took
    none of these values and was refused for the model's). Another game is refused as such by
    `table_rules`."""
    from cardroom.models import Game

    if given.get("game", Game.TWENTY_ONE) != Game.TWENTY_ONE:  # the model's game when none is given
        return {}
    values: dict[str, object] = {"double_on": FIXED_OPTIONS["double_on"], "double_after_split": False}
    if given.get("decks") is None:
        values["decks"] = Required(f"{_c('decks')}: give the table's decks, one to four decks of 52 cards each.")
    tie_option = given.get("tie_option")
    if tie_option is None:
        values["tie_option"] = Required(_tie_option_required())
    elif tie_option in NATURAL_PAYOUT:
        values["blackjack_payout"] = NATURAL_PAYOUT[tie_option]
    return values


def table_rules(table) -> dict[str, str]:
    errors = wager_errors(table)
    if not is_twenty_one(table):
        return errors
    if not 1 <= table.decks <= DECKS_MAX:
        errors["decks"] = f"{_c('decks')}: one to four decks of 52 cards each (got {table.decks})."
    if table.betting_spaces > SPACES_MAX:
        errors["betting_spaces"] = (
            f"{_c('betting_spaces')}: a Black Jack table has up to seven betting spaces (got {table.betting_spaces})."
        )
    if table.max_players > PLAYERS_MAX:
        errors["max_players"] = f"{_c('max_players')}: up to seven players (got {table.max_players})."
    if table.banker != "house":
        errors["banker"] = f"{_c('banker')}: the dealer controls the bank and never surrenders the deal or the bank."
    if table.dealer_hits_soft_17:
        errors["dealer_hits_soft_17"] = (
            f"{_c('dealer_hits_soft_17')}: the dealer must stay on a soft 17; a New York table cannot hit soft 17."
        )
    if table.double_on != FIXED_OPTIONS["double_on"]:
        errors["double_on"] = (
            f"{_c('double_on')}: a player may double down on a first two cards totalling 10 or 11, "
            f"and only then ({choose(table, 'double_on', FIXED_OPTIONS['double_on'])})."
        )
    if table.double_after_split:
        errors["double_after_split"] = (
            f"{_c('double_after_split')}: a player is not permitted to double down on split pairs."
        )
    if table.split_pairs != FIXED_OPTIONS["split_pairs"]:
        errors["split_pairs"] = (
            f"{_c('split_pairs')}: any two identical cards and any two ten-valued cards may be split as a pair "
            f"({choose(table, 'split_pairs', FIXED_OPTIONS['split_pairs'])})."
        )
    if not table.resplit_allowed:
        errors["resplit_allowed"] = f"{_c('resplit_allowed')}: the player may continue to split any further pairs."
    if not table.split_aces_one_card:
        errors["split_aces_one_card"] = (
            f"{_c('split_aces_one_card')}: a player who splits aces draws only one card to each split ace."
        )
    if not table.insurance_allowed:
        errors["insurance_allowed"] = (
            f"{_c('insurance_allowed')}: when the dealer's face-up card is an ace, players may make an insurance "
            "bet of half the wager, paid 2 to 1."
        )
    if table.surrender != "none":
        errors["surrender"] = (
            f"{_c('surrender')}: the player may stay or draw (with splits, doubling and insurance); "
            "4620.5 provides no surrender."
        )
    if table.tie_option is None:
        errors["tie_option"] = _tie_option_required()
    elif table.tie_option not in NATURAL_PAYOUT:
        errors["tie_option"] = (
            f"{_c('tie_option')}: the licence reflects one of the options 1, 2 or 3 (got {table.tie_option})."
        )
    elif table.blackjack_payout != NATURAL_PAYOUT[table.tie_option]:
        expected = NATURAL_PAYOUT[table.tie_option]
        errors["blackjack_payout"] = (
            f"{_c('blackjack_payout')}: under tie option {table.tie_option} a winning natural 21 is paid "
            f"{expected.replace(':', '-to-')} (got {table.blackjack_payout})."
        )
    return errors


# The numbers of 4620.5 the checks above read (`Pack.constants`, held by the law ledger), held
# without the section's date, so in force from before any day recorded.
CONSTANTS = (
    Limit("table.decks_max", DECKS_MAX, "one to four decks", _c("decks")),
    Limit("table.spaces_max", SPACES_MAX, "up to seven betting spaces", _c("betting_spaces")),
    Limit("table.players_max", PLAYERS_MAX, "up to seven players", _c("max_players")),
    Limit("table.natural_payout", NATURAL_PAYOUT, "the natural's payout under each tie option", _c("blackjack_payout")),
)
