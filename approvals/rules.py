"""Internal controls and game approvals, as data: the options the site's pack says "must be
documented in internal controls" (named by rule key; their citations and words are the pack's:
packs/wa_hb/approvals.py), the table settings a game approval may fix, and who records what.
Every check, service and message reads these.
"""

from dataclasses import dataclass

from cardroom.access import ReadRule
from cardroom.models import Role, Table
from core.rules import HOUSE_CONTROL
from packs import Rule

# The sites whose tables are judged against internal controls: those whose pack's law says the
# table options must be documented in internal controls (the WSGC house-banked rules; the
# player-banked game leaves its options to house rules, not internal controls).
INTERNAL_CONTROLS = Rule("table.internal_controls")
# The sites whose tables may offer a game approved by the state's commission, with its conditions.
GAME_APPROVAL = Rule("table.game_approval")
# The sites whose blackjack is dealt from a shoe or a shuffling device the state approved (WSGC
# rule 3): a table dealt from a shuffler names the approved model on its game link.
APPROVED_SHUFFLER = Rule("table.approved_shuffler")
# The sites whose tables follow the tie option the organization's licence reflects.
LICENCE = Rule("table.licence")
# The internal controls say how the card room addresses irregularities (misdeals, exposed cards, an
# incorrect number of cards): the WSGC rules' "Irregularities" (WA-HB). A version recorded without
# them is kept (its options still judge the tables) and flagged each night while in force.
IRREGULARITIES = Rule("approvals.irregularities")

# The written procedures an organization adopts, by kind (approvals.WrittenProcedure.Kind): each
# offered where the law of one of the organization's sites' packs states it (packs/nd/procedures.py).
PROCEDURES = {
    "shuffle_and_cut": Rule("procedures.shuffle_and_cut"),
    "chip_redemption": Rule("procedures.chip_redemption"),
    "dealing_mistakes": Rule("procedures.dealing_mistakes"),
}
# The period of no activity after which a dealer may reshuffle, set in the shuffle procedure.
RESHUFFLE_IDLE = Rule("procedures.reshuffle_idle")
# House control: the longest idle period a shuffle procedure sets (a gaming day).
MAX_RESHUFFLE_IDLE_MINUTES = 24 * 60


@dataclass(frozen=True)
class DocumentedOption:
    """A table option the site's pack requires the card room to document in its internal controls
    (in Washington house-banked blackjack the WSGC rules: packs/wa_hb/approvals.py)."""

    field: str  # the Table field
    label: str
    # The values the rules' own play uses, which need no documenting; any other value is the card
    # room's deviation and is refused until the internal controls in effect list it.
    rules_play: tuple = ()
    column: str = ""  # the register's column (templates/approvals/list.html)
    # A yes/no option's values in words of their own (the register); None: the Table field's choices.
    words: dict | None = None
    # An option of split hands (resplitting, split aces, doubling after a split): moot where no pair
    # is split, so neither judged at such a table nor asked of controls documenting no splitting.
    after_split: bool = False

    def moot(self, table) -> bool:
        """Whether the option cannot arise at `table` (an option of split hands where none is split)."""
        return self.after_split and table.split_pairs == Table.SplitPairs.NONE

    def moot_in(self, split_pairs: list) -> bool:
        """Whether internal controls documenting `split_pairs` need not document this option: they
        allow no splitting at all."""
        return self.after_split and split_pairs == [Table.SplitPairs.NONE]

    def value_words(self, value) -> str:
        """`value` in the register's words ("Hits soft 17", "Identical cards only")."""
        words = self.words if self.words is not None else dict(Table._meta.get_field(self.field).choices)
        return str(words.get(value, value))

    def listed(self, values: list, moot: bool = False) -> str:
        """What a version of the internal controls documents of this option, in words. A version
        that lists nothing documents no modification (approvals.checks.controls_errors): the rules'
        own play, where the rules have one; else nothing, and every table is refused. `moot`: the
        version documents no splitting, so this option of split hands does not arise (`moot_in`)."""
        if values:
            return "; ".join(self.value_words(value) for value in values)
        if moot:
            return "none listed (no pair is split)"
        if self.rules_play:
            return "none listed (the rules' play: " + "; ".join(self.value_words(v) for v in self.rules_play) + ")"
        return "none listed"

    @property
    def rule(self) -> Rule:
        """The rule (cited at a site by its pack): `approvals.documented.<field>`."""
        return Rule(f"approvals.documented.{self.field}")

    def cited(self, where) -> str:
        """ "<citation>: <what the rule says>" as the pack of `where` states it."""
        note = self.rule.note(where) or f"the {self.label} must be documented in the internal controls"
        return f"{self.rule.at(where)}: {note}"


