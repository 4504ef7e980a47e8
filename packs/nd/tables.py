"""North Dakota: chapter 99-01.3-08, charitable twenty-one (the primary specification).

Table rules, each refusal naming the subsection that sets it:
- 08-01(2): a maximum of seven players at a table;
- 08-02(1): a number for each table of a site, no more than seven betting spaces and the posted
  "BLACKJACK PAYS 3 TO 2"; 08-02(3): four, six or eight decks dealt from a dealing shoe, the
  cards jumbo-faced unless a hole card reader is used on the table and the attorney general has
  approved its cards (`jumbo_faced_cards`, `non_jumbo_approval`);
- 08-09(1): the wager limits (`WAGER_LIMITS`);
- 08-09(2)(a): a tip bet, where the organization permits tip betting, of fifty cents up to the
  table's maximum wager or the organization's lower limit (`tip_bet_max_cents`);
- 08-09(2)(c): splitting on any pair or any two 10-count cards, up to four hands per betting
  space, split aces drawing one card each; 08-09(2)(d): doubling-down on the first two cards
  dealt or the first two cards of a split hand;
- 08-10(1): one dealing method at a site (08-10(1)(c)(5): a table whose card-reading device is
  out of order deals no-peek or no-hole-card meanwhile);
- 08-11(5): a player stands or draws (the chapter provides no surrender);
- 08-11(10)(d): the organization wins (and pays) the wagers: the house banks, never a player;
- 08-11(12): all ties are a push, so no tie option (New York's) may be set.
The dealer may hit soft 17 when the site posts it (08-02(1), 08-11(10)(g)).
"""

from datetime import date

from django.db.models import Q

from ..base import GameNames, Limit, WagerLimits
from ..common import choose, is_twenty_one, money, wager_errors

CHAPTER = "ND 99-01.3-08"
ND_08_01_DATE = date(2016, 4, 1)  # amended effective April 1, 2016
ND_08_09_DATE = date(2016, 4, 1)  # amended effective April 1, 2016
# The chapter's name for game 21: "Twenty-one" (99-01.3-08); its paddlewheels, "paddlewheel".
GAMES = GameNames(twenty_one="Twenty-one", twenty_one_word="twenty-one")
PLAYERS_CITATION = "ND 99-01.3-08-01(2)"
PLAYERS_MAX = 7
DECKS = (4, 6, 8)
DECKS_CITATION = "ND 99-01.3-08-02(3)"
CARDS_CITATION = DECKS_CITATION  # the same subsection: "The cards must [...] be jumbo-faced."
SPACES_MAX = 7
TABLE_CITATION = "ND 99-01.3-08-02(1)"
PAYOUT = "3:2"
# What the chapter fixes, so the table form offers no other (`Pack.fixed_options`; one posted anyway
# is refused, `table_rules`): 08-02(1) "BLACKJACK PAYS 3 TO 2"; the pairs, the doubling and the play
# of `table_rules` below (any pair, any first two cards).
FIXED_OPTIONS = {"blackjack_payout": PAYOUT, "split_pairs": "any_pair", "double_on": "any_two"}
TIP_BETS_CITATION = "ND 99-01.3-08-09(2)(a)"
INSURANCE_CITATION = "ND 99-01.3-08-09(2)(b)"
SPLITS_CITATION = "ND 99-01.3-08-09(2)(c)"
DOUBLES_CITATION = "ND 99-01.3-08-09(2)(d)"
DEALING_METHOD_CITATION = "ND 99-01.3-08-10(1)"
CARD_READER_MALFUNCTION_CITATION = "ND 99-01.3-08-10(1)(c)(5)"
PLAY_CITATION = "ND 99-01.3-08-11(5)"
BANKER_CITATION = "ND 99-01.3-08-11(10)(d)"
TIES_CITATION = "ND 99-01.3-08-11(12)"

# ND 99-01.3-08-09(1): even dollars, $1 to $25, a minimum of not more than $3 on one active
# table before another table may have a higher minimum.
LOW_MINIMUM_CEILING_CENTS = 300  # 08-09(1): "a minimum wager at not more than three dollars on one active table"
WAGER_LIMITS = (WagerLimits("ND 99-01.3-08-09(1)", 100, 2500, 100, LOW_MINIMUM_CEILING_CENTS),)
# ND 99-01.3-08-09(2)(a): a tip bet "may range from fifty cents up to a table's maximum wager, but
# may be limited to less than the table's maximum wager at an organization's option".
TIP_BET_MIN_CENTS = 50

