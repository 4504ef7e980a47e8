"""Amending a filed quarter: a figure entered after the filing that changes its return.

A filed quarter's figures and their SHA-256 never change (QuarterFiling). A later entry that
changes what the return says (an adjustment correcting a day of the filed quarter, another
record of the organization's other games' AGP for the quarter, another site's filing of the
quarter that changes the AGP recorded at the organization's sites, a void of a tournament fee or
prize of a day of the filed quarter) is written beside it as a FilingAmendment, in the entry's own
transaction, and the gaming manager is flagged.

Flagging opens an alert, and alerts are compliance's, an app above the books: so the books ask
the `filing_amended` hook (core.hooks) and compliance registers its answer when its app loads
(`compliance.apps`); imports keep pointing down. Asking it unanswered raises, like every hook.
Likewise `amendment_recorded`: statefiling sends the amendment to the state's registry. The
tournaments, below the books, ask `tournament_void` in a void's transaction; the books answer
with `amend_with_tournament_void` (`accounting.apps`).
"""

from collections.abc import Callable

from django.utils import timezone

from core.hooks import AMENDMENT_RECORDED, FILING_AMENDED
from core.moments import local_date
from core.periods import Quarter

from .models import Adjustment, FilingAmendment, OtherGamesAgp, QuarterFiling
from .queries import quarter_filing

AmendmentFlag = Callable[[FilingAmendment], None]

# The figure of a fees or session site's return an adjusting entry of its own revenue amends.
PACK_FIGURE_AMENDED = {
    Adjustment.Field.RECEIPTS: FilingAmendment.Figure.SESSION_RECEIPTS,
    Adjustment.Field.PRIZES: FilingAmendment.Figure.SESSION_PRIZES,
    Adjustment.Field.FEES: FilingAmendment.Figure.FEES_COLLECTED,
}


def register_amendment_flag(flag: AmendmentFlag) -> None:
    """Compliance registers `flag(amendment)` once, when its app is ready."""
    FILING_AMENDED.register(flag)


def _record(filing: QuarterFiling, employee, **values) -> FilingAmendment:
    amendment = FilingAmendment.objects.create(
        filing=filing, recorded_by=employee, recorded_at=timezone.now(), **values
    )
    FILING_AMENDED(amendment)
    for recorded in AMENDMENT_RECORDED.answers():  # statefiling queues it for the state's registry
        recorded(amendment)
    return amendment


def amend_with_adjustment(filing: QuarterFiling, adjustment: Adjustment, agp_effect_cents: int) -> FilingAmendment:
    """An adjustment correcting a day of `filing`'s quarter: its effect on the AGP (drop, fills,
    credits, opener, closer), on the cash profit (cash), or on the session pack's receipts or prizes
    or the fees pack's fees collected (the return's own revenue, its `summary.pack`), by its amount."""
    if adjustment.field == Adjustment.Field.CASH:
        figure, delta = FilingAmendment.Figure.CASH_PROFIT, adjustment.amount_cents
    elif adjustment.field in PACK_FIGURE_AMENDED:
        figure, delta = PACK_FIGURE_AMENDED[adjustment.field], adjustment.amount_cents
    else:
        figure, delta = FilingAmendment.Figure.AGP, agp_effect_cents
    return _record(
        filing,
        adjustment.recorded_by,
        source=FilingAmendment.Source.ADJUSTMENT,
        adjustment=adjustment,
        figure=figure,
        delta_cents=delta,
    )


def amend_with_other_games(filings, row: OtherGamesAgp, delta_cents: int) -> list[FilingAmendment]:
    """Another record of the other games' AGP of a quarter some sites have filed: the gaming
    tax's brackets apply to the organization's AGP from all its games, so it amends each filing
    that carries the tax."""
    return [
        _record(
            filing,
            row.recorded_by,
            source=FilingAmendment.Source.OTHER_GAMES_AGP,
            other_games_agp=row,
            figure=FilingAmendment.Figure.OTHER_GAMES_AGP,
            delta_cents=delta_cents,
        )
        for filing in filings
        if "tax" in filing.figures
    ]


