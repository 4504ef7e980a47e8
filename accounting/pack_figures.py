"""The figures of a site's jurisdiction pack beside the drop-based custody (packs):
DROP packs (ND, WA-HB) have their figures in the summaries themselves; a FEES pack (WA-BJ) adds
its table fees collected, counted and over/short, and no hold; a SESSION pack (NY) adds its
games-of-chance sessions' receipts, prizes and net (fees.rules states the assumptions); `rule`: the
pack's citation of its own revenue. `hold_applies`: only a drop pack's figures have a hold, so
pages and reports show drop, win and hold only where it is True."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Count
from django.utils.text import capfirst

from core.money import format_money
from core.plurals import plural
from core.rules import HOUSE_CONTROL
from fees import queries as fee_queries
from packs import RevenueModel, pack_for

from .models import Adjustment
from .rules import PACK_ADJUSTED, PACK_FIGURES, SESSION_GAME, TABLE_FEES


def pack_figures(site, start: date, end: date) -> dict:
    """The pack's figures of [start, end] at `site`, with the adjusting entries to its own revenue
    recorded in the period counted in (`with_adjustments`)."""
    pack = pack_for(site)
    block = _block(pack)
    if pack.revenue_model == RevenueModel.FEES:
        block["fees"] = fee_queries.fee_totals([site.pk], start, end)
    elif pack.revenue_model == RevenueModel.SESSION:
        block["sessions"] = fee_queries.session_totals([site.pk], start, end)
    else:
        return block
    return with_adjustments(block, [(f, cents) for _, f, cents in _pack_adjustments(site, start, end)])


def pack_block(site, figures: dict) -> dict:
    """The pack's figures as `pack_figures` gives them, from a summary's own (`DailySummary.pack` or
    `QuarterSummary.pack`: its fees or sessions, the adjusting entries recorded in it counted in),
    with no query: where the caller holds the summary, its figures are not read a second time."""
    return {**_block(pack_for(site)), **figures}


def pack_days(site, start: date, end: date) -> dict[date, dict]:
    """{gaming date: the pack's figures of that day}, each as `pack_figures(site, day, day)` gives it
    (the daily page's), for the dates of [start, end] with fees, sessions or an adjusting entry to
    them, in a fixed number of queries: the daily report's sections, one a day. Empty for a drop pack."""
    pack = pack_for(site)
    if pack.revenue_model == RevenueModel.FEES:
        key, days, none = "fees", fee_queries.fee_totals_by_day([site.pk], start, end), fee_queries.no_fees
    elif pack.revenue_model == RevenueModel.SESSION:
        key, days, none = "sessions", fee_queries.session_totals_by_day([site.pk], start, end), fee_queries.no_sessions
    else:
        return {}
    found = {day: {**_block(pack), key: figures} for (_, day), figures in days.items()}
    entered = defaultdict(list)
    for day, f, cents in _pack_adjustments(site, start, end):
        entered[day].append((f, cents))
    for day, lines in entered.items():
        found[day] = with_adjustments(found.get(day) or {**_block(pack), key: none()}, lines)
    return dict(sorted(found.items()))


def _pack_adjustments(site, start: date, end: date) -> list[tuple[date, str, int]]:
    """(recorded on, field, cents) of each adjusting entry to the pack's own revenue (the fees
    collected, the sessions' receipts and prizes) recorded at `site` in [start, end], in one query:
    it counts in the totals of the day it is recorded on (accounting.models.Adjustment)."""
    found = Adjustment.objects.filter(
        books_close__site_id=site.pk, recorded_on__range=(start, end), field__in=list(PACK_FIGURES)
    )
    return list(found.order_by("recorded_on", "id").values_list("recorded_on", "field", "amount_cents"))


def with_adjustments(figures: dict, lines) -> dict:
    """`figures` (a pack block: {"fees": {...}} or {"sessions": {...}}, with or without its pack's
    name and rule) with the adjusting entries `lines` ((field, cents) pairs, or lines with `field` and
    `amount_cents`) to its own revenue counted in, each with the sign of the figure it corrects
    (accounting.rules.PACK_FIGURES): receipts up, net up; prizes up, net down; fees up, fees collected
    up and the over/short down (the cash counted on the corrected day stands against the fees as
    corrected: the quarter's counted and collected then agree where the correction explains a
    difference). Each figure's entries are summed beside it (`PACK_ADJUSTED`), for the pages and
    reports to name. Other entries (a table's figure, the cash) leave it as it is."""
    pairs = [line if isinstance(line, tuple) else (line.field, line.amount_cents) for line in lines]
    pairs = [(f, cents) for f, cents in pairs if f in PACK_FIGURES and PACK_FIGURES[f][0] in figures]
    if not pairs:
        return figures
    changed = {**figures, **{kind: dict(figures[kind]) for kind, _ in PACK_FIGURES.values() if kind in figures}}
    for f, cents in pairs:
        kind, key = PACK_FIGURES[f]
        changed[kind][key] += cents
        changed[kind][PACK_ADJUSTED[f]] = changed[kind].get(PACK_ADJUSTED[f], 0) + cents
        if f == "fees" and "over_short_cents" in changed[kind]:  # (a return's lines alone have none)
            changed[kind]["over_short_cents"] -= cents
    if "sessions" in changed:
        sessions = changed["sessions"]
        sessions["net_cents"] = sessions["receipts_cents"] - sessions["prizes_cents"]
    return changed


def _block(pack) -> dict:
    block = {
        "code": pack.code,
        "name": pack.name,
        "revenue_model": pack.revenue_model,
        "hold_applies": pack.revenue_model == RevenueModel.DROP,
    }
    if pack.revenue_model == RevenueModel.FEES:
        block["rule"] = TABLE_FEES.at(pack)
    elif pack.revenue_model == RevenueModel.SESSION:
        block["rule"] = SESSION_GAME.at(pack)
    return block


# The house's own check of a session pack's day (9 NYCRR 4620.5 defines the game only): the session
# record's typed receipts and prizes against the floor's custody of the same day.
SESSION_CHECK_TITLE = "Sessions against the floor's custody"
SESSION_CHECK = (
    f"{HOUSE_CONTROL}: the sessions' receipts and prizes set against the drop counted and the tables' payout"
)
PAID_OUT = "paid out at the tables"


@dataclass(frozen=True)
class SessionsAgainstCustody:
    """A session site's day: the sessions' receipts against the drop counted, and their prizes
    against what the tables paid out in chips (fills - credits + opener - closer). A figure of the
    floor is None until it is known: the drop until every drop box of the day is in a signed count
    (`uncounted_boxes`), the payout until every table's opener and closer are counted. The daily page and each
    day's section of the daily report (PDF and CSV) read these lines and statements, so they agree."""

    receipts_cents: int
    prizes_cents: int
    drop_cents: int | None
    paid_out_cents: int | None
    tables: int
    tables_counted: int
    boxes_uncounted: int | None = None  # the day's boxes without a signed count (None: not read)

    @property
    def receipts_difference_cents(self) -> int | None:
        return None if self.drop_cents is None else self.receipts_cents - self.drop_cents

    @property
    def prizes_difference_cents(self) -> int | None:
        return None if self.paid_out_cents is None else self.prizes_cents - self.paid_out_cents

    @property
    def lines(self) -> tuple[tuple[str, int | None], ...]:
        """(label, cents or None: not known yet), the same rows on the page, in the PDF and the CSV."""
        return (
            ("Receipts", self.receipts_cents),
            ("Drop counted", self.drop_cents),
            ("Difference (receipts - drop counted)", self.receipts_difference_cents),
            ("Prizes paid", self.prizes_cents),
            (f"{capfirst(PAID_OUT)} (fills - credits + opener - closer)", self.paid_out_cents),
            (f"Difference (prizes paid - {PAID_OUT})", self.prizes_difference_cents),
        )

    @property
    def statements(self) -> tuple[str, ...]:
        """What the lines say, in plain words: each figure equal, or how far and which way it differs."""
        if self.drop_cents is None:
            boxes = f" ({self.tables_counted} of {plural(self.tables, 'table')} counted)" if self.tables else ""
            if self.boxes_uncounted:
                boxes = f" ({plural(self.boxes_uncounted, 'drop box', 'drop boxes')} without a signed count)"
            receipts = f"The drop is not counted yet{boxes}: the receipts are set against it once its count is signed."
        else:
            receipts = _compared("Receipts", self.receipts_difference_cents, "the drop counted")
        if self.paid_out_cents is None:
            prizes = "The tables' openers and closers are not all counted yet: what they paid out is not known yet."
        else:
            prizes = _compared("Prizes paid", self.prizes_difference_cents, "what the tables paid out")
        return (receipts, prizes)


def _compared(what: str, difference: int, against: str) -> str:
    if not difference:
        return f"{what} equal {against}: difference {format_money(0)}."
    way = "more" if difference > 0 else "less"
    return f"{what} {format_money(abs(difference))} {way} than {against} ({HOUSE_CONTROL})."


def sessions_against_custody(summary, uncounted: int | None = None) -> SessionsAgainstCustody | None:
    """The day's sessions against its custody (`SessionsAgainstCustody`) where the summary's pack
    takes its revenue as games-of-chance sessions (`DailySummary.pack`); None at any other site, and
    on a day with neither a session nor a table's record. `uncounted`: the day's drop boxes without a
    standing signed count (`uncounted_boxes`, the test closing the books applies): the drop is known
    once there are none (a table with no box adds nothing). Without it (a report stored before it
    was read) each table with a counted box is taken as counted."""
    sessions = summary.pack.get("sessions") if summary.pack else None
    if sessions is None or not (sessions["sessions"] or summary.tables):
        return None
    tables = summary.tables
    counted = sum(1 for t in tables if t.counted)
    known = counted == len(tables) if uncounted is None else not uncounted
    trays = bool(tables) and all(t.opener_recorded and t.closer_recorded for t in tables)
    return SessionsAgainstCustody(
        sessions["receipts_cents"],
        sessions["prizes_cents"],
        summary.total.drop_cents if tables and known else None,
        summary.total.prizes_cents if trays else None,
        len(tables),
        counted,
        uncounted,
    )


def uncounted_boxes(site, start: date, end: date) -> dict[date, int]:
    """{gaming date: the drop boxes of that day at `site` without a standing signed count}, dates
    with none left out, in one query of `counts.queries.uncounted_drops`, the drops closing the
    books refuses on."""
    from counts.queries import uncounted_drops

    rows = uncounted_drops(site, start, end).values("gaming_date").annotate(boxes=Count("id")).order_by()
    return {row["gaming_date"]: row["boxes"] for row in rows}