# The settings a North Dakota table states (beyond `packs.base.COMMON_TABLE_FIELDS`): its decks,
# players, spaces and cards (08-01(2), 08-02), the play chapter 08 fixes (08-09(2)), the site's one
# dealing method (08-10(1)) and the options the rules handout discloses (08-13(2)(h)-(m); even
# money at the organization's option, 08-09(2)(b); a tip bet's lower limit at its option,
# 08-09(2)(a)). No surrender, player bank, minimum bank or tie option: the chapter provides none
# (08-11(5), 08-11(10)(d), 08-11(12)).
TABLE_OPTIONS = (
    "decks", "max_players", "betting_spaces", "dealt_from", "dealing_method", "card_reader_malfunction",
    "dealer_hits_soft_17", "blackjack_payout", "split_pairs", "resplit_allowed", "split_aces_one_card", "double_on",
    "double_after_split", "double_down", "insurance_allowed", "even_money_offered", "tip_betting_allowed",
    "tip_double_down", "tip_bet_max_cents", "jumbo_faced_cards", "non_jumbo_approval",
)  # fmt: skip

CITATIONS = {
    "wagers": "ND 99-01.3-08-09(1)",
    # 08-09(1): where the tables do not all have the same limits, a plaque on each shows its own;
    # a change of a table's limits is posted and announced with adequate notice to a player.
    "limits_plaque": "ND 99-01.3-08-09(1)",
    "number": TABLE_CITATION,
    "max_players": PLAYERS_CITATION,
    "decks": DECKS_CITATION,
    "dealt_from": DECKS_CITATION,
    "jumbo_faced_cards": CARDS_CITATION,
    "non_jumbo_approval": CARDS_CITATION,
    "betting_spaces": TABLE_CITATION,
    "blackjack_payout": TABLE_CITATION,
    "split_pairs": SPLITS_CITATION,
    "resplit_allowed": SPLITS_CITATION,
    "split_aces_one_card": SPLITS_CITATION,
    "double_on": DOUBLES_CITATION,
    "double_after_split": DOUBLES_CITATION,
    "tip_bet_max_cents": TIP_BETS_CITATION,
    "even_money_offered": INSURANCE_CITATION,
    "tip_double_down": DOUBLES_CITATION,
    "dealing_method": DEALING_METHOD_CITATION,
    "card_reader_malfunction": CARD_READER_MALFUNCTION_CITATION,
    "surrender": PLAY_CITATION,
    "banker": BANKER_CITATION,
    "min_bank_cents": BANKER_CITATION,
    "tie_option": TIES_CITATION,
    "handout": "ND 99-01.3-08-13",
}


def table_rules(table) -> dict[str, str]:
    errors = {**wager_errors(table), **_tip_bet_errors(table)}
    if not is_twenty_one(table):
        return errors
    if table.max_players > PLAYERS_MAX:
        errors["max_players"] = (
            f"{PLAYERS_CITATION}: a maximum of seven players may play at a table (got {table.max_players})."
        )
    if table.decks not in DECKS:
        errors["decks"] = f"{DECKS_CITATION}: the cards must be four, six, or eight decks (got {table.decks})."
    if table.dealt_from != "shoe":
        errors["dealt_from"] = f"{DECKS_CITATION}: the cards must be dealt from a dealing shoe."
    if table.betting_spaces > SPACES_MAX:
        errors["betting_spaces"] = (
            f"{TABLE_CITATION}: a table playing surface displays no more than seven betting spaces "
            f"(got {table.betting_spaces})."
        )
    if table.blackjack_payout != PAYOUT:
        errors["blackjack_payout"] = f'{TABLE_CITATION}: the table displays "BLACKJACK PAYS 3 TO 2".'
    errors.update(_cards_errors(table))
    errors.update(_play_errors(table))
    if not errors:
        errors.update(dealing_method_errors(table))
    return errors


