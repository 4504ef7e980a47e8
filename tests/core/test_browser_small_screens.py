"""Every page usable on a phone (390 x 844) and the pit view on a 1024 x 768 tablet (issue 15),
in Chromium on demo-like data (the demo's builders, its last play night at every site, and a
gaming day in play at the Bismarck Elks Lodge): for every role and for a station (a shared
terminal), no page it reaches scrolls sideways and its primary buttons are on the screen; on
the floor the Fill and Credit buttons are on the screen.

The pages walked are those the user reaches, found as `benchmarks.pages.discover` finds them
(every route of the URL conf, its parameters filled from the links the pages show), in the
browser's own session: no hand-kept list. The demo-like data take a minute to build, so they are
built once for the module and served by a live server of the module's own (pytest-django's
`live_server` would empty the database after each test)."""

from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection
from django.test import Client, override_settings
from django.test.utils import setup_databases, teardown_databases
from django.utils import timezone

from cardroom.demo import DEMO_PASSWORD
from cardroom.models import Employee, Site
from core.appendonly import set_guard_lifted
from floor import queries, services
from floor.calculations import business_date
from tests.browser_support import PHONE, layout, layout_problems, login, on_screen, overflow

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
TABLET = {"width": 1024, "height": 768}
TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}]
# A demo login for each role, and the busy site's pit terminal (a station); the fewest full
# pages each reaches (a walk that finds almost nothing proves nothing).
USERS = {  # walked on 2026-11-25: 55, 40, 41, 19, 17, 9, 8 and 12 pages
    "gm": 50,  # gaming manager, every site
    "auditor": 36,
    "shift": 36,  # shift manager
    "pitboss": 16,
    "cashier": 15,
    "count1": 8,  # count team member
    "dealer": 7,
    "pit1": 5,  # station, a pit terminal: its home is its pit (issue 33), the count pages not its own
    "tablet1": 2,  # station, a count tablet: its home is the count sessions
}


@pytest.fixture(scope="module")
def demo_room(django_db_setup, django_db_blocker):
    """The demo's last night at every site, and tonight at the Elks Lodge (a gaming day open,
    tables opened with a dealer seated at each), behind a live server; emptied at the end."""
    from pytest_django.live_server_helper import LiveServer

    # The tests' own hasher (tests/conftest.py), for the passwords the demo sets here.
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS), database_for_the_module():
        site = _tonight_at_the_lodge()
        server = LiveServer("localhost")
        server._live_server_modified_settings.enable()
        try:
            yield server, site
        finally:
            server._live_server_modified_settings.disable()
            server.stop()
            set_guard_lifted(connection, True)  # the append-only triggers let the flush through
            call_command("flush", interactive=False, verbosity=0)
            set_guard_lifted(connection, False)


@contextmanager
def database_for_the_module():
    """pytest-django sets up the test database only for a run with a test that asks for it (the
    `db` fixtures, which would empty it after each test): when this module runs alone, set it
    up here."""
    if connection.settings_dict["NAME"] == connection.creation._get_test_db_name():
        yield
        return
    created = setup_databases(verbosity=0, interactive=False, aliases={DEFAULT_DB_ALIAS})
    try:
        yield
    finally:
        teardown_databases(created, verbosity=0)


def _tonight_at_the_lodge() -> Site:
    from benchmarks.pages import load_nights
    from floor.demo import people_at

    load_nights(1)
    site = Site.objects.get(name__startswith="Bismarck")
    people = people_at(site)
    shift = Employee.objects.get(user__username="shift")
    gaming_date = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    services.open_gaming_day(acting_user=shift.user, site=site, gaming_date=gaming_date)
    for table, dealer in zip(
        site.tables.filter(active=True, game="21").order_by("number")[:3], people["dealer"], strict=False
    ):
        services.record_table_inventory(acting_user=shift.user, table=table, kind="opener", chips=same_as_last(table))
        services.start_dealer_shift(acting_user=shift.user, table=table, dealer=dealer)
    return site


def same_as_last(table) -> list[dict]:
    """The opener that matches the table's last closer (no variance to explain)."""
    last = queries.last_tray_count(table)
    if last is None:
        return TRAY
    return [{"denomination": line.value_cents, "quantity": line.quantity} for line in last.lines.all()]


def sign_in_at(page, server, username: str, site: Site) -> None:
    """Sign in; one who works at several sites chooses the site in play (the site switcher)."""
    login(page, server, username, DEMO_PASSWORD)
    switcher = page.locator("#site-select")
    if switcher.count() and switcher.input_value() != str(site.pk):
        with page.expect_navigation():
            switcher.select_option(str(site.pk))


