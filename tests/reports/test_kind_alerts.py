"""The alerts report of a period: the alerts about the period, and those opened or due in it."""

import csv
import io
from datetime import date, datetime

import pypdfium2
import pytest
import time_machine
from openpyxl import load_workbook

from cardroom.models import Role
from compliance import services as compliance
from compliance import tasks
from reports.services import generate_report
from tests.compliance.test_alerts import finding
from tests.reports.test_reports import pdf_text, request

PRIZES = "ND 99-01.3-08-01(3)"  # twenty-one prizes over gross proceeds: the quarter's alert


def play_a_losing_quarter(scenario, table):
    """A day of 2026Q3 whose fills exceed its drop: prizes over gross proceeds (AGP -$300.00)."""
    day = date(2026, 8, 1)
    scenario.tray(table, day, "opener", 100_000)
    scenario.tray(table, day, "closer", 100_000)
    scenario.slip(table, day, "fill", 80_000, number=1)
    scenario.drop(table, day, 50_000)


def alerts_report(api, site, quarter):
    """The alerts report of `quarter` through the API (a quarter is a worker's), read back as
    its PDF's text, its CSV rows and its XLSX rows."""
    run = request(api, kind="alerts", site=site.pk, quarter=quarter).json()
    generate_report(run["id"])
    download = f"/api/v1/reports/{run['id']}/download/"
    text = pdf_text(api.get(download).content)
    csv_rows = list(csv.DictReader(io.StringIO(api.get(f"{download}?format=csv").content.decode())))
    sheet = load_workbook(io.BytesIO(api.get(f"{download}?format=xlsx").content)).active
    xlsx_rows = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=2)]
    return text, csv_rows, xlsx_rows


def test_a_quarters_alert_opened_after_it_ends_is_in_that_quarters_alerts_report(
    scenario, table, site, cast, client_for
):
    """The quarter rules run after the quarter ends (ND 99-01.3-08-01(3)'s alert is opened on
    2026-10-01, due 2026-10-30): the 2026Q3 report said "0 alerts" while the API listed it. It is
    in the report of its own period, in the one of the quarter it was opened and is due in, and
    not in a later quarter's."""
    play_a_losing_quarter(scenario, table)
    auditor = client_for(cast[Role.AUDITOR])
    with time_machine.travel("2026-10-01 03:45:00-05:00", tick=False):
        tasks.run_quarter_checks("2026Q3")  # as the schedule runs it, after the quarter
        (alert,) = [a for a in auditor.get("/api/v1/alerts/").json()["results"] if a["citation"] == PRIZES]
        assert (alert["due_date"], alert["opened_at"][:10]) == ("2026-10-30", "2026-10-01")

        text, csv_rows, xlsx_rows = alerts_report(auditor, site, "2026Q3")
    assert "1 alert; 1 not resolved; 0 overdue at 2026-09-30." in text and "No alert at this site" not in text
    assert f"{PRIZES} 2026Q3 2026-10-01 2026-10-30 open" in text and "Twenty-one prizes" in text
    assert [(r["Rule"], r["Period"], r["Opened"], r["Due"]) for r in csv_rows] == [
        (PRIZES, "2026Q3", "2026-10-01", "2026-10-30")
    ]
    assert [(r[0], r[2], r[4], r[5]) for r in xlsx_rows] == [
        (PRIZES, "2026Q3", datetime(2026, 10, 1), datetime(2026, 10, 30))
    ]

    with time_machine.travel("2027-01-04 12:00:00-06:00", tick=False):
        _, opened_in_q4, _ = alerts_report(auditor, site, "2026Q4")
        text_q1, none_in_q1, none_in_xlsx = alerts_report(auditor, site, "2027Q1")
    assert [(r["Rule"], r["Period"]) for r in opened_in_q4] == [(PRIZES, "2026Q3")]
    assert none_in_q1 == [] and none_in_xlsx == [] and "No alert at this site in the period." in text_q1


@pytest.fixture
def auditor_api(client_for, cast):
    return client_for(cast[Role.AUDITOR])


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text as PDFium reads it back, its words separated by single spaces."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    finally:
        document.close()


@pytest.mark.parametrize("note_words", [54, 70, 94, 126])
def test_the_alerts_start_on_the_first_page_under_the_title_block(site, cast, auditor_api, time_machine, note_words):
    """Four alerts with long notes fitted the first page but not with the sign-off: their table's
    last three rows were to go on with it, leaving one under the summary where the heading keeps
    two, so all of it moved on and page 1 held the title block alone (Bismarck's 2026Q3 report in
    the demo). The summary and the first alert now start page 1; the rest follow under the
    table's header repeated."""
    time_machine.move_to("2026-12-07 12:00:00-06:00")
    manager = cast[Role.GAMING_MANAGER].user
    for number in range(1, 5):
        alert, _ = compliance.open_alert(
            finding(site, subject=f"fill:{number}", rule="slip_missing", citation="ND 99-01.3-08-05(2)"),
            organization_id=site.organization_id,
        )
        note = " ".join([f"Called the shift manager about fill slip {number}."] + ["checked"] * note_words)
        compliance.acknowledge_alert(acting_user=manager, alert=alert, note=note)
    run = request(auditor_api, kind="alerts", site=site.pk, quarter="2026Q3").json()
    generate_report(run["id"])
    pages = page_texts(auditor_api.get(f"/api/v1/reports/{run['id']}/download/").content)
    assert "4 alerts; 4 not resolved; 0 overdue at 2026-09-30." in pages[0]
    assert "Rule Alert Period Subject" in pages[0] and "fill slip 1." in pages[0]
    assert "Prepared by" in pages[-1] and "fill slip 4." in " ".join(pages)


def test_the_overdue_count_says_the_day_it_is_judged_at(site, auditor_api, time_machine):
    """Overdue is judged at the period's end (or the day asked, where that comes first): the same
    open alert, due 2026-10-30, is overdue in its quarter's report asked in December and not in
    the report of its due date. Each count says its day."""
    time_machine.move_to("2026-12-07 12:00:00-06:00")
    compliance.open_alert(finding(site), organization_id=site.organization_id)
    quarter = request(auditor_api, kind="alerts", site=site.pk, quarter="2026Q4").json()
    day = request(auditor_api, kind="alerts", site=site.pk, start="2026-10-30", end="2026-10-30").json()
    texts = []
    for run in (quarter, day):
        generate_report(run["id"])
        texts.append(" ".join(page_texts(auditor_api.get(f"/api/v1/reports/{run['id']}/download/").content)))
    assert "1 alert; 1 not resolved; 1 overdue at 2026-12-07." in texts[0]
    assert "1 alert; 1 not resolved; 0 overdue at 2026-10-30." in texts[1]
