"""Playwright in Debian's Chromium, shared by every browser journey.

Use it with pytest-django's `live_server`:

    from tests.browser_support import browser_page, login  # noqa: F401

    @pytest.mark.browser
    def test_something(browser_page, live_server, cast):  # noqa: F811 (ruff sees the import redefined)
        login(browser_page, live_server, cast[Role.SHIFT_MANAGER].user.username)

Never run `playwright install`: it downloads a browser of its own and fails here. Without
/usr/bin/chromium the journey is skipped, except in CI (`CI=true`), where that is a failure.

Read what a page's script or an answer from the server changes with Playwright's waiting
assertions (`expect(page.locator(...)).to_have_text(...)`), never with `inner_text` right after
the action: Playwright's `click` does not wait for the page it starts to load, and a page's own
script may run after an input is already filled. They wait up to `EXPECT_TIMEOUT`, as long as
a page's actions (the 5 s default is short for a 2-core CI machine under load).

Every page is watched (`watch`): a Content-Security-Policy violation on any page of any journey
fails the test at teardown; `page.problems.console_errors` lists the console's errors for the
journeys that assert there are none.
"""

import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from tests.factories import PASSWORD

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The live server and the sync Playwright API share this thread's event loop.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
# How long an action or a waiting assertion waits, on a 2-core CI machine running the suite beside Chromium.
EXPECT_TIMEOUT = 15_000


def set_expect_timeout() -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT)


# Runs before the page's own scripts, outside its CSP; reports each violation to Python.
_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => window.reportCspViolation(
  `${location.pathname}: ${event.violatedDirective} refused ${event.blockedURI || "inline"}` +
  (event.sample ? ` (${event.sample})` : "")));
"""


@dataclass
class PageProblems:
    csp_violations: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)


@dataclass
class PageRequests:
    """The page's requests as Playwright reports them: how many were started, which are in flight."""

    started: int = 0
    in_flight: set = field(default_factory=set)

    def start(self, request) -> None:
        self.started += 1
        self.in_flight.add(request)

    def end(self, request) -> None:
        self.in_flight.discard(request)


def watch(page) -> PageProblems:
    """Record `page`'s CSP violations (the DOM event and the console's report of it) and console
    errors, across navigations; also kept as `page.problems`."""
    problems = PageProblems()
    page.expose_function("reportCspViolation", lambda text: problems.csp_violations.append(text))
    page.add_init_script(_REPORT_VIOLATIONS)

    def on_console(message):
        if message.type != "error":
            return
        problems.console_errors.append(f"{page.url}: {message.text}")
        if "Content Security Policy" in message.text:
            problems.csp_violations.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.console_errors.append(f"{page.url}: {error}"))
    page.problems = problems
    requests = PageRequests()
    page.on("request", requests.start)
    page.on("requestfinished", requests.end)
    page.on("requestfailed", requests.end)
    page.requests = requests
    return problems


def require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    reason = f"{CHROMIUM} is missing: apt-get install chromium (never `playwright install`)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


# One Chromium a test process, launched by the first journey and kept for the rest: launching
# Playwright's driver and the browser cost each journey about 2 s (0.9 s of CPU) on the 2-core
# machine, a new context 0.3 s (issue 34). Each journey still gets a context of its own: its
# cookies, storage and cache start empty and are dropped with it.
_SHARED: dict = {}


def shared_browser():
    """The test process's headless Chromium, launched again if it went away."""
    browser = _SHARED.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    if "playwright" not in _SHARED:
        from playwright.sync_api import sync_playwright

        _SHARED["playwright"] = sync_playwright().start()
    browser = _SHARED["playwright"].chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    _SHARED["browser"] = browser
    return browser


def close_shared_browser() -> None:
    """At the end of the process's session, before its test databases are dropped
    (tests/conftest.py). While Playwright's loop runs in this thread, Django's connections are
    other objects than before it started (asgiref's Local keeps them apart): those are closed
    here, then stopping Playwright brings back the ones the databases are dropped with. Left
    open, one of them held the PostgreSQL test database ("being accessed by other users")."""
    browser, playwright = _SHARED.pop("browser", None), _SHARED.pop("playwright", None)
    if browser is not None and browser.is_connected():
        browser.close()
    if playwright is not None:
        from django.db import connections

        connections.close_all()
        playwright.stop()


