"""Table fees collected at Washington blackjack tables (WA-BJ) with the fee cash counted, and
New York games-of-chance session records (fees.rules has the texts and the assumptions)."""

from django.db import models
from django.db.models import F, Q

from cardroom.models import Employee, Site, Table
from core.appendonly import AppendOnlyModel
from core.moments import EnteredRecord


class FeeBasis(models.TextChoices):
    PER_SEAT = "per_seat", "Per seat per period"
    PER_PLAYER = "per_player", "Per player per period"


class FeeCollection(EnteredRecord, AppendOnlyModel):
    """One time-based fee collection at a table (WAC 230-40-125(1)): the basis, the period's
    length, the rate, the seats or players charged, the amount (= rate x count), who collected it
    and when. A void is a new row pointing back with the opposite amount."""

    occurred_field = "collected_at"  # entered_at / entered_late: core.moments

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    basis = models.CharField(max_length=10, choices=FeeBasis.choices)
    period_minutes = models.PositiveSmallIntegerField()
    rate_cents = models.PositiveIntegerField()
    count = models.PositiveSmallIntegerField()
    amount_cents = models.IntegerField()
    collected_at = models.DateTimeField()
    collected_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    voids = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="voided_by")
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["site_id", "gaming_date", "collected_at", "id"]
        indexes = [models.Index(fields=["site", "gaming_date"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(voids__isnull=True) & Q(amount_cents=F("rate_cents") * F("count")))
                | (Q(voids__isnull=False) & Q(amount_cents=-F("rate_cents") * F("count"))),
                name="fee_amount_is_rate_times_count",
            )
        ]

    def __str__(self):
        return f"fee {self.amount_cents} at table {self.table_id} on {self.gaming_date}"


class FeeCount(EnteredRecord, AppendOnlyModel):
    """The fee cash of a site's gaming day counted by two people; a recount is a new row that
    `corrects` the one before (the newest stands)."""

    occurred_field = "counted_at"  # entered_at / entered_late: core.moments
    day_field = "gaming_date"  # late past its day's last hour, whatever moment given: core.moments

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    counted_cents = models.PositiveBigIntegerField()
    counted_at = models.DateTimeField()
    counted_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    witness = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrected_by"
    )

    class Meta:
        ordering = ["site_id", "gaming_date", "id"]
        indexes = [models.Index(fields=["site", "gaming_date"])]
        constraints = [
            models.CheckConstraint(condition=~Q(counted_by=F("witness")), name="fee_count_two_people"),
        ]


class GameSession(EnteredRecord, AppendOnlyModel):
    """A licensed games-of-chance session at a New York site (9 NYCRR 4620.5 defines the game;
    this record is an assumption: fees.rules). A correction is a new row that `corrects` it; a
    void (`is_void`, a session recorded that did not take place) is a correction with no receipts
    or prizes and its `reason`, which no longer counts as a session."""

    occurred_field = "ended_at"  # entered_at / entered_late: core.moments

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    licence_number = models.CharField(max_length=50)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField()
    receipts_cents = models.PositiveBigIntegerField()
    prizes_cents = models.PositiveBigIntegerField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrected_by"
    )
    is_void = models.BooleanField(default=False)
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["site_id", "gaming_date", "started_at", "id"]
        indexes = [models.Index(fields=["site", "gaming_date"])]
        constraints = [
            models.CheckConstraint(condition=Q(ended_at__gt=F("started_at")), name="game_session_ends_after_start"),
            models.CheckConstraint(
                condition=Q(is_void=False)
                | (Q(corrects__isnull=False) & Q(receipts_cents=0) & Q(prizes_cents=0) & ~Q(reason="")),
                name="game_session_void_corrects_with_reason",
            ),
        ]

    @property
    def net_cents(self) -> int:
        return self.receipts_cents - self.prizes_cents
