"""What a filing package carries beside the frozen figures: each dealer's hold for the quarter,
keyed by the identifier the state issued them, and, for an amendment, the return as it now
stands beside the one filed (core.filing_package, version 2). Read through accounting's
published reads; nothing here writes."""

from dataclasses import dataclass

from accounting import published
from accounting.models import QuarterFiling
from cardroom.models import Employee, Site
from core.periods import Quarter
from packs import get_pack

GAMES = ("21", "PW")  # twenty-one dealers and paddlewheel operators (ND 99-01.3-08-04(8))


@dataclass(frozen=True)
class DealerHolds:
    dealers: list[dict] | None  # None: the pack names no identifier, or its games have no hold
    without_identifier: int = 0


def dealer_holds(site: Site, quarter: Quarter) -> DealerHolds:
    """Each dealer's percent-of-hold at `site` over `quarter` (their separable shifts, from the
    closed days' snapshots: the figures the dealer reports show), one entry per dealer and game,
    for the dealers with a state-issued identifier; the others are counted, not sent. A fixed
    number of queries."""
    if get_pack(site.jurisdiction).dealer_view_absent():
        return DealerHolds(None)
    # The dealer hold report's own totals (`dealer_totals`): what is filed is what it prints.
    totals = published.dealer_totals([site.pk], quarter.start, quarter.end, GAMES)
    summaries = [s for game in GAMES for s in totals[game].dealers]
    identifiers = dict(
        Employee.objects.filter(pk__in={s.dealer_id for s in summaries}).values_list("pk", "state_identifier")
    )
    dealers, missing = [], set()
    for s in summaries:
        identifier = identifiers.get(s.dealer_id) or ""
        if not identifier:
            missing.add(s.dealer_id)
            continue
        dealers.append(
            {
                "identifier": identifier,
                "name": s.dealer_name[:200] or identifier,
                "game": s.game,
                "shifts": s.shifts,
                "separable_shifts": s.separable_shifts,
                "drop_cents": s.total.drop_cents,
                "gross_proceeds_cents": s.total.gross_proceeds_cents,
                "prizes_cents": s.total.prizes_cents,
                "agp_cents": s.total.agp_cents,
                "hold_ratio": published.ratio_string(s.hold_ratio),
            }
        )
    dealers.sort(key=lambda d: (d["identifier"], d["game"]))
    return DealerHolds(dealers, len(missing))


@dataclass(frozen=True)
class ReturnNow:
    lines: list[dict]  # [{figure, filed_cents, amendments_since_cents, now_cents}]
    tax: dict | None  # {"filed_cents", "now_cents"}; None: the filing froze no tax


def return_now(filing: QuarterFiling) -> ReturnNow:
    """The filed return beside the return as it now stands (the quarter read now plus the
    corrections entered since, the organization's gaming tax now where the filing froze one):
    what the dashboard's filed quarter shows, `accounting.books.filed_beside_now`."""
    site = filing.site
    quarter = Quarter.parse(filing.quarter)
    every_site = published.organization_quarter(site.organization, quarter, snapshots=True)
    summary = next((s for s in every_site if s.site_id == site.pk), None) or published.quarter_summary(
        site, quarter, snapshots=True
    )
    state = published.quarter_books(summary, filing, site.time_zone)
    filed_tax = filing.figures.get("tax")
    tax = None
    if filed_tax is not None:
        found = published.filings([s.site_id for s in every_site] or [site.pk], [quarter])
        tax = published.tax_return(site.organization, quarter, every_site, found)
    lines = [
        {"figure": label, "filed_cents": filed, "amendments_since_cents": since, "now_cents": now}
        for label, filed, since, now in published.filed_beside_now(summary, state, filed_tax, tax)
    ]
    tax_json = None
    if tax is not None:
        tax_json = {"filed_cents": filed_tax["tax_cents"], "now_cents": published.filing_tax_now(state, filed_tax, tax)}
    return ReturnNow(lines, tax_json)
