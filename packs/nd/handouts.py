"""North Dakota's house and player rules handout (ND 99-01.3-08-13): each line generated from
the table's record and citing the subsection that sets it, so the handout cannot say other
than the table does; then the class C felony notice (08-13(3))."""

from ..base import Handout, HandoutSection, Line
from ..common import limits_line, money, payout_words
from .tables import (
    BANKER_CITATION,
    CITATIONS,
    DEALING_METHOD_CITATION,
    DECKS_CITATION,
    DOUBLES_CITATION,
    PLAYERS_CITATION,
    SPLITS_CITATION,
    TABLE_CITATION,
    TIES_CITATION,
    TIP_BET_MIN_CENTS,
    TIP_BETS_CITATION,
)

RULE = "ND 99-01.3-08-13"
NOTICE = (
    "NOTICE: If a person knowingly uses a fraudulent scheme or technique to cheat or skim involving twenty-one, "
    "regardless of the amount gained, the offense is a class C felony punishable by a five thousand dollar fine "
    "or five years in jail or both."
)


def _nd(sub: str) -> str:
    return f"ND 99-01.3-08-{sub}"


def house_lines(t) -> list[Line]:
    """ND 99-01.3-08-13(1), each line from the table's record."""
    soft_17 = "Dealer must hit soft 17" if t.dealer_hits_soft_17 else "Dealer must stand on 17 and must draw to 16"
    dealt = (
        f"{t.decks} decks, dealt from a dealing shoe."
        if t.dealt_from == "shoe"
        else f"{t.decks} decks, dealt from {t.get_dealt_from_display().lower()}."
    )
    return [
        (limits_line(t), f"{_nd('13(1)(a)')}, {CITATIONS['wagers']}"),
        (f"Method of dealing: {t.get_dealing_method_display()}.", f"{_nd('13(1)(b)')}, {DEALING_METHOD_CITATION}"),
        (dealt, DECKS_CITATION),
        (f"Up to {t.max_players} players; {t.betting_spaces} betting spaces.",
         f"{PLAYERS_CITATION}, {TABLE_CITATION}"),
        (f"{soft_17}. Blackjack pays {payout_words(t.blackjack_payout)}.", TABLE_CITATION),
    ]  # fmt: skip


def _splits(t) -> str:
    if t.split_pairs == "any_pair":
        words = "Splitting on any pair and two 10-count value cards"
    else:
        words = f"Splitting: {t.get_split_pairs_display().lower()}"
    words += ", limited to a maximum of four hands per betting space" if t.resplit_allowed else "; no resplitting"
    return words + ("; split aces draw only one card each." if t.split_aces_one_card else ".")


def _doubles(t) -> str:
    if t.double_on == "any_two":
        words = "Doubling-down on the first two cards dealt"
    else:
        words = f"Doubling-down: {t.get_double_on_display().lower()}"
    if t.double_after_split:
        return words + " or the first two cards of any split hand, except on split aces."
    return words + "; not on a split hand."


def _tip_bets(t) -> Line:
    """08-13(2)(l), and the range 08-09(2)(a) gives a tip bet: fifty cents up to the table's maximum
    wager, or the organization's lower limit."""
    if not t.tip_betting_allowed:
        return ("Tip betting not permitted.", _nd("13(2)(l)"))
    limit = t.max_wager_cents if t.tip_bet_max_cents is None else t.tip_bet_max_cents
    return (
        f"Tip betting permitted: a tip bet from {money(TIP_BET_MIN_CENTS)} to {money(limit)}.",
        f"{_nd('13(2)(l)')}, {TIP_BETS_CITATION}",
    )


def player_lines(t) -> list[Line]:
    """ND 99-01.3-08-13(2)(a)-(m): the fixed rules as the chapter words them, the options as the
    table's record has them."""
    ties = "No payoff on tie counts." if t.tie_option is None else f"Ties: tie option {t.tie_option}."
    lines = [
        ("Players must compute the card count of their own hand.", _nd("13(2)(a)")),
        ("Players must be twenty-one years of age or older.", _nd("13(2)(b)")),
        ("Hand signals must be used.", _nd("13(2)(c)")),
        ("No touching of cards.", _nd("13(2)(d)")),
        ("Two betting spaces maximum.", _nd("13(2)(e)")),
        ("No side bets.", _nd("13(2)(f)")),
        (ties, f"{_nd('13(2)(g)')}, {TIES_CITATION}"),
        (_splits(t), f"{_nd('13(2)(h)')}, {SPLITS_CITATION}"),
        (_doubles(t), f"{_nd('13(2)(i)')}, {DOUBLES_CITATION}"),
        (t.get_double_down_display() + ".", _nd("13(2)(j)")),
        ("Insurance permitted - pays two to one." if t.insurance_allowed else "Insurance not permitted.",
         _nd("13(2)(k)")),
        _tip_bets(t),
        (t.get_tip_double_down_display() + ".", _nd("13(2)(m)")),
    ]  # fmt: skip
    if t.surrender != "none":  # refused by the pack (08-11(5)); printed as the record has it
        lines.append((f"Surrender: {t.get_surrender_display().lower()}.", CITATIONS["surrender"]))
    if t.banker != "house":  # refused by the pack (08-11(10)(d))
        lines.append((f"Banker: {t.get_banker_display().lower()}.", BANKER_CITATION))
    return lines


HANDOUT = Handout(
    kind="house_rules",
    title="House and player rules",
    rule=RULE,
    sections=(
        HandoutSection(f"House rules ({_nd('13(1)')})", house_lines),
        HandoutSection(f"Player rules ({_nd('13(2)')})", player_lines),
    ),
    closing=((_nd("13(3)"), NOTICE),),
    options_table=True,
)
