"""Figures: a site's daily and quarterly summaries, a dealer's percent-of-hold and the
organization's gaming tax (read-only); closing a day's books and adjusting closed books.
Amounts are integer cents; ratios decimal strings (6 places) or null when gross proceeds are zero."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import ValidationError as DjangoFormError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.text import capfirst
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.access import access_for
from cardroom.api import visible_employees
from cardroom.models import Organization, Site, Table
from core import limits
from core.api import ERROR_RESPONSES, CentsField, DateField, Input, TextField
from core.api_filters import PAGE_PARAMETERS, IdFormField, Pagination
from core.periods import Quarter
from floor.rules import house_chips
from packs import pack_for, revenue_words

from . import books, day_figures, dealer_hold, figures, frozen, games, queries, rules, services, summaries
from .figures import Custody, ratio_string
from .models import Adjustment, BooksClose, FilingAmendment, OtherGamesAgp
from .pack_figures import pack_block
from .published import tax_label

FIGURE_ROLES = tuple(rules.DAILY_FIGURES.roles)

BOOKS_CHECK_DOC = (
    "`books`: whether these figures equal the books closed on the day (state equal, differ or not closed; "
    "statement: the sentence the reports print; differences: each figure that differs)."
)


# --- What the figures look like (the schema of the JSON written below) -----------------------


def _cents(**kwargs):
    return serializers.IntegerField(**kwargs)


def _ratio():
    return serializers.CharField(allow_null=True, help_text="A decimal string (6 places); null when GP is zero.")


NO_CLOSER_YET = "Null (not known) while a table summed has no closer recorded yet (a gaming day in play)."


class CustodyOut(serializers.Serializer):
    drop_cents = _cents()
    fills_cents = _cents()
    credits_cents = _cents()
    opener_cents = _cents()
    closer_cents = _cents(allow_null=True, help_text=NO_CLOSER_YET)
    gross_proceeds_cents = _cents()
    prizes_cents = _cents(allow_null=True, help_text=NO_CLOSER_YET)
    agp_cents = _cents(allow_null=True, help_text=NO_CLOSER_YET)
    hold_ratio = serializers.CharField(
        allow_null=True, help_text=f"A decimal string (6 places); null when GP is zero. {NO_CLOSER_YET}"
    )


class AdjustmentOut(serializers.Serializer):
    id = serializers.IntegerField()
    corrected_date = serializers.DateField()
    recorded_on = serializers.DateField()
    table_number = serializers.IntegerField(allow_null=True)
    field = serializers.CharField()
    amount_cents = _cents()
    reason = serializers.CharField()
    recorded_by_initials = serializers.CharField()
    approved_by_initials = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class SiteAdjustmentOut(AdjustmentOut):
    site = serializers.IntegerField()


class AdjustmentPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = SiteAdjustmentOut(many=True)


class TableDayOut(CustodyOut):
    table_number = serializers.IntegerField()
    game = serializers.CharField()
    counted = serializers.BooleanField()
    complete = serializers.BooleanField()


# The cash long (short) is reconciled against a drop-based AGP: a fees or session pack's site has
# none, and its daily page and reports show none (its fees are the pack's own figures, `pack`).
NOT_RECONCILED_DOC = (
    "Null where the site's pack has no drop-based cash reconciliation (a fees or session pack: "
    "`pack.hold_applies` false), as its daily page and reports show none"
)
RECONCILED_CASH = ("long_short_cents", "chips_outside_change_cents", "unexplained_cents")
QUARTER_RECONCILED_CASH = (*RECONCILED_CASH, "long_short_without_chip_count_cents")


class CashOut(serializers.Serializer):
    cash_profit_cents = _cents(allow_null=True, help_text="Null when the cash bank was not counted (not known).")
    long_short_cents = _cents(allow_null=True, help_text=f"Cash profit - AGP. {NOT_RECONCILED_DOC}.")
    chips_outside_change_cents = _cents(
        allow_null=True, help_text=f"Reconciling line: chips outside the house. {NOT_RECONCILED_DOC}."
    )
    unexplained_cents = _cents(allow_null=True, help_text=f"The long (short)'s remainder. {NOT_RECONCILED_DOC}.")
    deposit_expected_cents = _cents(allow_null=True)
    deposit_recorded_cents = _cents(allow_null=True)
    deposited_on = serializers.DateField(allow_null=True)
    deposit_verified = serializers.BooleanField()
    deposit_due = serializers.DateField(
        allow_null=True,
        help_text="The day's bank deposit due date; null where the day takes no deposit (its only records are "
        "adjusting entries, or its fees, sessions or tournament fees were all voided: nothing was collected, "
        "accounting.summaries.takes_deposit), as the daily report says.",
    )


class BooksCheckOut(serializers.Serializer):
    state = serializers.CharField()
    statement = serializers.CharField()
    snapshot_at = serializers.DateTimeField(allow_null=True)
    snapshot_by_initials = serializers.CharField(allow_null=True)
    figures_sha256 = serializers.CharField(allow_null=True)
    differences = serializers.ListField(child=serializers.CharField())
    books_close = serializers.IntegerField(
        allow_null=True,
        help_text="The id of the day's closed books, which an adjusting entry to it names (POST /api/v1/adjustments/); "
        "null while not closed.",
    )


class AmendmentOut(AdjustmentOut):
    amends_quarter = serializers.CharField()
    quarter_filed = serializers.BooleanField(help_text="The corrected quarter was filed when it was entered.")
    agp_effect_cents = _cents()


class FilingStateOut(serializers.Serializer):
    state = serializers.CharField()
    statement = serializers.CharField()
    filed = serializers.BooleanField()
    filed_at = serializers.DateTimeField(allow_null=True)
    filed_by_initials = serializers.CharField(allow_null=True)
    figures_sha256 = serializers.CharField(allow_null=True)
    differences = serializers.ListField(child=serializers.CharField())
    days_closed = serializers.IntegerField()
    days = serializers.IntegerField()
    days_differing = serializers.ListField(child=serializers.DateField())
    days_not_closed = serializers.ListField(child=serializers.DateField())


class TournamentsOut(serializers.Serializer):
    """Tournament play: fees collected and prizes awarded, net of voids."""

    entries = serializers.IntegerField()
    entry_fees_cents = _cents()
    rebuys_cents = _cents()
    add_ons_cents = _cents()
    gross_proceeds_cents = _cents()
    cash_prizes_cents = _cents()
    merchandise_prizes_cents = _cents()
    prizes_cents = _cents()
    agp_cents = _cents()


TOURNAMENTS_DOC = "Present only when the period had tournament play."


GAMES_DOC = (
    "Game 21, paddlewheel and their total (each game named as the site's pack names it). A quarter's: each game beside "
    "its own low-hold threshold in force where the site's pack states one (`threshold_citation` cites it; null "
    "elsewhere); `below_threshold` is exact. A day's (the daily summary, the quarter's days): the threshold, its "
    "citation and `below_threshold` are null, as the daily page and report show none: the low-hold rule judges a "
    "game's hold for a quarter, never a day's."
)


class GameLineOut(CustodyOut):
    game = serializers.CharField(help_text="21, PW or total.")
    label = serializers.CharField()
    low_hold_threshold = serializers.CharField(allow_null=True)
    threshold_citation = serializers.CharField(allow_null=True)
    below_threshold = serializers.BooleanField(allow_null=True)


class PackFeesOut(serializers.Serializer):
    fees_collected_cents = _cents(help_text="Fees collected on a time basis, net of voids (the pack's rule: `rule`).")
    collections = serializers.IntegerField()
    fees_counted_cents = _cents()
    over_short_cents = _cents(
        help_text="Counted minus collected, over the counted days; where fees_adjusted_cents is given, against "
        "the fees as corrected."
    )
    days_not_counted = serializers.IntegerField()
    fees_adjusted_cents = _cents(
        required=False,
        help_text="The adjusting entries to closed days' fees counted in fees_collected_cents (recorded in the "
        "period); only where there is one.",
    )


class PackSessionsOut(serializers.Serializer):
    sessions = serializers.IntegerField()
    receipts_cents = _cents()
    prizes_cents = _cents()
    net_cents = _cents()
    receipts_adjusted_cents = _cents(
        required=False,
        help_text="The adjusting entries to closed days' receipts counted in receipts_cents; only where there is one.",
    )
    prizes_adjusted_cents = _cents(
        required=False,
        help_text="The adjusting entries to closed days' prizes counted in prizes_cents; only where there is one.",
    )


class PackFiguresOut(serializers.Serializer):
    """The site's jurisdiction pack and its own figures (accounting.pack_figures)."""

    code = serializers.CharField()
    name = serializers.CharField()
    revenue_model = serializers.ChoiceField(choices=["drop", "fees", "session"])
    hold_applies = serializers.BooleanField(help_text="False where the pack's revenue is fees, not a drop: no hold.")
    rule = serializers.CharField(required=False, help_text="A fees or session pack's citation of its own revenue.")
    fees = PackFeesOut(required=False, help_text="Only where the pack's revenue is table fees.")
    sessions = PackSessionsOut(
        required=False,
        help_text="Only where the pack's revenue is games-of-chance sessions (a house record of the game the pack's text sets).",
    )


