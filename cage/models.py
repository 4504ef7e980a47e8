"""The cashier's cage: the cash and chip bank of each site, IOUs, chip and tip redemptions,
bank deposits, and the organization's chip inventory log (SFN 17930).

Signed records are append-only, guarded in the database (core.appendonly): a count is
corrected by a new count that points back, an IOU is repaid by a separate repayment row, a
deposit is corrected by a correction row that points back at it and verified by a separate
verification row. Amounts are integer cents.
"""

from django.db import models
from django.db.models import Q

from cardroom.models import ChipDenomination, Employee, Organization, Site
from core import limits
from core.appendonly import AppendOnlyModel
from core.citations import jurisdiction_of
from core.moments import EnteredRecord
from floor.rules import house_chips
from packs import game_label

from . import rules
from .calculations import deposit_is_late


class IdealBank(AppendOnlyModel):
    """The ideal (imprest) amount of a site's cash and chip bank from a date on (ND 99-01.3-03-09(5)).
    A change is a new row with a later `effective_on`."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    amount_cents = models.PositiveBigIntegerField()
    effective_on = models.DateField()
    set_at = models.DateTimeField()
    set_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["site_id", "-effective_on", "-id"]


class BankCount(EnteredRecord, AppendOnlyModel):
    """A signed count of a site's bank at the start or end of a gaming day: cash by
    denomination and chips by denomination (ND 99-01.3-08-16(1)(a)). A mistake is corrected
    by a new count that `corrects` it; the latest count of the day and kind stands."""

    occurred_field = "counted_at"  # entered_at / entered_late: core.moments
    day_field = "gaming_date"  # late past its day's last hour, whatever moment given: core.moments
    entry_site = "site"

    class Kind(models.TextChoices):
        START = "start", "Starting bank"
        END = "end", "Ending bank"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    counted_at = models.DateTimeField()
    counted_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    cash_cents = models.BigIntegerField()
    chips_cents = models.BigIntegerField()
    corrects = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="correction")
    reason = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)

    class Meta:
        ordering = ["site_id", "gaming_date", "kind", "counted_at", "id"]
        indexes = [models.Index(fields=["site", "gaming_date"])]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "gaming_date", "kind"],
                condition=Q(corrects__isnull=True),
                name="cage_one_original_bank_count_per_day_kind",
                violation_error_message="This bank count is already recorded: record a correction instead.",
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.site} {self.gaming_date}"

    @property
    def total_cents(self) -> int:
        return self.cash_cents + self.chips_cents


class BankCountLine(AppendOnlyModel):
    """One denomination of a bank count: currency (no chip) or a chip denomination."""

    count = models.ForeignKey(BankCount, on_delete=models.PROTECT, related_name="lines")
    chip = models.ForeignKey(ChipDenomination, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["count_id", "chip_id", "-value_cents"]

    @property
    def amount_cents(self) -> int:
        return self.value_cents * self.quantity


class Fund(models.TextChoices):
    """Where IOU money comes from or goes to (ND 99-01.3-03-06 "source and destination")."""

    BANK = "bank", "Twenty-one cash and chip bank"
    RESERVE = "reserve", "Reserve (safe)"
    PADDLEWHEEL = "paddlewheel", "Paddlewheel bank"
    PULL_TABS = "pull_tabs", "Pull-tab bank"
    BINGO = "bingo", "Bingo bank"
    GENERAL = "general", "General account"


CHARITABLE_FUNDS = frozenset({Fund.PADDLEWHEEL, Fund.PULL_TABS, Fund.BINGO})


def fund_label(site, code: str) -> str:
    """A fund's name at `site` (a Site or its jurisdiction code): the game's bank by the name its pack gives game 21 ("Blackjack
    cash and chip bank" in Washington, "Twenty-one ..." in North Dakota), never the model's; a cash
    bank where the house holds no chips (a fees-only site, floor.rules.house_chips: "Blackjack cash bank")."""
    if code == Fund.BANK:
        return f"{game_label(site, '21')} {'cash and chip' if house_chips(site) else 'cash'} bank"
    return Fund(code).label if code in Fund.values else code


def fund_choices(site) -> list[tuple[str, str]]:
    """The IOU funds offered at `site`, each by its name there (`fund_label`): the charitable
    games' banks only where its pack states them (`rules.CHARITABLE_FUNDS`)."""
    charitable = rules.CHARITABLE_FUNDS.applies(site)
    return [(code, fund_label(site, code)) for code in Fund.values if charitable or code not in CHARITABLE_FUNDS]


class Iou(EnteredRecord, AppendOnlyModel):
    """A loan between two funds at a site (ND 99-01.3-03-06): source, destination, amount,
    date and the lender's initials. Repayments are separate rows (IouRepayment)."""

    occurred_field = "lent_at"  # entered_at / entered_late: core.moments
    day_field = "gaming_date"  # late past its day's last hour, whatever moment given: core.moments
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    source = models.CharField(max_length=20, choices=Fund.choices)
    destination = models.CharField(max_length=20, choices=Fund.choices)
    amount_cents = models.PositiveBigIntegerField()
    lent_at = models.DateTimeField()
    lent_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)

    class Meta:
        ordering = ["site_id", "gaming_date", "lent_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(source=models.F("destination")),
                name="cage_iou_between_two_funds",
                violation_error_message="An IOU moves money between two different funds.",
            ),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="cage_iou_amount_positive"),
        ]

    def __str__(self):
        return f"IOU {self.source_label} -> {self.destination_label} {self.gaming_date}"

    @property
    def source_label(self) -> str:
        """The fund lent from, as the site's pack names it (`fund_label`)."""
        return fund_label(jurisdiction_of(self), self.source)

    @property
    def destination_label(self) -> str:
        """The fund lent to, as the site's pack names it (`fund_label`)."""
        return fund_label(jurisdiction_of(self), self.destination)


