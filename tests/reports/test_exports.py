"""Exports are data: every report kind's CSV and XLSX read back typed (money as exact dollars
with a currency format, ratios as percentages, dates as dates, times with the site's offset,
counts as integers), with a bold, frozen header."""

import csv
import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from openpyxl import load_workbook

from cardroom.models import Site
from compliance import services as compliance
from core.periods import Quarter
from reports import exports
from reports.catalogue import load_kinds
from reports.columns import CellType, Column
from reports.registry import ReportContext
from tests.api.demo import load_short_demo
from tests.compliance.test_alerts import finding
from tests.factories import SiteFactory, TableFactory

ZONE_OFFSET = timezone.get_fixed_timezone(-300)
COLUMNS = [
    Column("name"),
    Column("amount", CellType.MONEY),
    Column("hold", CellType.RATIO),
    Column("z", CellType.NUMBER),
    Column("day", CellType.DATE),
    Column("at", CellType.DATETIME),
    Column("count", CellType.INT),
]
AT = datetime(2026, 7, 1, 22, 5, tzinfo=ZONE_OFFSET)
ROWS = [
    ["Table 1", 138_700, Decimal(-548) / Decimal(10_000), Decimal("1.96"), date(2026, 7, 1), AT, 12],
    ['=HYPERLINK("x")', -1_250, None, None, "2026-07-02", None, None],
    ["bell\x07", 1, Decimal(1) / Decimal(3), 2, None, None, 0],
]


def sheet_of(content: bytes):
    return load_workbook(io.BytesIO(content)).active


def test_the_csv_has_plain_dollars_fractions_and_iso_dates_in_utf8_without_a_bom():
    content = exports.export_csv(exports.stored_table(COLUMNS, ROWS))
    assert not content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(content.decode("utf-8"))))
    assert rows[0] == ["Name", "Amount", "Hold", "Z", "Day", "At", "Count"]  # headings people read
    assert rows[1] == ["Table 1", "1387.00", "-0.054800", "1.96", "2026-07-01", "2026-07-01T22:05:00-05:00", "12"]
    assert rows[2][1:] == ["-12.50", "", "", "2026-07-02", "", ""]
    assert rows[3][1:3] == ["0.01", "0.333333"] and rows[3][6] == "0"
    assert Decimal(rows[1][1]) == Decimal("1387.00") and date.fromisoformat(rows[1][4]) == date(2026, 7, 1)
    assert datetime.fromisoformat(rows[1][5]) == AT


def test_the_xlsx_cells_are_typed_with_number_formats_under_a_bold_frozen_header():
    sheet = sheet_of(exports.export_xlsx(exports.stored_table(COLUMNS, ROWS), "daily"))
    assert sheet.title == "daily" and sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1]) and [c.value for c in sheet[1]][:2] == ["Name", "Amount"]
    name, amount, hold, z, day, at, count = sheet[2]
    assert Decimal(str(amount.value)) == Decimal("1387.00") and amount.number_format == exports.MONEY_FORMAT
    assert Decimal(str(hold.value)) == Decimal("-0.0548") and hold.number_format == "0.00%"
    assert z.value == 1.96 and z.number_format == exports.NUMBER_FORMAT
    assert day.is_date and day.value.date() == date(2026, 7, 1) and day.number_format == "yyyy-mm-dd"
    assert at.is_date and at.value == datetime(2026, 7, 1, 22, 5)  # the site's wall clock
    assert count.value == 12 and isinstance(count.value, int)
    formula, minus = sheet["A3"], sheet["B3"]
    assert formula.data_type == "s" and formula.value == '=HYPERLINK("x")'  # text, never a formula
    assert Decimal(str(minus.value)) == Decimal("-12.50") and sheet["C3"].value is None
    assert sheet["A4"].value == "bell\ufffd"
    assert all(8 <= sheet.column_dimensions[letter].width <= 60 for letter in "ABCDEFG")
    assert sheet.column_dimensions["F"].width >= len("yyyy-mm-dd hh:mm")


def test_a_value_its_column_cannot_hold_is_a_bug_named_by_column():
    with pytest.raises(exports.ColumnValueError, match="'amount' \\(money\\)"):
        exports.stored_table([Column("amount", CellType.MONEY)], [["$1,387.00"]])
    with pytest.raises(exports.ColumnValueError, match="'at'"):
        exports.stored_table([Column("at", CellType.DATETIME)], [[datetime(2026, 7, 1)]])  # naive


def test_a_table_stored_before_types_is_written_as_stored():
    legacy = {"header": ["a", "b"], "rows": [["$1.00", 3]]}
    assert exports.export_csv(legacy).decode() == "a,b\r\n$1.00,3\r\n"
    sheet = sheet_of(exports.export_xlsx(legacy, "x"))
    assert (sheet["A2"].value, sheet["B2"].value) == ("$1.00", 3)


