"""In Chromium: a gaming manager finds this quarter's alerts without typing anything, tells two
alerts of one rule apart by table and week, reads the figures in words, and resolves one in a
single step that asks for its documentation; a shift manager is offered documentation only;
the month calendar at 390 px lists the day's items without sideways scrolling."""

import os
import re
from datetime import date, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from cardroom.models import Role
from compliance import services
from compliance.queries import status_of
from compliance.rules import Finding
from core.models import AuditEvent
from tests.browser_support import login, logout

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def review_week(site, table, week_start):
    end = week_start + timedelta(days=6)
    finding = Finding(
        "review_week_short",
        "ND 99-01.3-08-04(9)",
        "Video review week short of an hour",
        site.pk,
        f"{week_start}..{end}",
        week_start,
        end,
        f"ND 99-01.3-08-04(9): table {table} had 20 minutes of video reviewed; at least 60 are required.",
        end,
        {"task": table, "table": table, "reviewed_minutes": 20, "hold_ratio": "0.078157"},
        f"task:{table}",
    )
    return services.open_alert(finding, organization_id=site.organization_id)[0]


@pytest.fixture
def two_weeks_short(site):
    today = timezone.localdate()
    monday = today - timedelta(days=today.weekday())
    quarter_start = date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    week = max(monday - timedelta(days=7), quarter_start)
    return review_week(site, 3, week), review_week(site, 4, week)


@pytest.mark.browser
def test_a_gaming_manager_resolves_an_alert_in_one_step(browser_page, live_server, cast, two_weeks_short):
    page, (table_3, table_4) = browser_page, two_weeks_short
    manager = cast[Role.GAMING_MANAGER].user
    login(page, live_server, manager.username)
    page.goto(f"{live_server.url}/compliance/alerts/")
    assert "Compliance alerts" in page.text_content("h1") and "this quarter" in page.text_content("h1")
    rows = page.locator("#alerts tbody tr")
    assert rows.count() == 2
    assert sorted(page.locator("#alerts .alert-table").all_text_contents()) == ["Table 3", "Table 4"]
    assert page.text_content("#last-run").count("have not run yet") == 1
    assert "Day rules" in page.text_content("#next-run")

    page.click(f'tr[data-alert="{table_3.pk}"] a')
    page.wait_for_url(re.compile(rf"/compliance/alerts/{table_3.pk}/$"))
    assert page.text_content("#alert-table") == "Table 3"
    figures = page.text_content("#figures")
    assert "Hold" in figures and "7.82%" in figures and "Video reviewed" in figures and "hold_ratio" not in figures
    # One action, which asks for the documentation: no acknowledge/document buttons.
    assert page.locator("#resolve-form button").count() == 1
    assert page.locator("#id_resolve-note").evaluate("element => element.required")
    page.fill("#id_resolve-note", "Reviewed an hour of table 3's video late; the shortfall was a staffing gap.")
    page.fill("#id_resolve-contacted_person", "J. Smith")
    shot(page, "resolve-form")
    page.click("#resolve")
    # The answer comes back to this same address: wait_for_url would not wait for it.
    expect(page.locator("#alert-status")).to_have_text("resolved")
    page.wait_for_url(re.compile(rf"/compliance/alerts/{table_3.pk}/$"))
    history = page.text_content("#steps")
    assert all(kind in history for kind in ("Acknowledged", "Documentation attached", "Resolved", "contacted J. Smith"))
    assert page.locator("#resolve-form").count() == 0
    assert (status_of(table_3), status_of(table_4)) == ("resolved", "open")
    assert AuditEvent.objects.filter(action="alert.resolved", actor_id=manager.pk).count() == 1
    logout(page, live_server)

    # The shift manager is offered documentation, not resolving (house control).
    login(page, live_server, cast[Role.SHIFT_MANAGER].user.username)
    page.goto(f"{live_server.url}/compliance/alerts/{table_4.pk}/")
    assert page.locator("#resolve-form").count() == 0 and page.locator("#document-form").count() == 1
    page.fill("#id_document-note", "Camera 4 was replaced on Tuesday.")
    page.click("#document")
    expect(page.locator("#alert-status")).to_have_text("documented")  # the answer, at this same address
    page.wait_for_url(re.compile(rf"/compliance/alerts/{table_4.pk}/$"))


@pytest.mark.browser
def test_the_month_calendar_at_390_px_lists_the_days_items(browser_page, live_server, cast, two_weeks_short):
    table_3, page = two_weeks_short[0], browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, cast[Role.SHIFT_MANAGER].user.username)
    page.goto(f"{live_server.url}/compliance/calendar/?month={table_3.due_date:%Y-%m}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    day = page.locator(f'td[data-date="{table_3.due_date:%Y-%m-%d}"]')
    assert day.is_visible() and "Table 3" in day.text_content() and "Table 4" in day.text_content()
    assert page.locator("td.no-items").first.is_hidden()  # days with nothing due are left out on a phone
    page.click("#next-month")
    following = (table_3.due_date.replace(day=1) + timedelta(days=31)).replace(day=1)
    page.wait_for_url(re.compile(rf"/compliance/calendar/\?month={following:%Y-%m}$"))  # not this month's page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "calendar-390")
    page.goto(f"{live_server.url}/compliance/alerts/")  # the list's rows stack on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(f'tr[data-alert="{table_3.pk}"] .alert-table').is_visible()
    shot(page, "alerts-390")
