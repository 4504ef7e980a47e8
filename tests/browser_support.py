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
    return problems


def require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    reason = f"{CHROMIUM} is missing: apt-get install chromium (never `playwright install`)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@contextmanager
def chromium_page(**context_options):
    """A fresh page in a headless Chromium (a new context with `context_options`), watched;
    closed on exit, then any CSP violation it saw fails the test."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    set_expect_timeout()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, **context_options)
        page = context.new_page()
        page.set_default_timeout(EXPECT_TIMEOUT)
        problems = watch(page)
        try:
            yield page
        finally:
            context.close()
            browser.close()
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


def overflow(page) -> list[str]:
    """Empty when the page does not scroll sideways; else its widths and the widest culprits."""
    page.wait_for_load_state("networkidle")
    widths = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    if widths[0] <= widths[1]:
        return []
    return [f"{page.url}: scrollWidth {widths[0]} > {widths[1]}: {page.evaluate(WIDE_ELEMENTS)}"]


def primary_buttons_off_screen(page) -> list[str]:
    off = page.evaluate(PRIMARY_OFF_SCREEN)
    return [f"{page.url}: primary buttons off the screen: {off}"] if off else []


def on_screen(page, locator) -> bool:
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def login(page, live_server, username: str, password: str = PASSWORD) -> None:
    """Log in through the login form and wait for the home page (a station's is its pit view)."""
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(lambda url: url in (f"{live_server.url}/", f"{live_server.url}/floor/pit/"))


def logout(page, live_server) -> None:
    """Log out and wait for the login page it leads to (`wait_for_load_state` right after the
    click saw the page before it, and the next `goto` could cancel the logout)."""
    page.goto(f"{live_server.url}/")
    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/login/")
