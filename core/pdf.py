"""Shared PDF page furniture for every report (ReportLab platypus).

A report module builds a frozen dataclass of figures (`build_…`, queries) and draws it with
`render_…` (no queries). Drawing goes through `ReportDocument`, which gives every page the same
furniture: a title block naming the organization, site, period, report and the rule it answers
to, with the organization's licence number; a running header; a footer with when and by
whom the PDF was generated, the SHA-256 of the data it was drawn from and, for stored
reports, the head of the organization's audit chain at generation (core.audit_anchors);
"Page X of Y"; and, at the end of a report, the prepared-by and reviewed-by block an auditor
signs before filing (`signoff_block`).

Output is byte-identical for equal inputs: fonts are TTFs shipped with ReportLab and embedded,
the canvas runs with `invariant=1` (a document id that does not depend on the clock), and
the generation time is passed in by the caller instead of read from the clock. That time is
also the PDF's creation and modification date: ReportLab's invariant mode would write
2000-01-01 there, so the canvas is given the caller's time instead (`_CreationStamp`).
"""

import dataclasses
import hashlib
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import cache, lru_cache
from itertools import pairwise
from pathlib import Path

import reportlab
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.fonts import addMapping
from reportlab.lib.pagesizes import landscape as landscape_size
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    Flowable,
    FrameBreak,
    KeepTogether,
    LongTable,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from . import limits
from .money import format_money

FONT = "Vera"
FONT_BOLD = "Vera-Bold"
FONT_ITALIC = "Vera-Italic"
FONT_BOLD_ITALIC = "Vera-BoldItalic"
MARGIN = 0.6 * inch
GRID_GREY = colors.HexColor("#9a9a9a")
HEADER_FILL = colors.HexColor("#e6e6e6")


class SplitOnceFont(TTFont):
    """A TTF that splits each distinct string into its subset's codes once per document. ReportLab
    walks every character of every string it draws in Python to map it into the font's subsets;
    a document draws the same strings again and again (a handout's rules at every table, a
    table's header on every page, the same figures), and a string's codes never change once its
    characters are in the subsets, so they are kept with the document's font state."""

    def splitString(self, text, doc, encoding="utf-8"):
        state = self.state.get(doc)
        known = None if state is None else getattr(state, "split_strings", None)
        if known is not None and (found := known.get(text)) is not None:
            return found
        found = super().splitString(text, doc, encoding)  # makes the document's state if missing
        if known is None:
            known = self.state[doc].split_strings = {}
        known[text] = found
        return found


@cache
def register_fonts() -> None:
    """Register the Bitstream Vera TTFs that ship inside ReportLab (embedded in every PDF)."""
    folder = Path(reportlab.__file__).parent / "fonts"
    for name, filename in (
        (FONT, "Vera.ttf"),
        (FONT_BOLD, "VeraBd.ttf"),
        (FONT_ITALIC, "VeraIt.ttf"),
        (FONT_BOLD_ITALIC, "VeraBI.ttf"),
    ):
        pdfmetrics.registerFont(SplitOnceFont(name, str(folder / filename)))
    for bold, italic, name in ((0, 0, FONT), (1, 0, FONT_BOLD), (0, 1, FONT_ITALIC), (1, 1, FONT_BOLD_ITALIC)):
        addMapping(FONT, bold, italic, name)


@dataclass(frozen=True)
class TitleBlock:
    """Who and what a report is about, and the rule it answers to."""

    organization: str
    site: str
    period: str
    report_name: str
    rule: str
    licence_number: str = ""  # the organization's gaming licence; "" when none is recorded
    time_zone: str = ""  # the site's, in which the report's times print; "" for none
    # Under the period on the first page only ("The period is in progress: ..."); the running
    # header of every page keeps the period alone.
    period_note: str = ""

    @property
    def licence(self) -> str:
        return f"Licence No. {self.licence_number}" if self.licence_number else "Licence No. not recorded"


@dataclass(frozen=True)
class Provenance:
    """When and by whom a PDF was generated, a digest of the data drawn, and (for stored
    reports) the head of the organization's audit chain then, e.g. "org-3 #1234 <hash>"."""

    generated_at: datetime
    generated_by: str
    data_sha256: str
    audit_head: str = ""
    # "Retain until <date> (ND 99-01.3-08-16...)": how long the report is kept; "" for none.
    retention: str = ""
    generated_by_initials: str = ""  # the preparer's initials on the sign-off block
    # Who prepared the record, when it is not the person who generated the PDF (a count sheet
    # is prepared by the count team, not by whoever downloads it): the sign-off block's line.
    preparer: "Preparer | None" = None


@dataclass(frozen=True)
class Preparer:
    name: str
    initials: str
    prepared_on: date  # in the site's time zone
    what: str  # "the day the count was signed", for the block's note