# --- every kind -------------------------------------------------------------------------------


def check_csv_cell(column: Column, text: str) -> None:
    if text == "":
        return
    if column.type is CellType.MONEY:
        assert Decimal(text).as_tuple().exponent == -2, (column, text)
    elif column.type in (CellType.RATIO, CellType.NUMBER):
        Decimal(text)
    elif column.type is CellType.DATE:
        date.fromisoformat(text)
    elif column.type is CellType.DATETIME:
        assert datetime.fromisoformat(text).tzinfo is not None, (column, text)
    elif column.type is CellType.INT:
        int(text)


XLSX_CHECKS = {
    CellType.MONEY: lambda c: isinstance(c.value, int | float) and c.number_format == exports.MONEY_FORMAT,
    CellType.RATIO: lambda c: isinstance(c.value, int | float) and c.number_format == "0.00%",
    CellType.NUMBER: lambda c: isinstance(c.value, int | float),
    CellType.DATE: lambda c: c.is_date and c.number_format == "yyyy-mm-dd",
    CellType.DATETIME: lambda c: c.is_date and c.number_format == "yyyy-mm-dd hh:mm",
    CellType.INT: lambda c: isinstance(c.value, int),
    CellType.TEXT: lambda c: c.data_type == "s",
}


def site_for(kind, demo_site: Site) -> Site:
    if kind.applies_to(demo_site):
        return demo_site
    (jurisdiction,) = kind.jurisdictions
    site = SiteFactory(organization=demo_site.organization, jurisdiction=jurisdiction, name=f"{jurisdiction} room")
    TableFactory(site=site, number=1)
    return site


@pytest.mark.django_db
def test_every_kind_exports_typed_csv_and_xlsx():
    load_short_demo(weeks=1)
    demo_site = Site.objects.get(name="Bismarck Elks Lodge")
    today = timezone.localdate()
    compliance.open_alert(finding(demo_site, period_key=str(Quarter.containing(today)), due_date=today, subject="t1"),
                          organization_id=demo_site.organization_id)  # fmt: skip
    seen = set()
    for code, kind in sorted(load_kinds().items()):
        site = site_for(kind, demo_site)
        q = Quarter.containing(today)
        start, end = (q.start, q.end) if kind.period == "quarter" else (today - timedelta(days=14), today)
        columns, rows = kind.table(kind.build(ReportContext(site.organization, site, start, end, "period", today)))
        assert rows, code
        table = exports.stored_table(columns, rows)
        parsed = list(csv.reader(io.StringIO(exports.export_csv(table).decode("utf-8"))))
        assert parsed[0] == [c.heading for c in columns] and len(parsed) == len(rows) + 1, code
        for row in parsed[1:]:
            for column, text in zip(columns, row, strict=True):
                check_csv_cell(column, text)
        sheet = sheet_of(exports.export_xlsx(table, code))
        assert sheet.freeze_panes == "A2" and all(c.font.bold for c in sheet[1]), code
        for row in sheet.iter_rows(min_row=2):
            for column, cell in zip(columns, row, strict=False):
                if cell.value is not None:
                    assert XLSX_CHECKS[column.type](cell), (code, column, cell.value, cell.number_format)
                    seen.add((code, column.type))
    missing = set(CellType) - {t for _, t in seen}
    assert missing <= {CellType.NUMBER}, missing  # a z-score needs more shifts than a week of the demo
    money_kinds = {code for code, t in seen if t is CellType.MONEY}
    assert {"chip_inventory", "count_sheets", "daily", "dealer_hold", "house_rules", "quarterly",
            "slip_register", "tournament_record"} <= money_kinds  # fmt: skip
    assert {
        ("dealer_shifts", CellType.DATETIME),
        ("slip_register", CellType.DATETIME),
        ("daily", CellType.RATIO),
    } <= seen


def test_a_dealer_shift_starts_at_the_sites_wall_clock_with_its_offset():
    from accounting.dealer_hold import ShiftFigures
    from reports.kinds import dealer_shifts

    started = datetime(2026, 7, 2, 3, 5, tzinfo=UTC)
    figures = ShiftFigures(1, 1, 1, "Ann", 1, "21", date(2026, 7, 1), started, None, None, "no box exchange")
    data = dealer_shifts.DealerShiftReport("America/Chicago", (dealer_shifts.ShiftLine(figures, "", ""),))
    columns, rows = dealer_shifts.table(data)
    csv_row = list(csv.reader(io.StringIO(exports.export_csv(exports.stored_table(columns, rows)).decode())))[1]
    assert csv_row[3] == "2026-07-01T22:05:00-05:00" and csv_row[4] == ""
