"""What a regulator reads: its agency's licensees with their sites, the filings received, the
late and missing ones (due dates from the agency's pack), and each quarter's figures across
licensees. Every read is scoped to one agency and bounded: a page of licensees costs a fixed
number of queries whatever the history."""

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Exists, Max, OuterRef, Prefetch, Q
from django.utils import timezone
from django.utils.text import capfirst

from core.filing_package import DEALER_NUMBERS, IDENTIFIER, return_now_figures
from core.periods import Quarter
from packs import RevenueModel, Rule, get_pack

from .models import (
    Agency,
    Credential,
    Licensee,
    ReceivedAlert,
    ReceivedAnchor,
    ReceivedDealerHold,
    ReceivedDocument,
    ReceivedFiling,
    Regulator,
)

MAX_QUARTERS = 40  # ten years of quarters on one page of licensees


def regulator_of(user) -> Regulator | None:
    if user is None or not user.is_authenticated:
        return None
    return Regulator.objects.select_related("agency").filter(user=user).first()


def credentials(licensee: Licensee) -> list[Credential]:
    """The licensee's credentials, the newest first, revoked ones too (never reinstated)."""
    return list(Credential.objects.filter(licensee=licensee).order_by("-issued_at", "-pk"))


def due_on(agency: Agency, quarter: Quarter) -> date | None:
    """The day the quarter's return is due under the agency's pack (the last day of the pack's
    Nth month after the quarter); None: no return."""
    months = get_pack(agency.jurisdiction).return_due_months
    return None if months is None else quarter.month_end_after(months)


def first_expected(licensee: Licensee) -> Quarter:
    """The first quarter whose return the agency expects of the licensee (`expected_from`'s): a
    return of an earlier quarter is received, never judged late or missing."""
    return Quarter.containing(licensee.expected_from)


def expected(licensee: Licensee, quarter: Quarter) -> bool:
    return quarter.start >= first_expected(licensee).start


@dataclass
class SiteQuarter:
    site_ref: int
    site_name: str
    quarter: str
    due: date | None
    receipt_number: str = ""
    received_on: date | None = None

    @property
    def state(self) -> str:
        if self.receipt_number:
            return "late" if self.due and self.received_on > self.due else "on time"
        return "missing" if self.due and self.due < timezone.localdate() else "not yet due"


@dataclass
class LicenseeView:
    licensee: Licensee
    sites: dict[int, str] = field(default_factory=dict)
    filings: int = 0
    anchors: int = 0
    last_anchor_at: object = None
    anchor_conflicts: int = 0  # heads sent with another hash at a place already held (a rewrite)
    alerts_open: int = 0  # compliance alerts the licensee reported open and not (yet) closed
    alerts_closed: int = 0
    quarters: list[SiteQuarter] = field(default_factory=list)

    @property
    def first_expected(self) -> Quarter:
        return first_expected(self.licensee)

    @property
    def late(self) -> list[SiteQuarter]:
        return [q for q in self.quarters if q.state == "late"]

    @property
    def missing(self) -> list[SiteQuarter]:
        return [q for q in self.quarters if q.state == "missing"]


def licensees(agency: Agency, *, offset: int = 0, limit: int = 100, today: date | None = None) -> list[LicenseeView]:
    """A page of the agency's licensees, each with its sites (as filed), its original filings
    by site and quarter, the quarters due and not received, its anchors and the heads it sent
    that contradicted one held (a rewritten history), and its compliance alerts open and
    closed. Five queries per page."""
    today = today or timezone.localdate()
    page = list(Licensee.objects.filter(agency=agency).order_by("name", "pk")[offset : offset + limit])
    views = {lic.pk: LicenseeView(lic) for lic in page}
    received: dict[tuple[int, int, str], tuple[str, date]] = {}
    rows = (
        ReceivedFiling.objects.filter(licensee_id__in=views, amends__isnull=True)
        .order_by("seq")
        .values_list("licensee_id", "site_ref", "site_name", "quarter", "receipt_number", "received_at")
    )
    for lic_id, site_ref, site_name, quarter, number, at in rows:
        views[lic_id].sites[site_ref] = site_name
        views[lic_id].filings += 1
        received[lic_id, site_ref, quarter] = (number, timezone.localtime(at).date())
    for lic_id, count, last in _anchor_counts(views):
        views[lic_id].anchors, views[lic_id].last_anchor_at = count, last
    for lic_id, count in _conflicts(views):
        views[int(lic_id)].anchor_conflicts = count
    for lic_id, reported, closed in _alert_counts(views):
        views[lic_id].alerts_open, views[lic_id].alerts_closed = reported - closed, closed
    for view in views.values():
        view.quarters = _site_quarters(agency, view, received, today)
    return [views[lic.pk] for lic in page]