class FigureNamesOut(serializers.Serializer):
    """What the site's pack calls the custody figures whose keys keep North Dakota's names (the
    formulas are the same everywhere: `packs.base.RevenueWords`)."""

    gross_proceeds_cents = serializers.CharField(help_text='"Gross proceeds" in North Dakota; "Drop" elsewhere.')
    prizes_cents = serializers.CharField(help_text='"Prizes" in North Dakota; "Paid out" elsewhere.')
    agp_cents = serializers.CharField(help_text='"Adjusted gross proceeds (AGP)" in North Dakota; "Win" elsewhere.')
    hold_ratio = serializers.CharField(
        help_text='"Percent-of-hold (AGP / GP)" in North Dakota; "Hold (win / drop)" elsewhere.'
    )


FIGURE_NAMES_DOC = (
    "The custody keys (`gross_proceeds_cents`, `prizes_cents`, `agp_cents`, `hold_ratio`) keep one name at "
    "every pack; these are the names the site's pack gives them, for a client to show."
)


def figure_names(site) -> dict:
    """`FigureNamesOut` of `site`: its pack's words for the custody keys."""
    words = revenue_words(site)
    return {
        "gross_proceeds_cents": capfirst(words.gross),
        "prizes_cents": words.paid_label,
        "agp_cents": words.net_label,
        "hold_ratio": f"{words.hold_label} ({words.hold})",
    }


CUSTODY_NULL_DOC = (
    "Null where the site's pack has no such custody: a fees pack (WA-BJ), whose tables take none of the house's "
    "chips, has no drop at all; a pack whose tables deal no paddlewheel has no paddlewheel block."
)


class DailySummaryOut(serializers.Serializer):
    format_version = serializers.IntegerField(
        help_text="The version of the frozen figures format these figures follow (accounting.frozen): the books "
        "closed on the day keep them in it, and their SHA-256 is over them. From version 3 a fees (WA-BJ) "
        "pack's day keeps no drop figures (tables, total, twenty_one, paddlewheel, the cash long (short) and its "
        "reconciliation); this representation gives them as the summary computes them, null where the pack has no "
        "such custody (a fees pack)."
    )
    site = serializers.IntegerField()
    gaming_date = serializers.DateField()
    gaming_day_closed = serializers.BooleanField()
    books_closed = serializers.BooleanField()
    adjustments_recorded = AdjustmentOut(many=True)
    adjustments_to_this_day = AdjustmentOut(many=True)
    tables = TableDayOut(many=True)
    total = CustodyOut(allow_null=True, help_text=CUSTODY_NULL_DOC)
    twenty_one = CustodyOut(allow_null=True, help_text=CUSTODY_NULL_DOC)
    paddlewheel = CustodyOut(allow_null=True, help_text=CUSTODY_NULL_DOC)
    cash = CashOut()
    tournaments = TournamentsOut(required=False, help_text=TOURNAMENTS_DOC)
    games = GameLineOut(many=True, help_text=GAMES_DOC)
    books = BooksCheckOut(help_text=BOOKS_CHECK_DOC)
    pack = PackFiguresOut(
        required=False,
        help_text="A fees or session pack's site: the pack and its own figures (a drop pack's are the summary).",
    )
    figure_names = FigureNamesOut(
        required=False, help_text=f"{FIGURE_NAMES_DOC} Given with a day's summary; a quarter's gives them once."
    )


