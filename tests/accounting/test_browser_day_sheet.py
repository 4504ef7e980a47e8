"""A day sheet in Chromium: the gaming manager downloads the template, uploads the day's CSV
with a mistake (every error listed at its row, nothing changed), corrects it and uploads it
again: the whole day is in."""

import pytest
from playwright.sync_api import expect

from accounting import summaries
from floor.models import GamingDay
from tests.accounting import test_day_sheets as api_tests
from tests.accounting.test_day_sheet_csv import full_csv
from tests.accounting.test_day_sheets import row_counts
from tests.browser_support import login

day, world = api_tests.day, api_tests.world  # the same fixtures


@pytest.mark.browser
def test_a_day_sheet_uploaded_in_the_browser(browser_page, live_server, site, day, world):
    page = browser_page
    tables, people = world
    login(page, live_server, people["gm"].user.username)
    page.goto(f"{live_server.url}/")
    assert page.query_selector('a[href="/accounting/day-sheets/"]:has-text("Enter a day sheet (CSV)")')  # in the menu
    page.goto(f"{live_server.url}/accounting/day-sheets/")

    with page.expect_download() as download:
        page.click("#download-template")
    assert download.value.suggested_filename == "day-sheet-template.csv"

    good = full_csv(day, people)
    wrong = good.replace("01:01", "1:61").replace(
        f",20:01,{people['pb'].initials},", f",20:01,{people['d2'].initials},"
    )
    before = row_counts()
    page.set_input_files("#id_sheet", files=[{"name": "day.csv", "mimeType": "text/csv", "buffer": wrong.encode()}])
    page.click("#apply-sheet")
    errors = page.text_content("#sheet-errors")
    assert "Nothing was changed." in errors and "row 14, column at" in errors
    assert row_counts() == before

    page.set_input_files("#id_sheet", files=[{"name": "day.csv", "mimeType": "text/csv", "buffer": good.encode()}])
    page.click("#apply-sheet")
    # The answer comes back to this address, the errors' page still shown until it does.
    expect(page.locator("main")).to_contain_text(f"Day sheet of {day} applied")
    assert page.query_selector("#sheet-errors") is None
    assert GamingDay.objects.get().gaming_date == day
    assert summaries.daily_summary(site, day).total.drop_cents == 220_000
    assert page.problems.csp_violations == []
