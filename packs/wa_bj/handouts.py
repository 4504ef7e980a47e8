"""Washington player-banked blackjack's posted house rules (WAC 230-40-125, 1999 proposed
amendment): the player dealer/banker and the time-based fee notice, each line citing its
subsection."""

from core.plurals import plural

from ..base import Handout, HandoutSection, Line
from ..common import limits_line, money
from .tables import cite

# What a pair is at the table (WAC 230-40-125(17): "If a player's first two cards are a pair").
_PAIRS = {"any_pair": "identical cards, or any two ten-valued cards", "identical": "identical cards only"}


def lines(t) -> list[Line]:
    bank = (
        f"Minimum bank {money(t.min_bank_cents)} (house rule; at most $500)."
        if t.min_bank_cents
        else ("No minimum bank is set.")
    )
    return [
        ("A player is both the dealer and the banker (dealer/banker); the house does not bank the game. The "
         "deal passes to the left; no player may buy the bank or deal more than one consecutive shoe.",
         f"{cite(2)}, {cite(12)}"),
        (bank, cite(3)),
        (limits_line(t) + " The maximum wager never exceeds $25.", cite(4)),
        (f"{plural(t.decks, 'deck')}, dealt from a shoe at all times.", cite(2)),
        ("A natural 21 collects 1.5 times the bet from the dealer/banker; all ties push.", cite(5)),
        ("The dealer/banker must hit soft 17 and stand on hard 17." if t.dealer_hits_soft_17
         else "The dealer/banker stands on 17 or above and hits 16 or below.", cite(13)),
        (f"Doubling down (house rule): {t.get_double_on_display()}"
         + (", after a split too" if t.double_after_split else ", not after a split")
         + "; one more card only.", cite(14)),
        ("Insurance: half the wager, paid 2 to 1." if t.insurance_allowed else "No insurance.", cite(16)),
        (f"A pair may be split ({_PAIRS.get(t.split_pairs, t.get_split_pairs_display().lower())})"
         + ("; additional splits allowed (house rule)." if t.resplit_allowed
            else "; no additional splits (house rule)."), cite(17)),
    ]  # fmt: skip


HANDOUT = Handout(
    kind="house_rules_wa_bj",
    title="Blackjack house rules (time fees)",
    rule=cite(13),
    heading="Washington blackjack house rules (WAC 230-40-125 (1999 proposed amendment))",
    notice=(
        ("Fees to play are assessed on a time basis only and collected by the direct collection method.", cite(1)),
        ("House blackjack rules are posted in plain view to the players.", cite(13)),
    ),
    sections=(HandoutSection("", lines),),
)