def _tip_bet_errors(table) -> dict[str, str]:
    """08-09(2)(a): the organization's limit of a tip bet, where it permits tip betting, is
    between fifty cents and the table's maximum wager."""
    limit = table.tip_bet_max_cents
    if limit is None:
        return {}
    if not table.tip_betting_allowed:
        return {
            "tip_bet_max_cents": f"{TIP_BETS_CITATION}: the tip bet limit applies where the organization permits "
            "tip betting; this table does not (leave the limit blank, or permit tip betting)."
        }
    if limit < TIP_BET_MIN_CENTS:
        return {
            "tip_bet_max_cents": f"{TIP_BETS_CITATION}: a tip bet ranges from {money(TIP_BET_MIN_CENTS)}, so the "
            f"tip bet limit is at least {money(TIP_BET_MIN_CENTS)} (got {money(limit)})."
        }
    if table.max_wager_cents is not None and limit > table.max_wager_cents:
        return {
            "tip_bet_max_cents": f"{TIP_BETS_CITATION}: a tip bet ranges up to the table's maximum wager, so the "
            f"tip bet limit is at most {money(table.max_wager_cents)} (got {money(limit)})."
        }
    return {}


def _cards_errors(table) -> dict[str, str]:
    """08-02(3): jumbo-faced cards, unless a hole card reader is used on the table and the
    organization has received the attorney general's approval of its cards. A table whose reader is
    out of order (08-10(1)(c)(5)) still counts as the reader's: recording a malfunction is never
    refused for its cards (a malfunction is taken only on a table that dealt by the reader,
    `_malfunction_without_reader`)."""
    from cardroom.models import Table

    if table.jumbo_faced_cards:
        return {}
    missing, remedies = [], []
    if table.dealing_method != Table.DealingMethod.CARD_READER and not table.card_reader_malfunction:
        missing.append(f"deals by the {table.get_dealing_method_display()} method (no card reader)")
        remedies.append("deal by the Hole-Card-with-Card-Reading-Device method")
    if not table.non_jumbo_approval.strip():
        missing.append("has no approval of the attorney general recorded for its cards")
        remedies.append("record the approval (its reference and date)")
    if not missing:
        return {}
    return {
        "jumbo_faced_cards": f"{CARDS_CITATION}: the cards must be jumbo-faced, unless a hole card reader is used "
        f"on the table and the attorney general has approved its cards. {table} {' and '.join(missing)}: use "
        f"jumbo-faced cards, or {' and '.join(remedies)}."
    }


def _play_errors(table) -> dict[str, str]:
    """Splitting, doubling-down, surrender, the bank and ties: what chapter 08 fixes."""
    errors = {}
    if table.split_pairs != FIXED_OPTIONS["split_pairs"]:
        errors["split_pairs"] = (
            f"{SPLITS_CITATION}: splitting is permitted on any pair or any two 10-count value cards "
            f"({choose(table, 'split_pairs', FIXED_OPTIONS['split_pairs'])})."
        )
    if not table.resplit_allowed:
        errors["resplit_allowed"] = (
            f"{SPLITS_CITATION}: a player is allowed a maximum of four hands per betting space, so a pair may "
            "be split again."
        )
    if not table.split_aces_one_card:
        errors["split_aces_one_card"] = f"{SPLITS_CITATION}: split aces draw only one card each."
    if table.double_on != FIXED_OPTIONS["double_on"]:
        errors["double_on"] = (
            f"{DOUBLES_CITATION}: doubling-down is permitted on the first two cards dealt to a betting space "
            f"({choose(table, 'double_on', FIXED_OPTIONS['double_on'])})."
        )
    if not table.double_after_split:
        errors["double_after_split"] = (
            f"{DOUBLES_CITATION}: doubling-down is permitted on the first two cards of a split hand, except on "
            "split aces."
        )
    if table.surrender != "none":
        errors["surrender"] = (
            f"{PLAY_CITATION}: a player stands or draws a hit card (and may split or double-down, 08-09(2)); "
            f"chapter {CHAPTER[3:]} provides no surrender."
        )
    if table.banker != "house":
        errors["banker"] = (
            f"{BANKER_CITATION}: the organization wins all original wagers and pays the winning hands: "
            "the organization banks the game, not a player."
        )
    if table.min_bank_cents is not None:
        errors["min_bank_cents"] = (
            f"{BANKER_CITATION}: the organization banks the game; a player's minimum bank has no place here."
        )
    if table.tie_option is not None:
        errors["tie_option"] = (
            f"{TIES_CITATION}: all ties are a push - no payoff is made; no other tie rule may be set."
        )
    # 08-09(2)(b): the even money payoff is offered instead of an insurance bet, and "This rule does not
    # apply if an insurance bet is not permitted."
    if table.even_money_offered and not table.insurance_allowed:
        errors["even_money_offered"] = (
            f"{INSURANCE_CITATION}: even money is offered in place of an insurance bet and does not apply if an "
            "insurance bet is not permitted; permit insurance, or do not offer even money."
        )
    # 08-09(2)(d): "An organization may permit doubling-down on tips bets": on a tip bet, which exists only
    # where the organization permits tip betting (08-09(2)(a)); the handout would otherwise say both
    # (08-13(2)(l), (m)).
    if table.tip_double_down != "not_permitted" and not table.tip_betting_allowed:
        errors["tip_double_down"] = (
            f"{DOUBLES_CITATION}: doubling-down on tip bets is permitted only where tip betting is permitted "
            f"({TIP_BETS_CITATION}); this table does not permit tip betting "
            f"({choose(table, 'tip_double_down', 'not_permitted')}, or permit tip betting)."
        )
    return errors