class QuarterSummaryOut(serializers.Serializer):
    site = serializers.IntegerField()
    quarter = serializers.CharField()
    days = DailySummaryOut(many=True)
    total = CustodyOut(allow_null=True, help_text=CUSTODY_NULL_DOC)
    twenty_one = CustodyOut(allow_null=True, help_text=CUSTODY_NULL_DOC)
    paddlewheel = CustodyOut(allow_null=True, help_text=CUSTODY_NULL_DOC)
    games = GameLineOut(many=True, help_text=GAMES_DOC)
    low_hold_review = serializers.CharField(
        allow_blank=True,
        help_text="Whether a game `below_threshold` starts the video review at the site, in the quarter page's and "
        "the quarterly report's words: the low-hold rule (`threshold_citation`) is for a site that requires video "
        "surveillance, judged at the quarter's end as the nightly check judges it. Empty where the site's pack "
        "states no low-hold rule (its games carry no threshold).",
    )
    cash_profit_cents = _cents(
        allow_null=True,
        help_text="Null when no day's cash bank was counted (not known); 0 where nothing was played in the quarter.",
    )
    long_short_cents = _cents(allow_null=True, help_text=f"{NOT_RECONCILED_DOC}.")
    chips_outside_change_cents = _cents(
        allow_null=True, help_text=f"Reconciling line: chips outside the house. {NOT_RECONCILED_DOC}."
    )
    unexplained_cents = _cents(allow_null=True, help_text=f"{NOT_RECONCILED_DOC}.")
    long_short_without_chip_count_cents = _cents(allow_null=True, help_text=f"{NOT_RECONCILED_DOC}.")
    days_without_bank_count = serializers.IntegerField(
        help_text="The days that took cash at the cage (table or tournament play, a fees site's table fees, a "
        "session site's sessions) without both bank counts: their cash is not in cash_profit_cents."
    )
    tournaments = TournamentsOut(required=False, help_text=TOURNAMENTS_DOC)
    days_without_chip_count = serializers.IntegerField()
    days_in_play = serializers.ListField(
        child=serializers.DateField(),
        help_text="The gaming days whose play has not ended (opened, not closed): listed in days with their "
        "own figures, not in the quarter's table totals until closed.",
    )
    filing = FilingStateOut()
    amendments = AmendmentOut(many=True, help_text="Corrections of this quarter entered in a later quarter.")
    amending_earlier = AmendmentOut(many=True, help_text="Corrections entered in this quarter of an earlier one.")
    pack = PackFiguresOut(help_text="The site's jurisdiction pack and its own figures for the quarter.")
    figure_names = FigureNamesOut(help_text=FIGURE_NAMES_DOC)


class ShiftOut(serializers.Serializer):
    """A dealer shift; the custody figures are present only when the shift is separable."""

    shift = serializers.IntegerField()
    site = serializers.IntegerField()
    table_number = serializers.IntegerField()
    game = serializers.CharField()
    gaming_date = serializers.DateField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    separable = serializers.BooleanField()
    not_separable_because = serializers.CharField(allow_blank=True)
    drop_cents = _cents(required=False)
    fills_cents = _cents(required=False)
    credits_cents = _cents(required=False)
    opener_cents = _cents(required=False)
    closer_cents = _cents(required=False)
    gross_proceeds_cents = _cents(required=False)
    prizes_cents = _cents(required=False)
    agp_cents = _cents(required=False)
    hold_ratio = serializers.CharField(allow_null=True, required=False)


class DealerSiteOut(serializers.Serializer):
    """A dealer's shifts at one site beside that site's own hold (complete table-days of the game)."""

    site = serializers.IntegerField()
    shifts = serializers.IntegerField()
    separable_shifts = serializers.IntegerField()
    total = CustodyOut()
    site_total = CustodyOut()
    site_hold_ratio = _ratio()
    z_score = serializers.CharField(allow_null=True)


class DealerHoldOut(serializers.Serializer):
    dealer = serializers.IntegerField()
    game = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    shifts = ShiftOut(many=True)
    total = CustodyOut(allow_null=True)
    site = serializers.IntegerField(allow_null=True, help_text="The dealer's site when the shifts are at one site.")
    site_hold_ratio = _ratio()
    z_score = serializers.CharField(allow_null=True)
    sites = DealerSiteOut(many=True)


class TaxSiteOut(serializers.Serializer):
    site = serializers.CharField(help_text="The site's name.")
    gross_proceeds_cents = _cents()
    prizes_cents = _cents()
    agp_cents = _cents()
    cash_profit_cents = _cents(allow_null=True, help_text="Null: no bank count (not known).")


class TaxBracketOut(serializers.Serializer):
    from_cents = _cents()
    rate = serializers.CharField()
    base_cents = _cents()
    effective_from = serializers.DateField()
    citation = serializers.CharField()


class SiteAmendmentOut(AmendmentOut):
    site = serializers.CharField(help_text="The site's name.")


class TaxReturnOut(serializers.Serializer):
    filed = serializers.BooleanField()
    filed_sites = serializers.ListField(child=serializers.CharField())
    unfiled_sites = serializers.ListField(child=serializers.CharField())
    other_games_agp_filed_cents = serializers.IntegerField(
        allow_null=True, help_text="The other games' AGP the latest filing froze (the tax above is on it)."
    )
    other_games_agp_now_cents = serializers.IntegerField(allow_null=True, help_text="The standing record now.")
    other_games_amendment_cents = serializers.IntegerField(
        help_text="Recorded since the filing: an amendment of the filed return, taxed in amended_tax_cents."
    )
    amendment_agp_cents = _cents(
        help_text="The corrections of the quarter's days entered later: counted and taxed in the quarter entered."
    )
    amended_agp_cents = _cents(help_text="The AGP filed plus those corrections (the quarter as it now reads).")
    amended_tax_cents = _cents(
        help_text="The tax as the return now stands: on the AGP filed (the corrections are taxed in the quarter "
        "they were entered, not again here) with the other games' AGP recorded now."
    )
    amendments = SiteAmendmentOut(many=True)