class _CreationStamp:
    """A moment in the shape ReportLab's document reads its /CreationDate and /ModDate from
    (reportlab.lib.utils.TimeStamp): the report's generation time with its UTC offset."""

    def __init__(self, moment: datetime):
        offset_minutes = int(moment.utcoffset().total_seconds() // 60) if moment.utcoffset() else 0
        hours, minutes = divmod(abs(offset_minutes), 60)
        sign = -1 if offset_minutes < 0 else 1
        self.t = moment.timestamp()
        self.lt = moment.timetuple()
        self.YMDhms = tuple(self.lt)[:6]
        # PDFDate prints "%+03d'%02d'": the sign rides on the hours (a -3:30 zone prints -03'30').
        self.dhh, self.dmm = sign * hours, minutes
        self.tzname = moment.tzname() or "UTC"


def _fields_of(names: tuple[str, ...]):
    keys = frozenset(names)

    def fields_of(obj) -> dict:
        # A dataclass's __dict__ normally holds exactly its fields: the encoder only reads it, so
        # it is handed over uncopied. Anything else (slots, extra attributes) is read field by field.
        own = getattr(obj, "__dict__", None)
        if own is not None and own.keys() == keys:
            return own
        return {name: getattr(obj, name) for name in names}

    return fields_of


@cache
def _json_converter(cls: type):
    """How a value of type `cls` enters the canonical JSON, or None when it cannot."""
    if dataclasses.is_dataclass(cls):
        return _fields_of(tuple(f.name for f in dataclasses.fields(cls)))
    if issubclass(cls, datetime | date):
        return cls.isoformat
    if issubclass(cls, Decimal):
        return str
    if issubclass(cls, set | frozenset):
        return sorted
    return None


def _json_default(value):
    # A dataclass becomes a shallow dict of its fields and the C encoder recurses into them: the
    # same JSON as `dataclasses.asdict` gave, without its deep copy of every value.
    convert = _json_converter(type(value))
    if convert is None:
        raise TypeError(f"{type(value).__name__} is not part of a report's data")
    return convert(value)


def data_digest(data) -> str:
    """SHA-256 of a canonical JSON rendering of a report's data (a dataclass or plain values).

    Dataclasses are objects of their fields, tuples and lists arrays, dates ISO 8601, Decimals
    strings, sets sorted arrays. Dict keys must be what JSON allows (str, int, float, bool, None;
    numbers become strings): a date or dataclass key is refused with TypeError."""
    text = json.dumps(data, default=_json_default, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def format_clock(moment: datetime) -> str:
    """`2:05 a.m.`: 12-hour time with a.m. or p.m., as the slips write it (ND 99-01.3-08-05(3)(a))."""
    meridiem = "a.m." if moment.hour < 12 else "p.m."
    return f"{moment.hour % 12 or 12}:{moment:%M} {meridiem}"


def clock_kept_whole(text: str) -> str:
    """`text` with a no-break space before each "a.m." and "p.m.": a cell that wraps never
    leaves a time's "6:50" at a line's end and its "p.m." on the next."""
    return text.replace(" a.m.", "\u00a0a.m.").replace(" p.m.", "\u00a0p.m.")


def format_generated_at(moment: datetime) -> str:
    """`2026-11-14 2:05 a.m. CST`."""
    return f"{moment:%Y-%m-%d} {format_clock(moment)} {moment.tzname() or ''}".rstrip()


# Paragraph styles, created after the fonts are registered.
@cache
def styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    base = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11.5)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5),
        "cell_bold": ParagraphStyle("cell_bold", parent=base, fontName=FONT_BOLD, fontSize=8.5, leading=10.5),
        "money": ParagraphStyle("money", parent=base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT),
        "money_bold": ParagraphStyle(
            "money_bold", parent=base, fontName=FONT_BOLD, fontSize=8.5, leading=10.5, alignment=TA_RIGHT
        ),
        "title": ParagraphStyle("title", parent=base, fontName=FONT_BOLD, fontSize=15, leading=19),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=10, leading=13),
        "heading": ParagraphStyle(
            "heading", parent=base, fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3
        ),
    }


def _escape(text) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def para(text, style: str = "body") -> Paragraph:
    """Plain text in a paragraph (escaped: data never carries markup)."""
    return Paragraph(_escape(text), styles()[style])


@lru_cache(maxsize=4096)
def _broken_lines(text: str, style: str, available_width: float) -> tuple[str, ...] | None:
    """The lines a Paragraph of plain `text` breaks into at this width, each its words joined by one
    space as it draws them; None where it would draw otherwise (a word wider than the line,
    spread out; a style not left-aligned; more than one fragment). A document repeats its text
    (a handout's rules at every table), so each text is broken once."""
    paragraph = Paragraph(_escape(text), styles()[style])
    paragraph.wrap(available_width, 1e9)
    broken = paragraph.blPara
    if broken.kind != 0 or paragraph.style.alignment != TA_LEFT or paragraph.style.firstLineIndent:
        return None
    if any(extra <= -1e-8 for extra, _ in broken.lines):
        return None
    return tuple(" ".join(words) for _, words in broken.lines)


