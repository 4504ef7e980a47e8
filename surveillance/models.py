"""Video surveillance (ND 99-01.3-08-04): site status, equipment, recordings, the daily
review log, outages and the low-hold video review program.

Logs that are evidence for the attorney general (status changes, equipment changes and
samples, recordings and who accessed them, the daily review log, outages and repairs, review
programs and review entries) are append-only: a correction is a new row pointing back.
Equipment itself is editable master data with history.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from cardroom.models import Employee, Site, Table
from core import limits
from core.appendonly import AppendOnlyModel
from core.moments import EnteredRecord


class SurveillanceStatus(AppendOnlyModel):
    """Whether a site must have a video surveillance system, from when, and since when it is
    operational. Append-only: the latest row in effect on a date is the status on that date.

    A status follows from its trigger (ND 99-01.3-08-04, opening paragraph): the quarter rule
    (compliance) records it when a site's gross proceeds reach the level, with the day the
    system must be operational by (45 days from the end of the second quarter); taking over
    premises whose activity requires a system records it with no date yet, the 45 days running
    from the first gaming day the new organization conducts (`queries.operational_deadline`).
    A gaming manager may still record one by hand (`Trigger.MANUAL`)."""

    class Trigger(models.TextChoices):
        MANUAL = "manual", "Recorded by a gaming manager"
        QUARTER_RULE = "quarter_rule", "Gross proceeds level reached (quarter rule)"
        ACQUIRED_SITE = "acquired_site", "Premises acquired whose activity requires a system"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="surveillance_statuses")
    required = models.BooleanField()
    since = models.DateField(help_text="First gaming date this status applies to.")
    operational_on = models.DateField(null=True, blank=True, help_text="Date the system became operational.")
    trigger = models.CharField(max_length=20, choices=Trigger.choices, default=Trigger.MANUAL)
    operational_due_on = models.DateField(
        null=True,
        blank=True,
        help_text="Last day to have the system operational, as the site's pack sets it; empty: not set or not yet running.",
    )
    reason = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty when the compliance quarter rule recorded it.",
    )
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["site_id", "since", "recorded_at", "id"]
        verbose_name_plural = "surveillance statuses"


class PremisesSuccession(AppendOnlyModel):
    """`site` took over the premises where `predecessor` (usually another organization's site)
    conducted twenty-one.

    How a physical location's history is identified across organizations: a site belongs to
    one organization, so the same premises run by a new organization is a new site; this row
    links it to the site it succeeds. The level of activity that requires video surveillance
    counts "regardless of which organization conducted twenty-one at the site" (ND
    99-01.3-08-04, opening paragraph), so the quarter rule adds the predecessors' gross
    proceeds (following the chain back) to the site's own, and a site succeeding premises that
    require a system must have one within 45 days of conducting twenty-one. Append-only: a
    mistaken link is not edited; a site has at most one predecessor."""

    site = models.OneToOneField(Site, on_delete=models.PROTECT, related_name="premises_succession")
    predecessor = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="premises_successors")
    acquired_on = models.DateField(help_text="First day the new organization held the premises.")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(site=F("predecessor")), name="premises_succession_not_itself")
        ]

    def __str__(self):
        return f"{self.site} succeeds {self.predecessor} from {self.acquired_on}"


class Equipment(models.Model):
    class Kind(models.TextChoices):
        CAMERA = "camera", "Camera"
        DOME = "dome", "Camera dome"
        RECORDING_UNIT = "recording_unit", "Recording unit"
        TIME_DATE_GENERATOR = "time_date_generator", "Time and date generator"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="surveillance_equipment")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="surveillance_equipment"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    make_model = models.CharField(max_length=120)
    serial_number = models.CharField(max_length=80, blank=True)
    vendor = models.CharField(max_length=120, blank=True)
    installed_on = models.DateField()
    removed_on = models.DateField(null=True, blank=True)
    replaced_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaces")
    history = HistoricalRecords()

    class Meta:
        ordering = ["site_id", "table_id", "kind", "id"]
        verbose_name_plural = "equipment"

    def __str__(self):
        where = f"table {self.table.number}" if self.table_id else "site"
        return f"{self.get_kind_display()} {self.make_model} ({where})"

    @property
    def in_service(self) -> bool:
        return self.removed_on is None


class EquipmentChange(AppendOnlyModel):
    """An event after which a sample recording is due to the attorney general (08-04(11))."""

    class Kind(models.TextChoices):
        INSTALLED = "installed", "Equipment installed"
        MOVED = "moved", "Camera moved"
        REPLACED = "replaced", "Equipment replaced"
        SITE_ACQUIRED = "site_acquired", "Equipment acquired with a site from another organization"
        TABLE_MOVED = "table_moved", "Table moved to another location at the site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    equipment = models.ForeignKey(Equipment, null=True, blank=True, on_delete=models.PROTECT, related_name="changes")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    changed_on = models.DateField()
    sample_due_on = models.DateField()
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-changed_on", "-id"]

    def __str__(self):
        return f"{self.get_kind_display()} on {self.changed_on}"


class SampleSubmission(AppendOnlyModel):
    """A sample recording sent to the attorney general; a resubmission points back."""

    change = models.ForeignKey(EquipmentChange, on_delete=models.PROTECT, related_name="submissions")
    resubmission_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    submitted_on = models.DateField()
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-submitted_on", "-id"]

    def __str__(self):
        return f"Sample submitted {self.submitted_on}"


class SampleEvaluation(AppendOnlyModel):
    """The attorney general's evaluation of a sample (modelled on SFN 19857)."""

    class Outcome(models.TextChoices):
        APPROVED = "approved", "Approved"
        RESUBMIT = "resubmit", "Not satisfactory: resolve and resubmit"

    submission = models.OneToOneField(SampleSubmission, on_delete=models.PROTECT, related_name="evaluation")
    evaluated_on = models.DateField()
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    evaluator = models.CharField(max_length=120, blank=True)
    form_reference = models.CharField(max_length=40, blank=True, default="")  # the pack's form, if it names one
    findings = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()


class VendorPurchase(AppendOnlyModel):
    """Equipment bought or leased; from an approved vendor at least half is deferred (08-04(10))."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    change = models.ForeignKey(
        EquipmentChange, null=True, blank=True, on_delete=models.PROTECT, related_name="purchases"
    )
    vendor = models.CharField(max_length=120)
    approved_vendor = models.BooleanField(default=True)
    description = models.CharField(max_length=200)
    purchased_on = models.DateField()
    price_cents = models.PositiveIntegerField()
    deferred_cents = models.PositiveIntegerField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(deferred_cents__lte=F("price_cents")), name="vendor_deferred_not_above_price"
            )
        ]


class Recording(AppendOnlyModel):
    """One recorder's video of one table for one gaming day, kept 30 days (08-04(6))."""

    audit_organization = "table__site__organization"  # only a table leads to the organization (core.audit_rows)

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="recordings")
    recorder = models.ForeignKey(Equipment, null=True, blank=True, on_delete=models.PROTECT, related_name="recordings")
    gaming_date = models.DateField()
    started_at = models.DateTimeField(help_text="When chips were first made available on the table.")
    stopped_at = models.DateTimeField(help_text="When the table closed for the day.")
    release_on = models.DateField(help_text="First date the video may be released (end of the retention).")
    operated_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_date", "table_id", "started_at"]
        constraints = [
            models.CheckConstraint(condition=Q(stopped_at__gt=F("started_at")), name="recording_stops_after_start")
        ]
        # A table day's recordings in order of start: the compliance check of coverage
        # (compliance.providers._uncovered_table_days) reads them so, table day by table day.
        indexes = [models.Index(fields=["table", "gaming_date", "started_at"], name="recording_table_day")]


