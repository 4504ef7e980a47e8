"""Dealer shift report (SFN 18862 model): each dealer shift at the site's tables with its
times, drop, fills, credits, opener, closer, AGP and hold, or the reason the shift cannot be
separated from the table-day (ND 99-01.3-08-04(8))."""

from collections import Counter
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.utils.text import capfirst

from accounting.published import ShiftFigures, shift_figures
from accounting.rules import DEALER_FIGURES, DEALER_HOLD
from core.money import format_money, format_ratio
from core.pdf import LeftText, data_table, format_clock, landscape_frame_width, para, single_line_width
from core.plurals import plural
from floor.rules import game_column
from packs import RevenueModel, RevenueWords, revenue_words

from .. import rules as report_rules
from ..columns import CellType, Column, headings, in_words
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
    where: str = ""  # the site's Site.jurisdiction: its pack cites the notes


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
    return DealerShiftReport(context.site.time_zone, lines, context.site.jurisdiction)


def header(words: RevenueWords) -> list[str]:
    """The columns, the win named in the words of the site's pack (packs.RevenueWords)."""
    return ["Gaming date", "Table", "Dealer", "Start", "End", "Drop", "Fills", "Credits", "Opener", "Closer",
            capfirst(words.net_short), "Hold"]  # fmt: skip


DEALER = 2  # the column that takes the width the others leave (names wrap between words)
RULE = DEALER_HOLD  # a shift separable from its table-day (ND 99-01.3-08-04(8)), cited by the site's pack
MONEY = ("drop_cents", "fills_cents", "credits_cents", "opener_cents", "closer_cents", "agp_cents")


def not_separable_notes(data: DealerShiftReport) -> dict[str, int]:
    """Each distinct reason a shift cannot be separated, numbered in order of first appearance:
    printed once under the table, each such row pointing to its note."""
    notes: dict[str, int] = {}
    for line in data.shifts:
        reason = line.figures.not_separable_because
        if line.figures.custody is None and reason not in notes:
            notes[reason] = len(notes) + 1
    return notes


def _cells(line: ShiftLine, notes: dict[str, int]) -> list:
    s = line.figures
    first = [str(s.gaming_date), s.table_number, s.dealer_name, line.started, line.ended]
    if s.custody is None:
        return [*first, *([None] * len(MONEY)), LeftText(f"See note {notes[s.not_separable_because]}")]
    return [*first, *(getattr(s.custody, name) for name in MONEY), format_ratio(s.hold_ratio)]


def _note_lines(data: DealerShiftReport, notes: dict[str, int]) -> list:
    counts = Counter(line.figures.not_separable_because for line in data.shifts if line.figures.custody is None)
    return [
        para(
            f"Note {number}. Not separable from the table-day ({RULE.at(data.where)}): {reason} ({plural(counts[reason], 'shift')})."
        )
        for reason, number in notes.items()
    ]


def column_widths(rows: list[list], titles: list[str]) -> list[float]:
    """Every column but the dealer's as wide as its widest cell, so no date, time or figure
    wraps; the dealer's name takes the rest of the landscape frame."""
    widths = [
        single_line_width([_text(column, row[column]) for row in rows], header=title)
        for column, title in enumerate(titles)
    ]
    widths[DEALER] = 0
    frame = landscape_frame_width()
    widths[DEALER] = max(frame - sum(widths), 60)
    total = sum(widths)
    if total > frame:  # figures of millions in every column: each narrowed alike, so the table keeps
        # to the page; a figure then too wide for its column prints smaller (core.pdf.data_table)
        widths = [width * frame / total for width in widths]
    return widths


def _text(column: int, value) -> str:
    return format_money(value) if 5 <= column <= 10 else str(value)


def render(data: DealerShiftReport) -> list:
    """The dealers' shifts; a paddlewheel's, where there are any, under their own heading with the
    wheel operator named as such (as the dealer hold summary keeps them apart), so that no wheel
    operator reads as a dealer of twenty-one and no wheel's hold beside twenty-one's."""
    separable = sum(1 for line in data.shifts if line.figures.custody is not None)
    notes = not_separable_notes(data)
    wheel = [line for line in data.shifts if line.figures.game == WHEEL]
    dealt = [line for line in data.shifts if line.figures.game != WHEEL]
    story = [
        para(
            f"{plural(len(data.shifts), 'dealer shift')}, {separable} with figures of their own. Times in {data.time_zone}.",
            "subtitle",
        ),
    ]
    if not data.shifts:  # said, rather than a table of headings alone
        return [*story, para("No dealer shift was recorded at this site in the period.")]
    if dealt or not wheel:
        story.append(_table(data, dealt, notes))
    if wheel:
        heading = f"Wheel operators (paddlewheel), {report_rules.WHEEL_OPERATORS.at(data.where)}"
        story += [para(heading, "heading"), _table(data, wheel, notes, who="Wheel operator")]
    return [*story, *_note_lines(data, notes)]


WHEEL = "PW"  # a paddlewheel's shifts: its wheel operator's (ND 99-01.3-08-04(8))


def _table(data: DealerShiftReport, lines: list[ShiftLine], notes: dict[str, int], who: str = "Dealer"):
    rows = [_cells(line, notes) for line in lines]
    titles = header(revenue_words(data.where))
    titles[DEALER] = who
    return data_table(
        titles,
        rows,
        col_widths=column_widths(rows, titles),
        money_columns=range(5, 11),
        right_columns=[11],
    )


COLUMNS = [
    Column("gaming_date", CellType.DATE),
    Column("table", CellType.INT),
    Column("dealer"),
    Column("start", CellType.DATETIME),  # in the site's time zone, with its offset
    Column("end", CellType.DATETIME),  # empty while the dealer is on shift
    *(Column(name.removesuffix("_cents"), CellType.MONEY) for name in MONEY),
    Column("hold", CellType.RATIO),
    Column("not_separable_because"),
    Column("game"),  # 21 or PW where the pack asks for that reference, else its name (floor.rules.game_column)
]
CSV_HEADER = headings(COLUMNS)


def table(data: DealerShiftReport) -> tuple[list[Column], list[list]]:
    zone = ZoneInfo(data.time_zone)
    rows = []
    for line in data.shifts:
        s = line.figures
        money = [getattr(s.custody, name) if s.custody else None for name in MONEY]
        ended = s.ended_at.astimezone(zone) if s.ended_at else None
        rows.append([s.gaming_date, s.table_number, s.dealer_name, s.started_at.astimezone(zone), ended, *money,
                     s.hold_ratio if s.custody else None, s.not_separable_because,
                     game_column(data.where, s.game) if data.where else s.game])  # fmt: skip
    return in_words(COLUMNS, rows, revenue_words(data.where))


KIND = register(
    ReportKind(
        "dealer_shifts",
        "Dealer shift report",
        report_rules.DEALER_SHIFTS,
        "range",
        build,
        render,
        table,
        landscape=True,
        reader=DEALER_FIGURES,
        revenue_models=frozenset({RevenueModel.DROP}),  # percent-of-hold: a drop-based house's figure
    )
)
