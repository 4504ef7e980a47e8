"""Washington internal controls and game approvals, as data: the options the WSGC Blackjack
Game Rules (rev. April 2018) say "must be documented in internal controls", the table settings
a game approval may fix, and who records what. Every check, service and message reads these.
"""

from dataclasses import dataclass

from cardroom.access import ReadRule
from cardroom.models import Jurisdiction, Role, Table
from cardroom.rules import HOUSE_CONTROL

WSGC_RULES = "WSGC Blackjack Game Rules (rev. April 2018)"

# The packs whose tables are judged against internal controls. Only the house-banked rules
# require internal controls; WAC 230-40-125 (player-banked "Washington blackjack") leaves its
# options (soft seventeen, insurance, additional splits) to *house rules*, not internal controls.
CONTROLLED_JURISDICTIONS = frozenset({Jurisdiction.WA_HB})
# Game approvals are granted by the Washington State Gambling Commission for house-banked games.
APPROVAL_JURISDICTIONS = frozenset({Jurisdiction.WA_HB})


@dataclass(frozen=True)
class DocumentedOption:
    """A table option the WSGC rules require the card room to document in its internal controls."""

    field: str  # the Table field
    label: str
    citation: str  # the rule and its note
    note: str  # what the rule's note says, quoted or closely paraphrased


DOCUMENTED_OPTIONS = (
    DocumentedOption(
        "dealer_hits_soft_17", "dealer hits soft 17", f"{WSGC_RULES}, rule 9.iii",
        "if a card room enforces the rule that the dealer must hit a soft 17, it must properly "
        "document so in its internal controls",
    ),
    DocumentedOption(
        "split_pairs", "pairs a player may split", f"{WSGC_RULES}, Splitting Pairs (note)",
        "card room operators may determine what pairs a player may split; however, it must be properly "
        "documented in their internal controls",
    ),
    DocumentedOption(
        "double_on", "hands a player may double down on", f"{WSGC_RULES}, Doubling Down (note)",
        "card room operators may determine what hand players may double down on; however, it must be "
        "properly documented in their internal controls",
    ),
    DocumentedOption(
        "insurance_allowed", "insurance", f"{WSGC_RULES}, Insurance (note)",
        "card room operators may deviate from the rules for accepting insurance wagers; however, it must "
        "be properly documented in their internal controls",
    ),
    DocumentedOption(
        "surrender", "surrender", f"{WSGC_RULES}, Surrender (note)",
        "card room operators may deviate from the rules for allowing players to surrender; however, it "
        "must be properly documented in their internal controls",
    ),
    DocumentedOption(
        "blackjack_payout", "blackjack payout", f"{WSGC_RULES}, rule 7",
        "licensees must post in their game rules and internal controls the payouts for blackjack games "
        "offered for play, including how rounding the payout will occur",
    ),
    DocumentedOption(
        "payout_rounding", "rounding of the blackjack payout", f"{WSGC_RULES}, rule 7",
        "licensees must post in their game rules and internal controls the payouts for blackjack games "
        "offered for play, including how rounding the payout will occur",
    ),
)
DOCUMENTED_FIELDS = tuple(option.field for option in DOCUMENTED_OPTIONS)


def _choices(field: str) -> tuple:
    """The values a Table field takes (booleans for a BooleanField)."""
    model_field = Table._meta.get_field(field)
    if model_field.get_internal_type() == "BooleanField":
        return (False, True)
    if model_field.choices:
        values = tuple(value for value, _ in model_field.choices)
        return ("", *values) if model_field.blank and "" not in values else values
    return tuple(range(1, 9)) if field == "decks" else ()


OPTION_VALUES = {field: _choices(field) for field in DOCUMENTED_FIELDS}

# The table settings a game approval may fix (its conditions): each listed with the values the
# approval permits. A setting the approval does not list is the house's to choose.
CONDITION_FIELDS = (
    "decks", "dealt_from", "dealer_hits_soft_17", "split_pairs", "resplit_allowed", "double_on",
    "double_down", "double_after_split", "surrender", "insurance_allowed", "even_money_offered",
)  # fmt: skip
CONDITION_VALUES = {field: _choices(field) for field in CONDITION_FIELDS}

# House control: bounds on what one approval or internal-controls record holds.
MAX_PAY_TABLES = 12
MAX_PAY_TABLE_LINES = 12
MAX_NAME_LENGTH = 200
MAX_SHORT_TEXT = 80

# --- Roles (house controls: the WSGC rules do not say who in the card room records these) ----

# Record an approval, an internal-controls version, or which approved game a table offers.
RECORDERS = frozenset({Role.GAMING_MANAGER})
RECORDER_RULE = HOUSE_CONTROL

# Read the register of approvals, the internal controls and the tables' games (pages).
RECORDS = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see the game approvals and internal controls"
)
