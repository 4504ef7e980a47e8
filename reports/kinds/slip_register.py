"""Fill and credit slip register for a period (ND 99-01.3-08-05(2)): each series' numbers in
order with their status (issued, verified, received, voided), the missing numbers and those
used out of order, from `floor.queries.slip_register`, as the slip-register API gives it."""

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from reportlab.platypus import Spacer

from core.pdf import data_table, format_clock, para
from core.plurals import plural
from floor.queries import slip_register
from floor.rules import SLIP_REGISTER
from packs import RevenueModel

from .. import rules as report_rules
from ..columns import DATE, DATETIME, INT, MONEY, Column, headings
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class RegisterLine:
    number: int
    status: str  # issued, verified, received, voided, missing, unused
    out_of_order: bool
    gaming_date: str = ""
    table_number: int | None = None
    amount_cents: int | None = None
    prepared: str = ""  # initials and time
    void: str = ""  # initials and reason of the VOID
    entered_late: str = ""  # when a slip entered late was entered, in words (the PDF; core.moments)
    prepared_by: str = ""  # initials (for the CSV and XLSX)
    prepared_at: datetime | None = None  # in the site's time zone
    # When a slip entered late was entered, in the site's time zone (the CSV and XLSX write it as they
    # write `prepared_at`: one row, one way of writing a moment); None when entered in time.
    entered_late_at: datetime | None = None


@dataclass(frozen=True)
class Series:
    kind: str
    lines: tuple[RegisterLine, ...]
    missing: tuple[int, ...]
    out_of_order: tuple[int, ...]
    unused: tuple[int, ...]


@dataclass(frozen=True)
class SlipRegisterReport:
    series: tuple[Series, ...]


def _line(entry, zone: ZoneInfo) -> RegisterLine:
    slip = entry.slip
    if slip is None:
        return RegisterLine(entry.number, entry.status, entry.out_of_order)
    void = slip.step("void")
    prepared_at = slip.prepared_at.astimezone(zone)
    entered = _entered_late_at(slip, zone)
    return RegisterLine(
        entry.number,
        entry.status,
        entry.out_of_order,
        str(slip.gaming_day.gaming_date),
        slip.table_number,
        slip.total_cents,
        f"{slip.prepared_by.initials} {prepared_at:%Y-%m-%d} {format_clock(prepared_at)}",
        f"{void.initials}: {void.reason}".rstrip(": ") if void else "",
        f"entered late {entered:%Y-%m-%d} {format_clock(entered)}" if entered else "",
        slip.prepared_by.initials,
        prepared_at,
        entered,
    )


def _entered_late_at(slip, zone: ZoneInfo) -> datetime | None:
    if not slip.entered_late or slip.entered_at is None:
        return None
    return slip.entered_at.astimezone(zone)


def build(context: ReportContext) -> SlipRegisterReport:
    register_ = slip_register(context.site, context.start, context.end)
    zone = ZoneInfo(context.site.time_zone)
    return SlipRegisterReport(
        tuple(
            Series(
                s.kind,
                tuple(_line(e, zone) for e in s.entries),
                tuple(s.missing),
                tuple(s.out_of_order),
                tuple(s.unused),
            )
            for s in register_.series
        )
    )


HEADER = ["Number", "Status", "Gaming date", "Table", "Amount", "Prepared", "VOID"]
WIDTHS = [56, 80, 70, 40, 70, 119, 90]  # 525: the portrait frame


def _status(line: RegisterLine) -> str:
    text = line.status.upper() if line.status in ("voided", "missing") else line.status
    return f"{text} (out of order)" if line.out_of_order else text


def _cells(line: RegisterLine) -> list:
    amount = "" if line.amount_cents is None else line.amount_cents
    prepared = f"{line.prepared} ({line.entered_late})" if line.entered_late else line.prepared
    return [line.number, _status(line), line.gaming_date, line.table_number, amount, prepared, line.void]


def _numbers(numbers) -> str:
    return ", ".join(str(n) for n in numbers) or "none"


def render(data: SlipRegisterReport) -> list:
    story = []
    for series in data.series:
        title = "Fill slips" if series.kind == "fill" else "Credit slips"
        used = [line for line in series.lines if line.status not in ("missing", "unused")]
        voided = [line for line in used if line.status == "voided"]
        story += [
            para(title, "heading"),
            para(
                f"{plural(len(used), 'number')} used, {len(voided)} voided. Missing: {_numbers(series.missing)}. "
                f"Out of order: {_numbers(series.out_of_order)}. Unused in the book: {_numbers(series.unused)}."
            ),
            data_table(
                HEADER,
                [_cells(line) for line in series.lines if line.status != "unused"],
                col_widths=WIDTHS,
                money_columns=[4],
            ),
            Spacer(1, 6),
        ]
    return story


COLUMNS = [Column("series"), Column("number", INT), Column("status"), Column("out_of_order"),
           Column("gaming_date", DATE), Column("table", INT), Column("amount", MONEY), Column("prepared_by"),
           Column("prepared_at", DATETIME), Column("void"), Column("entered_late_at", DATETIME)]  # fmt: skip
CSV_HEADER = headings(COLUMNS)


def table(data: SlipRegisterReport) -> tuple[list[Column], list[list]]:
    rows = [
        [series.kind, line.number, line.status, "yes" if line.out_of_order else "", line.gaming_date,
         line.table_number, line.amount_cents, line.prepared_by, line.prepared_at, line.void, line.entered_late_at]
        for series in data.series
        for line in series.lines
    ]  # fmt: skip
    return COLUMNS, rows


KIND = register(
    ReportKind(
        "slip_register",
        "Fill and credit slip register",
        report_rules.SLIP_REGISTER,
        "range",
        build,
        render,
        table,
        reader=SLIP_REGISTER,
        # Fills and credits from a chip bank: not a player-banked house's, whose revenue is its fees.
        revenue_models=frozenset({RevenueModel.DROP, RevenueModel.SESSION}),
    )
)
