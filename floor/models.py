"""Table chip custody: gaming days, tray counts, dealer rotations, fill and credit slips.

These records began in the `accounting` app and keep its tables (`db_table`), so a database
from before the move carries on without copying a row (floor/migrations/0001_initial.py).
Audit events written before the move name them `accounting.<model>`, later ones `floor.<model>`.

Signed records (gaming-day open and close, tray counts, slips, their lines and each step on
a slip) are append-only, guarded in the database (core.appendonly): a mistake is never
edited away, it is corrected by a new row that points back (a void, a new slip, a new count).
"""

from django.db import models
from django.db.models import Q

from cardroom.models import ChipDenomination, Employee, Site, Table
from core.appendonly import AppendOnlyModel
from core.moments import EnteredRecord

from .calculations import slip_status


class GamingDay(EnteredRecord, AppendOnlyModel):
    """One business day of activity at a site (ND 99-01.3-02-01 "business day"), opened by a
    signature; closing it is a separate signed row (GamingDayClose)."""

    occurred_field = "opened_at"  # entered_at / entered_late: core.moments
    day_field = "gaming_date"  # opened after its day ended, "now": entered late (core.moments)
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="gaming_days")
    gaming_date = models.DateField()
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        db_table = "accounting_gamingday"
        ordering = ["site_id", "-gaming_date"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "gaming_date"],
                name="gaming_day_unique_per_site",
                violation_error_message="This gaming day is already open at the site.",
            )
        ]

    def __str__(self):
        return f"{self.site} {self.gaming_date}"

    @property
    def closed_at(self):
        close = getattr(self, "close", None)
        return close.closed_at if close is not None else None

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class GamingDayClose(EnteredRecord, AppendOnlyModel):
    """The signature closing a gaming day once every table is closed."""

    occurred_field = "closed_at"  # entered_at / entered_late: core.moments
    entry_site = "gaming_day.site"

    gaming_day = models.OneToOneField(GamingDay, on_delete=models.PROTECT, related_name="close")
    closed_at = models.DateTimeField()
    closed_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        db_table = "accounting_gamingdayclose"


class DealerShift(EnteredRecord, models.Model):
    """A dealer (or wheel operator) at a table from `started_at` until `ended_at` (null while
    on shift). Ending a shift sets `ended_at` once, with a conditional update."""

    occurred_field = "started_at"  # entered_at / entered_late: core.moments
    entry_site = "table.site"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="dealer_shifts")
    dealer = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="dealer_shifts")
    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="dealer_shifts")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    ended_by = models.ForeignKey(Employee, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        db_table = "accounting_dealershift"
        ordering = ["table_id", "started_at"]
        indexes = [models.Index(fields=["dealer", "started_at"]), models.Index(fields=["table", "started_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="dealer_shift_ends_after_start",
                violation_error_message="A dealer shift cannot end before it starts.",
            )
        ]

    def __str__(self):
        return f"{self.dealer} at {self.table} from {self.started_at}"


class TableInventory(EnteredRecord, AppendOnlyModel):
    """A signed count of a table's chip tray by denomination: the opener, the closer, or the
    count at a dealer change (closer of the outgoing shift = opener of the incoming one)."""

    occurred_field = "counted_at"  # entered_at / entered_late: core.moments
    entry_site = "table.site"

    class Kind(models.TextChoices):
        OPENER = "opener", "Opener"
        CLOSER = "closer", "Closer"
        CHANGE = "change", "Dealer change"

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="inventories")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="inventories")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    counted_at = models.DateTimeField()
    counted_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    dealer_shift = models.ForeignKey(
        DealerShift, null=True, blank=True, on_delete=models.PROTECT, related_name="tray_counts"
    )
    # The count this one follows (the previous closer or change count of the table).
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    total_cents = models.BigIntegerField()
    variance_cents = models.BigIntegerField(null=True, blank=True)
    variance_reason = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "table inventories"
        db_table = "accounting_tableinventory"
        ordering = ["table_id", "counted_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "table", "kind"],
                condition=Q(kind__in=["opener", "closer"]),
                name="one_opener_and_closer_per_table_day",
                violation_error_message="This table already has this count for the gaming day.",
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.table} {self.gaming_day.gaming_date}"


class TableInventoryLine(AppendOnlyModel):
    inventory = models.ForeignKey(TableInventory, on_delete=models.PROTECT, related_name="lines")
    denomination = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()  # the chip's value when counted
    quantity = models.PositiveIntegerField()

    class Meta:
        db_table = "accounting_tableinventoryline"
        ordering = ["inventory_id", "value_cents"]
        constraints = [
            models.UniqueConstraint(fields=["inventory", "denomination"], name="inventory_line_unique_denomination")
        ]

    @property
    def amount_cents(self) -> int:
        return self.value_cents * self.quantity


class SlipKind(models.TextChoices):
    FILL = "fill", "Fill slip"
    CREDIT = "credit", "Credit slip"


