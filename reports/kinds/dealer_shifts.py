"""Dealer shift report (SFN 18862 model): each dealer shift at the site's tables with its
times, drop, fills, credits, opener, closer, AGP and hold, or the reason the shift cannot be
separated from the table-day (ND 99-01.3-08-04(8))."""

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from accounting.day_figures import shift_figures
from accounting.dealer_hold import ShiftFigures
from accounting.rules import DEALER_FIGURES
from cardroom.money import format_ratio
from cardroom.pdf import LeftText, data_table, format_clock, para

from ..columns import CellType, Column, names
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class ShiftLine:
    figures: ShiftFigures
    started: str  # a.m./p.m. in the site's time zone
    ended: str


@dataclass(frozen=True)
class DealerShiftReport:
    time_zone: str
    shifts: tuple[ShiftLine, ...]


def build(context: ReportContext) -> DealerShiftReport:
    zone = ZoneInfo(context.site.time_zone)
    shifts = sorted(
        shift_figures([context.site.pk], context.start, context.end),
        key=lambda s: (s.gaming_date, s.table_number, s.started_at, s.shift_id),
    )
    lines = tuple(
        ShiftLine(
            s,
            format_clock(s.started_at.astimezone(zone)),
            format_clock(s.ended_at.astimezone(zone)) if s.ended_at else "on shift",
        )
        for s in shifts
    )
    return DealerShiftReport(context.site.time_zone, lines)


HEADER = [
    "Gaming date",
    "Table",
    "Dealer",
    "Start",
    "End",
    "Drop",
    "Fills",
    "Credits",
    "Opener",
    "Closer",
    "AGP",
    "Hold",
]
WIDTHS = [66, 36, 80, 54, 54, 58, 58, 58, 58, 58, 58, 67]  # 705: the landscape frame
MONEY = ("drop_cents", "fills_cents", "credits_cents", "opener_cents", "closer_cents", "agp_cents")


def _cells(line: ShiftLine) -> list:
    s = line.figures
    first = [str(s.gaming_date), s.table_number, s.dealer_name, line.started, line.ended]
    if s.custody is None:
        return [*first, *([None] * len(MONEY)), LeftText(f"Not separable: {s.not_separable_because}")]
    return [*first, *(getattr(s.custody, name) for name in MONEY), format_ratio(s.hold_ratio)]


def render(data: DealerShiftReport) -> list:
    separable = sum(1 for line in data.shifts if line.figures.custody is not None)
    return [
        para(
            f"{len(data.shifts)} dealer shift(s), {separable} with figures of their own. Times in {data.time_zone}.",
            "subtitle",
        ),
        data_table(
            HEADER,
            [_cells(line) for line in data.shifts],
            col_widths=WIDTHS,
            money_columns=range(5, 11),
            right_columns=[11],
        ),
    ]


COLUMNS = [
    Column("gaming_date", CellType.DATE),
    Column("table", CellType.INT),
    Column("dealer"),
    Column("start", CellType.DATETIME),  # in the site's time zone, with its offset
    Column("end", CellType.DATETIME),  # empty while the dealer is on shift
    *(Column(name.removesuffix("_cents"), CellType.MONEY) for name in MONEY),
    Column("hold", CellType.RATIO),
    Column("not_separable_because"),
]
CSV_HEADER = names(COLUMNS)


def table(data: DealerShiftReport) -> tuple[list[Column], list[list]]:
    zone = ZoneInfo(data.time_zone)
    rows = []
    for line in data.shifts:
        s = line.figures
        money = [getattr(s.custody, name) if s.custody else None for name in MONEY]
        ended = s.ended_at.astimezone(zone) if s.ended_at else None
        rows.append([s.gaming_date, s.table_number, s.dealer_name, s.started_at.astimezone(zone), ended, *money,
                     s.hold_ratio if s.custody else None, s.not_separable_because])  # fmt: skip
    return COLUMNS, rows


KIND = register(
    ReportKind(
        "dealer_shifts",
        "Dealer shift report",
        "ND 99-01.3-08-04(8); SFN 18862",
        "range",
        build,
        render,
        table,
        landscape=True,
        reader=DEALER_FIGURES,
    )
)