class RecordingAccess(AppendOnlyModel):
    """Who accessed a recording unit, camera or stored video (08-04(5)(a))."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recording = models.ForeignKey(Recording, null=True, blank=True, on_delete=models.PROTECT, related_name="accesses")
    equipment = models.ForeignKey(Equipment, null=True, blank=True, on_delete=models.PROTECT, related_name="accesses")
    accessed_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    accessed_at = models.DateTimeField()
    purpose = models.CharField(max_length=200)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "recording accesses"
        ordering = ["-accessed_at"]


class ReviewLogEntry(EnteredRecord, AppendOnlyModel):
    """The daily surveillance review log (08-04(7), kept per 08-16(1)(d)): one employee's check
    of one table's camera for one day of activity. A correction is a new entry pointing back."""

    occurred_field = "reviewed_at"  # entered_at / entered_late: core.moments
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="review_log")
    gaming_date = models.DateField()
    camera_recording = models.BooleanField(help_text="The camera is recording.")
    unobstructed_view = models.BooleanField()
    clear_picture = models.BooleanField()
    field_of_view = models.BooleanField(
        null=True,
        blank=True,
        help_text="The recorded picture shows the face of the dealing shoe, every betting space, the discard "
        "holder, the chip tray, the currency plunger and the table number (and the site's identification where "
        "the organization has more than one site), under a clean dome. Null where the review did not ask it: "
        "an entry made before it was asked, or at a site whose rules do not ask it.",
    )
    notes = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    reviewed_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    reviewed_at = models.DateTimeField()
    corrects = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections")

    class Meta:
        ordering = ["-gaming_date", "table_id", "-reviewed_at"]
        verbose_name_plural = "review log entries"

    @property
    def all_clear(self) -> bool:
        """Every check asked passed: a field of view not asked (None) fails nothing."""
        return (
            self.camera_recording and self.unobstructed_view and self.clear_picture and self.field_of_view is not False
        )


