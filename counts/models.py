"""Drop boxes, their custody, and the two-person count (ND 99-01.3-08-02(2), 08-06(1), 08-14).

Everything that records what happened to money is append-only (`AppendOnlyModel`, refused
UPDATE/DELETE in the database): where a box was used and when it was removed, each member's
blind count, the agreement of the two counts, the signatures and later adjustments. A count
session's state is derived from those rows (two signatures = locked), never stored in a
column that could be changed. Only the box register and the site's count settings are
editable master data (with history).
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from simple_history.models import HistoricalRecords

from cardroom.models import Employee, Role, Site, Table
from core import limits
from core.appendonly import AppendOnlyModel
from core.moments import EnteredRecord
from core.rules import HOUSE_CONTROL
from packs import game_name

from .rules import AUDITOR_BAR


class BoxExchange(models.TextChoices):
    GAMING_DAY = "gaming_day", "Once per gaming day"
    DEALER_SHIFT = "dealer_shift", "At each dealer change (one drop per dealer shift)"


class CountSettings(models.Model):
    """Per-site count settings: how often boxes are exchanged, and the person who audits
    twenty-one at the site (who may never be on its count team: counts.rules.AUDITOR_BAR, a house
    control; no pack's text states it)."""

    site = models.OneToOneField(Site, on_delete=models.PROTECT, related_name="count_settings")
    box_exchange = models.CharField(max_length=20, choices=BoxExchange.choices, default=BoxExchange.GAMING_DAY)
    # Named game 21 here: each pack's pages call it by its own name (`CountSettingsForm`).
    twenty_one_auditor = models.ForeignKey(
        Employee,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name="game 21 auditor",
        help_text="The person who audits game 21 at this site; never a count team member here.",
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "count settings"

    def __str__(self):
        return f"Count settings for {self.site}"

    def clean(self):
        auditor = self.twenty_one_auditor
        if auditor is None or not self.site_id:
            return
        counts_here = auditor.memberships.filter(Q(site_id=self.site_id) | Q(site__isnull=True), role=Role.COUNT_TEAM)
        if counts_here.exists():
            # AUDITOR_BAR: whoever checks the count's figures did not make them (the pickers leave
            # the count team out; a value posted anyway, by the page, the API or the admin, stops here).
            raise ValidationError(
                {
                    "twenty_one_auditor": (
                        f"{AUDITOR_BAR}: {auditor} is on the count team at {self.site}; the person who audits "
                        f"{game_name(self.site, '21')} checks the count's figures and may not be one who counts them. "
                        "Name someone off the count team."
                    )
                }
            )


class DropBox(models.Model):
    """A physical drop box, numbered to match its table (ND 99-01.3-08-02(2)). A table may
    have several boxes (e.g. one counted while the next is in use): `label` tells them apart."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="drop_boxes")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drop_boxes")
    number = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=10, blank=True, default="")
    locks = models.PositiveSmallIntegerField(default=1, choices=[(1, "One lock"), (2, "Two locks")])
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "drop boxes"
        ordering = ["site_id", "number", "label"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "number", "label"],
                name="drop_box_unique_in_site",
                violation_error_message=(
                    f"{HOUSE_CONTROL}: a drop box with this number and label is already registered at this site."
                ),
            )
        ]

    def __str__(self):
        return f"Drop box {self.number}{self.label}"


class Drop(EnteredRecord, AppendOnlyModel):
    """One use of a drop box at a table for a period: a gaming day, or one dealer shift when
    the site exchanges boxes at each dealer change. Append-only: the period a box covered
    is a record the count and gross proceeds rest on."""

    occurred_field = "placed_at"  # entered_at / entered_late: core.moments
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    drop_box = models.ForeignKey(DropBox, on_delete=models.PROTECT, related_name="drops")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drops")
    gaming_date = models.DateField()
    # The id of floor.DealerShift when the box covers one dealer shift. A plain integer
    # because the custody app's migrations were written in parallel; validated in the service.
    dealer_shift_id = models.PositiveBigIntegerField(null=True, blank=True)
    placed_at = models.DateTimeField()
    placed_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["gaming_date", "table__number", "placed_at"]
        indexes = [models.Index(fields=["site", "gaming_date"])]

    def __str__(self):
        shift = f" (dealer shift {self.dealer_shift_id})" if self.dealer_shift_id else ""
        return f"{self.drop_box} on table {self.table.number}, {self.gaming_date}{shift}"


class DropRemoval(EnteredRecord, AppendOnlyModel):
    """The removal of a used box from its table and its custody until the count
    (ND 99-01.3-08-14(1), (3)): who transported it, who escorted, where it was stored, who
    holds the key to each lock."""

    occurred_field = "removed_at"  # entered_at / entered_late: core.moments
    entry_site = "drop.site"

    drop = models.OneToOneField(Drop, on_delete=models.PROTECT, related_name="removal")
    removed_at = models.DateTimeField()
    transported_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    escorted_by = models.ForeignKey(Employee, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    sole_employee_on_duty = models.BooleanField(default=False)
    storage_place = models.CharField(max_length=120)
    key_holder = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    second_key_holder = models.ForeignKey(Employee, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        # drop_removal_times: a drop's removal time read from the index alone, not the row (the
        # compliance scan probes it once a drop: counts.queries.removed_in_time).
        indexes = [models.Index(fields=["drop", "removed_at"], name="drop_removal_times")]

    def __str__(self):
        return f"Removal of {self.drop}"


class CountSession(EnteredRecord, AppendOnlyModel):
    """A two-person count team's session for a site and gaming date. The team passed
    ND 99-01.3-08-14(2) when it was opened; it is locked once both members have signed."""

    occurred_field = "opened_at"  # entered_at / entered_late: core.moments
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    first_member = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    second_member = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    opened_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_date", "site_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "gaming_date"],
                name="one_count_session_per_site_day",
                violation_error_message="A count session for this site and gaming date is already open.",
            ),
            models.CheckConstraint(condition=~Q(first_member=models.F("second_member")), name="count_two_persons"),
        ]

    def __str__(self):
        return f"Count of {self.gaming_date} at {self.site}"

    @property
    def member_ids(self) -> tuple[int, int]:
        return (self.first_member_id, self.second_member_id)


class EntryKind(models.TextChoices):
    MEMBER = "member", "Member's blind count"
    RECOUNT = "recount", "Agreed recount"
    ADJUSTMENT = "adjustment", "Adjusting entry"


class CountEntry(AppendOnlyModel):
    """A set of figures for one drop: a member's blind count, the agreed figures after a
    recount, or an adjusting entry after signing. Lines and forms hang off it."""

    session = models.ForeignKey(CountSession, on_delete=models.PROTECT, related_name="entries")
    drop = models.ForeignKey(Drop, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=12, choices=EntryKind.choices)
    entered_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()  # when it was counted (from the paper, or now)
    recorded_at = models.DateTimeField(
        null=True,
        editable=False,
        help_text="When the count was entered in the system (entered_at is when it was counted); null: "
        "entered before this was kept, live.",
    )
    total_cents = models.BigIntegerField()
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True, default="")

    def save(self, *args, **kwargs):
        if self._state.adding and self.recorded_at is None:
            self.recorded_at = timezone.now()
        super().save(*args, **kwargs)

    class Meta:
        verbose_name_plural = "count entries"
        ordering = ["drop_id", "entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["drop", "entered_by"],
                condition=Q(kind="member"),
                name="one_blind_count_per_member_per_drop",
                violation_error_message="You have already counted this box.",
            ),
            models.UniqueConstraint(
                fields=["drop"],
                condition=Q(kind="recount"),
                name="one_recount_per_drop",
                violation_error_message="This box's difference is already resolved.",
            ),
        ]


class CountLine(AppendOnlyModel):
    entry = models.ForeignKey(CountEntry, on_delete=models.PROTECT, related_name="lines")
    denomination_cents = models.PositiveIntegerField()
    form = models.CharField(max_length=4, choices=[("bill", "Bill"), ("coin", "Coin")])
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["entry_id", "-denomination_cents", "form"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "denomination_cents", "form"], name="count_line_unique")
        ]

    @property
    def amount_cents(self) -> int:
        return self.denomination_cents * self.quantity


class SlipKind(models.TextChoices):
    FILL = "fill", "Fill slip copy"
    CREDIT = "credit", "Credit slip original"


class FormFound(AppendOnlyModel):
    """A fill-slip copy or credit-slip original found in the box, by its number."""

    entry = models.ForeignKey(CountEntry, on_delete=models.PROTECT, related_name="forms")
    kind = models.CharField(max_length=6, choices=SlipKind.choices)
    number = models.PositiveIntegerField()

    class Meta:
        ordering = ["entry_id", "kind", "number"]
        constraints = [models.UniqueConstraint(fields=["entry", "kind", "number"], name="form_found_unique")]


class CountAgreement(AppendOnlyModel):
    """The agreed figures for a drop: the two blind counts matched, or a recount resolved their
    difference (ND 99-01.3-08-14(4)), or a gaming manager approved an adjusting entry after the
    session was signed (`supersedes` the agreement it corrects). The newest one is the drop."""

    class Source(models.TextChoices):
        MATCH = "match", "Both counts matched"
        RECOUNT = "recount", "Difference resolved by recount"
        ADJUSTMENT = "adjustment", "Adjusting entry approved by a gaming manager"

    session = models.ForeignKey(CountSession, on_delete=models.PROTECT, related_name="agreements")
    drop = models.ForeignKey(Drop, on_delete=models.PROTECT, related_name="agreements")
    entry = models.ForeignKey(CountEntry, on_delete=models.PROTECT, related_name="+")
    source = models.CharField(max_length=12, choices=Source.choices)
    total_cents = models.BigIntegerField()
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    reason = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True, default="")
    approved_by = models.ForeignKey(Employee, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    agreed_at = models.DateTimeField()

    class Meta:
        ordering = ["drop_id", "agreed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["drop"],
                condition=Q(supersedes__isnull=True),
                name="one_original_agreement_per_drop",
                violation_error_message="This box's count is already agreed.",
            )
        ]


class CountSignature(EnteredRecord, AppendOnlyModel):
    """A member's initials and date on the count (ND 99-01.3-08-14(4))."""

    occurred_field = "signed_at"  # entered_at / entered_late: core.moments
    entry_site = "session.site"

    session = models.ForeignKey(CountSession, on_delete=models.PROTECT, related_name="signatures")
    member = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["signed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "member"],
                name="one_signature_per_member",
                violation_error_message="You have already signed this count.",
            )
        ]


class FormsExplanation(EnteredRecord, AppendOnlyModel):
    """Why a slip is missing from a box, or why a form found was not expected. Until one is
    recorded the difference stays an exception on the count. `explained_at` is when it was
    explained (from the paper, or now), `entered_at` when it was entered."""

    occurred_field = "explained_at"  # entered_at / entered_late: core.moments
    entry_site = "drop.site"

    drop = models.ForeignKey(Drop, on_delete=models.PROTECT, related_name="form_explanations")
    kind = models.CharField(max_length=6, choices=SlipKind.choices)
    number = models.PositiveIntegerField()
    explanation = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    explained_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    explained_at = models.DateTimeField()

    class Meta:
        ordering = ["explained_at"]
