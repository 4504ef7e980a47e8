"""Playwright in Debian's Chromium, shared by every browser journey.

Use it with pytest-django's `live_server`:

    from tests.browser_support import browser_page, login  # noqa: F401

    @pytest.mark.browser
    def test_something(browser_page, live_server, cast):  # noqa: F811 (ruff sees the import redefined)
        login(browser_page, live_server, cast[Role.SHIFT_MANAGER].user.username)

Never run `playwright install`: it downloads a browser of its own and fails here. Without
/usr/bin/chromium the journey is skipped, except in CI (`CI=true`), where that is a failure.
"""

import os

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


def require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    reason = f"{CHROMIUM} is missing: apt-get install chromium (never `playwright install`)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def browser_page():
    """A fresh page in a headless Chromium, closed after the test."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            yield page
        finally:
            context.close()
            browser.close()


def login(page, live_server, username: str, password: str = PASSWORD) -> None:
    """Log in through the login form and wait for the home page."""
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def logout(page, live_server) -> None:
    page.goto(f"{live_server.url}/")
    page.click("#logout")
    page.wait_for_load_state()