def _anchor_counts(views):
    from django.db.models import Count, Max

    return (
        ReceivedAnchor.objects.filter(licensee_id__in=views)
        .values("licensee_id")
        .annotate(n=Count("id"), last=Max("received_at"))
        .values_list("licensee_id", "n", "last")
    )


def _alert_counts(views):
    """(licensee, alerts reported, alerts closed) per licensee: one query."""
    from django.db.models import Count, Q

    return (
        ReceivedAlert.objects.filter(licensee_id__in=views)
        .values("licensee_id")
        .annotate(
            reported=Count("alert_ref", distinct=True),
            closed=Count("alert_ref", distinct=True, filter=Q(state=ReceivedAlert.State.CLOSED)),
        )
        .values_list("licensee_id", "reported", "closed")
    )


def alerts(agency: Agency, *, licensee_id: int | None = None, state: str | None = None):
    """The compliance alerts the agency's licensees reported, each alert's latest state, newest
    first (a QuerySet: callers page it); `state` "open" or "closed": only those."""
    closed = ReceivedAlert.objects.filter(
        licensee_id=OuterRef("licensee_id"), alert_ref=OuterRef("alert_ref"), state=ReceivedAlert.State.CLOSED
    )
    qs = (
        ReceivedAlert.objects.filter(licensee__agency=agency)
        .exclude(Q(state=ReceivedAlert.State.OPEN) & Exists(closed))
        .select_related("licensee")
        .order_by("-opened_at", "-pk")
    )
    if state is not None:
        qs = qs.filter(state=state)
    return qs if licensee_id is None else qs.filter(licensee_id=licensee_id)


def _conflicts(views):
    from django.db.models import Count

    from core.models import AuditEvent

    from .services import ANCHOR_CONFLICT, LICENSEE_OBJECT

    return (
        AuditEvent.objects.filter(
            object_type=LICENSEE_OBJECT, object_id__in=[str(pk) for pk in views], action=ANCHOR_CONFLICT
        )
        .values("object_id")
        .annotate(n=Count("id"))
        .values_list("object_id", "n")
    )


def _site_quarters(agency, view: LicenseeView, received, today: date) -> list[SiteQuarter]:
    """Every (site, quarter) from the licensee's first expected quarter to the last that has
    ended, newest first, with its receipt where one came; at most MAX_QUARTERS quarters."""
    quarters, q = [], Quarter.containing(today).previous()
    first = first_expected(view.licensee)
    while q.start >= first.start and len(quarters) < MAX_QUARTERS:
        quarters.append(q)
        q = q.previous()
    sites = view.sites or {0: "(no site has filed yet)"}
    out = []
    for quarter in quarters:
        for site_ref, name in sorted(sites.items(), key=lambda s: s[1]):
            number, on = received.get((view.licensee.pk, site_ref, str(quarter)), ("", None))
            out.append(SiteQuarter(site_ref, name, str(quarter), due_on(agency, quarter), number, on))
    return out


def documents(filing: ReceivedFiling):
    """The PDFs received with a filing, without their bytes."""
    return ReceivedDocument.objects.filter(filing=filing).defer("content").order_by("pk")


