"""The pit terminal in Chromium (issue 33): a station's home is its pit, and a fill's whole life
(prepare, verify, receive) is taken there inline, each step with only the badges allowed to take
it, counted click by click and key by key; and the pit keeps working through a dropped network."""

import os
import re

import pytest
from django.http import HttpResponse
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from rest_framework.views import APIView

from cardroom import pins
from cardroom.models import Role
from core.models import AuditEvent
from core.pins import PIN_MIN_DIGITS
from floor.models import Slip, SlipStep
from tests.browser_support import PHONE, Counted, new_watched_page, overflow

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
    page.wait_for_url(f"{live_server.url}/floor/pit/")


def go_offline(page):
    """The network down, and the page told so before anything is typed: a step submitted while
    the page still reads `navigator.onLine` is sent, and Chromium has let such a request reach
    the server past the routes while it switched to offline (CI, on PostgreSQL)."""
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")


def badges(page, name="signer"):
    return page.locator(f"#pit-{name} input[type=radio]").evaluate_all("els => els.map(e => e.dataset.initials)")


@pytest.mark.browser
def test_a_fill_lives_its_whole_life_on_the_pit_terminal_in_few_clicks_and_keys(
    browser_page, live_server, cast, dealer_shift, terminal
):
    page = browser_page
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
    expect(page.locator("#pit-total")).to_have_text("Total $500.00", use_inner_text=True)
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
    assert person.pin_keys == 3 * PIN_MIN_DIGITS

    # The table's next fill starts where this one was typed, in its $25 chips: no Tab.
    page.wait_for_function(
        "() => JSON.parse(document.getElementById('pit-data').textContent).tables[0].last_fill_cents === 2500"
    )
    page.click("#pit-table-1 .pit-fill")
    assert page.evaluate("document.activeElement.id") == "pit-qty-2500"


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


