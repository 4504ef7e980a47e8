"""The slip register's CSV writes every moment of a row one way (README, "CSV is data for
scripts"): when a slip was prepared and, for a slip entered late, when it was entered, both ISO
8601 with the site's UTC offset; the PDF keeps its words ("entered late 2026-07-10 9:00 p.m.")."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cardroom.models import Role
from floor import services
from tests.floor.conftest import FILL, TRAY
from tests.reports.test_kind_daily import csv_rows, download, pdf_tables, run_report

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 7, 10, 21, 0, tzinfo=CHICAGO)  # gaming date 2026-07-10; the site's late threshold 60 minutes


@pytest.fixture
def register(time_machine, client_for, cast, site, chips, table):
    """Fill 1 prepared at noon and entered at 9 p.m. (late), fill 2 prepared at 8:30 p.m. (in time),
    through the floor's services; the slip register of the day requested by an auditor."""
    time_machine.move_to(NOW, tick=False)
    boss, cashier = cast[Role.SHIFT_MANAGER].user, cast[Role.CASHIER].user
    services.open_gaming_day(acting_user=boss, site=site, gaming_date=NOW.date(), at=NOW.replace(hour=8))
    services.record_table_inventory(acting_user=boss, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9))
    late = services.prepare_fill(acting_user=cashier, table=table, chips=FILL, at=NOW.replace(hour=12))
    in_time = services.prepare_fill(acting_user=cashier, table=table, chips=FILL, at=NOW.replace(hour=20, minute=30))
    assert (late.entered_late, in_time.entered_late) == (True, False)
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="slip_register", site=site.pk, start=str(NOW.date()), end=str(NOW.date()))
    return api, run, str(late.number), str(in_time.number)


def test_a_row_of_the_slip_register_csv_writes_its_moments_in_iso_8601_with_the_sites_offset(register):
    api, run, late_number, in_time_number = register
    header, *rows = csv_rows(api, run)
    fills = {row[1]: dict(zip(header, row, strict=True)) for row in rows if row[0] == "fill"}
    late, in_time = fills[late_number], fills[in_time_number]
    assert late["Prepared at"] == "2026-07-10T12:00:00-05:00"
    assert late["Entered late at"] == "2026-07-10T21:00:00-05:00"
    assert in_time["Prepared at"] == "2026-07-10T20:30:00-05:00" and in_time["Entered late at"] == ""
    # every moment of the row reads back as the same instant, never words
    for cell in (late["Prepared at"], late["Entered late at"]):
        assert datetime.fromisoformat(cell).utcoffset() is not None
    assert datetime.fromisoformat(late["Entered late at"]) == NOW
    assert not any("entered late" in cell for row in rows for cell in row)


def test_the_pdf_keeps_the_late_entry_in_words_beside_the_preparer(register):
    api, run, late_number, in_time_number = register
    grid = next(g for g in pdf_tables(download(api, run)) if g[0][0] == "Number")
    prepared = {row[0]: " ".join(row[5].split()) for row in grid[1:]}
    assert "entered late 2026-07-10 9:00 p.m." in prepared[late_number]
    assert "entered late" not in prepared[in_time_number]