class Line(Flowable):
    """Plain text in a paragraph style, as `para` draws it, but drawn as strings: no markup
    parsing, and where it fits on one line no line breaking (a form of many short lines spent
    most of its time in them). Where it wraps, its lines are those ReportLab breaks it into
    (`_broken_lines`, once per text and width), drawn one string each where the Paragraph draws
    them; where a Paragraph would collapse its whitespace or spread a line, and where it splits
    across pages, it is that Paragraph. The first baseline is where a Paragraph puts it (the font
    size below its top, ReportLab's `paraFontSizeHeightOffset`), the others a leading apart."""

    def __init__(self, text, style: str = "body"):
        super().__init__()
        self.text = str(text)
        self.style_name = style
        self.style = styles()[style]
        self._paragraph: Paragraph | None = None
        self._lines: tuple[str, ...] = (self.text,)
        if " ".join(self.text.split()) != self.text:
            self._paragraph = Paragraph(_escape(self.text), self.style)

    def wrap(self, available_width, available_height):
        if self._paragraph is None:
            room = available_width - self.style.leftIndent - self.style.rightIndent
            if pdfmetrics.stringWidth(self.text, self.style.fontName, self.style.fontSize) <= room:
                self._lines = (self.text,)
            else:
                lines = _broken_lines(self.text, self.style_name, available_width)
                if lines is None:
                    self._paragraph = Paragraph(_escape(self.text), self.style)
                else:
                    self._lines = lines
        if self._paragraph is None:
            self.width, self.height = available_width, self.style.leading * len(self._lines)
            return self.width, self.height
        self.width, self.height = self._paragraph.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width, available_height):
        if self._paragraph is None:
            if len(self._lines) == 1:
                return []  # one line: it moves whole, as a one-line Paragraph does
            self._paragraph = Paragraph(_escape(self.text), self.style)
        return self._paragraph.split(available_width, available_height)

    def draw(self):
        if self._paragraph is not None:
            self._paragraph.drawOn(self.canv, 0, 0)
            return
        # drawOn saves and restores the canvas's state around this
        canv, style = self.canv, self.style
        canv.setFillColor(style.textColor)
        canv.setFont(style.fontName, style.fontSize, style.leading)
        baseline = self.height - style.fontSize
        for line in self._lines:
            canv.drawString(style.leftIndent, baseline, line)
            baseline -= style.leading


def money_cell(cents: int | None, *, bold: bool = False) -> Paragraph:
    """A right-aligned money cell written by the one formatter that serves pages, API and PDFs."""
    return Paragraph(_escape(format_money(cents)), styles()["money_bold" if bold else "money"])


def title_block(title: TitleBlock) -> list[Flowable]:
    return [
        para(title.report_name, "title"),
        para(f"{title.organization} \u00b7 {title.licence} \u00b7 {title.site}", "subtitle"),
        para(
            f"Period: {title.period}" + (f" \u00b7 times in {title.time_zone}" if title.time_zone else ""), "subtitle"
        ),
        *([para(title.period_note, "small")] if title.period_note else []),
        para(f"Rule: {title.rule}", "small"),
        Spacer(1, 8),
    ]


# No value may make a report impossible to lay out (a table row taller than a page is a
# LayoutError), so a cell's text is cut, with a visible note saying where the full text is
# (house controls): at MAX_CELL_CHARACTERS characters (text typed today is at most
# limits.MAX_TEXT_LENGTH long, but older or imported rows may hold more), and, in a column of
# known width, where it would make the cell taller than MAX_CELL_HEIGHT points (five inches:
# with a repeated header row, a row still fits a landscape page).
MAX_CELL_CHARACTERS = limits.MAX_TEXT_LENGTH
MAX_CELL_HEIGHT = 360
MAX_HEADER_CHARACTERS = 120
FULL_TEXT_ELSEWHERE = "the CSV and XLSX downloads"
WIDEST_GLYPH = 0.95  # of the font size: no Vera character at 8.5 points is wider


