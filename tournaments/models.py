"""Twenty-one tournaments at a site (ND 99-01.3-08-15) and their records (08-16(1)(e),(f)).

Every row here is signed and append-only (core.appendonly): the announced rules that were
disclosed to players, the register of players, each fee collected and each prize awarded.
A mistaken fee or prize is never edited away; it is voided by a new row that points back and
carries the opposite amount, so every sum over the rows is the corrected figure.

A fee or prize entered after the books of its tournament's day closed counts on the open day it is
entered on (`gaming_date`: closed books stay closed) and names the closed day it belongs to
(`corrects_date`) with the reason it comes late: both days' summaries list it, the closed day's as
found later and not re-counted there, as they list an adjusting entry (accounting.Adjustment).
"""

from django.db import models
from django.db.models import F, Q

from cardroom.models import Employee, Site
from core.appendonly import AppendOnlyModel
from core.moments import EnteredRecord

from .rules import MAX_NAME_LENGTH


class Tournament(EnteredRecord, AppendOnlyModel):
    """A tournament's rules as announced and disclosed to players (ND 99-01.3-08-15).
    `announced_at` is when they were announced (from the paper, or now), `entered_at` when the
    announcement was entered."""

    occurred_field = "announced_at"  # entered_at / entered_late: core.moments

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    gaming_date = models.DateField()  # the day play starts
    # 08-15(1): the entry fee; rebuys and add-ons (None: not allowed) at most the entry fee.
    entry_fee_cents = models.IntegerField()
    rebuy_fee_cents = models.IntegerField(null=True, blank=True)
    add_on_fee_cents = models.IntegerField(null=True, blank=True)
    # 08-15(1): a fixed number of no-value chips for each fee.
    chips_per_entry = models.PositiveIntegerField()
    chips_per_rebuy = models.PositiveIntegerField(null=True, blank=True)
    chips_per_add_on = models.PositiveIntegerField(null=True, blank=True)
    # 08-15(2)
    betting_spaces = models.PositiveSmallIntegerField(default=1)
    rotating_button = models.BooleanField(default=False)
    length_of_play = models.CharField(max_length=MAX_NAME_LENGTH)  # time, shoes or hands
    # 08-15(3): bet limits in chips.
    minimum_bet_chips = models.PositiveIntegerField()
    maximum_bet_chips = models.PositiveIntegerField(null=True, blank=True)
    # 08-15(4): how players advance, and the prizes offered.
    advancement = models.TextField(blank=True)
    prizes_offered = models.TextField()
    announced_at = models.DateTimeField()
    announced_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["site_id", "-gaming_date", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(entry_fee_cents__gt=0), name="tournament_entry_fee_positive"),
            models.CheckConstraint(
                condition=Q(rebuy_fee_cents__isnull=True)
                | (Q(rebuy_fee_cents__gt=0) & Q(rebuy_fee_cents__lte=models.F("entry_fee_cents"))),
                name="tournament_rebuy_fee_at_most_entry_fee",
            ),
            models.CheckConstraint(
                condition=Q(add_on_fee_cents__isnull=True)
                | (Q(add_on_fee_cents__gt=0) & Q(add_on_fee_cents__lte=models.F("entry_fee_cents"))),
                name="tournament_add_on_fee_at_most_entry_fee",
            ),
            models.CheckConstraint(condition=Q(betting_spaces__in=(1, 2)), name="tournament_one_or_two_spaces"),
        ]

    def __str__(self):
        return f"{self.name} ({self.site}, {self.gaming_date})"