def _moment(text) -> object:
    """An ISO 8601 time a package states, as an aware datetime; None where it states none or no time."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def documents_as_filed(filing: ReceivedFiling, documents) -> list[dict]:
    """The PDFs received with a filing, each with when the licensee generated it and when it filed
    the return, as its package states them (`reports[].generated_at`, `filed_at`; None where the
    package states none): a return's quarterly report is the one made before it was filed, so its
    own words ("Not filed when this report was generated") are of that moment, and the page that
    links it says it is the report filed with the return, generated then. The bytes are never
    touched: their SHA-256 is the one the package lists, under the registry's chain of receipts."""
    package = filing.package if isinstance(filing.package, dict) else {}
    listed = package.get("reports") if isinstance(package.get("reports"), list) else []
    generated = {r.get("pdf_sha256"): r.get("generated_at") for r in listed if isinstance(r, dict)}
    filed_at = _moment(package.get("filed_at"))
    return [
        {"document": d, "generated_at": _moment(generated.get(d.pdf_sha256)), "filed_at": filed_at} for d in documents
    ]


def filings(agency: Agency, *, licensee_id: int | None = None, quarter: str | None = None, with_documents=False):
    """The agency's filings as received, newest first (a QuerySet: callers page it); with
    `with_documents`, each with its PDFs (without their bytes) in one more query."""
    qs = ReceivedFiling.objects.filter(agency=agency).select_related("licensee", "amends").order_by("-seq")
    if with_documents:
        qs = qs.prefetch_related(Prefetch("documents", ReceivedDocument.objects.defer("content").order_by("pk")))
    if licensee_id is not None:
        qs = qs.filter(licensee_id=licensee_id)
    if quarter is not None:
        qs = qs.filter(quarter=quarter)
    return qs


QUARTER_COLUMNS = (
    "licensee",
    "licence_number",
    "site",
    "quarter",
    "receipt_number",
    "received_at",
    # An original return's due day and whether it came by it ("on time", "late"), or "not
    # expected" (due_on empty): the agency expects the licensee's returns from a later quarter.
    "due_on",
    "timeliness",
    "amends",
    "amended_figure",
    "amended_delta_cents",
    "drop_cents",
    "gross_proceeds_cents",
    "prizes_cents",
    "agp_cents",
    "hold_ratio",
    # The quarter's tournament play, as filed (`summary.tournaments`) or as an amendment's return now
    # restates it: the return's line of a site is its tables' and its tournaments' (ND
    # 99-01.3-08-16(1)(g): all twenty-one activity), and its tax is on both.
    "tournament_gross_proceeds_cents",
    "tournament_prizes_cents",
    "tournament_agp_cents",
    "cash_profit_cents",
    # A fees pack's revenue (WA-BJ: the table fees) or a session pack's (NY: the games-of-chance
    # sessions), as an original return of format version 2 files it (`summary.pack`); a pack's
    # columns are its own revenue's only (`quarter_columns`).
    "fees_collected_cents",
    "fees_counted_cents",
    "session_receipts_cents",
    "session_prizes_cents",
    "session_net_cents",
    # Where the pack's dealers hold a state-issued identifier (WA-HB): how many dealt at the site in
    # the quarter with none recorded, left out of the return's dealers' hold (`dealers_without_identifier`).
    "dealers_without_identifier",
    "organization_agp_cents",
    "tax_cents",
    "tax_filed_cents",
    "tax_now_cents",
    # Each site's return carries its organization's whole tax: it is written once, on the first of
    # the organization's returns (`tax_scope` "organization"); the later sites' rows leave the
    # organization's AGP and tax empty and name that row's receipt here ("see tax_as_receipt").
    # An amendment's row restates the tax filed beside the tax now ("amendment"): never added.
    "tax_scope",
    "tax_as_receipt",
)


DUE_COLUMNS = ("due_on", "timeliness")
TAX_COLUMNS = (
    "organization_agp_cents",
    "tax_cents",
    "tax_filed_cents",
    "tax_now_cents",
    "tax_scope",
    "tax_as_receipt",
)
ORGANIZATION_TAX = ("organization_agp_cents", "tax_cents", "tax_filed_cents")  # the organization's, once


