"""Count sheets of a site for a date range (ND 99-01.3-08-14(4)): each session's sheet as the
count page prints it (each box, both members' counts, the differences and their resolution,
the agreed drop, the forms found, both members' initials with dates), from
`counts.pdf.build_count_sheets`."""

from dataclasses import dataclass

from reportlab.platypus import PageBreak

from core.pdf import Line, para
from counts.pdf import CountSheet, SheetBox, build_count_sheets, count_sheet_story
from counts.rules import COUNT_RECORDS
from packs import RevenueModel

from .. import rules as report_rules
from ..columns import DATE, INT, MONEY, Column
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class CountSheetsReport:
    sheets: tuple[CountSheet, ...]


def build(context: ReportContext) -> CountSheetsReport:
    return CountSheetsReport(tuple(build_count_sheets(context.site, context.start, context.end)))


def render(data: CountSheetsReport) -> list:
    if not data.sheets:
        return [para("No count session at this site in the period.")]
    story = []
    for sheet in data.sheets:
        heading = Line(f"Count sheet, gaming day {sheet.gaming_date}", "heading")
        story += ([PageBreak()] if story else []) + [heading, *count_sheet_story(sheet)]  # one sheet per page
    return story


COLUMNS = [
    Column("gaming_date", DATE),
    Column("box"),
    Column("status"),
    Column("line"),
    Column("count_1", INT),  # each member's quantity of the line
    Column("count_2", INT),
    Column("agreed_quantity", INT),
    Column("agreed_amount", MONEY),
    Column("total_1", MONEY),  # on the box's total row: each member's total
    Column("total_2", MONEY),
    Column("resolution"),
    Column("forms_found"),
    Column("forms_exceptions"),
    Column("signatures"),
]


def _pair(values) -> list:
    values = list(values)
    return values + [None] * (2 - len(values))  # nothing shows until both members have counted


def _box_rows(sheet: CountSheet, box: SheetBox) -> list[list]:
    rows = [
        [sheet.gaming_date, box.title, box.status, line.label, *_pair(line.quantities), line.agreed,
         line.agreed_cents, None, None, "", "", "", ""]
        for line in box.lines
    ]  # fmt: skip
    rows.append(
        [sheet.gaming_date, box.title, box.status, "Total", None, None, None, box.agreed_cents,
         *_pair(box.member_totals), box.resolution, box.forms_found, "; ".join(box.forms_exceptions),
         "; ".join(sheet.signatures)]
    )  # fmt: skip
    return rows


def table(data: CountSheetsReport) -> tuple[list[Column], list[list]]:
    return COLUMNS, [row for sheet in data.sheets for box in sheet.boxes for row in _box_rows(sheet, box)]


KIND = register(
    ReportKind(
        "count_sheets",
        "Drop box count sheets",
        report_rules.COUNT_SHEETS,
        "range",
        build,
        render,
        table,
        reader=COUNT_RECORDS,
        # A drop box count: not a fee-based (player-banked) house's, whose revenue is its fees.
        revenue_models=frozenset({RevenueModel.DROP, RevenueModel.SESSION}),
    )
)