def _yes_no(field: str, label: str, rules_play: bool, column: str, yes: str, no: str, **kwargs) -> DocumentedOption:
    """A yes/no option, its two values in the register's words."""
    return DocumentedOption(field, label, (rules_play,), column, {True: yes, False: no}, **kwargs)


# The rules' own play, as packs/wa_hb/approvals.py cites it (rules 9.i, 7; the notes on splitting,
# doubling, insurance and surrender; the immaterial modifications of Irregularities).
DOCUMENTED_OPTIONS = (
    # rule 9.i: the dealer stands on 17
    _yes_no("dealer_hits_soft_17", "dealer hits soft 17", False, "Soft 17", "Hits soft 17", "Stands on soft 17"),
    # "When a player receives two identical cards, they are considered a pair"
    DocumentedOption("split_pairs", "pairs a player may split", ("identical",), "Splits"),
    # "Once a player is dealt two cards, the player may double down"
    DocumentedOption("double_on", "hands a player may double down on", ("any_two",), "Doubles"),
    # when the dealer's face-up card is an ace
    _yes_no("insurance_allowed", "insurance", True, "Insurance", "Insurance offered", "No insurance"),
    DocumentedOption("surrender", "surrender", (), "Surrender"),  # whether and when is the room's documented choice
    DocumentedOption("blackjack_payout", "blackjack payout", (), "Payout"),  # every payout offered is posted
    # A payout with no fraction to round (2 to 1, even money) needs no rounding rule.
    DocumentedOption(
        "payout_rounding", "rounding of the blackjack payout", ("",), "Rounding",
        {"": "No rounding", **dict(Table.PayoutRounding.choices)},
    ),
    # The rules' own play of the options no note names: any other value is one of the "immaterial
    # modifications to these game rules" the card room documents (Irregularities, last paragraph).
    # "If the third card dealt to the player is identical to the others, the player may again split"
    _yes_no("resplit_allowed", "resplitting a pair", True, "Resplit", "Pairs may be split again", "No resplitting",
            after_split=True),
    # Each split card is played "as it were the first card dealt in a hand": nothing limits split aces
    # to one card each.
    _yes_no("split_aces_one_card", "one card only to each split ace", False, "Split aces",
            "One card to each split ace", "Split aces played as any other hand", after_split=True),
    # A split hand is a first hand, and "once a player is dealt two cards, the player may double down"
    _yes_no("double_after_split", "doubling down after a split", True, "Double after split", "Double after a split",
            "No doubling after a split", after_split=True),
    # "The player places a second wager equal to the original bet"
    DocumentedOption("double_down", "the double-down wager", (Table.DoubleDown.EQUAL,), "Double-down wager"),
    # The rules offer insurance, not even money: even money is a deviation in accepting insurance
    # wagers (the Insurance note).
    _yes_no("even_money_offered", "even money on a blackjack against an ace", False, "Even money",
            "Even money offered", "No even money"),
)  # fmt: skip
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
# An approval's enclosed rules of play: lines of the handout, each short enough to read at the table.
MAX_RULES_OF_PLAY = 40
MAX_RULE_OF_PLAY_LENGTH = 300

# --- Roles (house controls: the pack's rules do not say who in the card room records these) ----

# Record an approval, an internal-controls version, or which approved game a table offers.
RECORDERS = frozenset({Role.GAMING_MANAGER})
RECORDER_RULE = HOUSE_CONTROL

# Read the register of approvals, the internal controls and the tables' games (pages).
RECORDS = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see the game approvals and internal controls"
)


# Read the organization's written procedures: every employee, since the dealers follow the shuffle
# and the dealing-mistakes policy and the cashiers the chip redemption (the API's list reads the same).
PROCEDURE_READERS = ReadRule(frozenset(Role), HOUSE_CONTROL, "see the organization's written procedures")