class IouRepayment(EnteredRecord, AppendOnlyModel):
    """A repayment of (part of) an IOU, with its date and the initials of who took it back."""

    occurred_field = "repaid_at"  # entered_at / entered_late: core.moments
    entry_site = "iou.site"

    iou = models.ForeignKey(Iou, on_delete=models.PROTECT, related_name="repayments")
    gaming_date = models.DateField()
    amount_cents = models.PositiveBigIntegerField()
    repaid_at = models.DateTimeField()
    repaid_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)

    class Meta:
        ordering = ["iou_id", "repaid_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount_cents__gt=0), name="cage_repayment_amount_positive")]


class ChipRedemption(EnteredRecord, AppendOnlyModel):
    """Cash paid by the cashier for a player's chips, by denomination (ND 99-01.3-08-06(2))."""

    occurred_field = "redeemed_at"  # entered_at / entered_late: core.moments
    day_field = "gaming_date"  # late past its day's last hour, whatever moment given: core.moments
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    redeemed_at = models.DateTimeField()
    cashier = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    total_cents = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["site_id", "gaming_date", "redeemed_at", "id"]


class ChipRedemptionLine(AppendOnlyModel):
    redemption = models.ForeignKey(ChipRedemption, on_delete=models.PROTECT, related_name="lines")
    chip = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["redemption_id", "-value_cents"]


class TipPolicy(AppendOnlyModel):
    """The organization's tip-pooling policy from a date on (ND 99-01.3-08-06(2) permits pooling)."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="+")
    pooled = models.BooleanField()
    description = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    effective_on = models.DateField()
    set_at = models.DateTimeField()
    set_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name_plural = "tip policies"
        ordering = ["organization_id", "-effective_on", "-id"]


class TipDeclaration(EnteredRecord, AppendOnlyModel):
    """A dealer's own statement, at the end of a shift, of the tip chips they hold (possibly
    none). Redeeming it is a separate row (TipRedemption); until then the tips are unredeemed
    and the dealer may not leave the site (ND 99-01.3-08-06(3))."""

    occurred_field = "declared_at"  # entered_at / entered_late: core.moments
    day_field = "gaming_date"  # late past its day's last hour, whatever moment given: core.moments
    entry_site = "site"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    dealer = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    declared_at = models.DateTimeField()
    total_cents = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["site_id", "gaming_date", "declared_at", "id"]
        indexes = [models.Index(fields=["dealer", "site", "declared_at"])]


class TipDeclarationLine(AppendOnlyModel):
    declaration = models.ForeignKey(TipDeclaration, on_delete=models.PROTECT, related_name="lines")
    chip = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["declaration_id", "-value_cents"]


class TipRedemption(EnteredRecord, AppendOnlyModel):
    """The cashier paying a dealer, present at the window, cash on hand for the tip chips
    they declared (ND 99-01.3-08-06(2)): the actual chips declared, once. `gaming_date` is the
    day of the books it is counted in (cash out of the bank, chips into it): its declaration's
    while that day's books are open, else the gaming day it was paid on (cage.services.tips)."""

    occurred_field = "redeemed_at"  # entered_at / entered_late: core.moments
    entry_site = "declaration.site"

    declaration = models.OneToOneField(TipDeclaration, on_delete=models.PROTECT, related_name="redemption")
    gaming_date = models.DateField()
    redeemed_at = models.DateTimeField()
    cashier = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    amount_cents = models.PositiveBigIntegerField()


