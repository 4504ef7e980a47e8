"""Washington house-banked blackjack for the approvals app: the options the WSGC Blackjack Game
Rules (rev. April 2018) say "must be documented in internal controls" (the notes, rule 7, and the
immaterial modifications of the rules' own play that Irregularities' last paragraph asks
documented: resplitting, split aces, doubling after a split, the double-down wager), rule key -> citation, and
what each rule's note says (`NOTES`, quoted or closely paraphrased) for the refusals to quote.

The approvals app names each option by key (`approvals.documented.<Table field>`) and cites it
at the site (`Rule.at`); a site whose pack states none of them keeps no internal controls of
table options (`table.internal_controls`, in `tables.CITATIONS`)."""

from .tables import WSGC_BLACKJACK_RULES as RULES
from .tables import rule

# "Card room operators may make immaterial modifications to these game rules. However, the changes
# must be properly documented in their internal controls." (Irregularities, its last paragraph.)
_MODIFICATIONS = f"{RULES}, Irregularities (immaterial modifications)"

CITATIONS: dict[str, str] = {
    "approvals.documented.dealer_hits_soft_17": rule("9.iii"),
    "approvals.documented.split_pairs": f"{RULES}, Splitting Pairs (note)",
    "approvals.documented.double_on": f"{RULES}, Doubling Down (note)",
    "approvals.documented.insurance_allowed": f"{RULES}, Insurance (note)",
    "approvals.documented.surrender": f"{RULES}, Surrender (note)",
    "approvals.documented.blackjack_payout": rule(7),
    "approvals.documented.payout_rounding": rule(7),
    # The options no note names, whose rules' own play the text states (approvals.rules): another
    # value is an immaterial modification, documented as Irregularities' last paragraph says.
    "approvals.documented.resplit_allowed": _MODIFICATIONS,
    "approvals.documented.split_aces_one_card": _MODIFICATIONS,
    "approvals.documented.double_after_split": _MODIFICATIONS,
    "approvals.documented.double_down": _MODIFICATIONS,
    # Even money is the card room's way of accepting an insurance wager, not the rules' (Insurance).
    "approvals.documented.even_money_offered": f"{RULES}, Insurance (note)",
    # "Card room operators must document in their internal controls how they will address various
    # irregularities applicable to Blackjack (e.g. misdeals, cards exposed, incorrect number of cards, etc.)."
    "approvals.irregularities": f"{RULES}, Irregularities",
}

_RULE_7 = (
    "licensees must post in their game rules and internal controls the payouts for blackjack games offered for "
    "play, including how rounding the payout will occur"
)
_MODIFIED = (
    "card room operators may make immaterial modifications to these game rules; however, the changes must be "
    "properly documented in their internal controls"
)
NOTES: dict[str, str] = {
    "table.approved_shuffler": "card room operators must deal blackjack from a dealing shoe or a shuffling device "
    "the Commission has approved",
    "approvals.documented.dealer_hits_soft_17": "if a card room enforces the rule that the dealer must hit a soft "
    "17, it must properly document so in its internal controls",
    "approvals.documented.split_pairs": "card room operators may determine what pairs a player may split; however, "
    "it must be properly documented in their internal controls",
    "approvals.documented.double_on": "card room operators may determine what hand players may double down on; "
    "however, it must be properly documented in their internal controls",
    "approvals.documented.insurance_allowed": "card room operators may deviate from the rules for accepting "
    "insurance wagers; however, it must be properly documented in their internal controls",
    "approvals.documented.surrender": "card room operators may deviate from the rules for allowing players to "
    "surrender; however, it must be properly documented in their internal controls",
    "approvals.documented.blackjack_payout": _RULE_7,
    "approvals.documented.payout_rounding": _RULE_7,
    "approvals.documented.resplit_allowed": "if the third card dealt to the player is identical to the others, the "
    f"player may again split this hand; {_MODIFIED}",
    "approvals.documented.split_aces_one_card": "a player divides the pair and treats each as it were the first "
    f"card dealt in a hand, and must draw or stand on each; {_MODIFIED}",
    "approvals.documented.double_after_split": "once a player is dealt two cards, the player may double down, and "
    f"each split card is played as it were the first card dealt in a hand; {_MODIFIED}",
    "approvals.documented.double_down": f"the player places a second wager equal to the original bet; {_MODIFIED}",
    "approvals.documented.even_money_offered": "the rules offer insurance (half the opening wager, paid 2 to 1), "
    "not even money; card room operators may deviate from the rules for accepting insurance wagers; however, it "
    "must be properly documented in their internal controls",
}