def _malfunction_without_reader(table) -> dict[str, str]:
    """08-10(1)(c)(5) is a malfunction "on a table" of its card-reading device: recorded on a table
    that dealt by the reader (or was already on its fallback), never on a new table or one that
    dealt by another method, which would otherwise pass as the reader's (08-10(1)'s one method at a
    lone table, 08-02(3)'s cards that are not jumbo-faced). One query, on a save that says so."""
    from cardroom.models import Table

    stored = Table.objects.filter(pk=table.pk).values_list("dealing_method", "card_reader_malfunction").first()
    if stored is not None and (stored[0] == Table.DealingMethod.CARD_READER or stored[1]):
        return {}
    had = "is new" if stored is None else f"deals by the {Table.DealingMethod(stored[0]).label} method"
    return {
        "card_reader_malfunction": f"{CARD_READER_MALFUNCTION_CITATION}: a card-reading device's malfunction is "
        f"recorded on a table that deals by the device; {table} {had}. Record the table's card-reading device "
        "first (the Hole-Card-with-Card-Reading-Device method)."
    }


def dealing_method_errors(table) -> dict[str, str]:
    """08-10(1): one dealing method at a site. A new or changed twenty-one table must use the
    method of the site's other active twenty-one tables; the whole site changes method at once
    (`cardroom.services.set_site_dealing_method`, which marks each table `_site_dealing_method`)."""
    from cardroom.models import Game, Table

    reader = Table.DealingMethod.CARD_READER
    fallbacks = {Table.DealingMethod.NO_PEEK, Table.DealingMethod.NO_HOLE_CARD}
    if table.card_reader_malfunction:
        if table.dealing_method not in fallbacks:
            return {
                "dealing_method": f"{CARD_READER_MALFUNCTION_CITATION}: while its card-reading device is out of "
                "order the table deals by the Hole-Card-No-Peek or the No-Hole-Card method."
            }
        if errors := _malfunction_without_reader(table):
            return errors
        expected = reader  # the site's method, which the fallback stands in for
    else:
        expected = table.dealing_method
    if not table.active or getattr(table, "_site_dealing_method", None) == expected:
        return {}
    # A table on a malfunction fallback counts as using the reader (the site's method).
    others = Table.objects.filter(site_id=table.site_id, game=Game.TWENTY_ONE, active=True).exclude(pk=table.pk)
    if expected == reader:
        others = others.filter(card_reader_malfunction=False).exclude(dealing_method=reader)
    else:
        others = others.filter(Q(card_reader_malfunction=True) | ~Q(dealing_method=expected))
    other = others.order_by("number").first()
    if other is None:
        return {}
    method = reader.label if other.card_reader_malfunction else other.get_dealing_method_display()
    return {
        "dealing_method": f"{DEALING_METHOD_CITATION}: only one dealing method may be used at a site; "
        f"table {other.number} at {table.site} uses {method}. Change the method of the whole site instead."
    }


# The numbers and words of the chapter the rules above read (`Pack.constants`, held by the law
# ledger): 08-02's text is held without its date, so it is in force from before any day recorded.
CONSTANTS = (
    Limit("table.players_max", PLAYERS_MAX, "seven players", PLAYERS_CITATION, ND_08_01_DATE),
    Limit("table.decks", DECKS, "four, six or eight decks", DECKS_CITATION),
    Limit("table.spaces_max", SPACES_MAX, "seven betting spaces", TABLE_CITATION),
    Limit("table.blackjack_payout", PAYOUT, "blackjack pays 3 to 2", TABLE_CITATION),
    Limit("table.tip_bet_min_cents", TIP_BET_MIN_CENTS, "a tip bet from fifty cents", TIP_BETS_CITATION, ND_08_09_DATE),
)