class SlipBook(AppendOnlyModel):
    """A book of pre-printed two-part slips with its printed number range (ND 99-01.3-08-05(2))."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="slip_books")
    kind = models.CharField(max_length=10, choices=SlipKind.choices)
    first_number = models.PositiveIntegerField()
    last_number = models.PositiveIntegerField()
    registered_at = models.DateTimeField()
    registered_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        db_table = "accounting_slipbook"
        ordering = ["site_id", "kind", "first_number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(first_number__lte=models.F("last_number")),
                name="slip_book_range_in_order",
                violation_error_message="The first number of a slip book cannot be above its last number.",
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} book {self.first_number}-{self.last_number}"


class Slip(EnteredRecord, AppendOnlyModel):
    """A fill slip (chip bank -> table) or credit slip (table -> chip bank), ND 99-01.3-08-05.

    Each kind is its own series numbered consecutively per site. The slip copies what the
    paper form shows (game, table number) so it reads the same if the table changes later.
    Verification, receipt and void are SlipStep rows; the slip itself is never edited."""

    occurred_field = "prepared_at"  # entered_at / entered_late: core.moments
    entry_site = "site"

    class Purpose(models.TextChoices):
        REGULAR = "regular", "Regular"
        TRAY_TRANSFER = "tray_transfer", "Temporary chip tray transfer"
        JAR_BAR = "jar_bar", "Jar bar"

    # no index of its own on site or table: the composite indexes below lead with them
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="slips", db_index=False)
    kind = models.CharField(max_length=10, choices=SlipKind.choices)
    number = models.PositiveIntegerField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="slips", db_index=False)
    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="slips")
    purpose = models.CharField(max_length=20, choices=Purpose.choices, default=Purpose.REGULAR)
    game = models.CharField(max_length=2)
    table_number = models.PositiveSmallIntegerField()
    prepared_at = models.DateTimeField()
    prepared_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    total_cents = models.BigIntegerField()
    slip_book = models.ForeignKey(SlipBook, null=True, blank=True, on_delete=models.PROTECT, related_name="slips")
    # The capacity the preparer acted in (rules.SignedAs), printed beside their initials.
    prepared_as = models.CharField(max_length=30, blank=True, db_default="")
    # ND 99-01.3-08-05(3)(c): the initials the form must carry: on a fill the chip bank
    # cashier's (or a dealer acting as cashier), on a credit the dealer's or wheel operator's
    # at that table. Blank only on slips made before this was recorded.
    signed_by = models.ForeignKey(Employee, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    signed_initials = models.CharField(max_length=4, blank=True, db_default="")
    signed_as = models.CharField(max_length=30, blank=True, db_default="")

    class Meta:
        db_table = "accounting_slip"
        ordering = ["site_id", "kind", "number"]
        indexes = [
            models.Index(fields=["table", "prepared_at"]),
            models.Index(fields=["site", "prepared_at"]),
            # The nightly slip-series check reads each series from its checkpoint on, by id
            # (compliance.slip_series): one range of this index per series, not every slip.
            models.Index(fields=["site", "kind", "id"], name="slip_series_by_id"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "kind", "number"],
                name="slip_number_unique_per_site_series",
                violation_error_message="This slip number is already used at the site; numbers are never reused.",
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} #{self.number}"

    @property
    def number_used_at(self):
        """When its number was used, the order ND 99-01.3-08-05(2) ("used in sequential order")
        judges: a printed number (from a registered book) when the paper says the slip was
        prepared; a number the site's electronic series drew, when it was drawn, at the slip's
        entry (a past day's slip typed in later draws the next number then, after the later
        days' numbers). queries.NUMBER_USED_AT is the same in SQL."""
        if self.slip_book_id is None and self.entered_at is not None:
            return self.entered_at
        return self.prepared_at

    @property
    def status(self) -> str:
        """issued, verified, received or voided (annotated by queries.slips_with_status or from steps)."""
        annotated = getattr(self, "status_code", None)
        return annotated or slip_status(step.kind for step in self.steps.all())

    def step(self, kind: str) -> "SlipStep | None":
        return next((step for step in self.steps.all() if step.kind == kind), None)


class SlipLine(AppendOnlyModel):
    # no index of its own: the unique (slip, denomination) index leads with it
    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="lines", db_index=False)
    denomination = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()

    class Meta:
        db_table = "accounting_slipline"
        ordering = ["slip_id", "value_cents"]
        constraints = [models.UniqueConstraint(fields=["slip", "denomination"], name="slip_line_unique_denomination")]

    @property
    def amount_cents(self) -> int:
        return self.value_cents * self.quantity


