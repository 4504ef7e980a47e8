"""A shift manager's journey in a real browser (Debian's Chromium through Playwright): report
an outage, see its deadline, record the repair; add a day to the daily review log."""

import os
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from cardroom.models import Role
from surveillance.models import OutageRepair, ReviewLogEntry
from surveillance.queries import gaming_date_of
from tests.browser_support import login

from .conftest import add_shift

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


@pytest.mark.browser
def test_a_shift_manager_reports_and_repairs_an_outage_and_logs_a_review(browser_page, live_server, cast, table):
    page = browser_page
    zone = ZoneInfo(table.site.time_zone)
    now = timezone.now().astimezone(zone).replace(second=0, microsecond=0)
    began = now - timedelta(hours=2)
    yesterday = gaming_date_of(table.site, now) - timedelta(days=1)
    add_shift(table, cast[Role.DEALER], now - timedelta(hours=30), now - timedelta(hours=20))  # overlaps yesterday
    login(page, live_server, cast[Role.SHIFT_MANAGER].user.username)

    page.goto(f"{live_server.url}/surveillance/outages/")
    form = page.locator("#outage-form")
    form.locator("select[name=table]").select_option(str(table.pk))
    form.locator("select[name=kind]").select_option("camera")
    form.locator("input[name=began_at]").fill(began.strftime("%Y-%m-%dT%H:%M"))
    form.locator("textarea[name=description]").fill("Picture is black")
    form.locator("button").click()
    # Each form's answer comes back to its own page's address: wait for the answer's content, not the address.
    row = page.locator("#outages tbody tr").first
    deadline = (began + timedelta(days=4)).strftime("%Y-%m-%d %H:%M")
    expect(row.locator(".deadline")).to_contain_text(deadline, use_inner_text=True)
    page.wait_for_url(f"{live_server.url}/surveillance/outages/")
    assert "4 calendar days" in row.locator(".deadline").inner_text()

    row.locator("input[name=repaired_at]").fill(now.strftime("%Y-%m-%dT%H:%M"))
    row.locator("textarea[name=description]").fill("Replaced the cable")
    row.locator("button", has_text="Record repair").click()
    repaired = page.locator("#outages tbody tr").first.locator(".repaired")
    expect(repaired).to_contain_text("Repaired", use_inner_text=True)
    page.wait_for_url(f"{live_server.url}/surveillance/outages/")
    assert OutageRepair.objects.get().description == "Replaced the cable"

    page.goto(f"{live_server.url}/surveillance/review-log/")
    form = page.locator("#review-log-form")
    form.locator("select[name=table]").select_option(str(table.pk))
    form.locator("input[name=gaming_date]").fill(yesterday.isoformat())
    for name in ("camera_recording", "unobstructed_view", "clear_picture", "field_of_view"):
        form.locator(f"input[name={name}]").check()
    form.locator("button").click()
    expect(page.locator("#review-log tbody")).to_contain_text(yesterday.isoformat(), use_inner_text=True)
    page.wait_for_url(f"{live_server.url}/surveillance/review-log/")
    assert ReviewLogEntry.objects.get().all_clear and ReviewLogEntry.objects.get().field_of_view