# `return` is a Python keyword: the class is built with it among its fields.
TaxOut = type(
    "TaxOut",
    (serializers.Serializer,),
    {
        "organization": serializers.IntegerField(),
        "quarter": serializers.CharField(),
        "agp_cents": _cents(
            help_text="The AGP recorded here: the organization's sites whose pack levies the gaming tax."
        ),
        "tax_cents": _cents(help_text="The gaming tax on the AGP recorded here (see tax_label)."),
        "tax_label": serializers.CharField(),
        "other_games_agp_cents": _cents(
            allow_null=True, help_text="The other games' AGP recorded by a gaming manager; null: not recorded."
        ),
        "organization_agp_cents": _cents(help_text="AGP recorded here + other games' AGP."),
        "organization_tax_cents": _cents(help_text="The brackets applied to the organization's total."),
        "other_jurisdiction_sites": serializers.ListField(
            child=serializers.CharField(), help_text="Sites whose pack levies no gaming tax: not in it."
        ),
        "sites": TaxSiteOut(many=True),
        "brackets": TaxBracketOut(many=True),
        "return": TaxReturnOut(),
    },
)


class BooksCloseOut(serializers.Serializer):
    id = serializers.IntegerField()
    site = serializers.IntegerField()
    gaming_date = serializers.DateField()
    closed_at = serializers.DateTimeField()
    closed_by = serializers.IntegerField()
    figures_sha256 = serializers.CharField()
    figures = serializers.JSONField(help_text="The daily summary as it stood when the books were closed.")


# --- The API's representation of the figures ---------------------------------------------------
# It starts from the frozen format (accounting.frozen) and may diverge from it: what a closed day
# or a filed quarter keeps, and its digest, is the frozen module's alone.


# The figures a closer enters: null (not known, never as if it were $0.00) while a table summed has
# none recorded yet (`Custody.closer_known`; House control: tray counts, floor.rules.TRAY_COUNT).
NEEDS_CLOSER = ("closer_cents", "prizes_cents", "agp_cents", "hold_ratio")


def custody_json(c: Custody) -> dict:
    found = frozen.custody(c)
    return found if c.closer_known else {**found, **dict.fromkeys(NEEDS_CLOSER)}


def adjustment_json(a: summaries.AdjustmentLine) -> dict:
    return frozen.adjustment(a)


def tournaments_json(t) -> dict:
    return frozen.tournaments(t)


def daily_json(s: summaries.DailySummary, site, *, reconciled: bool = True) -> dict:
    """The day's figures; without a drop-based cash reconciliation (`reconciled` false: a fees or
    session pack) its long (short) and reconciling lines are null (NOT_RECONCILED_DOC). A fees or
    session pack's figures are the API's own `pack` block (`pack_figures`), not the frozen one. The
    custody blocks are null where the site's pack has no such custody (`custody_blocks`)."""
    figures = {**frozen.drop_figures(s), **{k: v for k, v in frozen.daily(s).items() if k != "pack"}}
    figures.update(custody_blocks(site, s.total, s.twenty_one, s.paddlewheel))
    figures["tables"] = [{**row, **custody_json(t.custody)} for row, t in zip(figures["tables"], s.tables, strict=True)]
    if not summaries.takes_deposit(s):  # nothing collected: no deposit due (the daily report's words)
        figures["cash"] = {**figures["cash"], "deposit_due": None}
    if reconciled:
        return figures
    return {**figures, "cash": {**figures["cash"], **dict.fromkeys(RECONCILED_CASH)}}


def custody_blocks(site, total: Custody, twenty_one: Custody, paddlewheel: Custody) -> dict:
    """`total`, `twenty_one` and `paddlewheel` in the API, each null where the site's pack has no
    such custody: a fees pack's (WA-BJ) tables take none of the house's chips (its revenue is its
    time fees, WAC 230-40-125(1)), so it has no drop, win or hold at all; a pack whose tables deal no
    paddlewheel (`Pack.games`) has no paddlewheel block. Zeros there read as a night that took nothing."""
    pack = pack_for(site)
    wheel = custody_json(paddlewheel) if "PW" in pack.games and house_chips(site) else None
    return {"total": custody_block(site, total), "twenty_one": custody_block(site, twenty_one), "paddlewheel": wheel}


def custody_block(site, custody: Custody) -> dict | None:
    """One custody block in the API: null at a fees pack's site (`custody_blocks`)."""
    return custody_json(custody) if house_chips(site) else None


def _game_lines(site, lines) -> list[dict]:
    """The games beside their thresholds: none at a fees pack's site (no drop, no hold)."""
    return [game_line_json(g) for g in lines] if house_chips(site) else []


def game_line_json(line: games.GameLine) -> dict:
    t = line.threshold
    return {
        "game": line.game,
        "label": line.label,
        **custody_json(line.custody),
        "low_hold_threshold": ratio_string(t.ratio) if t else None,
        "threshold_citation": t.citation if t else None,
        "below_threshold": line.below_threshold,
    }


def books_check_json(check: books.BooksCheck) -> dict:
    s = check.snapshot
    return {
        "state": check.state,
        "statement": check.statement,
        "snapshot_at": s.at.isoformat() if s else None,
        "snapshot_by_initials": s.by_initials if s else None,
        "figures_sha256": s.sha256 if s else None,
        "differences": list(check.differences),
        # The day's closed books, the `books_close` an adjusting entry to it names (POST /api/v1/adjustments/).
        "books_close": s.record_id if s else None,
    }


def amendment_json(a: books.Amendment) -> dict:
    return {
        **adjustment_json(a.line),
        "amends_quarter": str(a.quarter),
        "quarter_filed": a.filed,
        "agp_effect_cents": a.agp_effect_cents,
    }


def tax_return_json(tax: books.TaxReturn) -> dict:
    return {
        "filed": tax.filed,
        "other_games_agp_filed_cents": tax.figures.other_games_agp_cents,
        "other_games_agp_now_cents": tax.other_games_now_cents,
        "other_games_amendment_cents": tax.other_games_amendment_cents,
        "filed_sites": list(tax.filed_sites),
        "unfiled_sites": list(tax.unfiled_sites),
        "amendment_agp_cents": tax.amendment_agp_cents,
        "amended_agp_cents": tax.amended_agp_cents,
        "amended_tax_cents": tax.amended_tax_cents,
        "amendments": [{"site": a.site_name, **amendment_json(a)} for a in tax.amendments],
    }