# Twenty-one tournaments (tournaments.rules.TOURNAMENT, the same key: the registry imports no
# tournaments module): a pack that does not state them (ND 99-01.3-08-15 does; Washington's and
# New York's do not) has no tournament play to file, so its quarter has no tournament columns.
TOURNAMENT = Rule("tournaments.tournament")
TOURNAMENT_COLUMNS = ("tournament_gross_proceeds_cents", "tournament_prizes_cents", "tournament_agp_cents")
DROP_COLUMNS = ("drop_cents", "gross_proceeds_cents", "prizes_cents", "agp_cents", "hold_ratio", *TOURNAMENT_COLUMNS)
PACK_COLUMNS = {
    RevenueModel.FEES: ("fees_collected_cents", "fees_counted_cents"),
    RevenueModel.SESSION: ("session_receipts_cents", "session_prizes_cents", "session_net_cents"),
}


def quarter_columns(pack) -> tuple[str, ...]:
    """The quarter's columns at an agency of `pack`: its gaming tax only where its law levies one,
    a gross proceeds column beside the drop only where its words keep one; a drop pack's drop,
    win and hold, a fees pack's table fees, a session pack's sessions, each only where the pack's
    revenue is that; tournament play only where the pack states tournaments (`TOURNAMENT`); a
    return's due day and timeliness only where its law sets a day a return is due
    (`return_due_months`: Washington's and New York's texts set none)."""
    dropped = set() if pack.tax_brackets else set(TAX_COLUMNS)
    if pack.return_due_months is None:
        dropped.update(DUE_COLUMNS)
    if not TOURNAMENT.applies(pack):
        dropped.update(TOURNAMENT_COLUMNS)
    if not pack.revenue_words.gross_column:
        dropped.add("gross_proceeds_cents")
    if pack.revenue_model != RevenueModel.DROP:
        dropped.update(DROP_COLUMNS)
    if pack.dealer_view_absent():
        dropped.add("dealers_without_identifier")
    for model, columns in PACK_COLUMNS.items():
        if model != pack.revenue_model:
            dropped.update(columns)
    return tuple(c for c in QUARTER_COLUMNS if c not in dropped)


def _pack_figures(figures: dict, total: dict) -> dict:
    """An original return's fees or sessions (`summary.pack`, format version 2) as the quarter's
    columns name them, or an amendment's as its return now restates them (`total`, from
    `_amended_figures`); None for a drop pack's return or an older package."""
    summary = figures.get("summary") if isinstance(figures, dict) else None
    pack = summary.get("pack") if isinstance(summary, dict) else None
    pack = pack if isinstance(pack, dict) else {}
    fees, sessions = pack.get("fees") or {}, pack.get("sessions") or {}
    found = {
        "fees_collected_cents": fees.get("fees_collected_cents"),
        "fees_counted_cents": fees.get("fees_counted_cents"),
        "session_receipts_cents": sessions.get("receipts_cents"),
        "session_prizes_cents": sessions.get("prizes_cents"),
        "session_net_cents": sessions.get("net_cents"),
    }
    return {key: total.get(key) if value is None else value for key, value in found.items()}


def _tournament_figures(figures: dict, total: dict) -> dict:
    """An original return's tournament play (`summary.tournaments`, frozen only where the quarter
    had some), or an amendment's as its return now restates it (`total`, from `_amended_figures`);
    None where neither states it."""
    summary = figures.get("summary") if isinstance(figures, dict) else None
    played = summary.get("tournaments") if isinstance(summary, dict) else None
    played = played if isinstance(played, dict) else {}
    return {
        f"tournament_{key}": played.get(key, total.get(f"tournament_{key}"))
        for key in ("gross_proceeds_cents", "prizes_cents", "agp_cents")
    }


