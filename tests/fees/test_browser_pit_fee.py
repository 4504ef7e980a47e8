"""A table fee collected on a WA-BJ station's pit terminal in Chromium (WAC 230-40-125(1)): the
first fee at a table is typed in full; the next repeats the table's last fee, so a collection is
one tap on the table, the count if it changed, the collector's badge and their PIN."""

import os

import pytest
from playwright.sync_api import expect

from cardroom import pins
from cardroom.models import Role
from core.pins import PIN_MIN_DIGITS
from fees.models import FeeCollection
from floor import queries
from floor import services as floor_services
from tests.browser_support import PHONE, Counted, overflow

PIN = "318274"
SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")


@pytest.mark.browser
def test_a_fee_is_collected_on_the_pit_terminal_and_the_next_repeats_the_tables_last(
    browser_page, live_server, cast, site, bj_table
):
    cashier, manager = cast[Role.CASHIER], cast[Role.SHIFT_MANAGER]
    for person in (cashier, manager, cast[Role.DEALER]):
        pins.set_pin(acting_user=person.user, employee=person, pin=PIN)
    pins.create_station(acting_user=None, site=site, username="wabj-pit", password="terminal-password-1", name="Pit 1")
    floor_services.open_gaming_day(acting_user=manager.user, site=site, gaming_date=queries.next_gaming_date(site))
    page = browser_page
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "wabj-pit")
    page.fill("input[name=password]", "terminal-password-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/floor/pit/")

    # The table's first fee: everything typed; the dealer is not offered as a collector.
    page.click("#pit-table-1 .pit-fee")
    expect(page.locator("#pit-panel-title")).to_have_text("Fee · Table 1")
    assert page.evaluate("document.activeElement.id") == "pit-fee-period"
    offered = page.locator("#pit-signer input[type=radio]").evaluate_all("els => els.map(e => e.dataset.initials)")
    assert sorted(offered) == sorted([cashier.initials, manager.initials])
    page.keyboard.type("30")
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    page.keyboard.type("5")
    expect(page.locator("#pit-fee-amount")).to_have_text("Amount $15.00")
    expect(page.locator("label[for=pit-fee-count]")).to_have_text("Seats")
    page.click("label[for=pit-fee-basis-per_player]")  # the count is of players then
    expect(page.locator("label[for=pit-fee-count]")).to_have_text("Players")
    page.click("label[for=pit-fee-basis-per_seat]")
    page.click(f"label[for=pit-signer-{cashier.pk}]")
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#pit-flash")).to_have_text("Fee of $15.00 collected at table 1.")
    first = FeeCollection.objects.get()
    assert (first.collected_by, first.basis, first.period_minutes, first.rate_cents, first.count) == (
        cashier, "per_seat", 30, 300, 5
    )  # fmt: skip

    # The next: the last fee repeated, the count focused and typed over; a rate that is not money
    # is refused in the panel, naming the field and the service's bounds with their rule, before
    # anything is sent.
    person = Counted(page)
    person.click("#pit-table-1 .pit-fee")
    expect(page.locator("#pit-fee-rate")).to_have_value("3.00")
    assert page.evaluate("document.activeElement.id") == "pit-fee-count"
    person.type("4")
    expect(page.locator("#pit-fee-amount")).to_have_text("Amount $12.00")
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "terminal-fee.png"), full_page=True)
    person.click(f"label[for=pit-signer-{manager.pk}]")
    person.type(PIN, pin=True)
    person.press("Enter")
    expect(page.locator("#pit-flash")).to_have_text("Fee of $12.00 collected at table 1.")
    second = FeeCollection.objects.order_by("pk").last()
    assert (second.collected_by, second.count, second.amount_cents) == (manager, 4, 1200)
    keys = person.keys - person.pin_keys
    print(f"a repeated fee: {person.clicks} clicks, {keys} keystrokes besides {person.pin_keys} PIN digits")
    assert person.clicks <= 2 and keys <= 2 and person.pin_keys == PIN_MIN_DIGITS

    page.click("#pit-table-1 .pit-fee")
    page.fill("#pit-fee-rate", "3,00")
    page.click(f"label[for=pit-signer-{manager.pk}]")
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#pit-panel-errors")).to_have_text(
        'The rate per seat or player is from $0.01 to $100.00 (House control); got "3,00", '
        "not dollars and cents (for example 2.50)."
    )
    assert FeeCollection.objects.count() == 2

    # At a phone's width the panel fits: nothing scrolls sideways.
    page.set_viewport_size(PHONE)
    page.click("#pit-cancel")
    page.click("#pit-table-1 .pit-fee")
    expect(page.locator("#pit-fee-amount")).to_have_text("Amount $12.00")
    assert overflow(page) == []
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "terminal-fee-390.png"), full_page=True)
    assert errors == []