def _parse_date(value, field):
    return limits.parse_date(value, field)


def _site(request, pk, rule):
    site = get_object_or_404(access_for(request.user).sites(), pk=pk)
    rule.require(request.user, site)
    return site


class DailySummaryView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE, required=True)],
        responses={200: OpenApiResponse(DailySummaryOut, description=f"The day's figures. {BOOKS_CHECK_DOC}")},
    )
    def get(self, request, pk):
        site = _site(request, pk, rules.DAILY_FIGURES)
        summary = summaries.daily_summary(site, _parse_date(request.query_params.get("date"), "date"), snapshots=True)
        check = books.day_checks([summary]).get((summary.site_id, summary.gaming_date))
        lines = _game_lines(site, games.day_game_lines(summary, where=site))  # a day's: no threshold
        pack = pack_block(site, summary.pack)  # the summary's own figures, not read again
        extra = {"pack": pack} if not pack["hold_applies"] else {}  # a drop pack's figures are the summary
        figures = daily_json(summary, site, reconciled=pack["hold_applies"])
        names = {"figure_names": figure_names(site)}
        return Response({**figures, "games": lines, "books": books_check_json(check), **extra, **names})


class QuarterSummaryView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("quarter", OpenApiTypes.STR, required=True)],
        responses={
            200: OpenApiResponse(
                QuarterSummaryOut,
                description="The quarter's figures; each day with its `books`; `filing`: the quarter against its "
                "filed summary (state equal, differ or not filed) and its statement; `amendments`: corrections "
                "of this quarter entered in a later quarter; `amending_earlier`: corrections entered in this "
                "quarter of an earlier one (filed or not).",
            ),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request, pk):
        site = _site(request, pk, rules.QUARTER_FIGURES)
        quarter = Quarter.parse(request.query_params.get("quarter", ""))
        q = summaries.quarter_summary(site, quarter, snapshots=True)
        state = books.quarter_books(q, queries.quarter_filing(site.pk, quarter), site.time_zone)
        checks = dict(state.days)
        pack = pack_block(site, q.pack)
        reconciled = pack["hold_applies"]
        figures = {
            "site": q.site_id,
            "quarter": str(q.quarter),
            "days": [
                {
                    **daily_json(d, site, reconciled=reconciled),
                    "games": _game_lines(site, games.day_game_lines(d, where=site)),
                    "books": books_check_json(checks[d.gaming_date]),
                }
                for d in q.days
            ],
            **custody_blocks(site, q.total, q.twenty_one, q.paddlewheel),
            "games": _game_lines(site, games.summary_game_lines(q, q.quarter.end, where=site)),
            # Beside the games, as the page and the report say it: whether "below" starts a review here.
            "low_hold_review": games.low_hold_review(site, q.quarter.end),
            # $0.00 where nothing was played, as the page, the report and the return's line give them.
            "cash_profit_cents": summaries.return_cash_profit(q, q.cash_profit_cents),
            "long_short_cents": summaries.return_cash_profit(q, q.long_short_cents),
            "chips_outside_change_cents": summaries.return_cash_profit(q, q.chips_outside_change_cents),
            "unexplained_cents": summaries.return_cash_profit(q, q.unexplained_cents),
            "long_short_without_chip_count_cents": q.long_short_without_chip_count_cents,
            "days_without_bank_count": q.days_without_bank_count,
            **tournaments_json(q.tournaments),
            "days_without_chip_count": q.days_without_chip_count,
            "days_in_play": [d.gaming_date for d in q.days_in_play],
            "filing": _filing_state_json(state),
            "amendments": [amendment_json(a) for a in state.amendments],
            "amending_earlier": [amendment_json(a) for a in state.amending_earlier],
            "pack": pack,
            "figure_names": figure_names(site),
        }
        # A fees or session pack's quarter has no long (short) reconciled against a drop-based AGP.
        return Response(figures if reconciled else {**figures, **dict.fromkeys(QUARTER_RECONCILED_CASH)})


def _filing_state_json(state: books.QuarterBooks) -> dict:
    return {
        "state": state.state,
        "statement": state.statement,
        "filed": state.filing is not None,
        "filed_at": state.filing.filed_at.isoformat() if state.filing else None,
        "filed_by_initials": state.filing.filed_by_initials if state.filing else None,
        "figures_sha256": state.filing.sha256 if state.filing else None,
        "differences": list(state.check.differences),
        "days_closed": state.days_closed,
        "days": len(state.days),
        "days_differing": [str(d) for d in state.days_differing],
        "days_not_closed": [str(d) for d in state.days_open],
    }


# An organization none of whose sites is in a pack that states a gaming tax has no tax figures to
# read: House control (only a pack's text states a tax, `summaries.taxing_pack`), never another pack's.
NO_GAMING_TAX = (
    f"{limits.CITED_HOUSE_CONTROL}: no gaming tax here: no site of the organization is in a pack that states one."
)
GAMES = ("21", "PW")  # the codes; each site's pack names the games (`packs.game_names`)


def _shift_json(s: dealer_hold.ShiftFigures) -> dict:
    return {
        "shift": s.shift_id,
        "site": s.site_id,
        "table_number": s.table_number,
        "game": s.game,
        "gaming_date": str(s.gaming_date),
        "started_at": s.started_at,
        "ended_at": s.ended_at,
        "separable": s.custody is not None,
        "not_separable_because": s.not_separable_because,
        **(custody_json(s.custody) if s.custody else {}),
    }


def dealer_site_json(d: dealer_hold.DealerSummary) -> dict:
    return {
        "site": d.site_id,
        "shifts": len(d.shifts),
        "separable_shifts": d.separable_shifts,
        "total": custody_json(d.total),
        "site_total": custody_json(d.site_total),
        "site_hold_ratio": ratio_string(d.site_hold_ratio),
        "z_score": None if d.z_score is None else str(d.z_score),
    }


