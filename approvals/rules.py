"""Washington internal controls and game approvals, as data: the options the WSGC Blackjack
Game Rules (rev. April 2018) say "must be documented in internal controls", the table settings
a game approval may fix, and who records what. Every check, service and message reads these.
"""

from dataclasses import dataclass

from cardroom.access import ReadRule
from cardroom.models import Role, Table
from core.rules import HOUSE_CONTROL
from packs import Rule

WSGC_RULES = "WSGC Blackjack Game Rules (rev. April 2018)"

# The sites whose tables are judged against internal controls: those whose pack's law says the
# table options must be documented in internal controls (the WSGC house-banked rules; the
# player-banked game leaves its options to house rules, not internal controls).
INTERNAL_CONTROLS = Rule("table.internal_controls")
# The sites whose tables may offer a game approved by the state's commission, with its conditions.
GAME_APPROVAL = Rule("table.game_approval")
# The sites whose tables follow the tie option the organization's licence reflects.
LICENCE = Rule("table.licence")


@dataclass(frozen=True)
class DocumentedOption:
    """A table option the WSGC rules require the card room to document in its internal controls."""

    field: str  # the Table field
    label: str
    citation: str  # the rule and its note
    note: str  # what the rule's note says, quoted or closely paraphrased
    # The values the rules' own play uses, which need no documenting; any other value is the card
    # room's deviation and is refused until the internal controls in effect list it.
    rules_play: tuple = ()


DOCUMENTED_OPTIONS = (
    DocumentedOption(
        "dealer_hits_soft_17", "dealer hits soft 17", f"{WSGC_RULES}, rule 9.iii",
        "if a card room enforces the rule that the dealer must hit a soft 17, it must properly "
        "document so in its internal controls",
        (False,),  # rule 9.i: the dealer stands on 17
    ),
    DocumentedOption(
        "split_pairs", "pairs a player may split", f"{WSGC_RULES}, Splitting Pairs (note)",
        "card room operators may determine what pairs a player may split; however, it must be properly "
        "documented in their internal controls",
        ("identical",),  # "When a player receives two identical cards, they are considered a pair"
    ),
    DocumentedOption(
        "double_on", "hands a player may double down on", f"{WSGC_RULES}, Doubling Down (note)",
        "card room operators may determine what hand players may double down on; however, it must be "
        "properly documented in their internal controls",
        ("any_two",),  # "Once a player is dealt two cards, the player may double down"
    ),
    DocumentedOption(
        "insurance_allowed", "insurance", f"{WSGC_RULES}, Insurance (note)",
        "card room operators may deviate from the rules for accepting insurance wagers; however, it must "
        "be properly documented in their internal controls",
        (True,),  # insurance when the dealer's face-up card is an ace
    ),
    DocumentedOption(
        "surrender", "surrender", f"{WSGC_RULES}, Surrender (note)",
        "card room operators may deviate from the rules for allowing players to surrender; however, it "
        "must be properly documented in their internal controls",
        (),  # whether and when a player may surrender is the room's documented choice
    ),
    DocumentedOption(
        "blackjack_payout", "blackjack payout", f"{WSGC_RULES}, rule 7",
        "licensees must post in their game rules and internal controls the payouts for blackjack games "
        "offered for play, including how rounding the payout will occur",
        (),  # every blackjack payout offered is posted in the internal controls
    ),
    DocumentedOption(
        "payout_rounding", "rounding of the blackjack payout", f"{WSGC_RULES}, rule 7",
        "licensees must post in their game rules and internal controls the payouts for blackjack games "
        "offered for play, including how rounding the payout will occur",
        ("",),  # a payout with no fraction to round (2 to 1, even money)
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