class TournamentPlayer(AppendOnlyModel):
    """A line of the register of players (ND 99-01.3-08-15(1)): the name, once per tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    # The name folded for comparison, so "Ann  Lee" and "ann lee" are one player (one cap).
    name_key = models.CharField(max_length=MAX_NAME_LENGTH)
    registered_at = models.DateTimeField()
    registered_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name_key"],
                name="tournament_player_once",
                violation_error_message="This player is already on the tournament's register.",
            )
        ]

    def __str__(self):
        return self.name


class FeeKind(models.TextChoices):
    ENTRY = "entry", "Entry fee"
    REBUY = "rebuy", "Rebuy"
    ADD_ON = "add_on", "Add-on"
    VOID = "void", "Void"


class TournamentFee(EnteredRecord, AppendOnlyModel):
    """A fee collected from a player (ND 99-01.3-08-16(1)(e)): the kind, the amount, the chips
    issued, the date and the initials of the employee who collected it. A void is a new row of
    kind `void` pointing back at the fee, with the opposite amount and chips."""

    occurred_field = "collected_at"  # entered_at / entered_late: core.moments
    entry_site = "tournament.site"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="fees")
    player = models.ForeignKey(TournamentPlayer, on_delete=models.PROTECT, related_name="fees")
    kind = models.CharField(max_length=8, choices=FeeKind.choices)
    fee_cents = models.IntegerField()
    chips = models.IntegerField()
    gaming_date = models.DateField()
    collected_at = models.DateTimeField()
    collected_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    voids = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="voided_by")
    reason = models.TextField(blank=True)  # a void's, or why a record found late (`corrects_date`) comes late
    # Found after the books of the tournament's day closed: that closed day, which the row belongs
    # to; it counts on `gaming_date`, the later day it was entered on, with its reason (module docstring).
    corrects_date = models.DateField(null=True, blank=True)

    audit_organization = "tournament__site__organization"

    class Meta:
        ordering = ["tournament_id", "collected_at", "id"]
        indexes = [models.Index(fields=["gaming_date"]), models.Index(fields=["corrects_date"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="void") & Q(voids__isnull=False) & Q(fee_cents__lt=0))
                | (~Q(kind="void") & Q(voids__isnull=True) & Q(fee_cents__gt=0)),
                name="tournament_fee_positive_or_a_void",
            ),
            models.CheckConstraint(
                condition=Q(corrects_date__isnull=True)
                | (Q(voids__isnull=True) & Q(corrects_date__lt=F("gaming_date")) & ~Q(reason="")),
                name="tournament_fee_found_late_has_reason",
                violation_error_message="A record found after its day's books closed counts on a later day, "
                "with its reason.",
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.fee_cents} from {self.player_id}"


class PrizeKind(models.TextChoices):
    CASH = "cash", "Cash"
    MERCHANDISE = "merchandise", "Merchandise"


class TournamentPrize(EnteredRecord, AppendOnlyModel):
    """A line of the prize register (ND 99-01.3-08-16(1)(f), 08-15(4)): the player, the round,
    cash or merchandise and its value, whether two remaining players agreed to split, the date
    and the initials of who awarded it. A void points back with the opposite amount."""

    occurred_field = "awarded_at"  # entered_at / entered_late: core.moments
    entry_site = "tournament.site"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="prizes")
    player = models.ForeignKey(TournamentPlayer, on_delete=models.PROTECT, related_name="prizes")
    round_name = models.CharField(max_length=MAX_NAME_LENGTH)
    kind = models.CharField(max_length=12, choices=PrizeKind.choices)
    description = models.TextField(blank=True)
    amount_cents = models.IntegerField()
    split = models.BooleanField(default=False)
    gaming_date = models.DateField()
    awarded_at = models.DateTimeField()
    awarded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    voids = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="voided_by")
    reason = models.TextField(blank=True)  # a void's, or why a record found late (`corrects_date`) comes late
    # Found after the books of the tournament's day closed: that closed day, which the row belongs
    # to; it counts on `gaming_date`, the later day it was entered on, with its reason (module docstring).
    corrects_date = models.DateField(null=True, blank=True)

    audit_organization = "tournament__site__organization"

    class Meta:
        ordering = ["tournament_id", "awarded_at", "id"]
        indexes = [models.Index(fields=["gaming_date"]), models.Index(fields=["corrects_date"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(voids__isnull=False) & Q(amount_cents__lt=0))
                | (Q(voids__isnull=True) & Q(amount_cents__gt=0)),
                name="tournament_prize_positive_or_a_void",
            ),
            models.CheckConstraint(
                condition=Q(corrects_date__isnull=True)
                | (Q(voids__isnull=True) & Q(corrects_date__lt=F("gaming_date")) & ~Q(reason="")),
                name="tournament_prize_found_late_has_reason",
                violation_error_message="A record found after its day's books closed counts on a later day, "
                "with its reason.",
            ),
        ]

    def __str__(self):
        return f"{self.round_name}: {self.amount_cents} to {self.player_id}"