class DealerHoldView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("start", OpenApiTypes.DATE, required=True),
            OpenApiParameter("end", OpenApiTypes.DATE, required=True),
            OpenApiParameter("site", OpenApiTypes.INT, description="Only this site's shifts (as its PDF shows)."),
            OpenApiParameter(
                "game",
                OpenApiTypes.STR,
                enum=list(GAMES),
                description="21 (dealers, default) or PW (wheel operators), at the sites whose pack deals it "
                "(where none does: 400 on `game`). Only sites whose revenue is a drop have a hold "
                "(asked only of fees or session sites: 400 on `site`).",
            ),
        ],
        responses={200: DealerHoldOut, **ERROR_RESPONSES},
        description="A dealer's (or wheel operator's) separable shifts, summed per site beside "
        "that site's own hold and z-score (`sites`); `site_hold_ratio` and `z_score` at the top are the dealer's "
        "site's when the shifts are at one site, else null.",
    )
    def get(self, request, pk):
        access = access_for(request.user)
        employee = get_object_or_404(visible_employees(access), pk=pk)
        start = _parse_date(request.query_params.get("start"), "start")
        end = _parse_date(request.query_params.get("end"), "end")
        if end < start:
            raise ValidationError({"end": f"{limits.CITED_HOUSE_CONTROL}: end ({end}) is before start ({start})."})
        game = request.query_params.get("game") or "21"
        if game not in GAMES:
            raise ValidationError(
                {"game": f"{limits.CITED_HOUSE_CONTROL}: game is 21 (dealers) or PW (wheel operators)."}
            )
        own = access.employee is not None and access.employee.pk == employee.pk
        sites = [s for s in access.sites() if own or rules.DEALER_FIGURES.allows(access, s.pk)]
        if request.query_params.get("site"):
            wanted = _id_param(request, "site")
            sites = [s for s in sites if s.pk == wanted]
        if not sites:
            raise PermissionDenied(rules.DEALER_FIGURES.refusal(" (a dealer sees their own)"))
        site_ids = games.sites_dealing(games.sites_holding(sites), game)
        found = day_figures.dealer_summaries(site_ids, start, end, dealer_ids=[employee.pk], game=game)
        one = found[0] if len(found) == 1 else None
        return Response(
            {
                "dealer": employee.pk,
                "game": game,
                "start": str(start),
                "end": str(end),
                "shifts": [_shift_json(s) for d in found for s in d.shifts],
                "total": custody_json(figures.total(d.total for d in found)) if found else None,
                "site": one.site_id if one else None,
                "site_hold_ratio": ratio_string(one.site_hold_ratio) if one else None,
                "z_score": str(one.z_score) if one and one.z_score is not None else None,
                "sites": [dealer_site_json(d) for d in found],
            }
        )


def tax_json(tax: summaries.TaxFigures) -> dict:
    """The tax as the API shows it: the frozen figures, with the label in the words of the pack
    that levies it (the same words as the frozen label for North Dakota)."""
    return {**frozen.tax(tax), "tax_label": tax_label(tax)}


class OrganizationTaxView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("quarter", OpenApiTypes.STR, required=True)],
        responses={
            200: OpenApiResponse(
                TaxOut,
                description="The organization's tax on the filed figures: a filed site's filed quarter, an "
                "unfiled site's figures now. `return`: whether every site with figures has filed, and the "
                "amendments beside it (corrections of the quarter entered later, counted and taxed in the "
                "quarter entered), with the AGP and tax as amended.",
            ),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request, pk):
        access = access_for(request.user)
        if access.organization_id != pk:
            return Response({"detail": "Not found."}, status=404)
        if not access.org_roles & rules.QUARTER_FIGURES.roles:
            raise PermissionDenied(rules.QUARTER_FIGURES.refusal())
        organization = get_object_or_404(Organization, pk=pk)
        if summaries.taxing_pack(organization) is None:  # no site in a pack that states a gaming tax
            raise Http404(NO_GAMING_TAX)
        quarter = Quarter.parse(request.query_params.get("quarter", ""))
        every_site = summaries.organization_quarter(organization, quarter, snapshots=True)
        found = books.filings([s.site_id for s in every_site], [quarter])
        tax = books.tax_return(organization, quarter, every_site, found)
        return Response({**tax_json(tax.figures), "return": tax_return_json(tax)})


# --- Closing the books and adjustments ---------------------------------------------------------


def books_close_json(close: BooksClose) -> dict:
    return {
        "id": close.pk,
        "site": close.site_id,
        "gaming_date": str(close.gaming_date),
        "closed_at": close.closed_at.isoformat(),
        "closed_by": close.closed_by_id,
        "figures_sha256": close.figures_sha256,
        "figures": close.figures,
    }


class BooksCloseInputSerializer(Input):
    """The gaming date whose books close: `gaming_date`, as every other endpoint names it; `date`,
    its former name, is still read. Both given must name the same day."""

    gaming_date = DateField(required=False)
    date = DateField(required=False, help_text="The former name of gaming_date, still read; give gaming_date.")

    def validate(self, attrs):
        given = attrs.get("gaming_date", attrs.get("date"))
        if given is None:
            raise serializers.ValidationError({"gaming_date": [self.fields["gaming_date"].error_messages["required"]]})
        if "date" in attrs and attrs["date"] != given:
            raise serializers.ValidationError(
                {
                    "gaming_date": [
                        f"House control: gaming_date ({given}) and date ({attrs['date']}), its former name, name "
                        "two days; give gaming_date alone."
                    ]
                }
            )
        return {"gaming_date": given}


class CloseBooksView(APIView):
    @extend_schema(request=BooksCloseInputSerializer, responses={201: BooksCloseOut})
    def post(self, request, pk):
        site = get_object_or_404(access_for(request.user).sites(), pk=pk)
        data = _parsed(BooksCloseInputSerializer(data=request.data))
        close = services.close_books(acting_user=request.user, site=site, gaming_date=data["gaming_date"])
        return Response(books_close_json(close), status=201)


