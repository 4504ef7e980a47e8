"""Casino chips inventory log (SFN 17930 model): chips received from the manufacturer,
destroyed and physically counted, in date order, each with the inventory book after it; then
the chips outstanding (book minus every location counted) as of the report's date, none known
before the first physical count."""

from dataclasses import dataclass

from reportlab.platypus import Spacer

from cage.calculations import lines_total_cents
from cage.queries import ChipFloat, ChipsOutstanding, chip_float, chip_inventory_log, chips_outstanding
from cage.rules import INVENTORY_LOG
from core.money import cents_to_decimal, format_money
from core.pdf import Line, data_table, landscape_frame_width, single_line_width
from packs import RevenueModel

from .. import rules as report_rules
from ..columns import DATE, INT, MONEY, Column
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class LogLine:
    date: str
    event: str  # received, destroyed, physical count
    reference: str
    initials: str
    quantities: tuple[tuple[int, int], ...]  # (value_cents, quantity): destroyed negative, counted as found
    value_cents: int
    book_cents: int  # the inventory book after the event
    outstanding_cents: int | None  # at a physical count: book - counted


@dataclass(frozen=True)
class ChipInventoryReport:
    values: tuple[int, ...]  # chip values in cents, highest first
    lines: tuple[LogLine, ...]
    outstanding: ChipsOutstanding
    float: ChipFloat | None = None  # the log against the banks' and trays' last counts (None: no log yet)
    organization: str = ""  # whose chips: the log and the float are the organization's, not the site's


def _line(entry) -> LogLine:
    event = entry["event"]
    if entry["counted"] is None:
        sign = 1 if event.kind == "receipt" else -1
        quantities = tuple((line.value_cents, sign * line.quantity) for line in event.lines.all())
        reference, initials, outstanding = event.reference, event.initials, None
    else:
        quantities = tuple(entry["counted"].items())
        reference, initials = event.note, event.initials
        outstanding = lines_total_cents(entry["outstanding"].items())
    return LogLine(
        str(entry["date"]),
        entry["kind"],
        reference,
        initials,
        tuple(sorted(quantities, reverse=True)),
        sum(v * q for v, q in quantities),
        lines_total_cents(entry["book"].items()),
        outstanding,
    )


def build(context: ReportContext) -> ChipInventoryReport:
    log = [e for e in chip_inventory_log(context.organization) if e["date"] <= context.end]
    lines = tuple(_line(e) for e in log)
    # A period still running is reconciled as of the day the report was asked, not its end to come.
    on_date = min(context.end, context.as_of)
    outstanding = chips_outstanding(context.organization, on_date)
    values = {v for line in lines for v, _ in line.quantities} | set(outstanding.book) | set(outstanding.counted)
    chips = chip_float(context.organization, on_date)
    return ChipInventoryReport(
        tuple(sorted(values, reverse=True)), lines, outstanding, chips, context.organization.name
    )


def _value_label(cents: int) -> str:
    return format_money(cents).replace(".00", "")


def log_header(values) -> list[str]:
    return [
        "Date",
        "Event",
        "Reference",
        "Initials",
        *(_value_label(v) for v in values),
        "Value",
        "Book after",
        "Outstanding",
    ]


def _log_cells(line: LogLine, values) -> list:
    found = dict(line.quantities)
    return [
        line.date,
        line.event,
        line.reference,
        line.initials,
        *(found.get(v, "") for v in values),
        line.value_cents,
        line.book_cents,
        line.outstanding_cents,
    ]


def outstanding_rows(data: ChipInventoryReport) -> list[list]:
    o = data.outstanding
    return [
        [_value_label(v), o.book.get(v, 0), o.counted.get(v, 0), o.outstanding.get(v, 0), v * o.outstanding.get(v, 0)]
        for v in data.values
    ]


MIN_REFERENCE_WIDTH = 90  # narrower, the reference column would wrap every word


