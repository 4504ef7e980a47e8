"""Browser journey of the New York pack: the gaming manager `nygm` of the demo's Kingston Fire
Hall sees the site's rules (9 NYCRR 4620.5, no North Dakota rule) and its table's house-rules
handout with the tie option, then tries a $6 maximum wager and sees it refused citing
9 NYCRR 4620.5(f)(2)."""

import io

import pdfplumber
import pytest

from approvals.demo import extend_demo as approvals_demo
from cardroom.demo import DEMO_PASSWORD
from cardroom.models import Table
from cardroom.pack_demo import extend_demo
from tests.browser_support import browser_page, login  # noqa: F401


@pytest.mark.browser
def test_new_york_gaming_manager_sees_the_rules_and_a_six_dollar_maximum_is_refused(browser_page, live_server):  # noqa: F811
    approvals_demo(extend_demo({}))  # the licence (its tie option), then Kingston's table under it
    table = Table.objects.get(site__name="Kingston Fire Hall", number=1)
    page = browser_page
    login(page, live_server, "nygm", DEMO_PASSWORD)

    page.goto(f"{live_server.url}/compliance/alerts/")
    rules = page.locator("#pack-rules").inner_text()
    assert "Kingston Fire Hall" in rules and "9 NYCRR 4620.5(f)(2)" in rules and "9 NYCRR 4620.5(h)" in rules
    assert "ND 99-01.3" not in rules

    page.goto(f"{live_server.url}/reports/")
    page.select_option("#kind", "house_rules_ny")
    page.select_option("#site", str(table.site_id))
    page.fill("#end", "2026-11-20")
    page.click("#generate")
    page.wait_for_url(f"{live_server.url}/reports/*/")
    download = page.locator("a:has-text('Download PDF')").first.get_attribute("href")
    pdf = page.request.get(f"{live_server.url}{download}")
    with pdfplumber.open(io.BytesIO(pdf.body())) as document:
        text = " ".join(" ".join(p.extract_text() or "" for p in document.pages).split())
    assert 'Option one: all ties are "pushes."' in text and "9 NYCRR 4620.5(h)" in text
    assert "class C felony" not in text

    page.goto(f"{live_server.url}/setup/tables/{table.pk}/")
    page.fill("#id_max_wager_cents", "6")
    page.click("#setup-form button[type=submit]")
    error = page.locator("#error-max_wager_cents").inner_text()
    assert "9 NYCRR 4620.5(f)(2)" in error
    table.refresh_from_db()
    assert table.max_wager_cents == 500