def clip_text(text: str, limit: int = MAX_CELL_CHARACTERS, where: str = FULL_TEXT_ELSEWHERE) -> str:
    """`text`, or its first `limit` characters and a note saying how much was cut and where the
    full text is."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [cut: {len(text) - limit:,} more characters; the full text is in {where}]"


CELL_SIZE = 8.5  # the "cell" paragraph style's font size and leading, for plain-string cells
CELL_LEADING = 10.5
CELL_PADDING = 6  # ReportLab's default left and right padding of a table cell


def fitted_paragraph(text: str, style: ParagraphStyle, room: float) -> Paragraph:
    """A Paragraph of `text` at most MAX_CELL_HEIGHT tall in a column `room` points wide: text
    that would be taller is cut (`clip_text`) at the longest length that fits."""
    per_line = max(1, int(room // (WIDEST_GLYPH * style.fontSize)))
    lines = int(MAX_CELL_HEIGHT // style.leading)
    if len(text) * 2 <= per_line * lines:  # even with half of every line lost to wrapping
        return Paragraph(_escape(text), style)
    length = len(text)
    while True:  # each try shortens in proportion to the overflow: two or three tries in practice
        candidate = Paragraph(_escape(clip_text(text, length)), style)
        height = candidate.wrap(room, 1e9)[1]
        if height <= MAX_CELL_HEIGHT or length == 0:
            return candidate
        length = min(length - 1, int(length * MAX_CELL_HEIGHT / height * 0.95))


def _one_line(text: str, room: float | None, font: str) -> bool:
    """Whether `text` prints on a single line of `room` points exactly as a Paragraph would
    (no whitespace for the Paragraph to collapse, narrow enough not to wrap)."""
    if room is None:
        return False
    if " ".join(text.split()) != text:
        return False
    return pdfmetrics.stringWidth(text, font, CELL_SIZE) <= room


def single_line_width(texts: Iterable[str], *, header: str = "") -> float:
    """The width of a column whose every cell, and its bold header, prints on one line: for
    figures, which must never wrap mid-number."""
    widest = max((pdfmetrics.stringWidth(str(t), FONT, CELL_SIZE) for t in texts), default=0)
    widest = max(widest, pdfmetrics.stringWidth(header, FONT_BOLD, CELL_SIZE))
    return widest + 2 * CELL_PADDING + 1


FRAME_PADDING = 6  # ReportLab's default padding inside a page's frame, on each side


def content_width(*, landscape: bool = False) -> float:
    """The width a flowable is given on a report's page (its frame, less the frame's padding)."""
    return (landscape_size(letter) if landscape else letter)[0] - 2 * MARGIN - 2 * FRAME_PADDING


def landscape_frame_width() -> float:
    return landscape_size(letter)[0] - 2 * MARGIN


class LeftText(str):
    """Text that prints left-aligned in a column `data_table` aligns right (a note among figures)."""


def data_table(
    header: Sequence[str],
    rows: Iterable[Sequence],
    *,
    col_widths: Sequence[float] | None = None,
    money_columns: Iterable[int] = (),
    right_columns: Iterable[int] = (),
    total_row: Sequence | None = None,
) -> LongTable:
    """A grid that repeats its header on every page. Ints (and None) in `money_columns` are cents
    and print through `format_money`; every cell of `money_columns` and `right_columns` prints
    right-aligned, other cells as left-aligned text; Flowable cells print as given.

    Text longer than MAX_CELL_CHARACTERS, or taller than MAX_CELL_HEIGHT in its column, is cut
    with a note (`clip_text`), so no data can make the table impossible to lay out.

    A cell is a plain string drawn in the table's font when it fits its column on one line, and a
    Paragraph that wraps otherwise: laying out and drawing thousands of Paragraphs is most of the
    time a large report takes. Without `col_widths` only money is plain (one word, which a
    Paragraph would not wrap either); text stays a Paragraph so the columns size as before."""
    paragraph_styles = styles()  # registers the fonts the widths below are measured in
    money = set(money_columns)
    right = money | set(right_columns)
    rows = list(rows)
    if col_widths is not None and all(isinstance(w, int | float) for w in col_widths):
        col_widths = widths_for_figures(col_widths, header, rows, total_row, money=money, right=right)
    room = [w - 2 * CELL_PADDING if isinstance(w, int | float) else None for w in col_widths or ()]
    smaller: list[tuple] = []  # style commands: a figure too wide for its column prints smaller

    def room_in(column: int) -> float | None:
        return room[column] if column < len(room) else None

    def cell(column: int, value, bold: bool = False, row: int = 0):
        if isinstance(value, Flowable):
            return value
        keep_left = isinstance(value, LeftText)
        is_money = column in money and (value is None or isinstance(value, int))
        text = format_money(value) if is_money else ("" if value is None else clip_text(str(value)))
        width = room_in(column)
        if not keep_left and ((is_money and width is None) or _one_line(text, width, FONT_BOLD if bold else FONT)):
            return text
        if not keep_left and width is not None and column in right and " " not in text.strip():
            # A figure is one word: never wrapped mid-number, it prints smaller to fit its column.
            smaller.append(("FONTSIZE", (column, row), (column, row), _fitting_size(text, width, bold)))
            return text
        aligned = column in right and not keep_left
        style = paragraph_styles[("money" if aligned else "cell") + ("_bold" if bold else "")]
        text = clock_kept_whole(text)
        return Paragraph(_escape(text), style) if width is None else fitted_paragraph(text, style, width)

    def header_cell(column: int, title) -> str | Paragraph:
        text = clip_text(str(title), MAX_HEADER_CHARACTERS, "the CSV download")  # a header row repeats: it never splits
        return text if _one_line(text, room_in(column), FONT_BOLD) else para(text, "cell_bold")

    data = [[header_cell(i, h) for i, h in enumerate(header)]]
    data += [[cell(i, v, row=r) for i, v in enumerate(row)] for r, row in enumerate(rows, start=1)]
    if total_row is not None:
        data.append([cell(i, v, bold=True, row=len(data)) for i, v in enumerate(total_row)])
    # Columns sized by ReportLab: cells cannot be fitted in advance, so a tall row splits.
    table = LongTable(data, colWidths=col_widths, repeatRows=1, splitInRow=int(col_widths is None))
    table.setStyle(TableStyle(_table_commands(right, total_row is not None) + smaller))
    return table


SMALLEST_FIGURE_SIZE = 4.5


def _fitting_size(text: str, room: float, bold: bool) -> float:
    """The font size (at most the cell's, at least SMALLEST_FIGURE_SIZE) at which `text` fits `room`."""
    width = pdfmetrics.stringWidth(text, FONT_BOLD if bold else FONT, CELL_SIZE)
    return max(SMALLEST_FIGURE_SIZE, min(CELL_SIZE, int(CELL_SIZE * room / width * 10) / 10))


MIN_TEXT_WIDTH = 40  # a text column lends width to figures down to this (its words then wrap more)


def _figure_text(value, is_money: bool) -> str | None:
    """What a cell prints as one unbreakable piece, or None for a cell that may wrap (a note, a
    flowable)."""
    if isinstance(value, Flowable | LeftText):
        return None
    if is_money and (value is None or isinstance(value, int)):
        return format_money(value)
    return "" if value is None else str(value)


def _widest(texts: Iterable[str | None], font: str) -> float:
    return max((pdfmetrics.stringWidth(t, font, CELL_SIZE) for t in texts if t), default=0)


def _column_need(column: int, header: Sequence, rows, total_row, *, money: set[int], whole: bool | None) -> float:
    """The width a column needs so its header words print without being split, and its cells:
    figures whole (`whole`), text at its longest word (False), or not measured (None)."""
    words = str(header[column]).split() if column < len(header) else []
    if whole is None:
        return _widest(words, FONT_BOLD) + 2 * CELL_PADDING
    is_money = column in money
    cells = [_figure_text(row[column], is_money) for row in rows if column < len(row)]
    total = [_figure_text(total_row[column], is_money)] if total_row is not None and column < len(total_row) else []
    if not whole:  # text wraps between words: only its longest word must fit
        cells = [max(c.split(), key=len, default="") for c in cells if c]
        total = [max(c.split(), key=len, default="") for c in total if c]
    return max(_widest(cells, FONT), _widest([*total, *words], FONT_BOLD)) + 2 * CELL_PADDING


def widths_for_figures(
    col_widths: Sequence[float],
    header: Sequence,
    rows: Sequence[Sequence],
    total_row=None,
    *,
    money: set[int],
    right: set[int],
) -> list[float]:
    """`col_widths`, widened where a figure (a money or right-aligned cell) or a header word would
    not fit on one line, the width taken from columns with room to spare: text columns (never
    below their longest word), then other figure columns (never below their own widest figure):
    a figure never wraps mid-number, a header word never mid-word. The total width does not
    change."""
    widths = list(col_widths)
    short, need = {}, {}
    for column in range(len(widths)):
        need[column] = _column_need(
            column, header, rows, total_row, money=money, whole=True if column in right else None
        )
        if need[column] > widths[column] + 0.01:
            short[column] = need[column] - widths[column]
    if not short:
        return widths
    spare = {}
    for column in range(len(widths)):
        if column in short:
            continue
        if column in right:
            floor = need[column]
        else:
            floor = max(_column_need(column, header, rows, total_row, money=money, whole=False), MIN_TEXT_WIDTH)
        if widths[column] > floor:
            spare[column] = widths[column] - floor
    deficit, available = sum(short.values()), sum(spare.values())
    if available <= 0:
        return widths
    given, taken = min(1.0, available / deficit), min(1.0, deficit / available)
    for column, missing in short.items():
        widths[column] += missing * given
    for column, room in spare.items():
        widths[column] -= room * taken
    return widths


def _table_commands(right_columns: Iterable[int], has_total: bool) -> list[tuple]:
    commands = [
        # Plain-string cells look like the "cell" paragraphs: Vera 8.5 on 10.5, bold header.
        ("FONT", (0, 0), (-1, -1), FONT, CELL_SIZE, CELL_LEADING),
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, CELL_SIZE, CELL_LEADING),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID_GREY),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    commands += [("ALIGN", (c, 1), (c, -1), "RIGHT") for c in sorted(right_columns)]
    if has_total:
        commands.append(("FONT", (0, -1), (-1, -1), FONT_BOLD, CELL_SIZE, CELL_LEADING))
        commands.append(("LINEABOVE", (0, -1), (-1, -1), 1, colors.black))
    return commands