def amend_with_tournament_void(void) -> FilingAmendment | None:
    """A void of a tournament fee or prize whose day is on a filed return (`void`, a
    tournaments.services.VoidOfRecord), or None where that day's quarter is not filed. The void
    counts on the day it is made (like an adjustment, in the quarter it is entered on); the filed
    return carries the voided row's day in its tournament figures (ND 99-01.3-08-16(1)(e)-(g):
    all twenty-one activity of the quarter, the tournaments' fees and prizes among it), so it is
    amended by what its tournament AGP would have been without the row: less the fee, or plus
    the prize (`void.agp_effect_cents`).
    A fee or prize found after the books of a day of a filed quarter closed (`void.found_late`)
    amends it likewise, by what it adds: the fee, or less the prize."""
    filing = quarter_filing(void.site.pk, Quarter.containing(void.day))
    if filing is None:
        return None
    late = getattr(void, "found_late", False)
    return _record(
        filing,
        void.recorded_by,
        source=FilingAmendment.Source.TOURNAMENT_LATE if late else FilingAmendment.Source.TOURNAMENT_VOID,
        tournament_fee=void.fee,
        tournament_prize=void.prize,
        figure=FilingAmendment.Figure.TOURNAMENT_AGP,
        delta_cents=void.agp_effect_cents,
    )


def entry_text(amendment: FilingAmendment, site) -> str:
    """The entry that changed the filed return, in words, dated in `site`'s time (the alert, the
    quarter page, the PDF): an adjustment, another site's filing, a void of a tournament fee or
    prize, an other games' AGP record."""
    if amendment.tournament_fee_id is not None or amendment.tournament_prize_id is not None:
        void = amendment.tournament_fee or amendment.tournament_prize
        what = "fee" if amendment.tournament_fee_id is not None else "prize"
        if amendment.source == FilingAmendment.Source.TOURNAMENT_LATE:
            return f"tournament {what} {void.pk} of {void.corrects_date} found later, counted on gaming day {void.gaming_date}"
        return (
            f"void of tournament {what} {void.voids_id} of {void.voids.gaming_date}, counted on gaming day "
            f"{void.gaming_date}"
        )
    if amendment.adjustment_id is not None:
        a = amendment.adjustment
        # The gaming day it is counted on, not when it was typed (the quarter page gives that: "entered
        # 2026-12-07 02:27, after filing"): "entered on" a day before it was typed read as two dates.
        return f"adjustment {a.pk} of {a.books_close.gaming_date}'s {a.field}, counted on gaming day {a.recorded_on}"
    if amendment.site_filing_id is not None:
        later = amendment.site_filing  # each site's return carries the organization's whole tax
        return f"the filing of {later.quarter} at {later.site} on {local_date(site, later.filed_at)}"
    return f"other games' AGP entry {amendment.other_games_agp_id}, recorded {local_date(site, amendment.recorded_at)}"


def sites_agp_as_it_stands(filing: QuarterFiling) -> int:
    """The AGP recorded at the organization's sites on `filing`'s return as it stands: as it froze
    it, with the other sites' filings that amended it since."""
    since = filing.amendments.filter(figure=FilingAmendment.Figure.SITES_AGP).values_list("delta_cents", flat=True)
    return filing.figures["tax"]["agp_cents"] + sum(since)


def amend_with_site_filing(filings, filing: QuarterFiling) -> list[FilingAmendment]:
    """`filing`, a site's filing of a quarter some other sites of the organization have filed:
    each of those returns carries the organization's whole tax on the AGP recorded at its sites
    as it stood then (a sister site's unfiled figures as they read, or none: a site set up after
    it), so where `filing` freezes another AGP it amends each of them by the difference."""
    if "tax" not in filing.figures:
        return []
    now = filing.figures["tax"]["agp_cents"]
    found = []
    for earlier in filings:
        if earlier.pk == filing.pk or "tax" not in earlier.figures:
            continue
        delta = now - sites_agp_as_it_stands(earlier)
        if delta:
            found.append(
                _record(
                    earlier,
                    filing.filed_by,
                    source=FilingAmendment.Source.SITE_FILING,
                    site_filing=filing,
                    figure=FilingAmendment.Figure.SITES_AGP,
                    delta_cents=delta,
                )
            )
    return found
