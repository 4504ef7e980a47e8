"""New York's posted Black Jack rules (9 NYCRR 4620.5, games of chance): the licence's tie
option (4620.5(h)) and the table's options, each line citing its rule."""

from core.plurals import plural

from ..base import Handout, HandoutSection, Line
from ..common import limits_line, payout_words
from .tables import CITATIONS, TIE_OPTIONS


def lines(t) -> list[Line]:
    c = CITATIONS
    tie = TIE_OPTIONS.get(t.tie_option, "Tie option not set.")
    return [
        (limits_line(t) + " The maximum bet is $5 or its equivalent in chips.", c["wagers"]),
        (f"{plural(t.decks, 'deck')} of 52 cards{', shuffled together and used as one' if t.decks > 1 else ''}.", c["decks"]),
        (f"Up to {t.max_players} players; up to {t.betting_spaces} betting spaces.",
         f"{c['max_players']}, {c['betting_spaces']}"),
        (f"Ties: {tie}", c["tie_option"]),
        (f"A winning natural 21 is paid {payout_words(t.blackjack_payout)}.", c["blackjack_payout"]),
        ("The dealer draws to 16 and stays on all 17s, including a soft 17.", c["dealer_hits_soft_17"]),
        ("Double down on a first two cards totalling 10 or 11: one more card only.", c["double_on"]),
        ("Any pair, including any two ten-valued cards, may be split and split again; split aces receive one "
         "card each; 21 on a split hand is not a natural and is paid even money.", "9 NYCRR 4620.5(k)"),
        ("No doubling down on split pairs.", c["double_after_split"]),
        ("Insurance when the dealer shows an ace: half the wager, paid 2 to 1.", c["insurance_allowed"]),
    ]  # fmt: skip


HANDOUT = Handout(
    kind="house_rules_ny",
    title="Black Jack rules",
    rule="9 NYCRR 4620.5(h)",
    heading="Black Jack rules (9 NYCRR 4620.5, games of chance)",
    sections=(HandoutSection("", lines),),
)