def quarter_rows(agency: Agency, quarter: Quarter, *, shown: bool = False, limit: int = 5000) -> list[dict]:
    """Each filing of the quarter received by the agency (amendments too), with its filed totals
    and the organization's tax as filed: one row per filing, one query. An original return says
    when it was due and whether it came by then (`_timeliness`: "not expected" where the agency
    expects the licensee's returns from a later quarter). An amendment's row gives
    the return as it now stands (`_amended_figures`: the figures its package restates), the
    figure it changed in the agency's pack's words and the tax now; it restates the return it
    amends, never adds to it. For the CSV/XLSX the time is ISO 8601 with its offset; `shown`,
    for the page, it is written as the filings page writes it. Either way a figure an earlier row
    holds is not repeated: that row's receipt is named instead (`_tax_once`)."""
    words = get_pack(agency.jurisdiction).revenue_words
    due = due_on(agency, quarter)
    out = []
    for f in filings(agency, quarter=str(quarter)).order_by("licensee__name", "site_name", "seq")[:limit]:
        figures = f.package.get("figures") or {}
        total = _filed_figures(figures.get("summary")) or _amended_figures(figures)
        change = figures.get("amendment") or {}  # an amendment files the change to one figure
        tax = f.package.get("tax") or {}
        filed_tax, now_tax = _tax_filed_and_now(f, tax)
        out.append(
            {
                "licensee": f.licensee.name,
                "licence_number": f.licensee.licence_number,
                "site": f.site_name,
                "quarter": f.quarter,
                "receipt_number": f.receipt_number,
                "received_at": timezone.localtime(f.received_at).isoformat(timespec="seconds"),
                **_timeliness(f, quarter, due),
                "amends": f.amends.receipt_number if f.amends_id else "",
                "amended_figure": _amended_figure(words, change),
                "amended_delta_cents": change.get("delta_cents"),
                "drop_cents": total.get("drop_cents"),
                "gross_proceeds_cents": total.get("gross_proceeds_cents"),
                "prizes_cents": total.get("prizes_cents"),
                "agp_cents": total.get("agp_cents"),
                "hold_ratio": total.get("hold_ratio"),
                **_tournament_figures(figures, total),
                "cash_profit_cents": total.get("cash_profit_cents"),
                **_pack_figures(figures, total),
                "dealers_without_identifier": f.package.get("dealers_without_identifier"),
                "organization_agp_cents": tax.get("organization_agp_cents"),
                "tax_cents": tax.get("organization_tax_cents", tax.get("tax_cents")),
                "tax_filed_cents": filed_tax,
                "tax_now_cents": now_tax,
            }
        )
        if shown:
            out[-1]["received_at"] = timezone.localtime(f.received_at).strftime("%Y-%m-%d %H:%M %Z")
    return _tax_once(out)


def _timeliness(filing: ReceivedFiling, quarter: Quarter, due: date | None) -> dict:
    """An original return's due day and "on time" or "late" (as the licensees page judges it);
    "not expected", with no due day, where the agency expects the licensee's returns from a later
    quarter (`expected`: registered after this one fell due, it could not have filed it by then).
    An amendment restates a return: it has no due day of its own. `expected_from` is that first
    quarter, for the page to say so."""
    if filing.amends_id or due is None:
        return {"due_on": None, "timeliness": "", "expected_from": None}
    if not expected(filing.licensee, quarter):
        return {"due_on": None, "timeliness": "not expected", "expected_from": str(first_expected(filing.licensee))}
    received_on = timezone.localtime(filing.received_at).date()
    return {"due_on": due, "timeliness": "late" if received_on > due else "on time", "expected_from": None}


def _filed_figures(summary) -> dict:
    """An original return's totals (`summary.total`) with the site's cash profit for the quarter
    (`summary.cash_profit_cents`: None where no bank count was, or an older package has none; $0.00
    where nothing was played, `_return_cash_profit`).
    A fees site's return (figures format version 3) has no drop total: its cash profit
    alone, its revenue read from `summary.pack` (`_pack_figures`). Empty for an amendment's package,
    which files no summary."""
    if not isinstance(summary, dict) or not (summary.get("total") or isinstance(summary.get("pack"), dict)):
        return {}
    total = summary.get("total") if isinstance(summary.get("total"), dict) else {}
    return {**total, "cash_profit_cents": _return_cash_profit(summary)}


