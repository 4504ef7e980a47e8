"""Closing a gaming day with open items, in Chromium: the shift manager tries to close, sees
what is open with its rule, carries one item with a reason, resolves another, and closes; the
dashboard then shows the carried item among the exceptions."""

import os

import pytest
from playwright.sync_api import expect

from cardroom.models import Role
from floor import services
from floor.models import CarriedItem, GamingDayClose
from tests.browser_support import login, logout

from .conftest import FILL, TRAY

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


@pytest.mark.browser
def test_a_shift_manager_carries_one_item_resolves_another_and_closes(
    browser_page, live_server, cast, dealer_shift, shift_manager, gaming_day
):
    page, table = browser_page, dealer_shift.table
    fill = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    credit = services.prepare_credit(acting_user=cast[Role.DEALER].user, table=table, chips=FILL)
    services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="closer", chips=TRAY)

    # The shift manager tries to close: refused, each open item listed with its rule.
    login(page, live_server, shift_manager.user.username)
    page.goto(f"{live_server.url}/floor/")
    page.click("#close-day-form button")
    errors = page.text_content("#close-errors")
    assert "House control: the gaming day" in errors and "has 2 open items" in errors
    assert f"ND 99-01.3-08-05(6): Fill slip {fill.number}" in errors
    assert f"ND 99-01.3-08-05(5): Credit slip {credit.number}" in errors
    assert "field" not in errors.lower() and "gaming_day:" not in errors
    assert page.locator("#open-items tbody tr").count() == 2
    shot(page, "close-refused")

    # Carrying needs a reason: the service's message, inline.
    page.check(f'#open-items tr[data-key="slip:{fill.pk}"] input[type=checkbox]')
    page.click("#carry-button")
    assert "say why the item is carried past the close" in page.text_content("#carry-errors")

    # The unreceived fill is carried with a reason.
    page.check(f'#open-items tr[data-key="slip:{fill.pk}"] input[type=checkbox]')
    page.fill("#id_reason", "Dealer went home sick before initialing the copy; receives it tomorrow.")
    page.click("#carry-button")
    expect(page.locator("body")).to_contain_text("1 item carried past the close.")  # the answer, not this page
    assert "Dealer went home sick" in page.text_content("#carried-items")
    assert page.locator("#open-items tbody tr").count() == 1

    # The credit is resolved: its preparer voids it (a credit is voided by its preparer, 08-05(2)).
    logout(page, live_server)
    login(page, live_server, cast[Role.DEALER].user.username)
    page.goto(f"{live_server.url}/floor/slips/{credit.pk}/")
    page.fill("#id_reason", "Wrong table.")
    page.click("#void")
    expect(page.locator("#slip-status")).to_have_text("voided")  # the void answered before the next page
    logout(page, live_server)

    # Now the day closes.
    login(page, live_server, shift_manager.user.username)
    page.goto(f"{live_server.url}/floor/close-day/")
    assert page.locator("#nothing-open").count() == 1
    page.click("#close-day-form button")
    page.wait_for_url(f"{live_server.url}/floor/")
    assert GamingDayClose.objects.filter(gaming_day=gaming_day).exists()
    assert CarriedItem.objects.get().carried_by == shift_manager
    logout(page, live_server)

    # The dashboard shows the carried item among the exceptions.
    login(page, live_server, cast[Role.GAMING_MANAGER].user.username)
    page.goto(f"{live_server.url}/dashboard/")
    exceptions = page.text_content("#exceptions")
    assert "Carried at close" in exceptions and f"Fill slip {fill.number}" in exceptions
    assert "Dealer went home sick" in exceptions
    assert "No open slip or count exceptions" not in exceptions
    shot(page, "dashboard-carried")
