"""A night at the pit in Chromium: a fill is prepared, verified by a second person, received by
the dealer at the table; a wrong slip is voided and reissued; the register shows them in order."""

import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from cardroom import pins
from cardroom.models import Role, Station
from core.models import AuditEvent
from floor.models import Slip
from tests.browser_support import login, logout

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def prepare_fill(page, live_server, table, quantities, cashier):
    page.goto(f"{live_server.url}/floor/slips/new/fill/")
    page.select_option("#id_table", str(table.pk))
    page.select_option("#id_cashier", str(cashier.pk))  # whose initials the fill carries, 08-05(3)(c)
    for value_cents, quantity in quantities.items():
        page.fill(f"#id_qty_{value_cents}", str(quantity))


@pytest.mark.browser
def test_fill_prepared_verified_received_then_a_void_and_a_reissue(
    browser_page,
    live_server,
    cast,
    dealer_shift,
    second_shift_manager,
):
    page, table = browser_page, dealer_shift.table
    manager, dealer = cast[Role.SHIFT_MANAGER], cast[Role.DEALER]

    # The shift manager prepares a fill; the totals follow the typing.
    login(page, live_server, manager.user.username)
    prepare_fill(page, live_server, table, {2500: 20, 500: 20}, cast[Role.CASHIER])
    expect(page.locator("#line-2500")).to_have_text("$500.00")
    expect(page.locator("#grand-total")).to_have_text("$600.00")
    shot(page, "prepare-fill")
    page.click("#prepare")
    page.wait_for_url(re.compile(r"/floor/slips/\d+/$"))
    first = Slip.objects.get(kind="fill", number=1)
    assert page.text_content("#slip-status") == "issued"
    assert page.text_content("#slip-total") == "$600.00"
    # The preparer may not verify their own slip (08-05(5)): the page does not offer it.
    assert page.locator("#verify").count() == 0
    logout(page, live_server)

    # A second shift manager verifies the original.
    login(page, live_server, second_shift_manager.user.username)
    page.goto(f"{live_server.url}/floor/queues/")
    page.click("#awaiting-verification >> text=Open")
    page.click("#verify")
    expect(page.locator("#slip-status")).to_have_text("verified")  # the same page, answered by the server
    logout(page, live_server)

    # The dealer at the table receives the copy.
    login(page, live_server, dealer.user.username)
    page.goto(f"{live_server.url}/floor/slips/{first.pk}/")
    page.click("#receive")
    expect(page.locator("#slip-status")).to_have_text("received")
    logout(page, live_server)

    # A slip for the wrong amount is voided by its preparer and reissued.
    login(page, live_server, manager.user.username)
    prepare_fill(page, live_server, table, {2500: 2}, cast[Role.CASHIER])
    page.click("#prepare")
    page.wait_for_url(re.compile(r"/floor/slips/\d+/$"))
    page.click("#void")
    expect(page.locator("#void-form")).to_contain_text("say why the slip is void")
    page.fill("#id_reason", "Wrong quantity: 20 not 2")
    page.click("#void")
    expect(page.locator("#slip-status")).to_have_text("voided")
    shot(page, "voided-slip")
    page.click("#reissue")
    page.select_option("#id_cashier", str(cast[Role.CASHIER].pk))
    page.fill("#id_qty_2500", "20")
    expect(page.locator("#grand-total")).to_have_text("$500.00")  # typed perhaps before chip_grid.js ran
    page.click("#prepare")
    page.wait_for_url(re.compile(r"/floor/slips/\d+/$"))
    assert Slip.objects.filter(kind="fill").count() == 3

    # The register shows every number in order with its status.
    page.goto(f"{live_server.url}/floor/register/")
    rows = page.locator("#series-fill tbody tr")
    statuses = [
        (rows.nth(i).get_attribute("data-number"), rows.nth(i).get_attribute("data-status"))
        for i in range(rows.count())
    ]
    assert statuses == [("1", "received"), ("2", "voided"), ("3", "issued")]
    assert page.locator("#series-fill .missing").count() == 0
    shot(page, "register")


@pytest.mark.browser
def test_one_pit_terminal_prepares_verifies_and_receives_a_fill_with_three_peoples_pins(
    browser_page, live_server, cast, dealer_shift
):
    """A shared terminal stays signed in as a station; the cashier prepares, the pit boss
    verifies and the dealer receives, each with their own badge and PIN (cardroom.pins)."""
    page, table = browser_page, dealer_shift.table
    cashier, boss, dealer = cast[Role.CASHIER], cast[Role.PIT_BOSS], cast[Role.DEALER]
    for person, pin in ((cashier, "318274"), (boss, "529163"), (dealer, "640295")):
        pins.set_pin(acting_user=person.user, employee=person, pin=pin)
    terminal = get_user_model().objects.create_user(username="pit-terminal", password="terminal-password-1")
    Station.objects.create(user=terminal, site=table.site, name="Pit 1 terminal")
    login(page, live_server, "pit-terminal", "terminal-password-1")

    page.goto(f"{live_server.url}/floor/slips/new/fill/")
    page.select_option("#id_table", str(table.pk))
    page.fill("#id_qty_2500", "20")
    page.select_option("#id_signer_badge", cashier.initials)
    page.fill("#id_signer_pin", "318274")
    page.click("#prepare")
    page.wait_for_url(re.compile(r"/floor/slips/\d+/$"))
    assert page.text_content("#slip-status") == "issued"

    # A wrong PIN is refused and nothing is initialled.
    page.select_option("#id_signer_badge", boss.initials)
    page.fill("#id_signer_pin", "000001")
    page.click("#verify")
    expect(page.locator("#form-errors")).to_contain_text("that badge and PIN do not match")
    page.select_option("#id_signer_badge", boss.initials)
    page.fill("#id_signer_pin", "529163")
    page.click("#verify")
    expect(page.locator("#slip-status")).to_have_text("verified")

    page.select_option("#id_signer_badge", dealer.initials)
    page.fill("#id_signer_pin", "640295")
    page.click("#receive")
    expect(page.locator("#slip-status")).to_have_text("received")
    shot(page, "shared-terminal-received")

    slip = Slip.objects.get(kind="fill")
    assert slip.prepared_by == cashier
    actors = dict(AuditEvent.objects.filter(action__startswith="fill_slip.").values_list("action", "actor__username"))
    assert actors == {
        "fill_slip.prepared": cashier.user.username,
        "fill_slip.verify": boss.user.username,
        "fill_slip.receive": dealer.user.username,
    }