class Outage(AppendOnlyModel):
    """A camera or recorder not operating properly, from `began_at` (08-04(7))."""

    audit_organization = "table__site__organization"  # only a table leads to the organization (core.audit_rows)

    class Kind(models.TextChoices):
        CAMERA = "camera", "Camera not operating properly"
        RECORDER = "recorder", "Recording unit not operating properly"
        VIEW = "view", "No unobstructed view or clear picture"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="outages")
    equipment = models.ForeignKey(Equipment, null=True, blank=True, on_delete=models.PROTECT, related_name="outages")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    began_at = models.DateTimeField(help_text="When the equipment stopped operating properly.")
    description = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reported_at = models.DateTimeField()

    class Meta:
        ordering = ["-began_at"]

    def __str__(self):
        return f"{self.get_kind_display()} at table {self.table.number} since {self.began_at:%Y-%m-%d %H:%M}"


class OutageRepair(AppendOnlyModel):
    """The repair that ends an outage; a new row, the outage is never edited."""

    outage = models.OneToOneField(Outage, on_delete=models.PROTECT, related_name="repair")
    repaired_at = models.DateTimeField()
    description = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()


class ReviewProgram(AppendOnlyModel):
    """A low-hold video review program at a site (08-04(9)): weekly tasks for its weeks. It keeps
    the length and the footage a week it asked when opened (the pack's in force that day, or the
    house's own where the pack states none), so the record reads the same later; a program
    opened before they were kept has them null and reads its pack's (or the house's) values."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="review_programs")
    start_date = models.DateField()
    end_date = models.DateField(help_text="Last day of the program's last week.")
    weeks = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The program's length in continuous weeks; null: opened before it was kept."
    )
    footage_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Minutes of video to review for each active table each week; null: opened before it was kept.",
    )
    reason = models.TextField(
        max_length=limits.MAX_TEXT_LENGTH, help_text="Why the program was opened (for example the quarter's hold)."
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty when a compliance job opened it.",
    )
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["-start_date", "-id"]

    def __str__(self):
        return f"Video review {self.start_date} to {self.end_date}"


class ReviewProgramClosure(AppendOnlyModel):
    """A gaming manager's documented reason for the low hold, which ends the program early."""

    program = models.OneToOneField(ReviewProgram, on_delete=models.PROTECT, related_name="closure")
    closed_on = models.DateField()
    low_hold_reason = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()


class ReviewTask(AppendOnlyModel):
    """One week's review of one table: at least the program's footage a week (08-04(9))."""

    program = models.ForeignKey(ReviewProgram, on_delete=models.PROTECT, related_name="tasks")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    week = models.PositiveSmallIntegerField()
    week_start = models.DateField()
    week_end = models.DateField()

    class Meta:
        ordering = ["program_id", "week", "table__number"]
        constraints = [models.UniqueConstraint(fields=["program", "table", "week"], name="review_task_unique")]

    def __str__(self):
        return f"Week {self.week} ({self.week_start} to {self.week_end}), table {self.table.number}"


class ReviewEntry(AppendOnlyModel):
    """Documentation of reviewed footage: table, shift, footage window, reviewer, findings.
    Kept one year (08-16(1)(h)); a correction is a new entry pointing back."""

    task = models.ForeignKey(ReviewTask, on_delete=models.PROTECT, related_name="entries")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    shift_started_at = models.DateTimeField(help_text="Start of the shift selected for review.")
    shift_ended_at = models.DateTimeField(help_text="End of the shift selected for review.")
    footage_start_at = models.DateTimeField()
    footage_end_at = models.DateTimeField()
    reviewer = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    findings = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    corrects = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-footage_start_at"]
        verbose_name_plural = "review entries"

    @property
    def footage(self):
        return self.footage_end_at - self.footage_start_at


class SpecialEvent(AppendOnlyModel):
    """A special event at a site: the consecutive days, `first_day` to `last_day`, that temporary
    special-event tables are on the site for it (ND 99-01.3-08-04, opening paragraph: "A temporary
    table that is brought onto a site for fourteen or fewer consecutive days for a special event
    ..., but for not more than two events per quarter, does not need a system"). The event is the
    site's: the days are counted from the event's first to its last day whether or not a table is
    played on each, and the events are counted per site and quarter (`special_events.exemption`).
    A correction is a new row naming the event it replaces (`corrects`); the replaced one no longer
    counts."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="special_events")
    name = models.CharField(max_length=200)
    first_day = models.DateField(help_text="The first day the temporary tables are on the site for the event.")
    last_day = models.DateField(help_text="The last day they are on the site (the event's days are consecutive).")
    corrects = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrected_by",
        help_text="The event this record replaces (a correction); empty: a new event.",
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["site_id", "first_day", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(first_day__lte=F("last_day")),
                name="special_event_first_day_not_after_last",
                violation_error_message="An event's first day is not after its last day.",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.first_day} to {self.last_day})"