def _numbered_canvas(title: TitleBlock, provenance: Provenance):
    """A canvas that holds its pages until the end, so each can say "Page X of Y"."""

    class NumberedCanvas(rl_canvas.Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._saved_pages: list[dict] = []
            self._doc._timeStamp = _CreationStamp(provenance.generated_at)

        def showPage(self):
            self._saved_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._saved_pages)
            for number, state in enumerate(self._saved_pages, start=1):
                self.__dict__.update(state)
                draw_furniture(self, title, provenance, number, total)
                super().showPage()
            super().save()

    return NumberedCanvas


def audit_head_text(head) -> str:
    """A chain head (core.audit.ChainHead) as the footer prints it: "org-3 #1234 <hash>"."""
    return f"{head.chain} #{head.seq} {head.hash}" if head else ""


def draw_furniture(canv, title: TitleBlock, provenance: Provenance, number: int, total: int) -> None:
    width, height = canv._pagesize
    canv.saveState()
    canv.setStrokeColor(GRID_GREY)
    canv.setLineWidth(0.5)
    canv.setFont(FONT, 7.5)
    top = height - MARGIN + 14
    canv.drawString(
        MARGIN, top, f"{title.organization} ({title.licence}) \u00b7 {title.site} \u00b7 {title.report_name}"
    )
    canv.drawRightString(width - MARGIN, top, title.period)
    canv.line(MARGIN, top - 4, width - MARGIN, top - 4)
    # With an audit chain head the footer has a third line; the others move up to make room
    # (without one, the layout is the one older stored reports were drawn with).
    bottom = MARGIN - 18 + (6 if provenance.audit_head else 0)
    canv.line(MARGIN, bottom + 10, width - MARGIN, bottom + 10)
    canv.drawString(
        MARGIN,
        bottom,
        f"Generated {format_generated_at(provenance.generated_at)} by {provenance.generated_by} \u00b7 {title.rule}",
    )
    canv.drawRightString(width - MARGIN, bottom, f"Page {number} of {total}")
    canv.setFont(FONT, 6)
    if provenance.retention:
        canv.drawRightString(width - MARGIN, bottom - 8, provenance.retention)
    if provenance.audit_head:
        canv.drawString(MARGIN, bottom - 8, f"Data SHA-256 {provenance.data_sha256}")
        canv.drawString(MARGIN, bottom - 15, f"Audit chain head at generation: {provenance.audit_head}")
    else:
        canv.drawString(MARGIN, bottom - 9, f"Data SHA-256 {provenance.data_sha256}")
    canv.restoreState()


