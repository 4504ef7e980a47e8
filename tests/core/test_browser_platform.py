"""Browser journeys of the platform in Debian's Chromium."""

import pytest

from cardroom.models import Role, Table
from tests.browser_support import login, logout


@pytest.mark.browser
def test_gaming_manager_logs_in_sets_up_a_table_and_logs_out(browser_page, live_server, cast, site, other_site):
    page = browser_page
    login(page, live_server, cast[Role.GAMING_MANAGER].user.username)
    assert "Gaming manager" in page.locator("#whoami").inner_text()
    page.click("text=Setup")
    page.click("a.dropdown-item:has-text('Tables')")
    page.wait_for_url(f"{live_server.url}/setup/tables/")
    page.click("#add-new")
    page.select_option("#id_site", str(site.pk))
    page.fill("#id_number", "4")
    page.fill("#id_min_wager_cents", "2")
    page.fill("#id_max_wager_cents", "30")
    page.click("#setup-form button[type=submit]")
    assert "ND 99-01.3-08-09(1)" in page.locator("#error-max_wager_cents").inner_text()
    assert not Table.objects.filter(number=4).exists()
    page.fill("#id_max_wager_cents", "25")
    page.click("#setup-form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/setup/tables/")
    assert "$25.00" in page.locator("#setup-table").inner_text()
    # Choosing submits the switcher (app.js) and comes back here: wait for that page, not this one.
    with page.expect_navigation(url=f"{live_server.url}/setup/tables/"):
        page.select_option("#site-select", str(other_site.pk))
    assert page.locator("#site-select").input_value() == str(other_site.pk)
    logout(page, live_server)
    assert "/login/" in page.url


@pytest.mark.browser
def test_a_dealer_sees_no_setup_menu(browser_page, live_server, cast, site):
    login(browser_page, live_server, cast[Role.DEALER].user.username)
    assert site.name in browser_page.locator("h1").inner_text()
    assert browser_page.locator("text=Setup").count() == 0
    browser_page.goto(f"{live_server.url}/setup/tables/new/")
    assert "Not allowed" in browser_page.content()