class BooksAdjustmentInputSerializer(Input):
    """Parses only: the service checks the field, table, amount, reason and date. The day corrected is
    named by its closed books (`books_close`, the daily summary's `books.books_close`) or by its site
    and date (`site`, `corrected_date`): a date of a filed quarter with nothing recorded on it has no
    closed books until its first adjusting entry closes them (accounting.services.correct_date)."""

    books_close = serializers.PrimaryKeyRelatedField(
        queryset=BooksClose.objects.none(),
        required=False,
        help_text="The closed books of the day corrected; or give `site` and `corrected_date` instead.",
    )
    site = serializers.PrimaryKeyRelatedField(queryset=Site.objects.none(), required=False)
    corrected_date = DateField(required=False, help_text="The gaming date corrected, with `site`.")
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.none(), required=False, allow_null=True)
    field = serializers.CharField(max_length=20)
    amount_cents = CentsField()
    reason = TextField(allow_blank=True, trim_whitespace=False)
    recorded_on = DateField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")  # absent while the schema is generated
        if request is None:
            return
        sites = access_for(request.user).sites()
        self.fields["books_close"].queryset = BooksClose.objects.filter(site__in=sites).select_related("site")
        self.fields["site"].queryset = sites
        self.fields["table"].queryset = Table.objects.filter(site__in=sites)

    def validate(self, attrs):
        by_date = "site" in attrs or "corrected_date" in attrs
        if ("books_close" in attrs) == by_date or (by_date and not ("site" in attrs and "corrected_date" in attrs)):
            raise serializers.ValidationError(
                {
                    "books_close": f"{rules.CLOSED_BOOKS}: give the closed books corrected (`books_close`), or the "
                    "site and the gaming date corrected (`site` and `corrected_date`), not both."
                }
            )
        return attrs


def _parsed(serializer) -> dict:
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class AdjustmentsView(APIView):
    pagination_class = Pagination

    @extend_schema(
        parameters=[
            OpenApiParameter("site", OpenApiTypes.INT),
            OpenApiParameter("corrected_date", OpenApiTypes.DATE),
            *PAGE_PARAMETERS,
        ],
        responses={200: AdjustmentPageOut},
    )
    def get(self, request):
        access = access_for(request.user)
        sites = rules.DAILY_FIGURES.site_ids(access)
        found = Adjustment.objects.filter(books_close__site_id__in=sites)
        if request.query_params.get("site"):
            found = found.filter(books_close__site_id=_id_param(request, "site"))
        if request.query_params.get("corrected_date"):
            corrected = _parse_date(request.query_params["corrected_date"], "corrected_date")
            found = found.filter(books_close__gaming_date=corrected)
        found = found.select_related("books_close", "table", "recorded_by", "approved_by").order_by("recorded_on", "id")
        pages = Pagination()
        page = pages.paginate_queryset(found, request, view=self)
        return pages.get_paginated_response([_adjustment_out(a) for a in page])

    @extend_schema(request=BooksAdjustmentInputSerializer, responses={201: SiteAdjustmentOut})
    def post(self, request):
        data = _parsed(BooksAdjustmentInputSerializer(data=request.data, context={"request": request}))
        if "books_close" in data:
            adjustment = services.record_adjustment(acting_user=request.user, **data)
        else:
            adjustment = services.correct_date(acting_user=request.user, **data)
        return Response(_adjustment_out(adjustment), status=201)


def _id_param(request, name: str) -> int:
    try:
        return IdFormField().clean(request.query_params.get(name))
    except DjangoFormError as exc:
        raise ValidationError({name: exc.messages}) from None


def _adjustment_out(a: Adjustment) -> dict:
    return {"site": a.books_close.site_id, **adjustment_json(summaries.adjustment_line(a))}


# --- Filing a quarter ------------------------------------------------------------------------------


class QuarterFilingInputSerializer(Input):
    quarter = serializers.CharField(
        max_length=10, help_text="The quarter filed, YYYYQn (for example 2026Q3); it must have ended."
    )
    reference = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=100,
        help_text="The return's confirmation number, if any.",
    )


class FilingSerializer(serializers.Serializer):
    """A filed quarterly summary: the frozen figures and their SHA-256."""

    id = serializers.IntegerField()
    site = serializers.IntegerField(source="site_id")
    quarter = serializers.CharField()
    filed_at = serializers.DateTimeField()
    filed_by_initials = serializers.CharField(source="filed_by.initials")
    reference = serializers.CharField()
    figures_sha256 = serializers.CharField(help_text="SHA-256 of `figures` as canonical JSON (sorted keys, no spaces).")
    figures = serializers.JSONField(
        help_text="`summary`: the site's quarter, a row per gaming day with its closed books' digest; `tax`: the "
        "organization's tax as it stood at filing."
    )


class FilingCheckSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["equal", "differ", "not filed"])
    statement = serializers.CharField()
    differences = serializers.ListField(child=serializers.CharField())


AmendmentSerializer = AmendmentOut


class FiledBesideNowOut(serializers.Serializer):
    figure = serializers.CharField()
    filed_cents = serializers.IntegerField(allow_null=True)
    amendments_since_cents = serializers.IntegerField()
    now_cents = serializers.IntegerField(allow_null=True)


class FilingAmendmentOut(serializers.Serializer):
    id = serializers.IntegerField()
    filing = serializers.IntegerField()
    source = serializers.ChoiceField(choices=FilingAmendment.Source.values)
    adjustment = serializers.IntegerField(allow_null=True)
    other_games_agp = serializers.IntegerField(allow_null=True)
    site_filing = serializers.IntegerField(
        allow_null=True, help_text="Another site's filing of the quarter that changed the AGP recorded at the sites."
    )
    tournament_fee = serializers.IntegerField(
        allow_null=True, help_text="The void of a tournament fee of a day of the filed quarter, entered later."
    )
    tournament_prize = serializers.IntegerField(
        allow_null=True, help_text="The void of a tournament prize of a day of the filed quarter, entered later."
    )
    figure = serializers.ChoiceField(choices=FilingAmendment.Figure.values)
    delta_cents = serializers.IntegerField()
    statement = serializers.CharField(
        help_text="The amendment in words: the figure in the site's pack's words, the change, the entry that made it."
    )
    recorded_at = serializers.DateTimeField()
    recorded_by_initials = serializers.CharField()


class FiledFiguresSerializer(serializers.Serializer):
    """A quarter's filed figures beside its figures now."""

    site = serializers.IntegerField()
    quarter = serializers.CharField()
    filing = FilingSerializer(allow_null=True)
    check = FilingCheckSerializer()
    figures_now = serializers.JSONField(help_text="The quarter as it reads now, in the shape of `figures.summary`.")
    amendments = AmendmentSerializer(many=True, help_text="Corrections of this quarter entered in a later quarter.")
    amended_total = serializers.JSONField(
        allow_null=True, help_text=f"The quarter's totals now plus the amendments. {CUSTODY_NULL_DOC}"
    )
    amended_cash_profit_cents = serializers.IntegerField(allow_null=True, help_text="Null: no bank count (not known).")
    filed_beside_now = FiledBesideNowOut(
        many=True,
        help_text="Filed / Amendments since / Figures now: each figure of the return as filed (never changed), "
        "the amendments entered since, and the figure now; empty when not filed.",
    )
    filing_amendments = FilingAmendmentOut(
        many=True, help_text="Each entry after the filing that changed its return, pointing back at the filing."
    )