def new_watched_page(context):
    page = context.new_page()
    page.set_default_timeout(EXPECT_TIMEOUT)
    return page, watch(page)


@contextmanager
def chromium_page(**context_options):
    """A fresh page in a new context (with `context_options`) of the shared headless Chromium,
    watched; the context closed on exit, then any CSP violation it saw fails the test."""
    require_chromium()
    set_expect_timeout()
    context = shared_browser().new_context(**{"viewport": {"width": 1280, "height": 900}, **context_options})
    page, problems = new_watched_page(context)
    try:
        yield page
    finally:
        context.close()
    assert not problems.csp_violations, "Content-Security-Policy violations:\n" + "\n".join(problems.csp_violations)


@pytest.fixture
def browser_page():
    """A fresh page in a headless Chromium, closed after the test."""
    with chromium_page() as page:
        yield page


# Issue 15: "every page usable at 390 px without sideways scrolling".
PHONE = {"width": 390, "height": 844}

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
# The primary buttons of the page's content that are shown (not in a closed menu or dialog) and
# stick out left or right of the screen, even inside a table that scrolls by itself.
PRIMARY_OFF_SCREEN = """() => [...document.querySelectorAll("main .btn-primary")]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .filter((el) => { const r = el.getBoundingClientRect(); return r.left < -0.5 || r.right > window.innerWidth + 0.5; })
  .map((el) => (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " '" + el.textContent.trim().slice(0, 30) + "'")"""

# The buttons shown whose words stand off the middle of their height by more than 3 px (a button
# is at least 2.6rem tall, a touch target: an <a class="btn btn-sm"> had its words at the top);
# measured on the button's own text, not on a visually hidden label inside it.
WORDS_OFF_CENTRE = """() => [...document.querySelectorAll(".btn")]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map((el) => { const texts = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!texts.length) return null;
    const range = document.createRange(); let top = Infinity, bottom = -Infinity;
    for (const text of texts) { range.selectNodeContents(text); const r = range.getBoundingClientRect();
      top = Math.min(top, r.top); bottom = Math.max(bottom, r.bottom); }
    const box = el.getBoundingClientRect(), off = (top + bottom) / 2 - (box.top + box.bottom) / 2;
    return Math.abs(off) > 3 ? (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " '" +
      el.textContent.trim().slice(0, 30) + "' " + Math.round(off) + " px" : null; })
  .filter((found) => found)"""

# The text boxes and lists of a form laid out as a row of fields (`form.row`) that share a line
# of the screen, whose tops differ by more than 3 px: a label wrapping to two lines pushed its
# input below its neighbours' (the fee form's "Rate per seat or player ($):" at 1366 px). A
# checkbox is left out (its label beside it); each such line "#form: names N px".
INPUTS_OFF_LINE = """() => [...document.querySelectorAll("form.row")].flatMap((form) => {
  const lines = new Map();
  for (const col of form.children) {
    const control = col.querySelector(":scope > input:not([type=hidden]):not([type=checkbox]):not([type=radio]), " +
      ":scope > select, :scope > textarea");
    if (!control || !control.getClientRects().length) continue;
    const top = Math.round(col.getBoundingClientRect().top);
    lines.set(top, [...(lines.get(top) || []), control]);
  }
  return [...lines.values()].filter((controls) => controls.length > 1).map((controls) => {
    const tops = controls.map((c) => c.getBoundingClientRect().top);
    const spread = Math.max(...tops) - Math.min(...tops);
    return spread > 3 ? "#" + form.id + ": " + controls.map((c) => c.name).join(", ") + " " + Math.round(spread) + " px" : null;
  }).filter((found) => found);
})"""

# Two animation frames: the page has laid out and painted what its scripts last changed (and
# its resize observers have run: Chart.js redraws its canvases).
SETTLED = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def settle(page) -> None:
    """Wait for the page's loaded state: its load event (its CSS and scripts), then a whole round
    of two animation frames with no request in flight at its start or end and none started
    during it. What the app loads after its load event (htmx's `load` triggers, the dashboard's
    chart data, the fragments those bring) is requested before that event or from an answer's
    handler, so it is waited for, to its last byte and its layout. Playwright's "networkidle"
    waited a fixed 500 ms of quiet on every page (30 s of the gaming manager's 54 s walk); no
    script of the app starts a request on a timer shorter than a second (polls every 1 s or
    more, the pit terminal's outbox every `PIT_OUTBOX_RETRY_SECONDS`), so neither wait covers
    those. A page opened without `watch` falls back to networkidle."""
    page.wait_for_load_state("load")
    requests = getattr(page, "requests", None)
    if requests is None:
        page.wait_for_load_state("networkidle")
        return
    deadline = time.monotonic() + EXPECT_TIMEOUT / 1000
    while True:
        quiet, started = not requests.in_flight, requests.started
        page.evaluate(SETTLED)  # Playwright reports the requests started meanwhile before this returns
        if quiet and not requests.in_flight and requests.started == started:
            return
        assert time.monotonic() < deadline, f"{page.url}: requests still in flight: {requests.in_flight}"