def _return_cash_profit(summary: dict) -> int | None:
    """The return's cash profit as the licensee's quarter page, report and return line state it
    (`accounting.summaries.return_cash_profit`): $0.00 where the quarter has no day in its books
    (`summary.days` empty: nothing was played, so no bank count is missing), not "not known"."""
    profit = summary.get("cash_profit_cents")
    if profit is None and summary.get("days") == [] and summary.get("days_without_bank_count", 0) == 0:
        return 0
    return profit


def _amended_figures(figures: dict) -> dict:
    """An amendment's return as it now stands, as a filed return's totals: the figures its
    `return_now` restates (each line's `now_cents`). The drop is the gross proceeds (GP = drop
    box cash, docs/domain.md 3); hold is the AGP over the GP now (ND 99-01.3-08-01(3)'s reading),
    None when the GP is 0 or the package restates neither. Empty for a package without one."""
    now = {key: line.get("now_cents") for key, line in return_now_figures(figures).items()}
    if not now:
        return {}
    gross, agp = now.get("gross_proceeds_cents"), now.get("agp_cents")
    return {"drop_cents": gross, "hold_ratio": hold_ratio(agp, gross), **now}


def hold_ratio(agp_cents: int | None, gross_cents: int | None) -> str | None:
    """AGP / GP as the packages write a ratio (six decimals, half-up); None where it is undefined."""
    if not isinstance(agp_cents, int) or not isinstance(gross_cents, int) or gross_cents == 0:
        return None
    return str((Decimal(agp_cents) / Decimal(gross_cents)).quantize(Decimal("0.000001"), ROUND_HALF_UP))


def _amended_figure(words, change: dict) -> str:
    """The figure an amendment changed, in the pack's words, and, where an adjusting entry changed
    it through another figure (a drop recount moves the drop and the win or AGP), which: "Win, by
    a correction of the drop". Empty for an original return."""
    if not change.get("figure"):
        return ""
    named = figure_words(words, change["figure"])
    entry = change.get("entry") if isinstance(change.get("entry"), dict) else {}
    field = entry.get("field")
    if change["figure"] == "agp_cents" and isinstance(field, str) and field:
        return f"{named}, by a correction of the {field}"
    return named


def figure_words(words, figure: str) -> str:
    """The name a pack's texts give the figure an amendment changed (`agp_cents` is North Dakota's
    "Adjusted gross proceeds (AGP)", Washington's "Win"), never the package's key for it."""
    named = {
        "drop_cents": "Drop",
        "gross_proceeds_cents": capfirst(words.gross),
        "prizes_cents": words.paid_label,
        "agp_cents": words.net_label,
        "cash_profit_cents": "Cash profit",
        "other_games_agp_cents": f"Other games' {words.net_short}",
        "sites_agp_cents": f"{words.net_short} of the licensee's sites",  # another site's filing changed it
        "tournament_agp_cents": f"Tournament {words.net_short}",  # a void of a fee or prize of a filed day
        "tax_cents": "Gaming tax",
    }
    return named.get(figure) or capfirst(figure.removesuffix("_cents").replace("_", " "))


