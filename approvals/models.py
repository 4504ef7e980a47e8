"""Washington game approvals and internal controls, which approved game a table offers, and an
organization's licences with the terms its tables follow (New York's tie option).

All append-only: an approval is the Commission's letter as recorded (its conditions do not
change: "any modifications to this game may affect this approval"), an internal-controls
version is what the Commission approved for a period, and a table's link to an approval is a
dated record of what it offered. A change is a new row: a new approval (pointing back to the
one it supersedes), a new internal-controls version with its effective date, a new link.
"""

from django.db import models
from django.utils.text import capfirst

from cardroom.models import Employee, Jurisdiction, Organization, Site, Table
from core import limits
from core.appendonly import AppendOnlyModel

from . import rules


class GameApproval(AppendOnlyModel):
    """An approved game and its side bets, with the approval's conditions on the table settings
    (`conditions`: {Table field: [permitted values]}, approvals.rules.CONDITION_FIELDS)."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="game_approvals")
    # The jurisdiction whose law the approval is under: always given (the organization's pack that
    # states game approvals, `services._approval_jurisdiction`), never one state by default.
    jurisdiction = models.CharField(max_length=5, choices=Jurisdiction.choices)
    game_name = models.CharField(max_length=200)
    manufacturer = models.CharField(max_length=200, blank=True, default="")
    agency = models.CharField(max_length=200)
    approved_on = models.DateField()
    submission_number = models.CharField(max_length=80)
    conditions = models.JSONField(default=dict)
    conditions_text = models.TextField(blank=True, default="")
    # The rules of play the approval encloses ("The game shall be played and operated under the
    # terms and conditions set forth under the ... rules of play you provided and are enclosed"),
    # one short line each, as the players' handout prints them (rules.MAX_RULES_OF_PLAY lines of at
    # most rules.MAX_RULE_OF_PLAY_LENGTH characters). Empty on an approval recorded without them.
    rules_of_play = models.JSONField(default=list, blank=True)
    # "If any automatic shuffle machine is used ... it must be a WSGC approved model."
    shuffler_must_be_approved = models.BooleanField(default=False)
    # "Commercial card room operators ... must first submit their internal controls and receive
    # approval from the Commission prior to implementing."
    internal_controls_required = models.BooleanField(default=False)
    supersedes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["organization_id", "game_name", "approved_on", "id"]

    def __str__(self):
        return f"{self.game_name} ({self.reference})"

    @property
    def condition_lines(self) -> list[str]:
        """The conditions in the table form's words ("Dealer hits soft 17: yes"), never the
        stored field names and values ("dealer_hits_soft_17: True")."""
        lines = []
        for name, values in self.conditions.items():
            field = Table._meta.get_field(name)
            labels = {**(dict(field.flatchoices) if field.choices else {}), **APPROVED_RULES_WORDS.get(name, {})}
            shown = [_condition_value(value, labels) for value in values]
            lines.append(f"{capfirst(field.verbose_name)}: {', '.join(shown)}")
        return lines

    @property
    def reference(self) -> str:
        """How a message cites the approval: "WSGC approval of 2024-08-08, submission #3172"."""
        agency = "WSGC" if "Washington State Gambling Commission" in self.agency else self.agency
        return f"{agency} approval of {self.approved_on.isoformat()}, submission #{self.submission_number}"


class PayTable(AppendOnlyModel):
    """One selectable pay table of an approval: of the game's blackjacks (`side_bet` empty;
    `natural_payout` is the Table.blackjack_payout a table posts with it) or of a side bet."""

    audit_organization = "approval__organization"

    approval = models.ForeignKey(GameApproval, on_delete=models.PROTECT, related_name="pay_tables")
    side_bet = models.CharField(max_length=80, blank=True, default="")
    code = models.CharField(max_length=20)
    lines = models.JSONField(default=list)  # [{"hand": "Suited Blackjack", "pays": "2 to 1"}, ...]
    natural_payout = models.CharField(max_length=5, blank=True, default="", choices=Table.BlackjackPayout.choices)

    class Meta:
        ordering = ["approval_id", "side_bet", "code"]
        constraints = [
            models.UniqueConstraint(fields=["approval", "side_bet", "code"], name="pay_table_code_unique_in_approval")
        ]

    def __str__(self):
        return f"{self.side_bet or 'Blackjack'} pay table {self.code}"


class InternalControls(AppendOnlyModel):
    """One version of a site's internal controls for a game (standard house-banked blackjack
    when `game_approval` is empty, else the approved game), with the values each documented
    option may take (approvals.rules.DOCUMENTED_OPTIONS). The version in effect on a day is the
    latest whose `effective_on` is not after it."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="internal_controls")
    game_approval = models.ForeignKey(GameApproval, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField()
    effective_on = models.DateField()
    approved_on = models.DateField()
    approved_by = models.CharField(max_length=200)
    approval_reference = models.CharField(max_length=200, blank=True, default="")
    dealer_hits_soft_17 = models.JSONField(default=list)
    split_pairs = models.JSONField(default=list)
    double_on = models.JSONField(default=list)
    insurance_allowed = models.JSONField(default=list)
    surrender = models.JSONField(default=list)
    blackjack_payout = models.JSONField(default=list)
    payout_rounding = models.JSONField(default=list)
    # The immaterial modifications of the rules' own play (the WSGC rules' Irregularities, last
    # paragraph) and even money (the Insurance note). A version recorded before these were asked
    # lists none: nothing documented, so only the rules' own play (approvals.checks.controls_errors).
    resplit_allowed = models.JSONField(default=list)
    split_aces_one_card = models.JSONField(default=list)
    double_after_split = models.JSONField(default=list)
    double_down = models.JSONField(default=list)
    even_money_offered = models.JSONField(default=list)
    # How the card room addresses irregularities (misdeals, exposed cards, an incorrect number of
    # cards...): the WSGC rules' "Irregularities" (approvals.rules.IRREGULARITIES). Blank on a version
    # recorded without them, which the nightly checks flag while it is in force.
    irregularities = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True, default="")
    supersedes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["site_id", "game_approval_id", "version"]
        verbose_name_plural = "internal controls"
        constraints = [
            models.UniqueConstraint(
                fields=["site", "game_approval", "version"],
                name="internal_controls_version_unique",
            )
        ]

    def __str__(self):
        return f"{self.site} {self.game} internal controls v{self.version}"

    @property
    def game(self) -> str:
        return self.game_approval.game_name if self.game_approval_id else "House-banked blackjack"

    @property
    def documented(self) -> list[str]:
        """Each documented option's values in words ("Hits soft 17; Stands on soft 17"), in the
        order of approvals.rules.DOCUMENTED_OPTIONS (the register's columns)."""
        return [
            option.listed(getattr(self, option.field), moot=option.moot_in(self.split_pairs))
            for option in rules.DOCUMENTED_OPTIONS
        ]