SIGNOFF_ROW_HEIGHT = 24  # room for a handwritten signature and initials


def signoff_block(provenance: Provenance, width: float) -> list[Flowable]:
    """Prepared by / reviewed by, with name, initials, date and signature (house control: an
    auditor files a report signed by who prepared it and who reviewed it). The preparer is the
    record's (`Provenance.preparer`) or else the person who generated the PDF, dated in the
    site's time zone; the reviewer's
    line is left blank to be completed by hand."""
    moment = provenance.generated_at
    zone = str(moment.tzinfo) if moment.tzinfo else "UTC"
    preparer = provenance.preparer or Preparer(
        provenance.generated_by, provenance.generated_by_initials, moment.date(), "the day the report was generated"
    )
    fixed = [84, 170, 56, 110]
    rows = [
        ["", "Name", "Initials", "Date", "Signature"],
        ["Prepared by", preparer.name, preparer.initials, f"{preparer.prepared_on:%Y-%m-%d}", ""],
        ["Reviewed by", "", "", "", ""],
    ]
    table = Table(
        rows, colWidths=[*fixed, width - sum(fixed)], rowHeights=[None, SIGNOFF_ROW_HEIGHT, SIGNOFF_ROW_HEIGHT]
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, CELL_SIZE, CELL_LEADING),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, CELL_SIZE, CELL_LEADING),
                ("FONT", (0, 1), (0, -1), FONT_BOLD, CELL_SIZE, CELL_LEADING),
                ("GRID", (0, 0), (-1, -1), 0.4, GRID_GREY),
                ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ]
        )
    )
    note = f"Prepared-by date: {preparer.what}, in {zone}. Reviewer: complete by hand."
    return [Spacer(1, 12), para("Prepared and reviewed", "heading"), table, para(note, "small")]