def _tax_once(rows: list[dict]) -> list[dict]:
    """Each site of an organization files the organization's whole tax: a column that repeated it
    on every site's row would add up to the tax times the sites. An original return whose tax is
    the one an earlier row of the same licensee shows leaves the organization's AGP and tax empty
    and names that row's receipt instead (`tax_as_receipt`), so `tax_cents` sums the tax once.
    An amendment gives the tax now (the return recomputed: a restatement, never added); the tax
    filed it stands beside is the amended return's, on the row that holds it, so where it is the
    same its row leaves the tax filed empty too and names that row's receipt; a tax filed that
    differs (filed before the organization's other sites were) stays on its own row. `tax_scope`
    says which each row is."""
    first: dict[tuple, str] = {}
    holder: dict[str, dict] = {}  # receipt: the row showing that return's tax filed
    for row in rows:
        row["tax_as_receipt"], row["tax_scope"] = "", ""
        key = (row["licence_number"], row["tax_cents"], row["tax_filed_cents"])
        if row["amends"]:
            row["tax_scope"] = "amendment" if row["tax_filed_cents"] is not None else ""
            row["tax_changed"] = row["tax_now_cents"] != row["tax_filed_cents"]  # the page's mark
            shown = holder.get(row["amends"])
            if shown is not None and shown["tax_filed_cents"] == row["tax_filed_cents"] is not None:
                row.update(dict.fromkeys(ORGANIZATION_TAX), tax_as_receipt=shown["receipt_number"])
            continue
        if row["tax_cents"] is None and row["tax_filed_cents"] is None:
            continue
        if key in first:
            holder[row["receipt_number"]] = holder[first[key]]
            row.update(dict.fromkeys(ORGANIZATION_TAX), tax_as_receipt=first[key], tax_scope="see tax_as_receipt")
        else:
            first[key], row["tax_scope"] = row["receipt_number"], "organization"
            holder[row["receipt_number"]] = row
    return rows


def _tax_filed_and_now(filing: ReceivedFiling, tax: dict) -> tuple[int | None, int | None]:
    """The gaming tax on the AGP recorded at the licensee's sites as filed, and (an amendment of
    version 2: the return recomputed) as it now stands; an original has no "now"."""
    if filing.amends_id:
        return tax.get("filed_cents"), tax.get("now_cents")
    return tax.get("tax_cents"), None


# --- The cross-organization dealer view ----------------------------------------------------------

DEALER_COLUMNS = (
    "identifier",
    "name",
    "licensee",
    "licence_number",
    "site",
    "quarter",
    "game",
    "receipt_number",
    *DEALER_NUMBERS,  # the package's figures of a dealer, as received
    "hold_ratio",
)
MAX_DEALER_ROWS = 2000


def dealer_columns(pack) -> tuple[str, ...]:
    """The dealer view's columns at an agency of `pack`: a gross proceeds column beside the drop
    only where its words keep one (at Washington's, the drop is the one figure)."""
    return tuple(c for c in DEALER_COLUMNS if c != "gross_proceeds_cents" or pack.revenue_words.gross_column)


def column_headers(words, columns) -> list[str]:
    """A download's header: each column under its key, but the figures the pack's texts name
    otherwise, under the pack's names: North Dakota's gross_proceeds_cents, prizes_cents and
    agp_cents, Washington's paid_out_cents and win_cents (never ND's words at a WA agency). The
    rows keep the package's keys; only the header speaks the pack's words."""
    named = {"gross_proceeds_cents": words.gross, "prizes_cents": words.paid, "agp_cents": words.net_short}
    named.update({f"tournament_{key}": f"tournament {name}" for key, name in named.items()})
    return [f"{named[c].lower().replace(' ', '_')}_cents" if c in named else c for c in columns]


