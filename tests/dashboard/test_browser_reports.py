"""An auditor generates the quarterly summary from the Reports page; a real Celery worker
builds it (a quarter is a background run); the page follows its progress; the downloaded PDF
carries the quarter's AGP. Then the dashboard draws its charts (screenshot kept in VAR_DIR)."""

from datetime import date, timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from playwright.sync_api import expect

from accounting.summaries import quarter_summary
from cardroom.models import Role
from config.celery import app
from core.money import format_money
from core.periods import Quarter
from tests.browser_support import login

QUARTER = "2026Q3"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_auditor_generates_downloads_and_reads_the_quarterly_summary(
    browser_page,  # noqa: F811
    live_server,
    cast,
    site,
    play,
    make_play,
):
    import pdfplumber

    make_play(2, 12, first=date.today() - timedelta(days=14), first_number=3)  # recent weeks for the charts

    page = browser_page
    expected = format_money(quarter_summary(site, Quarter.parse(QUARTER)).total.agp_cents)
    login(page, live_server, cast[Role.AUDITOR].user.username)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        page.goto(f"{live_server.url}/reports/")
        page.select_option("#kind", "quarterly")
        page.select_option("#site", str(site.pk))
        page.fill("#quarter", QUARTER)
        page.click("#generate")
        page.wait_for_url("**/reports/*/")
        page.wait_for_selector("#download-pdf", timeout=90_000)  # htmx polls the run every second
    expect(page.locator("#status-text")).to_have_text("Done", use_inner_text=True)  # htmx swaps it in
    with page.expect_download() as download:
        page.click("#download-pdf")
    path = download.value.path()
    with pdfplumber.open(path) as pdf:
        text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    assert "quarterly summary" in text.lower() and expected in text

    page.goto(f"{live_server.url}/dashboard/?site={site.pk}")
    for chart in ("chart-sites", "chart-tables", "chart-dealers"):
        page.wait_for_selector(f"#{chart}[data-ready=true]")
    page.screenshot(path=str(settings.VAR_DIR / "dashboard.png"), full_page=True)