class WithTail(Flowable):
    """`body` followed by `tail` (the sign-off block), the tail never on a page of its own: where
    the tail does not fit after the body, the body's end moves to the next page with it (a table
    splits a few rows earlier). An auditor signs under the figures, not under a blank page."""

    def __init__(self, body: Flowable, tail: Sequence[Flowable], *, moved: bool = False):
        super().__init__()
        self.body, self.tail, self.moved = body, list(tail), moved

    def getSpaceBefore(self):
        # The body's, as the frame gives it above the body alone: a piece split off to fit the room
        # it was split for (a heading's space above it) must be given that room again.
        return self.body.getSpaceBefore()

    def wrap(self, available_width, available_height):
        self._body_width, self._body_height = self.body.wrap(available_width, available_height)
        tail_sizes = [part.wrap(available_width, available_height) for part in self.tail]
        self._tail_widths = [width for width, _ in tail_sizes]
        self._tail_heights = [height for _, height in tail_sizes]
        self.width, self.height = available_width, self._body_height + sum(self._tail_heights)
        return self.width, self.height

    def split(self, available_width, available_height):
        self.wrap(available_width, available_height)
        if isinstance(self.body, HeadedTable):  # it asks whether it is at a page's top
            self.body._frame = getattr(self, "_frame", None)
        # A body that runs on past this page fills it, and what is left starts the next page (split
        # short of the tail's height, the rest was laid out again in the room left here: a second
        # piece of the table under its header repeated mid-page). A body that ends here with no
        # room for the tail after it leaves its last rows to go on with the tail.
        for room in self._rooms(available_height):
            pieces = self.body.split(available_width, room)
            if len(pieces) >= 2:  # the rest starts the next page, never a second piece on this one
                return [*pieces[:-1], FrameBreak(), WithTail(pieces[-1], self.tail)]
        if self.moved:  # no page holds both: as they come
            return [self.body, KeepTogether(self.tail)]
        self.moved = True  # both go to the next page; tried there again, they are laid out as they come
        return []

    def _rooms(self, available_height: float) -> list[float]:
        """The heights to split the body at, tried in turn: all of the room where the body runs
        past this page; else short of its last few rows (`ROWS_WITH_TAIL`), then of fewer. A
        heading keeps its table's first rows (`HeadedTable`): a table of four rows that fitted
        the page but not with the sign-off, asked to leave three for the next page, kept none
        here, and the page was left with the title block alone (the alerts report of a quarter)."""
        if self._body_height > available_height:
            return [available_height]
        room = available_height - sum(self._tail_heights)
        kept = [self._body_height - _last_rows_height(self.body, rows) for rows in range(ROWS_WITH_TAIL, 0, -1)]
        return [min(room, height) for height in dict.fromkeys(kept)]

    def draw(self):
        # Drawn top down, the body first: a PDF's text is read back in the order it was drawn, and
        # the sign-off drawn first read back above the figures it signs (a reader's copy, PDFium).
        # Each part aligned as a frame aligns it (a table centred, one as wide as the frame over the
        # frame's padding on both sides): drawn at the left, the last table and the signatures ran
        # the padding's width past the right end of the other tables and the page's header rule.
        y = sum(self._tail_heights)
        self.body.drawOn(self.canv, 0, y, _sW=self.width - self._body_width)
        for part, width, height in zip(self.tail, self._tail_widths, self._tail_heights, strict=True):
            y -= height
            part.drawOn(self.canv, 0, y, _sW=self.width - width)


# A table's end that goes on with the sign-off is its last few rows, not a total row alone.
ROWS_WITH_TAIL = 3


def _last_rows_height(body: Flowable, rows: int = ROWS_WITH_TAIL) -> float:
    table = body.table if isinstance(body, HeadedTable) else body
    heights = getattr(table, "_rowHeights", None) if isinstance(table, Table) else None
    return sum(heights[-rows:]) if heights and len(heights) > rows + 1 else 0


# The styles of a line that heads what follows it (a section's heading, a report's summary line, a
# bold caption), and how many lines of text (its explanation) may come between it and its table.
HEADING_STYLES = frozenset({"heading", "subtitle", "cell_bold"})
MAX_HEAD_LINES = 3
# The rows, under its header, a table starts with on the page of its heading, and the height past
# which the second is not kept with the first (rows of long notes: see `HeadedTable`).
FIRST_ROWS = 2
MAX_FIRST_ROWS_HEIGHT = 2 * inch
# Taller than this, a heading and its explanation are a text of their own (a long name repeated),
# laid out as they come, not kept with a table.
MAX_HEADS_HEIGHT = 2 * inch


class HeadedTable(Flowable):
    """A table with the heading and the few lines explaining it that come before it: the heading
    never ends a page whose next one starts its table. Where the heading and the table's header
    and first rows do not fit in what is left of a page, all of it starts the next page; where
    they do, the table splits under its heading as it would alone."""

    hAlign = "LEFT"  # as wide as the frame; its parts are aligned inside it as the frame would

    def __init__(self, heads: Sequence[Flowable], table: Table):
        super().__init__()
        self.heads, self.table = list(heads), table

    def getSpaceBefore(self):
        return self.heads[0].getSpaceBefore()

    def getSpaceAfter(self):
        return self.table.getSpaceAfter()

    def wrap(self, available_width, available_height):
        parts = [*self.heads, self.table]
        self._sizes = [part.wrap(available_width, available_height) for part in parts]
        # Between two parts the larger of the space after one and before the other, as a frame puts it.
        self._gaps = [0, *(max(a.getSpaceAfter(), b.getSpaceBefore()) for a, b in pairwise(parts))]
        self._heads_height = sum(h for _, h in self._sizes[:-1]) + sum(self._gaps)
        self.width, self.height = available_width, self._heads_height + self._sizes[-1][1]
        return self.width, self.height

    def _first_rows_height(self) -> float:
        """The header and the rows kept under the heading: `FIRST_ROWS`, fewer where they are many
        lines tall (`MAX_FIRST_ROWS_HEIGHT`), never none. Two rows of long notes kept together did
        not fit under a title block: the page held the title block alone (the alerts report)."""
        heights, header = self.table._rowHeights, self.table.repeatRows
        rows = heights[header:]
        kept = rows[:1]
        for row in rows[1:FIRST_ROWS]:
            if sum(kept) + row > MAX_FIRST_ROWS_HEIGHT:
                break
            kept.append(row)
        return sum(heights[:header]) + sum(kept)

    def split(self, available_width, available_height):
        self.wrap(available_width, available_height)
        frame = getattr(self, "_frame", None)
        at_top = frame is not None and frame._atTop
        room = available_height - self._heads_height
        if room < self._first_rows_height() and not at_top:
            return []  # the heading starts the next page with its table
        self.table._frame = frame  # a row split inside sizes itself by the frame's height
        try:
            pieces = self.table.split(available_width, room)
        finally:
            del self.table._frame
        if not pieces:  # no row fits under the heading even at a page's top: as they come
            return [*self.heads, self.table] if at_top else []
        return [HeadedTable(self.heads, pieces[0]), *pieces[1:]]

    def draw(self):
        y = self.height
        for part, (width, height), gap in zip([*self.heads, self.table], self._sizes, self._gaps, strict=True):
            y -= gap + height
            part.drawOn(self.canv, 0, y, _sW=self.width - width)


