"""The 390 px floor (issue 15): a shift manager watches the live pit view on a phone; a fill
prepared at the chip bank and a table opened from another device show up on the phone by
themselves (htmx polling), with no reload and nothing off the screen."""

import pytest

from cardroom.models import Role
from floor import services
from tests.browser_support import PHONE, login, overflow, scrolled_on_screen
from tests.factories import TableFactory

from .conftest import FILL, TRAY


@pytest.mark.browser
def test_the_pit_on_a_phone_follows_the_floor_by_itself(
    browser_page, live_server, cast, dealer_shift, shift_manager, settings
):
    settings.PIT_REFRESH_SECONDS = 1  # the product's 5 s would be most of this journey's time
    page, table = browser_page, dealer_shift.table
    idle = TableFactory(site=table.site, number=2)
    page.set_viewport_size(PHONE)
    login(page, live_server, shift_manager.user.username)
    page.locator("#home-pit #pit-table-1").wait_for()  # the shift manager lands on the pit (loaded by htmx)
    page.click("#home-pit-link")
    page.wait_for_url(f"{live_server.url}/floor/sites/{table.site_id}/pit/")
    card, other = page.locator("#pit-table-1"), page.locator("#pit-table-2")
    assert card.locator(".pit-state").inner_text() == "open"
    assert str(cast[Role.DEALER]) in card.locator(".pit-dealer").inner_text()
    assert card.locator(".pit-slips").inner_text() == "No slip waiting."
    assert other.locator(".pit-state").inner_text() == "not opened"
    assert page.locator("#pit-to-verify").inner_text() == "0 to verify"
    assert overflow(page) == []
    page.evaluate("window.stillTheSamePage = true")

    # Elsewhere: the cashier prepares a fill for table 1; a shift manager opens table 2.
    fill = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)
    services.record_table_inventory(acting_user=shift_manager.user, table=idle, kind="opener", chips=TRAY)

    page.locator("#pit-to-verify:text-is('1 to verify')").wait_for()  # the next poll brings it
    assert f"Fill slip {fill.number}" in card.locator(".pit-slips").inner_text()
    assert "$600.00" in card.locator(".pit-slips").inner_text()
    other.locator(".pit-state:text-is('open')").wait_for()
    assert page.evaluate("window.stillTheSamePage === true")  # swapped in place, not reloaded
    assert overflow(page) == []
    buttons = [found for found in scrolled_on_screen(page, "#pit-table-1 a.btn") if found[0] in ("Fill", "Credit")]
    assert buttons == [("Fill", True), ("Credit", True)]  # each reachable on the phone, none off its side

    # The pit boss verifies it at the table; the card says it now waits for the dealer.
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    page.locator("#pit-to-receive:text-is('1 to receive')").wait_for()
    assert "to receive" in card.locator(".pit-slips").inner_text()
    card.locator(f"a:has-text('Fill slip {fill.number}')").click()
    page.wait_for_url(f"{live_server.url}/floor/slips/{fill.pk}/")
    assert page.text_content("#slip-status") == "verified"
    assert overflow(page) == []