class QuarterFilingView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("quarter", OpenApiTypes.STR, required=True)],
        responses={200: FiledFiguresSerializer, **ERROR_RESPONSES},
        description="The quarter's filed figures (null when not filed) beside its figures now and the amendments.",
    )
    def get(self, request, pk):
        site = _site(request, pk, rules.QUARTER_FIGURES)
        quarter = Quarter.parse(request.query_params.get("quarter", ""))
        summary = summaries.quarter_summary(site, quarter, snapshots=True)
        filing = queries.quarter_filing(site.pk, quarter)
        state = books.quarter_books(summary, filing, site.time_zone)
        amended = summary.total + state.amendment_custody
        filed_tax = filing.figures.get("tax") if filing is not None else None
        tax = None
        if filed_tax is not None:  # the return's tax now, beside the tax the filing froze
            every_site = summaries.organization_quarter(site.organization, quarter, snapshots=True)
            tax = books.tax_return(
                site.organization, quarter, every_site, books.filings([s.site_id for s in every_site], [quarter])
            )
        rows = books.in_pack_words(books.filed_beside_now(summary, state, filed_tax, tax), site)
        body = {
            "site": site.pk,
            "quarter": str(quarter),
            "filing": filing,
            "check": {"state": state.state, "statement": state.statement, "differences": state.check.differences},
            "figures_now": state.figures_now,
            "amendments": [amendment_json(a) for a in state.amendments],
            # none at a fees site, whose tables hold none of the house's chips (`custody_blocks`)
            "amended_total": custody_block(site, amended),
            "amended_cash_profit_cents": None
            if summary.cash_profit_cents is None
            else summary.cash_profit_cents + state.amendment_cash_cents,
            "filed_beside_now": books.filed_beside_now_json(rows),
            "filing_amendments": list(state.filing_amendments),
        }
        return Response(FiledFiguresSerializer(body).data)

    @extend_schema(
        request=QuarterFilingInputSerializer,
        responses={201: FilingSerializer, **ERROR_RESPONSES},
        description="Mark the site's quarterly summary filed (the return its pack names, if any): gaming managers "
        "only, once the quarter has ended and every day with figures has closed books; refusals cite the site's "
        "pack.",
    )
    def post(self, request, pk):
        site = get_object_or_404(access_for(request.user).sites(), pk=pk)
        data = _parsed(QuarterFilingInputSerializer(data=request.data))
        quarter = Quarter.parse(data["quarter"])
        filing = services.file_quarter(
            acting_user=request.user, site=site, quarter=quarter, reference=data["reference"]
        )
        return Response(FilingSerializer(filing).data, status=201)


# --- The AGP of the organization's other games -------------------------------------------------------


class OtherGamesAgpOut(serializers.Serializer):
    id = serializers.IntegerField()
    organization = serializers.IntegerField(source="organization_id")
    quarter = serializers.CharField()
    agp_cents = serializers.IntegerField()
    note = serializers.CharField()
    corrects = serializers.IntegerField(source="corrects_id", allow_null=True)
    recorded_by_initials = serializers.CharField(source="recorded_by.initials")
    recorded_at = serializers.DateTimeField()


class OtherGamesAgpInput(Input):
    """Parses only; the service checks the amount, the note and the correction."""

    quarter = serializers.CharField(max_length=10, help_text="YYYYQn, for example 2026Q3.")
    agp_cents = CentsField(help_text="The other games' AGP for the quarter, in cents (may be negative).")
    note = TextField(allow_blank=True)
    corrects = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=limits.MAX_ID, help_text="The entry this corrects."
    )


class OtherGamesAgpView(APIView):
    """The AGP of the organization's other games per quarter (where its pack's gaming tax taxes all its games):
    read by gaming managers and auditors, recorded by a gaming manager; append-only, a correction
    is a new entry naming the one it corrects."""

    def _organization(self, request, pk):
        access = access_for(request.user)
        if access.organization_id != pk:
            raise Http404
        organization = get_object_or_404(Organization, pk=pk)
        if summaries.taxing_pack(organization) is None:  # the other games' AGP serves the gaming tax only
            raise Http404(NO_GAMING_TAX)
        return access, organization

    @extend_schema(
        parameters=[OpenApiParameter("quarter", OpenApiTypes.STR, required=True)],
        responses={200: OtherGamesAgpOut(many=True), **ERROR_RESPONSES},
        description="Every entry of the quarter, the first first; the standing one is the last.",
    )
    def get(self, request, pk):
        access, organization = self._organization(request, pk)
        if not access.org_roles & rules.QUARTER_FIGURES.roles:
            raise PermissionDenied(rules.QUARTER_FIGURES.refusal())
        quarter = Quarter.parse(request.query_params.get("quarter", ""))
        return Response(OtherGamesAgpOut(queries.other_games_history(organization.pk, quarter), many=True).data)

    @extend_schema(request=OtherGamesAgpInput, responses={201: OtherGamesAgpOut, **ERROR_RESPONSES})
    def post(self, request, pk):
        _access, organization = self._organization(request, pk)
        data = _parsed(OtherGamesAgpInput(data=request.data))
        quarter = Quarter.parse(data["quarter"])
        corrects = None
        if data.get("corrects"):
            corrects = OtherGamesAgp.objects.filter(organization=organization, pk=data["corrects"]).first()
            if corrects is None:
                raise ValidationError(
                    {
                        "corrects": f"{limits.CITED_HOUSE_CONTROL}: corrects names no entry {data['corrects']} of this organization."
                    }
                )
        row = services.record_other_games_agp(
            acting_user=request.user,
            organization=organization,
            quarter=quarter,
            agp_cents=data["agp_cents"],
            note=data["note"],
            corrects=corrects,
        )
        return Response(OtherGamesAgpOut(row).data, status=201)
