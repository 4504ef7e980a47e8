"""The books: a gaming day's closed figures and the adjustments that correct them later.

The custody records the figures are built from (gaming days, tray counts, dealer shifts,
slips) are the floor's (`floor.models`).
"""

from django.db import models
from django.db.models import Q

from cardroom.models import Employee, Organization, Site, Table
from core.appendonly import AppendOnlyModel


class BooksClose(AppendOnlyModel):
    """The books of a site's gaming day, closed: the daily summary as it stood (the API's
    JSON) and its SHA-256. Append-only because the closed figures are what the quarterly
    return reconciles to (ND 99-01.3-08-16(1)(g)); a later correction is an Adjustment."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="books_closes")
    gaming_date = models.DateField()
    closed_at = models.DateTimeField()
    closed_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    figures = models.JSONField()
    figures_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["site_id", "-gaming_date"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "gaming_date"],
                name="books_close_unique_per_site_day",
                violation_error_message="The books of this gaming day are already closed.",
            )
        ]

    def __str__(self):
        return f"Books of {self.site} {self.gaming_date}"


class Adjustment(AppendOnlyModel):
    """A correction to a closed day, entered on a later gaming day (`recorded_on`). It counts in
    the totals of the day it is recorded on and is listed, not re-counted, on the day it
    corrects; the closed day's figures are never edited. Append-only like every money record."""

    class Field(models.TextChoices):
        DROP = "drop", "Drop"
        FILLS = "fills", "Fills"
        CREDITS = "credits", "Credits"
        OPENER = "opener", "Opener"
        CLOSER = "closer", "Closer"
        # A session pack's (NY) sessions and a fees pack's (WA-BJ) fees collected: the day's own
        # revenue figures where it is not a drop (accounting.rules.adjustment_fields).
        RECEIPTS = "receipts", "Session receipts"
        PRIZES = "prizes", "Session prizes"
        FEES = "fees", "Table fees collected"
        CASH = "cash", "Cash"

    books_close = models.ForeignKey(BooksClose, on_delete=models.PROTECT, related_name="adjustments")
    recorded_on = models.DateField()
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    field = models.CharField(max_length=10, choices=Field.choices)
    amount_cents = models.BigIntegerField()
    reason = models.TextField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    approved_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["recorded_on", "id"]
        indexes = [models.Index(fields=["recorded_on"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="adjustment_has_reason",
                violation_error_message="An adjustment needs a reason.",
            ),
            models.CheckConstraint(
                condition=~Q(amount_cents=0),
                name="adjustment_not_zero",
                violation_error_message="An adjustment of zero corrects nothing.",
            ),
        ]

    def __str__(self):
        return f"Adjustment of {self.get_field_display().lower()} of {self.books_close.gaming_date}"


class QuarterFiling(AppendOnlyModel):
    """A site's twenty-one quarterly summary (SFN 50901), marked filed by a gaming manager: the
    figures as they stood (the site's quarter, day by day, and the organization's tax) and
    their SHA-256. Append-only because the filed figures are what the return said (ND
    99-01.3-08-16(1)(g)); a later correction is an Adjustment entered in a later quarter,
    shown beside the filed figures as an amendment. Filing closes every date of the quarter."""

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="quarter_filings")
    quarter = models.CharField(max_length=6)  # "2026Q3"
    start = models.DateField()
    end = models.DateField()
    filed_at = models.DateTimeField()
    filed_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    reference = models.CharField(max_length=100, blank=True)  # the return's confirmation number, if any
    figures = models.JSONField()
    figures_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["site_id", "-start"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "quarter"],
                name="quarter_filing_unique_per_site",
                violation_error_message="This quarter is already filed for the site.",
            )
        ]

    def __str__(self):
        return f"Quarterly summary of {self.site} {self.quarter}, filed"


