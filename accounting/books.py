"""Closed and filed books beside the figures now: does a day still equal the books closed on
it (BooksClose), does a quarter still equal its filed summary (QuarterFiling), and which
later corrections amend them.

Closed and filed figures never change (shared/docs/domain.md section 3): a correction is an
Adjustment counted on the day it is entered and shown beside the closed or filed figures as
an amendment. So on a day or quarter whose books are closed the figures now should equal
the snapshot; a difference means something changed behind the books and is named.

What is compared. A daily snapshot is the daily-summary JSON; three of its parts follow the
close by design and are left out of the comparison:
- the adjustments entered later to correct the day (listed on it, counted where entered);
- the deposit: recorded and verified after the close (ND 99-01.3-03-10), and the expected
  deposit depends on the next day's starting cash, which may be counted after the close;
- the `books_closed` flag itself;
- the initials of the people who signed the adjustments entered on the day: the closed books keep
  them as signed, and an employee's initials changed later (a new name) change no figure.
Everything else (each table, the totals, cash profit, long or short) must be equal, in the
stored document's own format version (`accounting.frozen`): from version 3 a fees (WA-BJ)
site's day has no tables, totals or long (short), and its pack block (fees or sessions) is compared.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.text import capfirst

from core.citations import jurisdiction_of
from core.money import format_money
from core.periods import Quarter
from core.plurals import plural
from core.rows import shaped_rows
from packs import GameNames, RevenueWords, TaxBracket, game_names, get_pack, revenue_words

from . import figures, frozen
from .amendments import entry_text
from .figures import Custody
from .models import Adjustment, BooksClose, FilingAmendment, QuarterFiling
from .pack_figures import with_adjustments
from .rules import GAMING_TAX, PACK_FIGURES
from .summaries import (
    PACK_BLOCK,
    AdjustmentLine,
    DailySummary,
    QuarterSummary,
    TaxFigures,
    adjustment_custody,
    adjustment_line,
    other_games_agp_cents,
    return_cash_profit,
    tax_figures,
    tax_row,
)

NOT_COMPARED = {"books_closed", "adjustments_to_this_day"}
NOT_COMPARED_CASH = {"deposit_expected_cents", "deposit_recorded_cents", "deposited_on", "deposit_verified"}
NOT_COMPARED_SIGNERS = {"recorded_by_initials", "approved_by_initials"}  # who signed, kept as signed

LABELS = {
    "drop_cents": "drop",
    "fills_cents": "fills",
    "credits_cents": "credits",
    "opener_cents": "opener",
    "closer_cents": "closer",
    "gross_proceeds_cents": "gross proceeds",
    "prizes_cents": "prizes",
    "agp_cents": "AGP",
    "hold_ratio": "hold",
    "cash_profit_cents": "cash profit",
    "long_short_cents": "long (short)",
    "chips_outside_change_cents": "chips outside the house",
    "unexplained_cents": "unexplained",
    "deposit_due": "deposit due",
    "adjustments_recorded": "adjustment",
    "days_without_bank_count": "days without bank count",
    "books_sha256": "closed books",
    "gaming_day_closed": "gaming day closed",
    "complete": "complete",
    "counted": "counted",
    # Version 2's pack block (accounting.frozen): a fees or session site's revenue.
    "fees_collected_cents": "fees collected",
    "fees_counted_cents": "fees counted",
    "over_short_cents": "fee cash over (short)",
    "days_not_counted": "days not counted",
    "receipts_cents": "receipts",
    "net_cents": "net",
}
SKIPPED_PARTS = {"cash", "summary"}


# --- Comparing two figure documents -------------------------------------------------------------


def comparable_daily(daily: dict) -> dict:
    """The part of a daily-summary JSON that closed books fix (the module docstring)."""
    kept = {key: value for key, value in daily.items() if key not in NOT_COMPARED}
    if isinstance(kept.get("cash"), dict):
        kept["cash"] = {key: value for key, value in kept["cash"].items() if key not in NOT_COMPARED_CASH}
    if isinstance(kept.get("adjustments_recorded"), list):
        kept["adjustments_recorded"] = [
            {key: value for key, value in line.items() if key not in NOT_COMPARED_SIGNERS}
            if isinstance(line, dict)
            else line
            for line in kept["adjustments_recorded"]
        ]
    return kept


def _flatten(value, path: tuple = ()) -> dict[tuple, object]:
    if isinstance(value, dict):
        flat = {}
        for key, item in value.items():
            flat.update(_flatten(item, (*path, key)))
        return flat
    if isinstance(value, list):
        flat = {}
        for index, item in enumerate(value):
            flat.update(_flatten(item, (*path, _row_name(item, index))))
        return flat
    return {path: value}


def _row_name(item, index: int) -> str:
    if isinstance(item, dict):
        for key, label in (("table_number", "table"), ("gaming_date", ""), ("id", "#")):
            if key in item:
                return f"{label} {item[key]}".strip() if label != "#" else f"#{item[key]}"
    return f"line {index + 1}"


def _label(path: tuple, names: GameNames, words: RevenueWords) -> str:
    """A figure's name; game 21's figures ("twenty_one") by the name the site's pack gives the game,
    the drop's, the payout's and the win's by the names its texts give them (`packs.RevenueWords`:
    North Dakota's gross proceeds, prizes and AGP; the trade's drop, paid out and win elsewhere)."""
    labels = {
        **LABELS,
        "twenty_one": names.word("21"),
        **words.stored_names,
    }
    if path[:1] == ("pack",):  # version 2's pack block: {"fees": {...}} or {"sessions": {...}}, named by its figures
        path = path[2:]
    parts = [labels.get(str(part), str(part).replace("_", " ")) for part in path if part not in SKIPPED_PARTS]
    return " ".join(parts) or "figures"


def _shown(path: tuple, value) -> str:
    if value is None:
        return "none"
    if str(path[-1]).endswith("_cents") and isinstance(value, int) and not isinstance(value, bool):
        return format_money(value)
    return str(value)


def differences(
    then: dict, now: dict, then_word: str, now_word: str = "now", site_id: int | None = None
) -> tuple[str, ...]:
    """Each figure that differs between two documents: "total AGP: $700.00 closed, $750.00 now";
    game 21's and the table figures named as the pack of the site `site_id` names them
    ("twenty-one AGP", "blackjack win"; its pack is read only when something differs). Where the
    pack names the gross proceeds the drop (`RevenueWords.gross_column` false) the two keys are one
    figure: it is named once."""
    if then == now:  # equal documents flatten to equal figures: nothing to name
        return ()
    where = jurisdiction_of(site_id) if site_id is not None else None
    names = game_names(where) if where else GameNames()
    words = revenue_words(where) if where else RevenueWords()
    old, new = _flatten(then), _flatten(now)
    found = []
    for path in sorted(set(old) | set(new), key=lambda p: [str(part) for part in p]):
        if path not in new:
            found.append(f"{_label(path, names, words)}: {_shown(path, old[path])} {then_word}, absent {now_word}")
        elif path not in old:
            found.append(f"{_label(path, names, words)}: absent {then_word}, {_shown(path, new[path])} {now_word}")
        elif old[path] != new[path]:
            found.append(
                f"{_label(path, names, words)}: {_shown(path, old[path])} {then_word}, {_shown(path, new[path])} {now_word}"
            )
    return tuple(dict.fromkeys(found))  # the drop and the gross proceeds named alike are one line


# --- A figure against its snapshot --------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """Closed books of a day, or a filed quarterly summary: who froze the figures, when, their digest."""

    what: str  # "books closed" or "quarterly summary filed"
    at: datetime
    by_initials: str
    sha256: str
    time_zone: str
    record_id: int | None = None  # a day's closed books (BooksClose): the id its adjusting entries name

    def when(self, clock: Callable[[datetime], str] | None = None) -> str:
        """The moment in the site's time zone, as `clock` writes a local moment: a document
        (a report's PDF and CSV) passes its own, the 12-hour a.m./p.m. of its slips and its
        "Generated" line, so that one document writes every time one way; a page and the API
        read the site's 24-hour clock."""
        local = timezone.localtime(self.at, ZoneInfo(self.time_zone))
        return clock(local) if clock is not None else f"{local:%Y-%m-%d %H:%M %Z}"


@dataclass(frozen=True)
class BooksCheck:
    """Figures now against their snapshot (None: not closed, or not filed)."""

    snapshot: Snapshot | None
    differences: tuple[str, ...] = ()
    open_note: str = "Books not closed: these figures may still change."

    @property
    def state(self) -> str:
        if self.snapshot is None:
            return "not closed"
        return "differ" if self.differences else "equal"

    @property
    def statement(self) -> str:
        return self.statement_with()

    def statement_with(self, clock: Callable[[datetime], str] | None = None) -> str:
        """The statement with the snapshot's moment written by `clock` (`Snapshot.when`)."""
        s = self.snapshot
        if s is None:
            return self.open_note
        source = f"the {s.what} on {s.when(clock)} by {s.by_initials} (SHA-256 {s.sha256})"
        if not self.differences:
            return f"Figures equal {source}."
        return f"Figures differ from {source}: {'; '.join(self.differences)}."


@dataclass(frozen=True)
class Closed:
    """What a day's check reads of the books closed on it (BooksClose), as values."""

    closed_at: datetime
    closed_by_initials: str
    figures: dict
    figures_sha256: str
    time_zone: str  # the site's
    pk: int | None = None  # the BooksClose's id: what an adjusting entry names (`books_close`)


def _closes_query(*, site_ids, start, end):
    return (
        BooksClose.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by()
        .values_list(
            "site_id",
            "gaming_date",
            "closed_at",
            "closed_by__initials",
            "figures",
            "figures_sha256",
            "site__time_zone",
            "id",
        )
    )


def _closes(site_ids, start: date, end: date) -> dict[tuple[int, date], Closed]:
    """{(site_id, gaming_date): Closed}, by SQL compiled once (core.rows)."""
    rows = shaped_rows(_closes_query, site_ids=sorted(site_ids), start=start, end=end)
    return {(site_id, day): Closed(*values) for site_id, day, *values in rows}


def day_check(summary: DailySummary, close: Closed | None) -> BooksCheck:
    """A daily summary against the books closed on its day (as values: `_closes`)."""
    if close is None:
        return BooksCheck(None)
    snapshot = Snapshot(
        "books closed", close.closed_at, close.closed_by_initials, close.figures_sha256, close.time_zone, close.pk
    )
    found = differences(
        comparable_daily(close.figures),
        comparable_daily(frozen.daily(summary, frozen.version_of(close.figures))),
        "closed",
        site_id=summary.site_id,
    )
    return BooksCheck(snapshot, found)


def day_checks(days: list[DailySummary] | tuple[DailySummary, ...]) -> dict[tuple[int, date], BooksCheck]:
    """{(site_id, gaming_date): BooksCheck} for each summary, in one query."""
    if not days:
        return {}
    closes = _closes({d.site_id for d in days}, min(d.gaming_date for d in days), max(d.gaming_date for d in days))
    return {(d.site_id, d.gaming_date): day_check(d, closes.get((d.site_id, d.gaming_date))) for d in days}


# --- Quarters -------------------------------------------------------------------------------------


def quarter_figures(
    summary: QuarterSummary, closes: dict[tuple[int, date], Closed], version: int = frozen.FORMAT_VERSION
) -> dict:
    """The figures a filing freezes (`accounting.frozen.quarter`): the site's quarter (SFN 50901),
    a row per gaming day with the digest of the books closed on it, in format `version`."""
    return frozen.quarter(summary, {key: close.figures_sha256 for key, close in closes.items()}, version)


def quarter_closed_digests(summary: QuarterSummary) -> dict[tuple[int, date], str]:
    """{(site id, gaming date): the digest of the books closed on it} over the quarter."""
    return {key: close.figures_sha256 for key, close in quarter_closes(summary).items()}


def quarter_closes(summary: QuarterSummary) -> dict[tuple[int, date], Closed]:
    return _closes([summary.site_id], summary.quarter.start, summary.quarter.end)


@dataclass(frozen=True)
class Amendment:
    """An adjustment correcting a day of `quarter`, counted on a day of a later quarter."""

    line: AdjustmentLine
    quarter: Quarter  # the quarter it corrects
    filed: bool  # that quarter's summary was filed when the adjustment was entered
    site_name: str = ""

    @property
    def agp_effect_cents(self) -> int:
        return adjustment_custody([self.line]).agp_cents

    @property
    def corrects_pack_revenue(self) -> bool:
        """Does it correct a fees or session site's own revenue (fees collected, sessions' receipts or
        prizes: `accounting.rules.PACK_FIGURES`), which no table's win (AGP) holds?"""
        return self.line.field in PACK_FIGURES


@dataclass(frozen=True)
class Filed:
    """Who filed a quarter's summary, when, and the digest of what was filed (QuarterFiling)."""

    filing_id: int
    quarter: str
    filed_at: datetime
    filed_by_initials: str
    reference: str
    sha256: str


@dataclass(frozen=True)
class QuarterBooks:
    """A site's quarter against its filing and its days against their closed books, with the
    corrections that cross quarters."""

    filing: Filed | None
    check: BooksCheck  # against the filing (not filed: snapshot None)
    days: tuple[tuple[date, BooksCheck], ...]
    filed_figures: dict | None
    figures_now: dict
    amendments: tuple[Amendment, ...]  # of this quarter, entered in a later quarter
    amending_earlier: tuple[Amendment, ...]  # entered this quarter, correcting an earlier quarter
    filing_amendments: tuple[dict, ...] = ()  # entries after the filing that changed its return (filing_amendment_json)

    @property
    def days_closed(self) -> int:
        return sum(1 for _, c in self.days if c.snapshot is not None)

    @property
    def days_differing(self) -> tuple[date, ...]:
        return tuple(day for day, c in self.days if c.state == "differ")

    @property
    def days_open(self) -> tuple[date, ...]:
        return tuple(day for day, c in self.days if c.snapshot is None)

    @property
    def amendment_custody(self) -> Custody:
        return adjustment_custody([a.line for a in self.amendments])

    @property
    def amendment_cash_cents(self) -> int:
        return sum(a.line.amount_cents for a in self.amendments if a.line.field == Adjustment.Field.CASH)

    @property
    def statement(self) -> str:
        return self.statement_with()

    def statement_with(self, clock: Callable[[datetime], str] | None = None, *, report: bool = False) -> str:
        """The statement with the filing's moment written by `clock` (`Snapshot.when`). In a
        `report`, "not filed" is as at its generation: the reports a filing's package carries to the
        state were generated before it (`statefiling.services.build_package`), and a bare "Not
        filed." in the regulator's copy of a filed return would read as the return's state."""
        if self.filing is not None:
            return self.check.statement_with(clock) + self._amended_since
        not_filed = "Not filed when this report was generated." if report else "Not filed."
        if not self.days:
            return f"{not_filed} The quarter has no day of record."
        parts = [f"{not_filed} Books closed for {self.days_closed} of {plural(len(self.days), 'day')}"]
        if self.days_differing:
            dates = ", ".join(str(d) for d in self.days_differing)
            parts.append(f"; the figures of {dates} differ from their closed books")
        elif self.days_closed:
            parts.append("; the figures of every closed day equal its closed books")
        if self.days_open:
            parts.append(f"; books not closed: {', '.join(str(d) for d in self.days_open)}")
        return "".join(parts) + "."

    @property
    def _amended_since(self) -> str:
        """The filed figures stand; what was entered since that changes the return is said beside them."""
        n = len(self.filing_amendments)
        if not n:
            return ""
        return (
            f" Amended since: {n} entr{'y' if n == 1 else 'ies'} after the filing changed the return "
            "(Filed / Amendments since / Figures now)."
        )

    @property
    def state(self) -> str:
        if self.filing is not None:
            return self.check.state
        return "differ" if self.days_differing else "not filed"


# A filed return's lines by the names the filing format gives them (core.filing_package's
# RETURN_NOW_FIGURES: a registry reads an amendment's lines by them); pages, PDFs, CSVs and the
# API show them in the words of the site's pack (`in_pack_words`).
FILED_LINES = (("Gross proceeds", "gross_proceeds_cents"), ("Prizes", "prizes_cents"), ("AGP", "agp_cents"))
# A fees or session site's revenue on its return (the frozen format's version-2 pack block), in
# place of the drop's lines, which it has none of: {block: ((line, figure), ...)}.
PACK_LINES = {
    "fees": (("Table fees collected", "fees_collected_cents"), ("Table fees counted", "fees_counted_cents")),
    "sessions": (
        ("Session receipts", "receipts_cents"),
        ("Session prizes", "prizes_cents"),
        ("Session net", "net_cents"),
    ),
}


def pack_amended_since(block: str, amendments) -> dict[str, int]:
    """{figure: cents} of a fees or session site's return line (`PACK_LINES[block]`) that the
    adjusting entries to its own revenue (`amendments`, of its quarter entered in a later quarter)
    change: the fees collected; the sessions' receipts, prizes and so their net
    (`accounting.pack_figures.with_adjustments`)."""
    zeros = {block: {key: 0 for _, key in PACK_LINES[block]}}
    return with_adjustments(zeros, [a.line for a in amendments])[block]


def filed_line_label(name: str, where) -> str:
    """A filed return's line (`filed_beside_now`'s name) in the words of the pack of `where` (a Site
    or a jurisdiction code): North Dakota's gross proceeds, prizes and AGP, the trade's drop, paid
    out and win where a pack's texts name none (`packs.RevenueWords`). Other lines keep their name."""
    words = revenue_words(where)
    net = words.net_short if words.net_short != words.net else capfirst(words.net)
    return {"Gross proceeds": capfirst(words.gross), "Prizes": capfirst(words.paid), "AGP": net}.get(name, name)


def in_pack_words(rows: list[tuple[str, int, int, int]], where) -> list[tuple[str, int, int, int]]:
    """`filed_beside_now`'s rows, each line named as the pack of `where` names it (`filed_line_label`)."""
    return [(filed_line_label(label, where), *figures) for label, *figures in rows]


def _pack_block(summary: QuarterSummary, filed: dict) -> str:
    """ "fees" or "sessions" where the site's pack takes its revenue so and the filing froze it
    (format version 2 and later; from version 3 in place of the drop's blocks); "" for a drop pack
    or a version-1 filing, whose return is the drop's lines."""
    if not summary.jurisdiction or frozen.version_of(filed) < 2:
        return ""
    return PACK_BLOCK.get(get_pack(summary.jurisdiction).revenue_model, "")


def filed_beside_now(
    summary: QuarterSummary, state: QuarterBooks, filed_tax: dict | None = None, tax: "TaxReturn | None" = None
) -> list[tuple[str, int, int, int]]:
    """(figure, filed, amendments since, figures now) of a filed quarter, where the figures now
    are the quarter as it reads now plus its amendments; [] when not filed. With the tax the
    filing froze (`filed_tax`, its figures' "tax") and the organization's return now (`tax`):
    the other games' AGP and the tax on the AGP recorded here too."""
    if state.filed_figures is None:
        return []
    filed, amendment = state.filed_figures, state.amendment_custody
    block = _pack_block(summary, filed)
    if block:  # a fees or session site's revenue, with the adjusting entries to it entered later
        then, now = filed.get("pack", {}).get(block, {}), summary.pack.get(block, {})
        since = pack_amended_since(block, state.amendments)
        rows = [(label, then.get(key, 0), since[key], now.get(key, 0) + since[key]) for label, key in PACK_LINES[block]]
    else:  # a drop pack's return (a fees site's of version 3 has no drop total: its lines are $0.00)
        total = filed.get("total") or frozen.custody(figures.ZERO)
        rows = [
            (label, total[key], getattr(amendment, key), getattr(summary.total + amendment, key))
            for label, key in FILED_LINES
        ]
    played = filed.get("tournaments")  # frozen only where the quarter had tournament play
    if played is not None:  # a void of a fee or prize on the return amends it (`amend_with_tournament_void`)
        since = _amended_since(state, FilingAmendment.Figure.TOURNAMENT_AGP)
        fees_since, prizes_since = _tournament_voids_since(state)
        now = summary.tournaments
        rows += [
            (TOURNAMENT_GROSS_LINE, played["gross_proceeds_cents"], fees_since, now.gross_proceeds_cents + fees_since),
            (TOURNAMENT_PRIZES_LINE, played["prizes_cents"], prizes_since, now.prizes_cents + prizes_since),
            (TOURNAMENT_AGP_LINE, played["agp_cents"], since, now.agp_cents + since),
        ]
    cash = state.amendment_cash_cents
    now = None if summary.cash_profit_cents is None else summary.cash_profit_cents + cash
    rows.append(("Cash profit", filed["cash_profit_cents"], cash, now))
    if filed_tax is not None and tax is not None:
        sites_filed, sites_since = filed_tax["agp_cents"], _sites_agp_since(state)
        rows.append((SITES_AGP_LINE, sites_filed, sites_since, sites_filed + sites_since))
        other_filed, other_now = filed_tax.get("other_games_agp_cents") or 0, tax.other_games_now_cents or 0
        rows.append(("Other games' AGP", other_filed, other_now - other_filed, other_now))
        now = filing_tax_now(state, filed_tax, tax)
        rows.append(("Gaming tax", filed_tax["tax_cents"], now - filed_tax["tax_cents"], now))
    return rows


SITES_AGP_LINE = "AGP of the organization's sites"  # FilingAmendment.Figure.SITES_AGP's line
TOURNAMENT_AGP_LINE = FilingAmendment.Figure.TOURNAMENT_AGP.label
# The tournament figures an amendment of its AGP moves with it: a fee voided lowers the fees
# (gross proceeds), a prize voided the prizes (ND 99-01.3-08-16(1)(g): all twenty-one activity).
TOURNAMENT_GROSS_LINE = "Tournament gross proceeds"
TOURNAMENT_PRIZES_LINE = "Tournament prizes"


def _amended_since(state: QuarterBooks, figure: str) -> int:
    """What the entries after the filing changed of `figure` on its return (its amendments naming it)."""
    return sum(a["delta_cents"] for a in state.filing_amendments if a["figure"] == figure)


def _tournament_voids_since(state: QuarterBooks) -> tuple[int, int]:
    """(gross proceeds, prizes): what the voids of tournament fees and prizes entered after the filing
    changed of the return's tournament fees and prizes. Each void's amendment gives its AGP effect
    (`amend_with_tournament_void`): a fee's is the fee less, a prize's the prize back."""
    voids = [a for a in state.filing_amendments if a["figure"] == FilingAmendment.Figure.TOURNAMENT_AGP]
    fees = sum(a["delta_cents"] for a in voids if a["tournament_fee"] is not None)
    prizes = -sum(a["delta_cents"] for a in voids if a["tournament_prize"] is not None)
    return fees, prizes


def _sites_agp_since(state: QuarterBooks) -> int:
    """What the other sites' later filings changed of the AGP of the organization's sites on this
    return (its `site_filing` amendments)."""
    return _amended_since(state, FilingAmendment.Figure.SITES_AGP)


def filing_tax_now(state: QuarterBooks, filed_tax: dict, tax: "TaxReturn") -> int:
    """The gaming tax of a filed return as it now stands: on the AGP of the organization's sites it
    froze with the other sites' later filings that amended it (a sister site's figures move it when
    that site files, an amendment, never before), and the other games' AGP recorded now, under the
    brackets the return froze (a release adding brackets in force inside a filed quarter changes no
    filed return). The corrections of its days entered later are counted and taxed where entered
    (`TaxReturn`)."""
    agp = filed_tax["agp_cents"] + _sites_agp_since(state)
    return figures.gaming_tax_on_recorded(agp, tax.other_games_now_cents, _frozen_brackets(filed_tax))


def _frozen_brackets(filed_tax: dict) -> list[TaxBracket]:
    """The tax brackets a filing froze (`accounting.frozen.tax`), as the tax computes with them."""
    return [
        TaxBracket(
            effective_from=date.fromisoformat(b["effective_from"]),
            lower_cents=b["from_cents"],
            rate=Decimal(b["rate"]),
            base_cents=b["base_cents"],
            citation=b["citation"],
        )
        for b in filed_tax["brackets"]
    ]


def filed_beside_now_note(*, taxed: bool) -> str:
    """What the Figures now column of `filed_beside_now` is, said under it on the quarter's page and
    in its report: a site's corrections entered later move its own lines there, never the return's
    AGP of the organization's sites and tax (`TaxReturn.amended_tax_cents`), which read apart."""
    if taxed:
        return (
            "Figures now are the quarter as it reads today plus the corrections of its days entered later; "
            "those corrections are counted, and taxed, in the quarter they were entered, so the gaming tax now "
            "is this quarter's on its filed AGP of the organization's sites (with the other sites' filings "
            "since, and the other games' AGP recorded since): a correction is never taxed twice."
        )
    return (
        "Figures now are the quarter as it reads today plus the corrections of its days entered later; those "
        "corrections are counted in the quarter they were entered: a correction is never counted twice."
    )


def filed_beside_now_json(rows) -> list[dict]:
    return [
        {"figure": label, "filed_cents": filed, "amendments_since_cents": since, "now_cents": now}
        for label, filed, since, now in rows
    ]


def filing_amendment_json(a, site) -> dict:
    """A FilingAmendment row: which filing, what entry changed it, by how much, and `statement`,
    all that in words, the figure in the words of `site`'s pack (the quarter page, the PDF)."""
    label = filed_line_label(a.get_figure_display(), site)
    return {
        "statement": (
            f"Amendment {a.pk}: {label} {format_money(a.delta_cents, signed=True)}, by {entry_text(a, site)} "
            f"(recorded by {a.recorded_by.initials})."
        ),
        "id": a.pk,
        "filing": a.filing_id,
        "source": a.source,
        "adjustment": a.adjustment_id,
        "other_games_agp": a.other_games_agp_id,
        "site_filing": a.site_filing_id,
        "tournament_fee": a.tournament_fee_id,
        "tournament_prize": a.tournament_prize_id,
        "figure": a.figure,
        "delta_cents": a.delta_cents,
        "recorded_at": a.recorded_at.isoformat(),
        "recorded_by_initials": a.recorded_by.initials,
    }


def filings(site_ids, quarters) -> dict[tuple[int, str], QuarterFiling]:
    """{(site_id, "2026Q3"): QuarterFiling} for the sites and quarters, in one query."""
    rows = QuarterFiling.objects.filter(site_id__in=list(site_ids), quarter__in=[str(q) for q in quarters])
    return {(f.site_id, f.quarter): f for f in rows.select_related("filed_by", "site")}


def quarter_books(summary: QuarterSummary, filing: QuarterFiling | None, time_zone: str) -> QuarterBooks:
    """The site's quarter against its filing; its days against their closed books; the
    corrections of the quarter entered later (amendments) and those entered in it that
    correct an earlier quarter. Two to four queries."""
    quarter = summary.quarter
    closes = quarter_closes(summary)
    days = tuple((d.gaming_date, day_check(d, closes.get((d.site_id, d.gaming_date)))) for d in summary.days)
    version = frozen.version_of(filing.figures["summary"]) if filing is not None else frozen.FORMAT_VERSION
    now = quarter_figures(summary, closes, version)  # in the filed document's format
    check = BooksCheck(None, open_note="Not filed.")
    filed, record = None, None
    if filing is not None:
        filed = filing.figures["summary"]
        initials = filing.filed_by.initials
        record = Filed(filing.pk, filing.quarter, filing.filed_at, initials, filing.reference, filing.figures_sha256)
        snapshot = Snapshot("quarterly summary filed", filing.filed_at, initials, filing.figures_sha256, time_zone)
        check = BooksCheck(snapshot, differences(filed, now, "filed", site_id=summary.site_id))
    amendments = tuple(
        Amendment(line, quarter, _filed_before(filing, line))
        for d in summary.days
        for line in d.adjustments_to_this_day
        if line.recorded_on > quarter.end
    )
    if filing is not None:  # and those of its dates closed only to take one (accounting.services.correct_date)
        amendments += tuple(Amendment(line, quarter, _filed_before(filing, line)) for line in _of_quiet_dates(summary))
    earlier = [line for d in summary.days for line in d.adjustments_recorded if line.corrected_date < quarter.start]
    earlier_filings = (
        filings([summary.site_id], {Quarter.containing(line.corrected_date) for line in earlier}) if earlier else {}
    )
    amending_earlier = tuple(
        Amendment(
            line,
            Quarter.containing(line.corrected_date),
            _filed_before(earlier_filings.get((summary.site_id, str(Quarter.containing(line.corrected_date)))), line),
        )
        for line in earlier
    )
    related = ("recorded_by", "adjustment__books_close", "site_filing__site")
    related += ("tournament_fee__voids", "tournament_prize__voids")  # entry_text names the void and its row
    found = filing.amendments.select_related(*related) if filing is not None else ()
    since = tuple(filing_amendment_json(a, filing.site) for a in found)
    return QuarterBooks(record, check, days, filed, now, amendments, amending_earlier, since)


def _of_quiet_dates(summary: QuarterSummary) -> list[AdjustmentLine]:
    """The corrections entered after the quarter of its dates that are no day of the books (nothing was
    recorded on them at the filing, their books closed only to take the correction): one query."""
    quarter, days = summary.quarter, [d.gaming_date for d in summary.days]
    found = (
        Adjustment.objects.filter(
            books_close__site_id=summary.site_id,
            books_close__gaming_date__range=(quarter.start, quarter.end),
            recorded_on__gt=quarter.end,
        )
        .exclude(books_close__gaming_date__in=days)
        .select_related("books_close", "table", "recorded_by", "approved_by")
        .order_by("recorded_on", "id")
    )
    return [adjustment_line(a) for a in found]


def _filed_before(filing: QuarterFiling | None, line: AdjustmentLine) -> bool:
    return filing is not None and filing.filed_at <= line.recorded_at


# --- The organization's tax on the filed figures --------------------------------------------------


@dataclass(frozen=True)
class TaxReturn:
    """The organization's quarterly tax (N.D.C.C. 53-06.1-12) on the filed figures: a filed
    site's filed quarter, an unfiled site's figures now, and the other games' AGP as the last
    filing of the quarter froze it; and beside it the amendments (the corrections of the
    quarter entered in later quarters, counted and taxed there, and the other games' AGP
    recorded after that filing, which amends this quarter's tax: `amended_tax_cents`)."""

    figures: TaxFigures
    filed_sites: tuple[str, ...]
    unfiled_sites: tuple[str, ...]  # sites with figures in the quarter and no filing
    amendments: tuple[Amendment, ...]
    other_games_now_cents: int | None = None  # the standing record now (None: not recorded)

    @property
    def amendment_agp_cents(self) -> int:
        return sum(a.agp_effect_cents for a in self.amendments)

    @property
    def amended_agp_cents(self) -> int:
        return self.figures.agp_cents + self.amendment_agp_cents

    @property
    def other_games_amendment_cents(self) -> int:
        """The other games' AGP recorded since the filing froze it (0: unchanged)."""
        return (self.other_games_now_cents or 0) - (self.figures.other_games_agp_cents or 0)

    @property
    def amended(self) -> bool:
        return bool(self.amendments) or self.other_games_amendment_cents != 0

    @property
    def amended_tax_cents(self) -> int:
        """The quarter's tax as its return now stands: on the AGP filed, with the other games' AGP
        recorded now. The corrections of its days entered later (`amendment_agp_cents`) are not in
        it: they are counted, and taxed, in the quarter they were entered (domain: a correction is
        counted on the day it is entered), so taxing them here too would tax them twice."""
        brackets = list(self.figures.brackets)
        return figures.gaming_tax_on_recorded(self.figures.agp_cents, self.other_games_now_cents, brackets)

    @property
    def filed(self) -> bool:
        return bool(self.filed_sites) and not self.unfiled_sites


def tax_return(
    organization,
    quarter: Quarter,
    summaries: list[QuarterSummary],
    found: dict[tuple[int, str], QuarterFiling],
    *,
    filing_now: bool = False,
) -> TaxReturn:
    """`summaries`: every site of the organization for the quarter; `found`: their filings
    (`filings`). Once a site has filed, the other games' AGP is the one its latest filing froze
    (a later record is an amendment beside it); `filing_now`: the tax a filing freezes, with
    the other games' AGP as it stands."""
    rows, filed_sites, unfiled = [], [], []
    amendments = []
    for s in summaries:
        filing = found.get((s.site_id, str(quarter)))
        if filing is not None:
            # A fees site's return (frozen format version 3) keeps no drop: none of it is taxed here.
            total = filing.figures["summary"].get("total") or frozen.custody(figures.ZERO)
            played = filing.figures["summary"].get("tournaments", {})  # 08-16(1)(g): all twenty-one activity
            rows.append(
                (
                    s.site_name,
                    total["gross_proceeds_cents"] + played.get("gross_proceeds_cents", 0),
                    total["prizes_cents"] + played.get("prizes_cents", 0),
                    total["agp_cents"] + played.get("agp_cents", 0),
                    return_cash_profit(s, filing.figures["summary"]["cash_profit_cents"]),
                )
            )
            filed_sites.append(s.site_name)
        else:
            rows.append(tax_row(s))
            if s.days:
                unfiled.append(s.site_name)
        amendments += [
            Amendment(line, quarter, _filed_before(filing, line), s.site_name)
            for d in s.days
            for line in d.adjustments_to_this_day
            if line.recorded_on > quarter.end
        ]
    jurisdictions = [s.jurisdiction for s in summaries]
    other_now = other_games_agp_cents(organization, quarter)
    other_filed = other_now if filing_now else _other_games_as_filed(quarter, found, other_now)
    latest = None if filing_now else _latest_taxed(quarter, found)  # its brackets stand for the quarter
    brackets = _frozen_brackets(latest.figures["tax"]) if latest is not None else None
    tax = tax_figures(organization, quarter, rows, jurisdictions, other_filed, brackets)
    nd = {s.site_name for s in summaries if GAMING_TAX.applies(s.jurisdiction)}
    return TaxReturn(
        tax,
        tuple(n for n in filed_sites if n in nd),
        tuple(n for n in unfiled if n in nd),
        tuple(a for a in amendments if a.site_name in nd),
        other_now,
    )


def _latest_taxed(quarter: Quarter, found: dict[tuple[int, str], QuarterFiling]) -> QuarterFiling | None:
    """The quarter's latest filing that carries the tax; None when none does."""
    taxed = [f for (_, q), f in found.items() if q == str(quarter) and "tax" in f.figures]
    return max(taxed, key=lambda f: (f.filed_at, f.pk)) if taxed else None


def _other_games_as_filed(quarter: Quarter, found: dict[tuple[int, str], QuarterFiling], now: int | None) -> int | None:
    """The other games' AGP the quarter's latest filing with the tax froze, or `now` when no
    filing carries the tax."""
    latest = _latest_taxed(quarter, found)
    return now if latest is None else latest.figures["tax"].get("other_games_agp_cents")
