"""A gaming manager's administration in Debian's Chromium: from the Administration menu, register
a slip book (a refusal inline first), create a station and deactivate it, and unlock a locked
login. Each form's answer comes back to the page it was sent from: the page is read with waiting
assertions (wait_for_url returns at once, the address being the same)."""

import pytest
from axes.models import AccessAttempt
from playwright.sync_api import expect

from cardroom.models import Role, Station
from floor.models import SlipBook
from tests.browser_support import login
from tests.page_support import lock_login


@pytest.mark.browser
def test_a_gaming_manager_administers_from_the_menu(browser_page, live_server, cast, site):
    page = browser_page
    dealer = cast[Role.DEALER]
    lock_login(dealer.user.username)
    login(page, live_server, cast[Role.GAMING_MANAGER].user.username)

    page.click("a.nav-link:has-text('Administration')")
    page.click("a.dropdown-item:has-text('Slip books')")
    page.wait_for_url(f"{live_server.url}/floor/slip-books/")
    page.select_option("#id_kind", "fill")
    page.fill("#id_first_number", "90")
    page.fill("#id_last_number", "40")
    page.click("#register-book")
    expect(page.locator("#slip-book-form")).to_contain_text(
        "ND 99-01.3-08-05(2): give a range of printed numbers", use_inner_text=True
    )
    page.fill("#id_first_number", "1001")
    page.fill("#id_last_number", "1050")
    page.click("#register-book")
    expect(page.locator("#slip-books")).to_contain_text("1001–1050", use_inner_text=True)
    page.wait_for_url(f"{live_server.url}/floor/slip-books/")
    assert SlipBook.objects.filter(first_number=1001).exists()

    page.click("a.nav-link:has-text('Administration')")
    page.click("a.dropdown-item:has-text('Stations')")
    page.select_option("#id_site", str(site.pk))
    page.fill("#id_name", "Pit 1 terminal")
    page.fill("#id_username", "pit-1")
    page.fill("#id_password", "Ochre-Lantern-Drift-58")
    page.click("#create-station")
    expect(page.locator("#stations")).to_contain_text("pit-1", use_inner_text=True)
    page.wait_for_url(f"{live_server.url}/administration/stations/")
    assert Station.objects.filter(user__username="pit-1", site=site).exists()
    page.click("[data-toggle-station='pit-1']")  # a tablet lost: out of use
    expect(page.locator("[data-station='pit-1'] .station-active")).to_have_text("no", use_inner_text=True)
    page.wait_for_url(f"{live_server.url}/administration/stations/")
    assert not Station.objects.get(user__username="pit-1").user.is_active

    page.click("a.nav-link:has-text('Administration')")
    page.click("a.dropdown-item:has-text('Locked accounts')")
    page.click(f"[data-unlock='login-{dealer.user.username}']")
    expect(page.locator("body")).to_contain_text("is unlocked (5 failed sign-ins cleared)")
    page.wait_for_url(f"{live_server.url}/administration/locked-accounts/")
    assert not AccessAttempt.objects.filter(username=dealer.user.username).exists()