class TableGame(AppendOnlyModel):
    """Which approved game a table offers from `linked_at` (no approval: standard blackjack),
    with the pay tables it posts and the approved shuffler it uses. The latest row is current."""

    audit_organization = "table__site__organization"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    approval = models.ForeignKey(GameApproval, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    blackjack_pay_table = models.ForeignKey(PayTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    side_bet_pay_table = models.ForeignKey(PayTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    shuffler_model = models.CharField(max_length=80, blank=True, default="")
    linked_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    linked_at = models.DateTimeField()

    class Meta:
        ordering = ["table_id", "linked_at", "id"]

    def __str__(self):
        return f"{self.table} offers {self.approval or 'standard blackjack'}"


class Licence(AppendOnlyModel):
    """A licence of the organization as the state issued it, with the terms every table under it
    follows: the tie option the licence reflects (9 NYCRR 4620.5(h): "The selection of the option
    shall be set forth in the license application ... The license shall reflect one of the
    following options"). The licence in force on a day is the latest whose `effective_on` is not
    after it; a change is a new record (pointing back to the one it supersedes), never an edit."""

    class TieOption(models.IntegerChoices):
        ALL_PUSH = 1, "Option one: all ties are pushes"
        NATURALS_PUSH = 2, "Option two: push on natural 21 only; the house wins all other ties"
        HOUSE_WINS = 3, "Option three: the house wins all ties"

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="licences")
    jurisdiction = models.CharField(max_length=5, choices=Jurisdiction.choices)
    licence_number = models.CharField(max_length=80)
    tie_option = models.PositiveSmallIntegerField(choices=TieOption.choices)
    effective_on = models.DateField()
    supersedes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["organization_id", "jurisdiction", "effective_on", "id"]

    def __str__(self):
        return f"Licence {self.licence_number} (tie option {self.tie_option}, from {self.effective_on.isoformat()})"


class WrittenProcedure(AppendOnlyModel):
    """One version of a written procedure the organization has adopted (North Dakota: its dealers'
    standard shuffle and cut, 99-01.3-08-08(1); redeeming a player's chips, 08-06(2); an
    alternative written policy for dealing mistakes, 08-12). The organization's, not a site's.
    Append-only: what the organization adopted, and when, is the record a regulator reads; a
    change is a new version from its own date, superseding the earlier one, never an edit. The
    version in force on a day is the latest whose `effective_on` is not after it."""

    class Kind(models.TextChoices):
        SHUFFLE_AND_CUT = "shuffle_and_cut", "Shuffling and cutting cards"
        CHIP_REDEMPTION = "chip_redemption", "Redeeming a player's chips"
        DEALING_MISTAKES = "dealing_mistakes", "Dealing mistakes (alternative written policy)"

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="written_procedures")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    version = models.PositiveIntegerField()
    # The procedure's text, or its summary where `document_reference` names the document that holds it.
    text = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    document_reference = models.CharField(max_length=200, blank=True, default="")
    effective_on = models.DateField()
    # Shuffle and cut only: the period, set by the organization, after which a dealer may reshuffle
    # when no activity has occurred at the table (ND 99-01.3-08-08(2)); empty where none is set.
    reshuffle_idle_minutes = models.PositiveIntegerField(null=True, blank=True)
    supersedes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    adopted_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["organization_id", "kind", "version"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "kind", "version"], name="written_procedure_version_unique")
        ]

    def __str__(self):
        return f"{self.get_kind_display()} v{self.version} (from {self.effective_on.isoformat()})"


# An option whose meaning in an approved game is its approved rules', not the table form's
# words: the form's "up to the original wager" is a standard game's; Double Down Madness's rules
# let each double down be "up to the total amount already in play" (the approval letter).
APPROVED_RULES_WORDS = {
    "double_down": {
        Table.DoubleDown.UP_TO: "Double-down wager up to what the approved rules allow, not bound to the original wager"
    }
}


def _condition_value(value, labels: dict) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(labels.get(value, value))