@pytest.mark.browser
def test_the_pit_keeps_working_through_a_dropped_network(
    browser_page, live_server, cast, site, dealer_shift, fill, terminal, settings, monkeypatch
):
    """Offline, a verification and a new fill wait in the browser with their Idempotency-Keys,
    shown as waiting; back online each is sent exactly once, and a refusal on arrival (a wrong
    PIN) is shown on the terminal. An answer lost on the way is retried with the same key and
    written once. The outbox tries again every 0.25 s here, not every 3 s (the product's
    setting): the retries the test waits for (after a lost answer, once the API is back) come sooner."""
    settings.PIT_OUTBOX_RETRY_SECONDS = 0.25
    page = browser_page
    cashier, manager = cast[Role.CASHIER], cast[Role.SHIFT_MANAGER]
    login(page, live_server, *terminal)
    page.wait_for_selector("#pit-table-1 a.pit-slip")
    go_offline(page)

    # Verify the waiting fill while offline: queued, shown as waiting to send.
    page.click("#pit-table-1 a.pit-slip")
    page.keyboard.type(PINS[Role.SHIFT_MANAGER])
    page.keyboard.press("Enter")
    page.wait_for_selector("#pit-outbox:not([hidden])")
    assert "waiting to send" in page.inner_text("#pit-outbox-items")
    assert page.inner_text("#pit-table-1 .pit-slip-waiting") == "verified · waiting to send"
    # A new fill prepared offline, and one with a wrong PIN that will be refused on arrival.
    for pin in (PINS[Role.CASHIER], "000000"):
        page.click("#pit-table-1 .pit-fill")
        assert page.evaluate("document.activeElement.id") == "pit-qty-2500"  # the table's last fill's chip
        page.keyboard.type("4")
        page.click(f"label[for=pit-signer-{cashier.pk}]")
        page.keyboard.type(pin)
        page.keyboard.press("Enter")
    expect(page.locator("#pit-outbox-items li")).to_have_count(3)
    shot(page, "terminal-offline")
    assert Slip.objects.count() == 1 and not SlipStep.objects.exists()  # nothing reached the server

    back_online = timezone.now()
    page.context.set_offline(False)
    page.wait_for_selector("#pit-outbox", state="hidden", timeout=30_000)
    page.wait_for_selector("#pit-refusals:not([hidden])")
    assert "that badge and PIN do not match" in page.inner_text("#pit-refusal-items")
    shot(page, "terminal-back-online")
    assert SlipStep.objects.get(slip=fill, kind="verify").employee == manager
    offline_fill = Slip.objects.exclude(pk=fill.pk).get()
    assert (offline_fill.prepared_by, offline_fill.total_cents) == (cashier, 10000)
    assert offline_fill.prepared_at <= back_online  # the moment it was taken, not when it arrived
    assert AuditEvent.objects.filter(action="fill_slip.prepared").count() == 2

    # An answer lost on the way back: the request arrived, the browser heard nothing, and the
    # retry with the same key is answered from the first (Idempotent-Replayed), writing nothing.
    lost = []

    def lose_the_answer(route):
        route.fetch()  # it reaches the server
        lost.append(route.request.headers["idempotency-key"])
        route.abort()

    page.route("**/api/v1/fill-slips/", lose_the_answer, times=1)
    page.click("#pit-table-1 .pit-fill")
    page.keyboard.type("2")
    page.click(f"label[for=pit-signer-{cashier.pk}]")
    page.keyboard.type(PINS[Role.CASHIER])
    with page.expect_response("**/api/v1/fill-slips/") as retried:
        page.keyboard.press("Enter")
    assert retried.value.headers.get("idempotent-replayed") == "true"
    assert retried.value.request.headers["idempotency-key"] == lost[0]
    page.wait_for_selector("#pit-outbox", state="hidden")
    assert Slip.objects.filter(total_cents=5000).count() == 1

    # A terminal closed while offline keeps the queue: it is kept in the browser's storage, sealed
    # (no PIN readable in it), restored when the page opens again, shown as waiting and sent once
    # with its own key, though the first answer is lost again. The API is cut by a route while the
    # network is down (Chromium's offline emulation has let a request through once a route was
    # set) and stays cut while the page opens again, so the restored queue is seen waiting before
    # it goes: a send, a lost answer and a 0.25 s retry can all be over before the page has
    # loaded. The page is closed rather than reloaded: a reload that fails offline leaves the old
    # page running until Chromium's error page replaces it, and Chromium has let that page send
    # its queue, past the routes, while still offline. So while the API is cut the server answers
    # every POST 503 too, which the outbox keeps as it keeps a request the network dropped: a
    # request that slips past the routes writes nothing (CI failed once so, a $75 fill written
    # while the restored queue was still to be seen waiting).
    api = {"cut": True, "lose_next": False}
    dispatch = APIView.dispatch

    def cut_on_the_server(view, request, *args, **kwargs):
        if api["cut"] and request.method == "POST":
            return HttpResponse("the API is cut (test)", status=503)
        return dispatch(view, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "dispatch", cut_on_the_server)

    def gate(route):
        if api["cut"]:
            route.abort()
        elif api["lose_next"] and route.request.method == "POST" and route.request.url.endswith("/fill-slips/"):
            api["lose_next"] = False
            lose_the_answer(route)
        else:
            route.fallback()

    context = page.context
    context.route("**/api/v1/**", gate)
    go_offline(page)
    page.click("#pit-table-1 .pit-fill")
    page.keyboard.type("3")
    page.click(f"label[for=pit-signer-{cashier.pk}]")
    page.keyboard.type(PINS[Role.CASHIER])
    page.keyboard.press("Enter")
    page.wait_for_selector("#pit-outbox:not([hidden])")
    page.wait_for_function("() => Object.keys(localStorage).some(k => k.startsWith('pit-outbox:'))")
    kept = page.evaluate("() => Object.entries(localStorage).filter(([k]) => k.startsWith('pit-outbox:'))")
    assert len(kept) == 1 and PINS[Role.CASHIER] not in kept[0][1] and "fill-slips" not in kept[0][1]
    page.close()
    page, _ = new_watched_page(context)
    with pytest.raises(PlaywrightError):
        page.goto(f"{live_server.url}/floor/pit/")  # the page itself cannot load while the network is down
    context.set_offline(False)
    page.goto(f"{live_server.url}/floor/pit/")
    page.wait_for_selector("#pit-outbox:not([hidden])")
    expect(page.locator("#pit-outbox-items")).to_contain_text(
        "Fill for table 1 ($75.00) · waiting to send", use_inner_text=True
    )
    assert not Slip.objects.filter(total_cents=7500).exists()
    lost.clear()
    with page.expect_response("**/api/v1/fill-slips/") as resent:
        api.update(cut=False, lose_next=True)
        page.wait_for_selector("#pit-outbox", state="hidden")
    assert resent.value.request.headers["idempotency-key"] == lost[0]
    assert resent.value.headers.get("idempotent-replayed") == "true"
    page.wait_for_selector("#pit-outbox", state="hidden")
    assert Slip.objects.filter(total_cents=7500).count() == 1
    assert AuditEvent.objects.filter(action="fill_slip.prepared").count() == 4
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('pit-outbox:'))") == []

    # Signed out and in again with a step still waiting: the same station login at the same site
    # opens its queue (the key is the server's for that login and site, not the session's) and
    # sends it once; another station signed in between neither sees nor sends it.
    expect(page.locator("#pit-volatile")).to_be_hidden()  # WebCrypto here: the queue is kept
    api["cut"] = True
    go_offline(page)
    page.click("#pit-table-1 .pit-fill")
    page.keyboard.type("5")
    page.click(f"label[for=pit-signer-{cashier.pk}]")
    page.keyboard.type(PINS[Role.CASHIER])
    page.keyboard.press("Enter")
    page.wait_for_function("() => Object.keys(localStorage).some(k => k.startsWith('pit-outbox:'))")
    context.set_offline(False)  # the pages load again, the API not yet
    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/login/")  # signed out before the next sign-in
    pins.create_station(acting_user=None, site=site, username="pit-two", password="second-station-pass-9", name="Pit 2")
    login(page, live_server, "pit-two", "second-station-pass-9")
    page.wait_for_selector("#pit-board[data-queue=restored]")  # the kept queue has been read back, or not
    assert page.is_hidden("#pit-outbox") and page.is_hidden("#pit-refusals")
    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/login/")  # signed out before the next sign-in
    login(page, live_server, *terminal)
    page.wait_for_selector("#pit-board[data-queue=restored]")
    assert page.is_visible("#pit-outbox")
    assert "Fill for table 1 ($125.00) · waiting to send" in page.inner_text("#pit-outbox-items")
    assert page.is_hidden("#pit-refusals")
    assert not Slip.objects.filter(total_cents=12500).exists()
    api["cut"] = False
    page.wait_for_selector("#pit-outbox", state="hidden", timeout=30_000)
    assert Slip.objects.filter(total_cents=12500).count() == 1
    assert AuditEvent.objects.filter(action="fill_slip.prepared").count() == 5
    assert page.is_hidden("#pit-refusals")


