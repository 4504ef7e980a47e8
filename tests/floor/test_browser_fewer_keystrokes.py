"""Fewer keystrokes in Chromium: the day-open form proposes the next gaming date, an opener is
recorded as the last closer in one click, and a fill is typed in dollars with the toggle (an
amount that is no whole number of chips is refused inline, naming the denomination)."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from cardroom.models import Role
from floor import services
from floor.models import GamingDay, Slip, TableInventory
from tests.browser_support import chromium_page, login

from .conftest import TRAY, closed_last_night, in_day, today


@pytest.mark.browser
def test_open_the_proposed_day_copy_the_last_closer_and_fill_in_dollars(
    browser_page, live_server, cast, table, chips, site, shift_manager
):
    page, user = browser_page, shift_manager.user
    before = today(site) - timedelta(days=1)  # over: its records give their times
    yesterday = services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before, 1))
    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY, at=in_day(site, before))
    services.record_table_inventory(
        acting_user=user, table=table, kind="closer", chips=TRAY, at=in_day(site, before, 12)
    )
    services.close_gaming_day(acting_user=user, gaming_day=yesterday)

    # The day-open form proposes today, the day after the latest opened: one click opens it.
    login(page, live_server, user.username)
    page.goto(f"{live_server.url}/floor/")
    assert page.input_value("#id_gaming_date") == str(today(site))
    # From /floor/ back to /floor/: wait_for_url would return at once, before the day is open.
    with page.expect_navigation(url=f"{live_server.url}/floor/"):
        page.click("#open-day-form button")
    assert GamingDay.objects.filter(site=site, gaming_date=today(site)).exists()

    # The opener form starts from the last closer; one click records the opener as it.
    page.goto(f"{live_server.url}/floor/tables/{table.pk}/opener/")
    assert page.input_value("#id_qty_2500") == "40"
    expect(page.locator("#grand-total")).to_have_text("$2,000.00")  # chip_grid.js's sum
    expect(page.locator("#variance-flag")).to_be_hidden()
    page.click("#same-as-last")
    page.wait_for_url(f"{live_server.url}/floor/tables/{table.pk}/dealer/")  # its next step: seat a dealer
    opener = TableInventory.objects.get(kind="opener", gaming_day__gaming_date=today(site))
    assert (opener.total_cents, opener.variance_cents) == (200000, 0)
    assert dict(opener.lines.values_list("value_cents", "quantity")) == {2500: 40, 500: 160, 100: 200}

    # A fill typed in dollars: the toggle shows the dollar boxes, the totals follow.
    page.goto(f"{live_server.url}/floor/slips/new/fill/")
    page.select_option("#id_table", str(table.pk))
    page.select_option("#id_cashier", str(cast[Role.CASHIER].pk))
    page.fill("#id_qty_500", "4")
    page.click("label[for=entry-amounts]")
    expect(page.locator("#id_qty_2500")).to_be_hidden()
    expect(page.locator("#id_amount_2500")).to_be_visible()
    expect(page.locator("#id_amount_500")).to_have_value("20.00")  # what was typed carries over
    expect(page.locator("#entry-heading")).to_have_text("Dollars")
    page.fill("#id_amount_2500", "30")
    expect(page.locator("#grand-total")).to_have_text("$50.00")
    page.click("#prepare")
    expect(page.locator("#error-amounts")).to_contain_text(
        "$30.00 is not a whole number of $25.00 chips; give a multiple of $25.00."
    )
    expect(page.locator("#id_amount_2500")).to_be_visible()  # the boxes come back in dollars
    page.fill("#id_amount_2500", "1,250")
    expect(page.locator("#line-2500")).to_have_text("$1,250.00")
    expect(page.locator("#grand-quantity")).to_have_text("54")
    page.click("#prepare")
    page.wait_for_url(re.compile(r"/floor/slips/\d+/$"))
    slip = Slip.objects.get(kind="fill")
    assert dict(slip.lines.values_list("value_cents", "quantity")) == {2500: 50, 500: 4}
    assert page.text_content("#slip-total") == "$1,270.00"


@pytest.mark.browser
def test_the_grid_cannot_be_typed_in_before_its_script_has_run(
    browser_page, live_server, cast, table, chips, site, shift_manager
):
    """A slow page at the pit: chip_grid.js loads in the head, as the count page's script, so
    while it is on its way there is no grid to type in or toggle to click (before, it came at the
    end of the page: a quantity typed and "Dollar amounts" chosen before it ran left the quantity
    boxes showing and the total at $0.00). Once it has run, the toggle carries what was typed."""
    page, user = browser_page, shift_manager.user
    services.open_gaming_day(acting_user=user, site=site, gaming_date=today(site))
    login(page, live_server, user.username)
    held = []
    page.route("**/chip_grid*.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/floor/slips/new/fill/", wait_until="commit")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the script was not held back"
    page.wait_for_timeout(300)  # time enough to parse a page whose script came after the grid
    assert page.evaluate("document.getElementById('chip-grid') === null"), "the grid was there before its script"
    held[0].continue_()
    page.fill("#id_qty_500", "4")
    expect(page.locator("#grand-total")).to_have_text("$20.00")
    page.click("label[for=entry-amounts]")
    expect(page.locator("#id_amount_500")).to_be_visible()
    expect(page.locator("#id_amount_500")).to_have_value("20.00")
    expect(page.locator("#id_qty_500")).to_be_hidden()
    expect(page.locator("#entry-heading")).to_have_text("Dollars")
    expect(page.locator("#grand-total")).to_have_text("$20.00")


@pytest.mark.browser
def test_a_night_opens_each_table_in_one_tap_on_the_floor(browser_page, live_server, table, chips, site, shift_manager):
    """From the shift manager's home, the day opens in 2 clicks and each table whose tray is as it
    was left in 1 (it was 2: the opener's page, then its button), counted as the browser_support
    journeys count."""
    from tests.browser_support import Counted

    page, user = browser_page, shift_manager.user
    before = today(site) - timedelta(days=1)
    yesterday = services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before, 1))
    for kind, hours in (("opener", 2), ("closer", 12)):
        services.record_table_inventory(
            acting_user=user, table=table, kind=kind, chips=TRAY, at=in_day(site, before, hours)
        )
    services.close_gaming_day(acting_user=user, gaming_day=yesterday)
    login(page, live_server, user.username)
    person = Counted(page)
    person.click("text=Open a gaming day")
    page.wait_for_url(re.compile(r"/floor/"))
    with page.expect_navigation(url=f"{live_server.url}/floor/"):
        person.click("#open-day-form button")
    with page.expect_navigation(url=f"{live_server.url}/floor/tables/{table.pk}/dealer/"):
        person.click("#open-same-1")  # and on to the table's next step, seating its dealer
    page.goto(f"{live_server.url}/floor/")
    expect(page.locator("#table-1 .table-status")).to_have_text("open")
    assert (person.clicks, person.keys) == (3, 0)
    opener = TableInventory.objects.get(kind="opener", gaming_day__gaming_date=today(site))
    assert (opener.total_cents, opener.variance_cents) == (200000, 0)


def shot(page, name: str) -> None:
    """A look at the step for whoever reads the journey (/tmp/night-<name>.png)."""
    page.screenshot(path=f"/tmp/night-{name}.png", full_page=True)


@pytest.mark.browser
def test_a_table_s_night_takes_ten_clicks_and_its_dealer_receives_a_fill_in_two(
    browser_page, live_server, cast, table, chips, site, shift_manager
):
    """The shift manager's night of a table at /floor/, counted as the README's table counts it
    (a choice in a list is a click): opener, seat a dealer, a fill of one denomination, a closer
    of three, 10 clicks and 10 keystrokes (13 before: the opener now lands on seating its dealer,
    the fill form's cursor is in the table's last fill's denomination, the closer's in the opener's
    first). Nothing signed or typed is left out: the dealer chosen, the fill's quantity and its
    cashier named, the closer's every figure. The dealer then receives the fill from their home in
    2 clicks (4 before: the Chips menu, Slips waiting, the slip, Receive), reading the slip first."""
    from tests.browser_support import Counted

    page, user, dealer = browser_page, shift_manager.user, cast[Role.DEALER]
    before = today(site) - timedelta(days=1)
    yesterday = services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before, 1))
    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY, at=in_day(site, before))
    services.start_dealer_shift(  # ended by the closer
        acting_user=user, table=table, dealer=dealer, started_at=in_day(site, before, 2.5)
    )
    last = services.prepare_fill(  # last night's fill: $25 chips, received
        acting_user=cast[Role.CASHIER].user,
        table=table,
        chips=[{"denomination": 2500, "quantity": 8}],
        at=in_day(site, before, 3),
    )
    # Signed on that night, from paper: a receipt signed now would follow the closer that ends the
    # dealer's shift (floor.services.steps._signed_as_the_tables_dealer_after).
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=last, at=in_day(site, before, 3.2))
    services.receive_slip(acting_user=dealer.user, slip=last, at=in_day(site, before, 3.4))
    services.record_table_inventory(
        acting_user=user, table=table, kind="closer", chips=TRAY, at=in_day(site, before, 12)
    )
    services.close_gaming_day(acting_user=user, gaming_day=yesterday)
    services.open_gaming_day(acting_user=user, site=site, gaming_date=today(site))
    login(page, live_server, user.username)
    page.goto(f"{live_server.url}/floor/")
    person = Counted(page)

    # Opener: one tap, and the table's dealer page is next, the table chosen.
    person.click("#open-same-1")
    page.wait_for_url(f"{live_server.url}/floor/tables/{table.pk}/dealer/")
    shot(page, "1-seat-dealer")
    page.select_option("#id_dealer", str(dealer.pk))
    person.clicks += 1  # the choice in the list
    with page.expect_navigation(url=f"{live_server.url}/floor/"):
        person.click("#dealer-form button[type=submit]")
    expect(page.locator("#table-1 td[data-label=Dealer]")).to_contain_text(str(dealer))

    # Fill: the cursor waits in the $25 box (last night's fill), the site's one cashier named.
    person.click("#table-1 >> text=Fill")
    page.wait_for_url(re.compile(r"/floor/slips/new/fill/"))
    expect(page.locator("#id_qty_2500")).to_be_focused()
    assert page.input_value("#id_cashier") == str(cast[Role.CASHIER].pk)
    person.type("20")
    expect(page.locator("#grand-total")).to_have_text("$500.00")
    shot(page, "2-fill")
    person.click("#prepare")
    page.wait_for_url(re.compile(r"/floor/slips/\d+/$"))
    slip = Slip.objects.get(kind="fill", gaming_day__gaming_date=today(site))
    person.click("#back-to-floor")
    page.wait_for_url(f"{live_server.url}/floor/")

    # The dealer at the table receives it, once verified: from their home, one tap to the slip.
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=slip)
    with chromium_page() as at_table:
        login(at_table, live_server, dealer.user.username)
        dealing = Counted(at_table)
        expect(at_table.locator(f"#to-receive-{slip.pk}")).to_be_visible()
        shot(at_table, "4-dealer-home")
        dealing.click(f"#to-receive-{slip.pk}")
        at_table.wait_for_url(f"{live_server.url}/floor/slips/{slip.pk}/")
        expect(at_table.locator("#slip-total")).to_have_text("$500.00")  # read before it is received
        dealing.click("#receive")
        expect(at_table.locator(f"text=Fill slip {slip.number}: received.")).to_be_visible()
        assert dealing.clicks == 2
    assert Slip.objects.get(pk=slip.pk).status == "received"

    # Closer: the cursor in the opener's first denomination ($1); each figure typed.
    person.click("#table-1 >> text=Close table")
    page.wait_for_url(re.compile(r"/closer/$"))
    expect(page.locator("#id_qty_100")).to_be_focused()
    assert page.input_value("#id_qty_100") == ""
    person.type("200")
    for box, figure in (("#id_qty_500", "160"), ("#id_qty_2500", "60")):
        person.click(box)
        person.type(figure)
    shot(page, "3-closer")
    with page.expect_navigation(url=f"{live_server.url}/floor/"):
        person.click("button[type=submit]")
    closer = TableInventory.objects.get(kind="closer", gaming_day__gaming_date=today(site))
    assert dict(closer.lines.values_list("value_cents", "quantity")) == {2500: 60, 500: 160, 100: 200}
    print(f"a table's night: {person.clicks} clicks, {person.keys} keystrokes")
    assert (person.clicks, person.keys) == (10, 10)


@pytest.mark.browser
@pytest.mark.parametrize("openers_first", [True, False], ids=["every-opener-first", "each-table-seated-at-once"])
def test_three_tables_opened_and_seated_in_either_order_cost_no_more_than_from_the_floor(
    browser_page, live_server, cast, table, chips, site, shift_manager, openers_first
):
    """Three tables whose trays are as they were left, each opened and its dealer seated. An opener
    lands on seating the table's dealer, whose page opens the next table without an opener in one
    tap (`#open-next-table`): every opener first, then every dealer, 11 clicks; each table opened
    and seated at once, 9. From the floor, with the opener landing there, both took 12 (3 one-tap
    openers, then each table's Dealers, its dealer chosen, Seat dealer); with the landing and no
    such tap, every opener first took 13, going back to the floor between openers. On a phone."""
    from tests.browser_support import Counted
    from tests.factories import TableFactory, make_person

    page, user = browser_page, shift_manager.user
    tables = [table, TableFactory(site=site, number=2), TableFactory(site=site, number=3)]
    closed_last_night(site, user, tables)
    dealers = [cast[Role.DEALER], *(make_person(site.organization, Role.DEALER, site) for _ in range(2))]
    page.set_viewport_size({"width": 390, "height": 844})  # a shift manager's phone
    login(page, live_server, user.username)
    page.goto(f"{live_server.url}/floor/")
    person = Counted(page)

    def seat(at, dealer):  # on the table's seating page: its dealer chosen, seated
        page.select_option("#id_dealer", str(dealer.pk))
        person.clicks += 1  # the choice in the list
        with page.expect_navigation(url=f"{live_server.url}/floor/"):
            person.click("#dealer-form button[type=submit]")
        expect(page.locator(f"#table-{at.number} td[data-label=Dealer]")).to_contain_text(str(dealer))

    for at, dealer in zip(tables, dealers, strict=True):
        if at is table or not openers_first:
            person.click(f"#open-same-{at.number}")  # on the floor
        else:
            expect(page.locator("#open-next-table")).to_have_text(
                f"Open table {at.number} next (as last closer, $2,000.00)"
            )
            shot(page, f"5-open-table-{at.number}-next")
            person.click("#open-next-table")  # on the last table's seating page
        page.wait_for_url(f"{live_server.url}/floor/tables/{at.pk}/dealer/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing off the screen
        if not openers_first:
            seat(at, dealer)
    if openers_first:
        expect(page.locator("#open-next-table")).to_have_count(0)  # every table is open
        seat(tables[2], dealers[2])  # the page the last opener left open
        for at, dealer in zip(tables[:2], dealers[:2], strict=True):
            with page.expect_navigation(url=f"{live_server.url}/floor/tables/{at.pk}/dealer/"):
                person.click(f"#table-{at.number} >> text=Dealers")
            seat(at, dealer)
    assert TableInventory.objects.filter(kind="opener", gaming_day__gaming_date=today(site)).count() == 3
    print(f"three tables, {'every opener first' if openers_first else 'each seated at once'}: {person.clicks} clicks")
    assert (person.clicks, person.keys) == ((11, 0) if openers_first else (9, 0))