def pages_of(page) -> list[str]:
    """What the browser's user reaches: discovered with a client in the browser's own session."""
    from benchmarks.pages import discover

    client = Client()
    session = next(c for c in page.context.cookies() if c["name"] == "sessionid")
    client.cookies["sessionid"] = session["value"]
    return discover(client, pages_only=True)


# Issue 33: at 1366 px the navbar is expanded (every menu in one row) and the widest tables show
# in full (the navbar was 5 px too wide, /dashboard/quarter/ 1,448 px): checked for the two who
# reach the most and the widest pages.
LAPTOP = {"width": 1366, "height": 768}
ALSO_ON_A_LAPTOP = ("gm", "auditor")


@pytest.mark.browser
@pytest.mark.parametrize("username", USERS)
def test_every_page_a_user_reaches_fits_a_phone_and_a_managers_a_1366_pixel_laptop(browser_page, demo_room, username):
    """Each page is loaded once: checked at 390 px, then, for the managers, widened to 1366 px
    and checked again. Widening reflows the page without reloading it (the navbar expands by its
    CSS breakpoint, `navbar-expand-xl`; no script of the app reads the width at load), so the
    laptop sees what a fresh load at 1366 px shows, and the expanded navbar is checked to be what
    is measured."""
    server, site = demo_room
    page = browser_page
    sign_in_at(page, server, username, site)
    menu = page.eval_on_selector_all("#nav a.dropdown-item", "links => links.map((a) => a.getAttribute('href'))")
    paths = pages_of(page)
    # Every entry of the user's menu is walked: the CSP walk (tests/core/test_csp.py) leaves the
    # menu's pages to this one, whose page fails on any policy violation (tests/browser_support.watch).
    assert set(menu) <= set(paths), sorted(set(menu) - set(paths))
    assert bool(menu) == (username not in ("pit1", "tablet1"))  # a station's pages are its kind's, no menu
    problems, walked = [], 0
    for path in paths:
        if page.viewport_size != PHONE:
            page.set_viewport_size(PHONE)
        response = page.goto(f"{server.url}{path}")
        assert response.status == 200, path
        measured = layout(page)  # every measure of the page in one round trip, once it settled
        if not measured["navbar"]:
            continue  # a fragment a page loads (htmx): measured inside that page
        walked += 1
        problems += layout_problems(page, measured)
        if username in ALSO_ON_A_LAPTOP:
            problems += on_a_laptop(page)
    assert walked >= USERS[username], walked
    assert problems == [], "\n".join(problems)
    assert page.problems.console_errors == []  # no script error, no resource refused (tests/core/test_csp.py)


def on_a_laptop(page) -> list[str]:
    """The page, widened to 1366 px, does not scroll sideways, with its navbar expanded."""
    page.set_viewport_size(LAPTOP)
    measured = layout(page)  # settled: the resize observers have run
    assert measured["navbarExpanded"], f"{page.url}: the navbar is not expanded at 1366 px"
    return layout_problems(page, {**measured, "primaryOff": []})


def shift_manager_sees(page, demo_room, viewport: dict, path: str):
    """The shift manager's `path` on a screen of `viewport`'s size, checked not to scroll sideways."""
    server, _ = demo_room
    page.set_viewport_size(viewport)
    login(page, server, "shift", DEMO_PASSWORD)
    page.goto(f"{server.url}{path}")
    assert overflow(page) == []
    return page, server


@pytest.mark.browser
def test_the_floor_fits_a_phone_with_fill_and_credit_on_the_screen(browser_page, demo_room):
    page, server = shift_manager_sees(browser_page, demo_room, PHONE, "/floor/")
    for label in ("Fill", "Credit"):
        buttons = page.locator(f"#tables a.btn:text-is('{label}')")
        assert buttons.count() == 3, label
        for n in range(buttons.count()):
            buttons.nth(n).scroll_into_view_if_needed()
            assert on_screen(page, buttons.nth(n)), f"{label} button {n} is off the screen"
    page.goto(f"{server.url}/floor/pit/")
    assert overflow(page) == []
    fills = page.locator("#pit-tables a.btn:text-is('Fill')")
    assert fills.count() == 3 and all(on_screen(page, fills.nth(n)) for n in range(3))


@pytest.mark.browser
def test_the_pit_view_fits_a_tablet_with_its_tables_side_by_side(browser_page, demo_room):
    page, _ = shift_manager_sees(browser_page, demo_room, TABLET, "/floor/pit/")
    cards = page.locator("#pit-tables .pit-table")
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first["y"] == second["y"] and second["x"] > first["x"]  # a row of tables, not a column
    assert cards.nth(2).bounding_box()["y"] + 40 < TABLET["height"]  # the third table's state is in view