def log_widths(header: list[str], rows: list[list]) -> list[float] | None:
    """Column widths that print every quantity, amount and header on one line, the reference
    column taking what is left; None when the chip values do not fit the landscape frame."""
    widths = [single_line_width([_text(row[i]) for row in rows], header=title) for i, title in enumerate(header)]
    widths[2] = 0
    left = landscape_frame_width() - sum(widths)
    if left < MIN_REFERENCE_WIDTH:
        return None
    widths[2] = left
    return widths


def _text(value) -> str:
    return format_money(value) if isinstance(value, int) and not isinstance(value, bool) else str(value or "")


def _log_table(data: ChipInventoryReport) -> list:
    """One column per chip value while they fit the page; past that, the chips of each event
    in one column ("$5 x 1,000"), which wraps between chip values but never inside one."""
    values = data.values
    n = 4 + len(values)
    header = log_header(values)
    cells = [_log_cells(line, values) for line in data.lines]
    rows = [[*r[:4], *(_quantity(q) for q in r[4:n]), *r[n:]] for r in cells]
    widths = log_widths(header, rows)
    if widths is not None:
        return [data_table(header, rows, col_widths=widths, money_columns=[n, n + 1, n + 2], right_columns=range(4, n))]
    header = ["Date", "Event", "Reference", "Initials", "Chips", "Value", "Book after", "Outstanding"]
    rows = [[*r[:4], _chips_text(line), *r[n:]] for r, line in zip(cells, data.lines, strict=True)]
    money = [single_line_width([_text(r[i]) for r in rows], header=header[i]) for i in (5, 6, 7)]
    fixed = [single_line_width([_text(r[i]) for r in rows], header=header[i]) for i in (0, 1, 3)]
    rest = landscape_frame_width() - sum(money) - sum(fixed)
    widths = [fixed[0], fixed[1], rest * 0.35, fixed[2], rest * 0.65, *money]
    return [data_table(header, rows, col_widths=widths, money_columns=[5, 6, 7])]


def _quantity(value) -> str:
    return f"{value:,}" if isinstance(value, int) else ""


def _chips_text(line: LogLine) -> str:
    return " ".join(f"{_value_label(v)}\u00a0x\u00a0{q:,}" for v, q in line.quantities)


def scope_note(data: ChipInventoryReport) -> str:
    """Whose chips the report reconciles: it is asked at a site and headed with its name, while the
    chips, their log and their float are the organization's (every site's banks and tables)."""
    return (
        f"The chips of {data.organization}: one inventory log and one float for all its sites, every "
        "site's bank and tables, whichever site the report is requested at."
    )


def render(data: ChipInventoryReport) -> list:
    return [
        Line(scope_note(data), "small"),
        Line("Inventory log", "heading"),
        *_log_table(data),
        Line("Quantities: received positive, destroyed negative; at a physical count, the chips found.", "small"),
        Spacer(1, 8),
        *_outstanding_section(data),
        *_float_section(data),
    ]


def _outstanding_section(data: ChipInventoryReport) -> list:
    o = data.outstanding
    if o.counted_on is None:
        return _not_counted_section(data)
    return [
        Line(f"Chips outstanding as of {o.on_date} (book minus the physical count of {o.counted_on})", "heading"),
        data_table(
            ["Chip", "Book quantity", "Counted", "Outstanding", "Outstanding value"],
            outstanding_rows(data),
            col_widths=[100, 100, 100, 100, 120],
            money_columns=[4],
            right_columns=[1, 2, 3],
            total_row=["Total", "", "", "", o.outstanding_cents],
        ),
        Line(
            f"Book {format_money(o.book_cents)}; counted {format_money(o.counted_cents)}; outstanding "
            f"{format_money(o.outstanding_cents)}."
        ),
    ]