@pytest.mark.browser
def test_a_terminal_without_webcrypto_says_a_reload_loses_the_steps_waiting(browser_page, live_server, fill, terminal):
    """Served over plain HTTP off localhost, the browser offers no WebCrypto: the queue cannot be
    sealed for storage, so it lives in the page only, and the terminal says so."""
    page = browser_page
    page.add_init_script("Object.defineProperty(Crypto.prototype, 'subtle', {get: () => undefined});")
    login(page, live_server, *terminal)
    page.wait_for_selector("#pit-volatile:not([hidden])")
    assert "a reload, a sign-out or leaving this page while steps wait to send loses them" in page.inner_text(
        "#pit-volatile"
    )


@pytest.mark.browser
def test_the_terminal_at_a_fees_only_site_offers_no_day_and_runs_with_one_open_with_no_duty_strip(
    browser_page, live_server, cast, site, table, chips, terminal
):
    """WA-BJ (no house chips, a player dealer/banker): nothing on its floor waits for a gaming day,
    so the terminal offers none to open; with one opened all the same (through the API), no slip is
    verified there, so no one is put on duty to verify, and the terminal's script runs without the
    strip."""
    from core.moments import gaming_date_of
    from floor import services

    site.jurisdiction = "WA-BJ"
    site.save()
    page = browser_page
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    login(page, live_server, *terminal)
    expect(page.locator("#pit-tables")).to_be_visible()
    assert page.locator("#pit-open-day").count() == 0 and page.locator("#pit-day").count() == 0
    services.open_gaming_day(
        acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=gaming_date_of(site, timezone.now())
    )
    page.reload()
    expect(page.locator("#pit-day")).to_have_text(re.compile(r"^Gaming day .+ open$"))
    expect(page.locator("#pit-tables")).to_be_visible()
    assert page.locator("#pit-duty").count() == 0
    expect(page.locator("#pit-to-verify")).to_have_count(0)
    assert errors == []