def _is_text(flowable: Flowable) -> bool:
    return isinstance(flowable, Paragraph | Line)


def _heads_start(story: Sequence[Flowable]) -> int | None:
    """Where the heading of a table that would come next begins: the nearest line in a heading
    style among the last few lines of text (and spacers between them); None without one."""
    lines = 0
    for index in range(len(story) - 1, -1, -1):
        flowable = story[index]
        if isinstance(flowable, Spacer):
            continue
        if not _is_text(flowable) or lines == MAX_HEAD_LINES:
            return None
        if flowable.style.name in HEADING_STYLES:
            return index
        lines += 1
    return None


def headings_kept_with_tables(story: Sequence[Flowable], width: float) -> list[Flowable]:
    """The story with each table and the heading before it (with its explanation) as one
    HeadedTable: a heading at a page's foot went on with its table on the next page. `width`:
    the width the flowables are given on the page."""
    kept: list[Flowable] = []
    for flowable in story:
        start = _heads_start(kept) if isinstance(flowable, Table) else None
        if (
            start is not None
            and sum(head.wrap(width, MAX_HEADS_HEIGHT)[1] for head in kept[start:]) <= MAX_HEADS_HEIGHT
        ):
            flowable = HeadedTable(kept[start:], flowable)
            del kept[start:]
        kept.append(flowable)
    return kept


# The few lines of notes a report may print under its last table travel with the table's end and
# the sign-off; more than this many are a text of their own (a handout), whose last lines carry it.
MAX_TRAILING_NOTES = 8


def _tail_start(story: Sequence[Flowable]) -> int:
    """Where the story's end that stays with the sign-off begins: its last table when only a few
    notes follow it (a dealer shifts report's "not separable because" lines: with the sign-off
    alone they filled a last page of their own when the table ended at a page's foot), the first
    of a few lines following another block, else its last flowable."""
    last = len(story) - 1
    for index in range(last, max(-1, last - MAX_TRAILING_NOTES - 1), -1):
        if isinstance(story[index], Table | HeadedTable):
            return index
        if not isinstance(story[index], Paragraph | Spacer | Line):
            # The few lines after a block that is no table (a count sheet's total and its
            # signatures after its boxes) travel together with the sign-off, never its last alone.
            return min(index + 1, last)
    return last


class ReportDocument:
    """Lays out flowables on letter pages with the shared furniture; returns the PDF bytes.
    A report ends with the prepared-by and reviewed-by block (`signoff_block`); a form that
    carries its own signature lines (a slip) is drawn with `with_signoff=False`."""

    def __init__(
        self,
        title: TitleBlock,
        provenance: Provenance,
        *,
        landscape: bool = False,
        with_title_block: bool = True,
        with_signoff: bool = True,
    ):
        register_fonts()
        self.title = title
        self.provenance = provenance
        self.pagesize = landscape_size(letter) if landscape else letter
        self.with_title_block = with_title_block
        self.with_signoff = with_signoff

    @property
    def frame_width(self) -> float:
        return self.pagesize[0] - 2 * MARGIN

    def build(self, flowables: Sequence[Flowable]) -> bytes:
        buffer = io.BytesIO()
        doc = SimpleDocTemplate(
            buffer,
            pagesize=self.pagesize,
            invariant=1,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN + 6,
            bottomMargin=MARGIN + 6,
            title=f"{self.title.report_name} \u2014 {self.title.site}",
            author=f"{self.title.organization} ({self.title.licence})",
            subject=self.title.rule,
            creator="Card-room back office",
            initialFontName=FONT,
        )
        story = (title_block(self.title) if self.with_title_block else []) + list(flowables)
        story = headings_kept_with_tables(story, self.frame_width - 2 * FRAME_PADDING)
        if self.with_signoff:
            signoff = signoff_block(self.provenance, self.frame_width)
            start = _tail_start(story)
            story = (
                story[:start] + [WithTail(story[start], story[start + 1 :] + signoff)]
                if story
                else [KeepTogether(signoff)]
            )
        doc.build(story, canvasmaker=_numbered_canvas(self.title, self.provenance))
        return buffer.getvalue()
