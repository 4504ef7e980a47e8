"""Washington house-banked blackjack's posted house rules (WSGC Blackjack Game Rules, rev.
April 2018): the payout and how it is rounded (rule 7), the options as documented in the
internal controls, the State's single-wager limit (WAC 230-15-140), and the table's approved
game (printed by the report from the game approvals)."""

from core.plurals import plural

from ..base import Handout, HandoutSection, Line, pack_of
from ..common import limits_line, money, payout_words
from .tables import CITATIONS, WSGC_BLACKJACK_RULES, rule

ROUNDING = {"down": "rounded down to the table's lowest chip", "up": "rounded up to the table's lowest chip"}
DEALT_FROM = {"shoe": "a dealing shoe", "shuffler": "an approved shuffling device", "hand": "the dealer's hand"}
IN_CONTROLS = "as documented in the internal controls"


def _single_wager_limit(t) -> str:
    """The State's single-wager limit in force today (the pack's effective-dated limits): the limit
    of a wager made in the hand (a double down), beside the table's own maximum wager."""
    limits = pack_of(t).wager_limits_on(t.site.today())  # in force on the site's own day
    if not limits or not limits.max_cents:
        return ""
    return f" No single wager, a double down included, above the State's limit of {money(limits.max_cents)}."


def _payout(t) -> str:
    words = f"Blackjack pays {payout_words(t.blackjack_payout)}"
    return words + (f"; a payout is {ROUNDING[t.payout_rounding]}." if t.payout_rounding else "; no rounding arises.")


def _splits(t) -> str:
    """The pairs split, and the immaterial modifications of splitting the controls document (the
    rules' Irregularities, last paragraph): resplitting, one card to each split ace."""
    if t.split_pairs == t.SplitPairs.NONE:  # nothing of split hands arises
        return f"Splitting: {t.get_split_pairs_display()}."
    words = f"Splitting: {t.get_split_pairs_display()}" + ("; pairs may be split again" if t.resplit_allowed else "")
    return words + ("; split aces receive one card each." if t.split_aces_one_card else ".")


def _doubles(t) -> str:
    """The hands doubled on, and the modifications documented: no doubling after a split, a double
    less than the original bet (an approved game's own doubles are printed with the game)."""
    words = f"Doubling down: {t.get_double_on_display()}"
    if not t.double_after_split and t.split_pairs != t.SplitPairs.NONE:
        words += "; not after a split"
    if t.double_down == t.DoubleDown.UP_TO:  # (the model's choices through the table: packs load before the models)
        words += "; the double may be less than the original wager, up to it"
    return words + "."


def _insurance(t) -> str:
    if not t.insurance_allowed:
        return "No insurance."
    return "Insurance: half the wager, paid 2 to 1" + (
        "; even money offered on a blackjack against the dealer's ace." if t.even_money_offered else "."
    )


def lines(t) -> list[Line]:
    note = f"{WSGC_BLACKJACK_RULES}, {{}} ({IN_CONTROLS})"
    return [
        (limits_line(t) + _single_wager_limit(t), CITATIONS["wagers"]),
        (f"{plural(t.decks, 'deck')}, dealt from {DEALT_FROM[t.dealt_from]}; up to {t.max_players} players.",
         f"{WSGC_BLACKJACK_RULES}, rules 1 and 3"),
        (_payout(t), rule(7)),
        ("Dealer must hit soft 17." if t.dealer_hits_soft_17 else "Dealer stands on all 17s.",
         f"{rule(9)} ({IN_CONTROLS})"),
        (_doubles(t), note.format("Doubling Down")),
        (_splits(t), note.format("Splitting Pairs")),
        (_insurance(t), note.format("Insurance")),
        (f"Surrender: {t.get_surrender_display()}.", note.format("Surrender")),
        ("A tie is a push; winning wagers are paid even money.", rule(11)),
    ]  # fmt: skip


HANDOUT = Handout(
    kind="house_rules_wa_hb",
    title="Blackjack house rules",
    rule=rule(7),
    heading=f"Blackjack house rules ({WSGC_BLACKJACK_RULES})",
    sections=(HandoutSection("", lines),),
    approved_games=True,
)