@pytest.mark.browser
def test_the_pit_says_while_a_higher_minimum_plays_with_no_low_table_beside_it(
    browser_page, live_server, cast, dealer_shift, terminal, site, org, shift_manager
):
    """ND 99-01.3-08-09(1) on the terminal's board: relieving table 1's dealer ($1) while table 2
    ($5) plays leaves a higher minimum with no active low table beside it; the board says so
    while it stands, and no longer once table 2's dealer is relieved too."""
    from floor import services
    from tests.factories import TableFactory, make_person

    from .conftest import TRAY

    high = TableFactory(site=site, number=2, min_wager_cents=500, max_wager_cents=2500)
    services.record_table_inventory(acting_user=shift_manager.user, table=high, kind="opener", chips=TRAY)
    services.start_dealer_shift(acting_user=shift_manager.user, table=high, dealer=make_person(org, Role.DEALER, site))
    page = browser_page
    login(page, live_server, *terminal)
    manager = cast[Role.SHIFT_MANAGER]
    standing = page.locator("#pit-low-minimum")
    expect(page.locator("#pit-table-2")).to_be_visible()
    assert standing.count() == 0  # both in play: table 1 is the low table beside table 2

    def relieve(number):
        page.click(f"#pit-table-{number} .pit-relieve")
        page.click(f"label[for=pit-signer-{manager.pk}]")
        page.fill("#pit-pin", PINS[Role.SHIFT_MANAGER])
        page.press("#pit-pin", "Enter")
        expect(page.locator(f"#pit-table-{number}")).to_contain_text("No dealer seated")

    relieve(1)
    expect(standing).to_contain_text(
        "ND 99-01.3-08-09(1): table 2 (minimum $5.00) is active with no active table at $3.00 or less beside it"
    )
    shot(page, "terminal-low-minimum")
    relieve(2)
    expect(standing).to_have_count(0)


@pytest.mark.browser
@pytest.mark.parametrize("typed", ["2O", "1.5", "-2"])
def test_a_mistyped_chip_count_is_refused_at_the_terminal_not_read_as_another_number(
    browser_page, live_server, cast, dealer_shift, terminal, typed
):
    """A chip count typed "2O" (a letter O for a zero) was read as 2 chips and "1.5" as 1, and "-2"
    was dropped: a fill recorded for chips nobody counted. The terminal sends what was typed and
    the server refuses it at the chip, citing the slip rule (ND 99-01.3-08-05(3)); nothing is
    written."""
    page = browser_page
    cashier = cast[Role.CASHIER]
    login(page, live_server, *terminal)
    page.click("#pit-table-1 .pit-fill")
    page.fill("#pit-qty-500", "4")
    page.fill("#pit-qty-2500", typed)
    page.click(f"label[for=pit-signer-{cashier.pk}]")
    page.keyboard.type(PINS[Role.CASHIER])
    page.keyboard.press("Enter")
    page.wait_for_selector("#pit-panel-errors:not([hidden])")
    refusal = page.inner_text("#pit-panel-errors")
    assert "ND 99-01.3-08-05(3)" in refusal and "$25.00" in refusal, refusal
    assert not Slip.objects.exists()