def _not_counted_section(data: ChipInventoryReport) -> list:
    """Outstanding is what a physical count finds missing from the book: with no count yet it is
    not known, so the book alone prints (never the whole book outstanding against a count of 0)."""
    o = data.outstanding
    return [
        Line(f"Chips outstanding as of {o.on_date}: no physical count yet", "heading"),
        data_table(
            ["Chip", "Book quantity", "Book value"],
            [[_value_label(v), o.book.get(v, 0), v * o.book.get(v, 0)] for v in data.values],
            col_widths=[100, 100, 120],
            money_columns=[2],
            right_columns=[1],
            total_row=["Total", "", o.book_cents],
        ),
        Line(
            f"Book {format_money(o.book_cents)}. No physical count of the chips on or before {o.on_date}, so no "
            "chips outstanding are known: outstanding is what a physical count finds missing from the book."
        ),
    ]


def float_rows(chips: ChipFloat) -> list[list]:
    """Chip, exist, banks, trays, outstanding (quantities), and a note where banks and trays hold
    more than exist."""
    return [
        [_value_label(v), exist, bank, trays, outstanding, "more than exist" if outstanding < 0 else ""]
        for v, exist, bank, trays, outstanding in chips.rows()
    ]


def _float_section(data: ChipInventoryReport) -> list:
    chips = data.float
    title = f"Chip float as of {data.outstanding.on_date}: exist = banks + trays + elsewhere"
    if chips is None:
        return [Spacer(1, 8), Line(title, "heading"), Line("No chips received in the log yet: nothing to reconcile.")]
    through = f" (counts through {chips.counted_through})" if chips.counted_through else ""
    exist, bank, trays, outstanding = chips.totals_cents()
    return [
        Spacer(1, 8),
        Line(title, "heading"),
        Line(
            "The chips the inventory log says exist, each site's bank at its last count and each active "
            f"table's tray at its last count{through}; elsewhere is what is left, with players or in storage "
            "(not the chips outstanding above, which a physical count finds missing from the book).",
            "small",
        ),
        data_table(
            ["Chip", "Exist (log)", "Banks", "Trays", "Elsewhere", "Note"],
            float_rows(chips),
            col_widths=[80, 90, 90, 90, 90, 120],
            right_columns=[1, 2, 3, 4],
        ),
        Line(
            f"Exist {format_money(exist)}; banks {format_money(bank)}; trays {format_money(trays)}; elsewhere "
            f"{format_money(outstanding)}."
            + (" The banks and trays hold more chips than exist." if chips.short else "")
        ),
    ]


def _quantity_column(cents: int) -> Column:
    return Column(f"chips_{cents_to_decimal(cents).normalize():f}", INT, f"{format_money(cents)} chips")  # chips_0.5


def columns(values) -> list[Column]:
    return [Column("date", DATE), Column("event"), Column("reference"), Column("initials"),
            *(_quantity_column(v) for v in values),
            Column("value", MONEY), Column("book_after", MONEY), Column("outstanding", MONEY)]  # fmt: skip


def table(data: ChipInventoryReport) -> tuple[list[Column], list[list]]:
    """One row per log line (its quantities by chip value), then the chips outstanding as of
    the report's date (the quantities outstanding by chip value; empty, not known, before the
    first physical count)."""
    rows = [
        [line.date, line.event, line.reference, line.initials, *_quantities(dict(line.quantities), data.values),
         line.value_cents, line.book_cents, line.outstanding_cents]
        for line in data.lines
    ]  # fmt: skip
    o = data.outstanding
    rows.append([o.on_date, "outstanding", "", "", *_quantities(o.outstanding, data.values), None, o.book_cents,
                 o.outstanding_cents])  # fmt: skip
    return columns(data.values), rows


def _quantities(found: dict, values) -> list:
    return [found.get(v) for v in values]


KIND = register(
    ReportKind(
        "chip_inventory",
        "Casino chips inventory log",
        report_rules.CHIP_INVENTORY,
        "as_of",
        build,
        render,
        table,
        landscape=True,
        reader=INVENTORY_LOG,
        # The house's chips: none where the pack's revenue is its fees (floor.rules.house_chips,
        # a WA blackjack room), whose name must not head the organization's chip float.
        revenue_models=frozenset({RevenueModel.DROP, RevenueModel.SESSION}),
    )
)