class BankDeposit(AppendOnlyModel):
    """The bank deposit of a day of the books' cash (its site and gaming date: a gaming day's, or a
    fees or session day's where no gaming day was opened), one a day, due by the third banking day
    after it (ND 99-01.3-03-10; a house control where the pack states none). `gaming_day` is kept
    where one was opened. `due_on` is copied when recorded so the record reads the same later."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.OneToOneField(
        "floor.GamingDay", on_delete=models.PROTECT, related_name="deposit", null=True, blank=True
    )
    gaming_date = models.DateField()
    amount_cents = models.PositiveBigIntegerField()
    deposited_on = models.DateField()
    due_on = models.DateField()
    reference = models.CharField(max_length=80, blank=True)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)

    class Meta:
        ordering = ["site_id", "-gaming_date"]
        constraints = [models.UniqueConstraint(fields=["site", "gaming_date"], name="cage_deposit_one_a_day")]

    @property
    def late(self) -> bool:
        return deposit_is_late(self.deposited_on, self.due_on, today=self.deposited_on)  # recorded: its day decides


class DepositCorrection(AppendOnlyModel):
    """A correction of a recorded deposit: the amount, the date deposited and the slip reference
    as they should have read, with its reason, who corrected it and when. Immutable as the deposit
    is (a record the bank statement is checked against, ND 99-01.3-08-16(5)): the deposit stays as
    recorded, the correction points back at it, and the latest correction of a deposit stands
    (`cage.queries.with_standing`). A further correction is another row."""

    deposit = models.ForeignKey(BankDeposit, on_delete=models.PROTECT, related_name="corrections")
    amount_cents = models.PositiveBigIntegerField()
    deposited_on = models.DateField()
    reference = models.CharField(max_length=80, blank=True)
    reason = models.TextField(max_length=limits.MAX_TEXT_LENGTH)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)

    class Meta:
        ordering = ["deposit_id", "recorded_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="cage_deposit_correction_has_reason",
                violation_error_message="A correction states its reason.",
            )
        ]


class DepositVerification(AppendOnlyModel):
    """The deposit checked against the bank statement (ND 99-01.3-08-16(5)), once."""

    deposit = models.OneToOneField(BankDeposit, on_delete=models.PROTECT, related_name="verification")
    statement_date = models.DateField()
    statement_amount_cents = models.PositiveBigIntegerField()
    difference_cents = models.BigIntegerField()  # statement minus deposit
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    verified_at = models.DateTimeField()
    verified_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)


class ChipMovement(AppendOnlyModel):
    """A change to the chips the organization owns (SFN 17930): a receipt from the
    manufacturer or a destruction, by denomination."""

    class Kind(models.TextChoices):
        RECEIPT = "receipt", "Received from the manufacturer"
        DESTRUCTION = "destruction", "Destroyed"

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    occurred_on = models.DateField()
    reference = models.CharField(max_length=120)
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    total_cents = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["organization_id", "occurred_on", "id"]


class ChipMovementLine(AppendOnlyModel):
    movement = models.ForeignKey(ChipMovement, on_delete=models.PROTECT, related_name="lines")
    chip = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["movement_id", "-value_cents"]


class Location(models.TextChoices):
    BANK = "bank", "Chip bank"
    TRAYS = "trays", "Table trays"
    STORAGE = "storage", "Storage"


class ChipInventoryCount(AppendOnlyModel):
    """A physical count of the organization's chips where they are (SFN 17930): the chip bank
    and table trays of each site, and storage. Against the book figure, the difference is
    chips outstanding with players (or a shortage to explain)."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="+")
    counted_on = models.DateField()
    counted_at = models.DateTimeField()
    counted_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    initials = models.CharField(max_length=4)
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    total_cents = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["organization_id", "-counted_on", "-id"]


class ChipInventoryCountLine(AppendOnlyModel):
    count = models.ForeignKey(ChipInventoryCount, on_delete=models.PROTECT, related_name="lines")
    location = models.CharField(max_length=10, choices=Location.choices)
    site = models.ForeignKey(Site, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    chip = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveIntegerField()
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["count_id", "location", "site_id", "-value_cents"]
