"""Washington house-banked blackjack for the approvals app: the options the WSGC Blackjack Game
Rules (rev. April 2018) say "must be documented in internal controls", rule key -> citation, and
what each rule's note says (`NOTES`, quoted or closely paraphrased) for the refusals to quote.

The approvals app names each option by key (`approvals.documented.<Table field>`) and cites it
at the site (`Rule.at`); a site whose pack states none of them keeps no internal controls of
table options (`table.internal_controls`, in `tables.CITATIONS`)."""

from .tables import WSGC_BLACKJACK_RULES as RULES
from .tables import rule

CITATIONS: dict[str, str] = {
    "approvals.documented.dealer_hits_soft_17": rule("9.iii"),
    "approvals.documented.split_pairs": f"{RULES}, Splitting Pairs (note)",
    "approvals.documented.double_on": f"{RULES}, Doubling Down (note)",
    "approvals.documented.insurance_allowed": f"{RULES}, Insurance (note)",
    "approvals.documented.surrender": f"{RULES}, Surrender (note)",
    "approvals.documented.blackjack_payout": rule(7),
    "approvals.documented.payout_rounding": rule(7),
    # "Card room operators must document in their internal controls how they will address various
    # irregularities applicable to Blackjack (e.g. misdeals, cards exposed, incorrect number of cards, etc.)."
    "approvals.irregularities": f"{RULES}, Irregularities",
}

_RULE_7 = (
    "licensees must post in their game rules and internal controls the payouts for blackjack games offered for "
    "play, including how rounding the payout will occur"
)
NOTES: dict[str, str] = {
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
}