def dealer_rows(agency: Agency, identifier: str) -> list[dict]:
    """The dealer with the state-issued `identifier` at every licensee of the agency, site and
    quarter they dealt at, as the latest filing of that licensee's site and quarter states it (an
    amendment restates the dealers' hold now), newest quarter first. Two queries."""
    rows = list(
        ReceivedDealerHold.objects.filter(licensee__agency=agency, identifier=identifier)
        .select_related("licensee", "filing")
        .order_by("-quarter", "licensee__name", "site_name", "game", "-filing__seq")[:MAX_DEALER_ROWS]
    )
    places = {(r.licensee_id, r.site_ref, r.quarter) for r in rows}
    # The latest return of each place that states its dealers' hold: an empty list is "no dealers
    # now" (no rows of it, yet it is the latest), a package with no `dealers` (format 1) or null
    # sent none, and the one before it stands.
    latest = dict(
        ((lic, site, quarter), seq)
        for lic, site, quarter, seq in ReceivedFiling.objects.filter(
            licensee_id__in={p[0] for p in places}, quarter__in={p[2] for p in places}, package__has_key="dealers"
        )
        .exclude(package__dealers=None)
        .values("licensee_id", "site_ref", "quarter")
        .annotate(last=Max("seq"))
        .values_list("licensee_id", "site_ref", "quarter", "last")
    )
    return [
        {
            "identifier": r.identifier,
            "name": r.name,
            "licensee": r.licensee.name,
            "licence_number": r.licensee.licence_number,
            "site": r.site_name,
            "quarter": r.quarter,
            "game": r.game,
            "receipt_number": r.filing.receipt_number,
            "shifts": r.shifts,
            "separable_shifts": r.separable_shifts,
            "drop_cents": r.drop_cents,
            "gross_proceeds_cents": r.gross_proceeds_cents,
            "prizes_cents": r.prizes_cents,
            "agp_cents": r.agp_cents,
            "hold_ratio": r.hold_ratio,
        }
        for r in rows
        if latest.get((r.licensee_id, r.site_ref, r.quarter)) == r.filing.seq
    ]


def dealer_total(rows: list[dict]) -> dict:
    """The rows summed: drop, gross proceeds, AGP and the percent-of-hold of the sums (AGP / GP,
    ND 99-01.3-08-01(3)'s reading: a ratio of sums, never an average of ratios)."""
    drop = sum(r["drop_cents"] for r in rows)
    gp = sum(r["gross_proceeds_cents"] for r in rows)
    agp = sum(r["agp_cents"] for r in rows)
    return {"drop_cents": drop, "gross_proceeds_cents": gp, "agp_cents": agp, "hold_ratio": hold_ratio(agp, gp)}


# --- Shared alerts --------------------------------------------------------------------------------

ALERT_COLUMNS = (
    "licensee",
    "licence_number",
    "site",
    "alert",
    "rule",
    "citation",
    "title",
    "period_key",
    "table",
    "period",
    "subject",
    "opened_at",
    "state",
    "resolved_at",
    "received_at",
)


def alert_rows(alerts_page, *, shown: bool = False) -> list[dict]:
    """Rows of `alerts` (each alert's latest state) for the CSV/XLSX (times in ISO 8601 with their
    offset) or, `shown`, for the page (times as every page writes them, with the zone's name)."""
    if shown:
        return [
            {**row, **{name: _shown(a, name) for name in ("opened_at", "resolved_at", "received_at")}}
            for a, row in zip(alerts_page, alert_rows(alerts_page), strict=True)
        ]
    return [
        {
            "licensee": a.licensee.name,
            "licence_number": a.licensee.licence_number,
            "site": a.site_name,
            "alert": a.alert_ref,
            "rule": a.rule,
            "citation": a.citation,
            "title": a.title,
            "period_key": a.period_key,
            "table": a.table,
            "period": a.period,
            "subject": a.subject,
            "opened_at": timezone.localtime(a.opened_at).isoformat(timespec="minutes"),
            "state": a.state,
            "resolved_at": timezone.localtime(a.resolved_at).isoformat(timespec="minutes") if a.resolved_at else "",
            "received_at": timezone.localtime(a.received_at).isoformat(timespec="minutes"),
        }
        for a in alerts_page
    ]


def _shown(alert, name: str) -> str:
    moment = getattr(alert, name)
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M %Z") if moment else ""


MAX_ALERT_ROWS = 10_000  # a download's rows


def identifier_problem(identifier: str) -> str:
    """What is wrong with a searched state-issued identifier ("" if nothing)."""
    if len(identifier) > 40 or not IDENTIFIER.match(identifier):
        return (
            "House control: identifier: give the state-issued identifier as letters, digits and hyphens (at most 40)."
        )
    return ""