@pytest.mark.browser
def test_a_change_of_dealer_counts_the_tray_and_removes_the_box_where_boxes_go_at_each_change(
    browser_page, live_server, cast, org, site, dealer_shift, terminal
):
    """A site exchanging its drop boxes at each dealer change (house control): the terminal's
    Change dealer said the box goes first and linked to the drop boxes' page, two pages and 10
    clicks with two PINs, and a box removed after the change was credited to the next dealer. Now
    the change removes the box by the same act, credited to the outgoing dealer's shift: the escort
    tapped (the only count team member preselected as key holder), the shift manager's one PIN, and
    the tray counted at the change in the taps of a change without a count, plus its chips. A table
    with no box left says why and offers nothing to send."""
    from counts import services as count_services
    from counts.models import BoxExchange, Drop
    from floor import services as floor_services
    from floor.models import TableInventory
    from tests.factories import TableFactory, make_person

    from .conftest import TRAY

    count_services.update_count_settings(
        acting_user=cast[Role.GAMING_MANAGER].user, site=site, box_exchange=BoxExchange.DEALER_SHIFT
    )
    table = dealer_shift.table
    box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
    newcomer = make_person(org, Role.DEALER, site)
    pins.set_pin(acting_user=newcomer.user, employee=newcomer, pin="640296")
    manager = cast[Role.SHIFT_MANAGER]
    bare = TableFactory(site=site, number=2, min_wager_cents=100, max_wager_cents=2500)  # no box registered
    floor_services.record_table_inventory(acting_user=manager.user, table=bare, kind="opener", chips=TRAY)
    dealing = make_person(org, Role.DEALER, site)  # no PIN: not offered to seat at table 1
    floor_services.start_dealer_shift(acting_user=manager.user, table=bare, dealer=dealing)
    page = browser_page
    login(page, live_server, *terminal)

    # A table with no box registered: its change says why, naming the rule, and sends nothing.
    page.click("#pit-table-2 .pit-seat")
    expect(page.locator("#pit-box-refusal")).to_contain_text(
        "House control: " + site.name + " exchanges the drop box at each dealer change, and table 2 has no drop box"
    )
    assert page.locator("#pit-submit").count() == 0
    page.click("#pit-cancel")

    person = Counted(page)
    person.click("#pit-table-1 .pit-seat")
    expect(page.locator("#pit-box-at-change")).to_contain_text("House control: ")
    expect(page.locator("#pit-box-at-change")).to_contain_text("ND 99-01.3-08-14")
    expect(page.locator("#pit-box-removed")).to_have_text(
        f"Removed with this change: {box}, credited to {cast[Role.DEALER]}'s shift."
    )
    assert page.locator("#pit-box-at-change-link").count() == 0  # no other page to go to
    assert badges(page, "key-holder") == [cast[Role.COUNT_TEAM].initials]
    assert page.is_checked(f"#pit-key-holder-{cast[Role.COUNT_TEAM].pk}")  # the only count team member
    assert page.input_value("#pit-storage-place") == "Office safe"
    assert badges(page, "dealer") == [newcomer.initials]  # the dealer dealing is not offered
    assert page.evaluate("document.activeElement.id") == "pit-qty-10000"  # the tray's largest chip first
    person.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pit-qty-2500"
    person.type("38")
    expect(page.locator("#pit-total")).to_have_text("Total $950.00", use_inner_text=True)
    person.click(f"label[for=pit-escort-{cast[Role.CASHIER].pk}]")
    person.click(f"label[for=pit-dealer-{newcomer.pk}]")
    assert page.evaluate("document.activeElement.id") == "pit-pin"  # the shift manager preselected
    person.type(PINS[Role.SHIFT_MANAGER], pin=True)
    person.press("Enter")
    expect(page.locator("#pit-flash")).to_have_text(
        f"{newcomer.initials} is dealing at table 1; {box} removed to Office safe; the tray counted $950.00 at the "
        "change."
    )
    change = TableInventory.objects.get(table=table, kind=TableInventory.Kind.CHANGE)
    assert (change.total_cents, change.dealer_shift.dealer) == (95000, newcomer)
    drop = Drop.objects.get(drop_box=box)  # credited to the outgoing dealer's shift
    assert (drop.dealer_shift_id, drop.removal.escorted_by, drop.removal.transported_by) == (
        dealer_shift.pk,
        cast[Role.CASHIER],
        manager,
    )

    # The measure: the two clicks of a change without a count and the escort's tap, the chips' keys
    # and Enter; one page, one PIN (before: 10 clicks over two pages, and two PINs).
    keys = person.keys - person.pin_keys
    print(
        f"change of dealer removing the box, with a tray count: {person.clicks} clicks, {keys} keystrokes besides the PIN"
    )
    assert person.clicks == 3
    assert keys == 4  # a Tab to the $25 chips, "38", Enter