class SlipStep(EnteredRecord, AppendOnlyModel):
    """One signature on a slip: verification of the original (08-05(5)), receipt of the copy
    (08-05(6)), or VOID (08-05(2)). At most one of each kind per slip."""

    occurred_field = "at"  # entered_at / entered_late: core.moments
    entry_site = "slip.site"

    class Kind(models.TextChoices):
        VERIFY = "verify", "Verified"
        RECEIVE = "receive", "Received"
        VOID = "void", "Voided"

    # no index of its own: the unique (slip, kind) index leads with it
    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="steps", db_index=False)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    employee = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    at = models.DateTimeField()
    reason = models.TextField(blank=True)
    # The capacity the signer acted in (rules.SignedAs): shift manager, pit boss, cashier,
    # dealer acting as cashier... Blank on steps made before this was recorded.
    signed_as = models.CharField(max_length=30, blank=True, db_default="")

    class Meta:
        db_table = "accounting_slipstep"
        ordering = ["slip_id", "at", "id"]
        constraints = [models.UniqueConstraint(fields=["slip", "kind"], name="slip_step_once_per_kind")]
        # The voids alone (few): "not voided" (every live-slip total, the figures and the
        # compliance scan) probes this, not the index of every step of every slip, which a
        # chunk of the state-scale scan read whole (11M steps) to find none.
        # slip_step_times: the kinds and times of a slip's steps read from the index alone, not
        # the steps' rows (the compliance scan's closed-day signatures probe it once a slip).
        indexes = [
            models.Index(fields=["slip"], condition=Q(kind="void"), name="slip_step_voids"),
            models.Index(fields=["slip", "kind", "at"], name="slip_step_times"),
        ]


class CardCheck(EnteredRecord, AppendOnlyModel):
    """A check of a twenty-one table's cards or shoe on a gaming day, where the site's pack states
    it (floor.rules.CARD_CHECK_RULES): its decks approved by a dealer when the cards are brought to
    the table, and again each time they are brought back (ND 99-01.3-08-07(1)), or its dealing shoe
    inspected by a dealer or shift manager before the day's activity (08-07(2)). Several a day are
    allowed. Append-only, like the floor's other signed records: who checked, when, and who
    entered it stay as written; there is nothing to void (a check is not a movement of chips)."""

    occurred_field = "checked_at"  # entered_at / entered_late: core.moments
    entry_site = "table.site"

    class Kind(models.TextChoices):
        DECKS_APPROVED = "decks_approved", "Decks approved"
        SHOE_INSPECTED = "shoe_inspected", "Shoe inspected"

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="card_checks")
    # no index of its own: the (table, checked_at) index leads with it
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="card_checks", db_index=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    decks = models.PositiveSmallIntegerField(null=True, blank=True)  # decks approved; none for a shoe
    checked_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    checked_as = models.CharField(max_length=30)  # rules.SignedAs: dealer or shift manager
    checked_at = models.DateTimeField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["table_id", "checked_at", "id"]
        indexes = [models.Index(fields=["table", "checked_at"], name="card_check_table_time")]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="decks_approved", decks__gte=1) | Q(kind="shoe_inspected", decks__isnull=True),
                name="card_check_decks_only_when_approved",
                violation_error_message="Decks are counted when decks are approved, and only then.",
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.table} {self.checked_at}"


class DutyPeriod(models.Model):
    """The site's duty register: a shift manager or authorized employee (rules.VERIFIERS) on
    duty at the site from `started_at` until `ended_at` (null while on duty).

    ND 99-01.3-08-05(5) asks for verification "if an organization has a shift manager or
    authorized employee on duty who is not presently dealing"; the register is how the product
    knows who is on duty (floor.queries.verifiers_on_duty). Not a signed record: ending a
    period sets `ended_at` once, like a dealer shift."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="duty_periods")
    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="duty_periods")
    employee = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="duty_periods")
    role = models.CharField(max_length=30)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["site_id", "started_at"]
        indexes = [models.Index(fields=["site", "started_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="duty_period_ends_after_start",
                violation_error_message="A duty period cannot end before it starts.",
            ),
            # One open period per person and site: someone signing in and signing a slip at the
            # same moment reads "not on duty" twice; the second insert fails here and re-reads
            # (services.duty).
            models.UniqueConstraint(
                fields=["site", "employee"],
                condition=Q(ended_at__isnull=True),
                name="duty_period_open_once_per_site",
                violation_error_message="This person is already on duty at this site.",
            ),
        ]

    def __str__(self):
        return f"{self.employee} on duty at {self.site} from {self.started_at}"


class CarriedItem(AppendOnlyModel):
    """An open item of a gaming day (an unverified or unreceived slip, a drop box not removed
    or not counted: floor.open_items) carried past the day's close with a reason, by a shift
    manager or gaming manager. House control: the day closes only once each open item is
    resolved or carried. Append-only, so the reason and who gave it stay as written; the item
    is described as it stood when carried (the slip or box may be resolved later)."""

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="carried_items")
    key = models.CharField(max_length=60)  # floor.open_items.OpenItem.key, e.g. "slip:12"
    kind = models.CharField(max_length=30)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    description = models.TextField()
    citation = models.CharField(max_length=60)
    reason = models.TextField()
    carried_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    carried_as = models.CharField(max_length=30)
    carried_at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day_id", "carried_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "key"],
                name="carried_item_once_per_day",
                violation_error_message="This open item is already carried.",
            )
        ]

    def __str__(self):
        return f"Carried: {self.description}"
