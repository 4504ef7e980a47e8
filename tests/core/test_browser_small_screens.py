"""Every page usable on a phone (390 x 844) and the pit view on a 1024 x 768 tablet (issue 15),
in Chromium on demo-like data (the demo's builders, its last play night at every site, and a
gaming day in play at the Bismarck Elks Lodge): no page scrolls sideways, and on the floor the
Fill and Credit buttons are on the screen."""

import pytest
from django.utils import timezone

from cardroom.demo import DEMO_PASSWORD
from cardroom.models import Employee, Site
from floor import queries, services
from floor.calculations import business_date
from tests.browser_support import login

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
# Pages the issue names beside what the navigation links to.
NAMED_PAGES = ["/", "/accounting/floor/", "/accounting/register/", "/figures/daily/", "/figures/quarter/"]
TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}]

# What sticks out past the viewport's right edge, outside any element that scrolls by itself:
# named in the failure so the culprit is found without a screenshot.
WIDE_ELEMENTS = """() => {
  const width = window.innerWidth;
  const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p).overflowX; if (s === "auto" || s === "scroll" || s === "hidden") return true; }
    return false; };
  return [...document.body.querySelectorAll("*")]
    .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !scrolls(el))
    .slice(0, 5).map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "") +
      " right=" + Math.round(el.getBoundingClientRect().right));
}"""


@pytest.fixture
def demo_in_play(transactional_db):
    """The demo's last night at every site, and tonight at the Elks Lodge: a gaming day open,
    tables opened with a dealer seated at each."""
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


def overflow(page) -> list[str]:
    """Empty when the page does not scroll sideways; else its widths and the widest culprits."""
    page.wait_for_load_state("networkidle")
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if fits:
        return []
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return [f"{page.url}: scrollWidth {widths[0]} > {widths[1]}: {page.evaluate(WIDE_ELEMENTS)}"]


def on_screen(page, locator) -> bool:
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.browser
def test_every_page_of_the_gaming_managers_menu_fits_a_phone(browser_page, live_server, demo_in_play):
    page = browser_page
    login(page, live_server, "gm", DEMO_PASSWORD)
    with page.expect_navigation():
        page.select_option("#site-select", str(demo_in_play.pk))  # the site in play, from the wide menu
    page.set_viewport_size(PHONE)
    menu = page.eval_on_selector_all("#nav .dropdown-item", "links => links.map((a) => a.getAttribute('href'))")
    assert len(menu) >= 15, menu
    problems = []
    for path in dict.fromkeys(NAMED_PAGES + menu):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        problems += overflow(page)
    assert problems == [], "\n".join(problems)


@pytest.mark.browser
def test_the_floor_fits_a_phone_with_fill_and_credit_on_the_screen(browser_page, live_server, demo_in_play):
    page = browser_page
    page.set_viewport_size(PHONE)
    login(page, live_server, "shift", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/accounting/floor/")
    assert overflow(page) == []
    for label in ("Fill", "Credit"):
        buttons = page.locator(f"#tables a.btn:text-is('{label}')")
        assert buttons.count() == 3, label
        for n in range(buttons.count()):
            buttons.nth(n).scroll_into_view_if_needed()
            assert on_screen(page, buttons.nth(n)), f"{label} button {n} is off the screen"
    page.goto(f"{live_server.url}/accounting/pit/")
    assert overflow(page) == []
    fills = page.locator("#pit-tables a.btn:text-is('Fill')")
    assert fills.count() == 3 and all(on_screen(page, fills.nth(n)) for n in range(3))


@pytest.mark.browser
def test_the_shift_managers_pages_and_the_floors_forms_fit_a_phone(browser_page, live_server, demo_in_play):
    page = browser_page
    page.set_viewport_size(PHONE)
    login(page, live_server, "shift", DEMO_PASSWORD)
    menu = page.eval_on_selector_all("#nav .dropdown-item", "links => links.map((a) => a.getAttribute('href'))")
    page.goto(f"{live_server.url}/accounting/floor/")
    row_links = page.eval_on_selector_all("#tables a", "links => links.map((a) => a.getAttribute('href'))")
    assert len(row_links) >= 12, row_links  # dealers, close table, fill and credit at three tables
    problems = []
    for path in dict.fromkeys(menu + row_links + ["/signing-pin/"]):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        problems += overflow(page)
    assert problems == [], "\n".join(problems)


@pytest.mark.browser
def test_the_pit_view_fits_a_tablet_with_its_tables_side_by_side(browser_page, live_server, demo_in_play):
    page = browser_page
    page.set_viewport_size(TABLET)
    login(page, live_server, "shift", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/accounting/pit/")
    assert overflow(page) == []
    cards = page.locator("#pit-tables .pit-table")
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first["y"] == second["y"] and second["x"] > first["x"]  # a row of tables, not a column
    assert cards.nth(2).bounding_box()["y"] + 40 < TABLET["height"]  # the third table's state is in view
