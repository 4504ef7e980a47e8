"""The pit terminal in Chromium (issue 33): a station's home is its pit, and a fill's whole life
(prepare, verify, receive) is taken there inline, each step with only the badges allowed to take
it, counted click by click and key by key; and the pit keeps working through a dropped network."""

import os

import pytest

from cardroom import pins
from cardroom.models import AuditEvent, Role
from floor.models import Slip, SlipStep
from tests.browser_support import PHONE, overflow

from .conftest import FILL

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")
PINS = {
    Role.CASHIER: "318274",
    Role.PIT_BOSS: "529163",
    Role.SHIFT_MANAGER: "742951",
    Role.DEALER: "640295",
    Role.COUNT_TEAM: "883107",
}


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


@pytest.fixture
def terminal(cast, site):
    for role, pin in PINS.items():
        pins.set_pin(acting_user=cast[role].user, employee=cast[role], pin=pin)
    pins.create_station(
        acting_user=None, site=site, username="pit-terminal", password="terminal-password-1", name="Pit 1"
    )
    return "pit-terminal", "terminal-password-1"


def login(page, live_server, username, password):
    """Sign the station in: its home is the pit view."""
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/accounting/pit/")


class Counted:
    """The person at the terminal: every click and every key press goes through here and is counted."""

    def __init__(self, page):
        self.page, self.clicks, self.keys, self.pin_keys = page, 0, 0, 0

    def click(self, selector):
        self.page.click(selector)
        self.clicks += 1

    def press(self, key):
        self.page.keyboard.press(key)
        self.keys += 1

    def type(self, text, *, pin=False):
        for character in text:
            self.press(character)
        if pin:
            self.pin_keys += len(text)


def badges(page, name="signer"):
    return page.locator(f"#pit-{name} input[type=radio]").evaluate_all("els => els.map(e => e.dataset.initials)")


@pytest.mark.browser
def test_a_fill_lives_its_whole_life_on_the_pit_terminal_in_few_clicks_and_keys(
    browser_page, live_server, cast, dealer_shift, terminal
):
    page, table = browser_page, dealer_shift.table
    cashier, manager, dealer = cast[Role.CASHIER], cast[Role.SHIFT_MANAGER], cast[Role.DEALER]
    login(page, live_server, *terminal)
    page.wait_for_selector("#pit-table-1")  # the station's home is the pit view
    assert page.locator("#pit-duty").inner_text().count(manager.initials) == 1  # the day's opener, on duty
    person = Counted(page)

    # Prepare: the first chip field has focus; only fill preparers are offered (no dealer, no count team).
    person.click("#pit-table-1 .pit-fill")
    assert page.evaluate("document.activeElement.id") == "pit-qty-10000"
    assert sorted(badges(page)) == sorted([cashier.initials, cast[Role.PIT_BOSS].initials, manager.initials])
    assert page.is_hidden("#pit-prepared-at")  # "Prepared at" waits behind "From paper"
    person.press("Tab")
    person.type("20")
    assert page.inner_text("#pit-total") == "Total $500.00"
    person.click(f"label[for=pit-signer-{cashier.pk}]")
    assert page.evaluate("document.activeElement.id") == "pit-pin"
    person.type(PINS[Role.CASHIER], pin=True)
    shot(page, "terminal-prepare")
    person.press("Enter")
    page.wait_for_selector("#pit-table-1 a.pit-slip")
    slip = Slip.objects.get(kind="fill")
    assert (slip.prepared_by, slip.total_cents) == (cashier, 50000)

    # Verify: only the eligible people on duty are offered (the shift manager who opened the
    # day; not the cashier who prepared it), preselected; Receive is not offered yet.
    person.click("#pit-table-1 a.pit-slip")
    assert badges(page) == [manager.initials]
    assert page.locator("#pit-receive-unverified").count() == 0
    assert page.evaluate("document.activeElement.id") == "pit-pin"
    page.keyboard.type("000000")  # a wrong PIN (not counted) is refused inline, nothing is initialled
    page.keyboard.press("Enter")
    page.wait_for_selector("#pit-panel-errors:not([hidden])")
    assert "that badge and PIN do not match" in page.inner_text("#pit-panel-errors")
    assert page.evaluate("document.activeElement.id") == "pit-pin"
    person.type(PINS[Role.SHIFT_MANAGER], pin=True)
    person.press("Enter")
    page.wait_for_selector("#pit-table-1 .badge.text-bg-info")  # "to receive"

    # Receive: the dealer seated at the table, preselected.
    person.click("#pit-table-1 a.pit-slip")
    assert badges(page) == [dealer.initials]
    assert page.evaluate("document.activeElement.id") == "pit-pin"
    person.type(PINS[Role.DEALER], pin=True)
    person.press("Enter")
    page.wait_for_selector("#pit-table-1 >> text=No slip waiting.")
    shot(page, "terminal-received")
    assert Slip.objects.get(pk=slip.pk).status == "received"
    assert dict(SlipStep.objects.filter(slip=slip).values_list("kind", "employee")) == {
        "verify": manager.pk,
        "receive": dealer.pk,
    }

    # The measure: at most 9 clicks and 12 keystrokes besides the three people's PINs (6 digits
    # each at least, cardroom.pins: a house control no screen may shorten).
    keys = person.keys - person.pin_keys
    print(f"fill's whole life: {person.clicks} clicks, {keys} keystrokes besides {person.pin_keys} PIN digits")
    assert person.clicks <= 9
    assert keys <= 12
    assert person.pin_keys == 3 * pins.PIN_MIN_DIGITS


@pytest.mark.browser
def test_the_terminal_at_390_px_fits_and_opens_the_day_with_a_shift_managers_pin(
    browser_page, live_server, cast, site, table, chips, terminal
):
    page = browser_page
    page.set_viewport_size(PHONE)
    login(page, live_server, *terminal)
    page.click("#pit-open-day")
    assert badges(page) == [cast[Role.SHIFT_MANAGER].initials]  # only a shift manager opens the day
    page.keyboard.type(PINS[Role.SHIFT_MANAGER])
    page.keyboard.press("Enter")
    page.wait_for_selector("#pit-duty")
    assert overflow(page) == []
    shot(page, "terminal-390")