class OtherGamesAgp(AppendOnlyModel):
    """The adjusted gross proceeds of the organization's other games (pull tabs, bingo, raffles...)
    for a quarter, as its gaming manager records them: the ND gaming tax (N.D.C.C. 53-06.1-12)
    applies its brackets to the organization's AGP from all its games, and only the tables'
    AGP is recorded here. Append-only: a correction is a new row pointing at the one it
    replaces (`corrects`); the standing value is the row nothing corrects."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="+")
    quarter = models.CharField(max_length=6)  # "2026Q3"
    agp_cents = models.BigIntegerField()
    note = models.TextField()
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrected_by"
    )
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["organization_id", "quarter", "recorded_at", "id"]
        indexes = [models.Index(fields=["organization", "quarter"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(note=""),
                name="other_games_agp_has_note",
                violation_error_message="Say where the other games' AGP comes from.",
            ),
        ]

    def __str__(self):
        return f"Other games' AGP of {self.organization} {self.quarter}"


class FilingAmendment(AppendOnlyModel):
    """A figure entered after a quarter was filed that changes what the filing's return says:
    an adjustment correcting a day of the filed quarter (counted in the quarter it is entered
    on), a later record of the organization's other games' AGP for the quarter (the tax's
    brackets apply to it), or another site's filing of the quarter that changes the AGP recorded
    at the organization's sites (each site's return carries the organization's whole tax: a site
    filed before a sister site's figures were final, or before the sister site existed, froze the
    tax on the figures of that moment), or a void of a tournament fee or prize whose day is on the
    filed quarter (the void counts on the day it is made, like an adjustment), or a tournament fee or
    prize of such a day found after its books closed (counted on the day entered, likewise). One row per filing
    it amends, pointing back at the filing and at the entry that changed it, with the change
    (`delta_cents`) to the figure named. Append-only, like the filing: the filed figures and
    their SHA-256 never change; the page, the PDF and the API show them beside these amendments
    and the figures now (ND 99-01.3-08-16(1)(g) where the pack states it; a house control
    elsewhere), and the gaming manager is flagged."""

    class Source(models.TextChoices):
        ADJUSTMENT = "adjustment", "Adjustment to closed books"
        OTHER_GAMES_AGP = "other_games_agp", "Other games' AGP"
        SITE_FILING = "site_filing", "Another site's filing"
        TOURNAMENT_VOID = "tournament_void", "Void of a tournament fee or prize"
        TOURNAMENT_LATE = "tournament_late", "Tournament fee or prize found later"

    class Figure(models.TextChoices):
        AGP = "agp_cents", "AGP"
        CASH_PROFIT = "cash_profit_cents", "Cash profit"
        OTHER_GAMES_AGP = "other_games_agp_cents", "Other games' AGP"
        SITES_AGP = "sites_agp_cents", "AGP of the organization's sites"
        TOURNAMENT_AGP = "tournament_agp_cents", "Tournament AGP"
        # A session pack's (NY) and a fees pack's (WA-BJ) own revenue on its return (its filing's
        # `summary.pack`), named as core.filing_package's RETURN_NOW_FIGURES names them.
        SESSION_RECEIPTS = "session_receipts_cents", "Session receipts"
        SESSION_PRIZES = "session_prizes_cents", "Session prizes"
        FEES_COLLECTED = "fees_collected_cents", "Table fees collected"

    filing = models.ForeignKey(QuarterFiling, on_delete=models.PROTECT, related_name="amendments")
    source = models.CharField(max_length=20, choices=Source.choices)
    adjustment = models.ForeignKey(
        Adjustment, null=True, blank=True, on_delete=models.PROTECT, related_name="filing_amendments"
    )
    other_games_agp = models.ForeignKey(
        OtherGamesAgp, null=True, blank=True, on_delete=models.PROTECT, related_name="filing_amendments"
    )
    site_filing = models.ForeignKey(  # another site's filing of the quarter that changed the tax's AGP
        QuarterFiling, null=True, blank=True, on_delete=models.PROTECT, related_name="amended_filings"
    )
    # The void row (its day is the day it is entered on; it points back at the fee or prize it voids),
    # or the fee or prize found late (its `corrects_date` the filed day, its `gaming_date` the day counted on).
    tournament_fee = models.ForeignKey(
        "tournaments.TournamentFee", null=True, blank=True, on_delete=models.PROTECT, related_name="filing_amendments"
    )
    tournament_prize = models.ForeignKey(
        "tournaments.TournamentPrize", null=True, blank=True, on_delete=models.PROTECT, related_name="filing_amendments"
    )
    figure = models.CharField(max_length=30, choices=Figure.choices)
    delta_cents = models.BigIntegerField()
    recorded_by = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["filing_id", "recorded_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(source="adjustment", adjustment__isnull=False, other_games_agp__isnull=True)
                    & Q(site_filing__isnull=True, tournament_fee__isnull=True, tournament_prize__isnull=True)
                )
                | (
                    Q(source="other_games_agp", adjustment__isnull=True, other_games_agp__isnull=False)
                    & Q(site_filing__isnull=True, tournament_fee__isnull=True, tournament_prize__isnull=True)
                )
                | (
                    Q(source="site_filing", adjustment__isnull=True, other_games_agp__isnull=True)
                    & Q(site_filing__isnull=False, tournament_fee__isnull=True, tournament_prize__isnull=True)
                )
                | (
                    Q(source__in=("tournament_void", "tournament_late"), adjustment__isnull=True)
                    & Q(other_games_agp__isnull=True)
                    & Q(site_filing__isnull=True)
                    & (
                        Q(tournament_fee__isnull=False, tournament_prize__isnull=True)
                        | Q(tournament_fee__isnull=True, tournament_prize__isnull=False)
                    )
                ),
                name="filing_amendment_one_source",
                violation_error_message="An amendment points at the one entry that changed the filed return.",
            ),
        ]

    def __str__(self):
        return f"Amendment of {self.filing}: {self.get_figure_display()} {self.delta_cents:+d}"


class DayFigures(models.Model):
    """A derived cache, not a record: the custody totals of a site's closed gaming day (each
    table's drop, fills, credits, opener and closer) and each dealer shift's figures, as
    `accounting.day_figures` computed them, so that the dashboard and the figures pages read
    weeks of closed days without aggregating every slip again. Never the source of truth: a
    write that changes a day's custody replaces `token` and empties the figures in its own
    transaction (`accounting.day_figures.mark_stale`), and the next read computes them again.

    Figures are integer cents in JSON: `table_days` maps a table id to
    [drop or null (no signed count), fills, credits, opener or null, closer or null, slips?, tray?];
    `shifts` lists [shift id, table id, dealer id, started at, ended at, custody or null, reason];
    `dealer_sums` lists the same shifts summed per dealer and table, [dealer id, table id, shifts,
    separable shifts, drop, fills, credits, opener, closer] (the separable shifts' sums: the
    percent-of-hold report reads these, not the shifts)."""

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="+")
    gaming_date = models.DateField()
    token = models.CharField(max_length=32)  # replaced by every write to the day: a fill keeps it or loses
    version = models.CharField(max_length=16, blank=True)  # day_figures.VERSION the figures were computed by
    table_days = models.JSONField(null=True)
    shifts = models.JSONField(null=True)
    dealer_sums = models.JSONField(null=True)
    computed_at = models.DateTimeField(null=True)

    class Meta:
        verbose_name_plural = "day figures"
        constraints = [models.UniqueConstraint(fields=["site", "gaming_date"], name="day_figures_unique_per_site_day")]

    def __str__(self):
        return f"Figures of {self.site_id} {self.gaming_date}"


class FiguresVersion(models.Model):
    """A derived marker, not a record: a site's figures changed. Its `token` is replaced in the
    same transaction as every write that marks one of the site's `DayFigures` stale and every
    change to one of its tables (their numbers and games are printed beside the figures), so
    a rendered figure fragment cached under the token (dashboard.fragments) is never served
    after its figures changed: the next read finds another token. In the database, not in the
    cache, so that every process (gunicorn workers, Celery) sees the same token at once."""

    site = models.OneToOneField(Site, on_delete=models.CASCADE, primary_key=True, related_name="+")
    token = models.CharField(max_length=32)

    def __str__(self):
        return f"Figures version of {self.site_id}"
