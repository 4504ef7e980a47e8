"""A report's data as files: stored once as typed JSON with its report file, written as CSV or
XLSX on download, each cell formatted by its column's type (reports.columns).

CSV (data for scripts and other systems): UTF-8 without a byte order mark, a header row of the
columns' headings as people read them ("Gaming date", "AGP": reports.columns.heading), RFC 4180 quoting and line ends. Money as plain dollars with two decimals
(`1387.00`, `-12.50`), ratios as the fraction with six decimals, as the API gives them
(`-0.054800`: -5.48%), dates as `YYYY-MM-DD`, times as ISO 8601 with the site's UTC offset
(`2026-07-01T22:05:00-05:00`), counts as integers; an empty cell is a figure not known (a cash
profit without both bank counts is never 0) or one the row does not have. No byte order mark:
the XLSX is the file for Excel, and a mark breaks the header of most CSV readers.

XLSX (for people): the same columns and rows, typed: money as numbers in dollars with a
currency format, ratios as numbers with a percentage format, dates as dates, times as the
site's wall-clock time (Excel has no UTC offsets), counts as integers, text always as text
(a note starting with `=` is never a formula); a bold header row, frozen below it, with a
filter, and columns wide enough for their values."""

import csv
import io
import re
from datetime import date, datetime
from decimal import Decimal

from accounting.published import ratio_string
from core.money import cents_to_decimal, format_money

from .columns import CellType, Column, headings

MONEY_FORMAT = '"$"#,##0.00'
RATIO_FORMAT = "0.00%"
NUMBER_FORMAT = "0.00"
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
INT_FORMAT = "0"
MIN_WIDTH, MAX_WIDTH = 8, 60


class ColumnValueError(TypeError):
    """A kind gave a value its column's type cannot hold: a bug in the kind, not bad input."""


# --- storing: raw values -> JSON (ReportFile.table) -------------------------------------------


def stored_table(columns: list[Column], rows: list[list]) -> dict:
    """The table as JSON for ReportFile.table: money in cents, ratios and numbers as decimal
    strings, dates and datetimes as ISO text; None for an empty cell."""
    return {
        "header": headings(columns),
        "types": [str(column.type) for column in columns],
        "rows": [[_stored(column, value) for column, value in zip(columns, row, strict=True)] for row in rows],
    }


def _stored(column: Column, value):
    if value is None or value == "":
        return None
    try:
        return STORE[column.type](value)
    except (TypeError, ValueError, ArithmeticError) as wrong:
        raise ColumnValueError(f"Column {column.name!r} ({column.type}) cannot hold {value!r}: {wrong}") from wrong


def _store_money(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("money is integer cents")
    return value


def _store_int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not an integer")
    return value


def _store_ratio(value) -> str:
    if not isinstance(value, Decimal):
        raise TypeError("a ratio is a Decimal")
    return ratio_string(value)


def _store_number(value) -> str:
    if not isinstance(value, Decimal | int) or isinstance(value, bool):
        raise TypeError("a number is a Decimal or an int")
    return str(value)


def _store_date(value) -> str:
    if isinstance(value, datetime):
        raise TypeError("a date, not a datetime")
    if isinstance(value, date):
        return value.isoformat()
    return date.fromisoformat(str(value)).isoformat()


def _store_datetime(value) -> str:
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise TypeError("an aware datetime")
    return value.isoformat(timespec="seconds")  # `2026-07-01T22:05:00-05:00`: a moment read to the second


STORE = {
    CellType.MONEY: _store_money,
    CellType.RATIO: _store_ratio,
    CellType.NUMBER: _store_number,
    CellType.DATE: _store_date,
    CellType.DATETIME: _store_datetime,
    CellType.INT: _store_int,
    CellType.TEXT: str,
}


def _types(table: dict) -> list[CellType | None]:
    """The column types; a table stored before types were (text figures) is written as stored."""
    types = table.get("types")
    return [CellType(t) for t in types] if types else [None] * len(table["header"])


# --- CSV --------------------------------------------------------------------------------------


def _csv_cell(kind: CellType | None, value) -> str:
    if value is None:
        return ""
    if kind is CellType.MONEY:
        return str(cents_to_decimal(value))
    return str(value)


def export_csv(table: dict) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(table["header"])
    types = _types(table)
    for row in table["rows"]:
        writer.writerow([_csv_cell(kind, value) for kind, value in zip(types, row, strict=True)])
    return buffer.getvalue().encode("utf-8")


# --- XLSX -------------------------------------------------------------------------------------


def _xlsx_value(kind: CellType | None, value):
    """The cell's value and number format; text stays text."""
    if value is None:
        return None, None
    if kind is CellType.MONEY:
        return cents_to_decimal(value), MONEY_FORMAT
    if kind is CellType.RATIO:
        return Decimal(value), RATIO_FORMAT
    if kind is CellType.NUMBER:
        return Decimal(value), NUMBER_FORMAT
    if kind is CellType.DATE:
        return date.fromisoformat(value), DATE_FORMAT
    if kind is CellType.DATETIME:  # the site's wall-clock time: Excel keeps no offset
        return datetime.fromisoformat(value).replace(tzinfo=None), DATETIME_FORMAT
    if kind is CellType.INT:
        return value, INT_FORMAT
    return (value if kind is None and isinstance(value, int) else str(value)), None


def _shown_width(kind: CellType | None, value) -> int:
    """About how many characters the cell shows (for the column's width)."""
    if value is None:
        return 0
    if kind is CellType.MONEY:
        return len(format_money(value))
    if kind is CellType.RATIO:
        return 9
    if kind is CellType.DATETIME:
        return len(DATETIME_FORMAT)
    return len(str(value))


def export_xlsx(table: dict, title: str) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = re.sub(r"[\\/*?:\[\]]", "-", title)[:31]  # characters a sheet's name cannot hold
    types = _types(table)
    widths = [len(name) + 2 for name in table["header"]]
    sheet.append(table["header"])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for r, row in enumerate(table["rows"], start=2):
        for c, (kind, stored) in enumerate(zip(types, row, strict=True), start=1):
            value, number_format = _xlsx_value(kind, stored)
            if value is None:
                continue
            if isinstance(value, str):
                value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)  # control characters XLSX cannot hold
            cell = sheet.cell(row=r, column=c, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text as entered: "=..." in a note is not a formula
            if number_format:
                cell.number_format = number_format
            widths[c - 1] = max(widths[c - 1], _shown_width(kind, stored) + 2)
    for c, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(c)].width = min(max(width, MIN_WIDTH), MAX_WIDTH)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = sheet.dimensions
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