# A page's layout read in one round trip: whether it is a full page (a navbar; else a fragment a
# page loads) and its navbar expanded (its toggler hidden, its menus #nav shown, as Playwright's
# `is_visible` sees them: a box of some size, not `visibility: hidden`), its widths, the culprits
# when it scrolls sideways, its primary buttons off the screen, its buttons' words off centre and
# its forms' fields off their line.
LAYOUT = f"""() => {{
  const shown = (el) => {{ if (!el) return false; const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden"; }};
  const [scrollWidth, innerWidth] = [document.scrollingElement.scrollWidth, window.innerWidth];
  return {{navbar: document.querySelector("nav.navbar") !== null,
    navbarExpanded: !shown(document.querySelector("nav.navbar .navbar-toggler")) && shown(document.querySelector("#nav")),
    scrollWidth, innerWidth, wide: scrollWidth > innerWidth ? ({WIDE_ELEMENTS})() : [],
    primaryOff: ({PRIMARY_OFF_SCREEN})(), offCentre: ({WORDS_OFF_CENTRE})(), offLine: ({INPUTS_OFF_LINE})()}};
}}"""


def layout(page) -> dict:
    """The page's layout (`LAYOUT`), once it has settled."""
    settle(page)
    return page.evaluate(LAYOUT)


def layout_problems(page, measured: dict) -> list[str]:
    """The page `measured` (`layout`) scrolling sideways, its primary buttons off the screen and
    its buttons' words off the middle of their height, its forms' fields off their line."""
    problems = []
    if measured["scrollWidth"] > measured["innerWidth"]:
        problems.append(
            f"{page.url}: scrollWidth {measured['scrollWidth']} > {measured['innerWidth']}: {measured['wide']}"
        )
    if measured["primaryOff"]:
        problems.append(f"{page.url}: primary buttons off the screen: {measured['primaryOff']}")
    if measured["offCentre"]:
        problems.append(f"{page.url}: buttons' words off the middle of their height: {measured['offCentre']}")
    if measured["offLine"]:
        problems.append(f"{page.url}: a form's fields off their line: {measured['offLine']}")
    return problems


def overflow(page) -> list[str]:
    """Empty when the page does not scroll sideways; else its widths and the widest culprits."""
    measured = layout(page)
    return layout_problems(page, {**measured, "primaryOff": []})


def on_screen(page, locator) -> bool:
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def scrolled_on_screen(page, selector: str) -> list[tuple[str, bool]]:
    """Each element of `selector` scrolled into view, and whether it then lies within the screen's
    width (as `on_screen`): its text and the answer. In one script, so a board that polls and swaps
    itself in place cannot replace the elements between the scroll and the reading (a locator's
    scroll then met an element no longer in the page)."""
    found = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map((element) => {
            element.scrollIntoView({block: "nearest", inline: "nearest"});
            const box = element.getBoundingClientRect();
            return [element.textContent.trim(), box.width > 0 && box.x >= 0 && box.x + box.width <= window.innerWidth];
        })""",
        selector,
    )
    return [(text, fits) for text, fits in found]


def login(page, live_server, username: str, password: str = PASSWORD) -> None:
    """Log in through the login form and wait for the home page (a station's is its pit view, a
    count tablet's its count sessions, a state registry's staff's its licensees)."""
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit], input[type=submit]")
    homes = ("/", "/floor/pit/", "/counts/", "/registry/")
    page.wait_for_url(lambda url: url in {f"{live_server.url}{home}" for home in homes})


def logout(page, live_server) -> None:
    """Log out and wait for the login page it leads to (`wait_for_load_state` right after the
    click saw the page before it, and the next `goto` could cancel the logout)."""
    page.goto(f"{live_server.url}/")
    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/login/")


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
