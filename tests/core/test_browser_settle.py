"""The page walks' wait (`tests.browser_support.settle`) sees what a page loads after its load
event: a fragment its script fetches, and one that fragment's answer fetches in turn (as htmx's
`load` triggers and the dashboard's chart data do), each answered late. A page that grows too
wide only then is reported, as it was when the walks waited for Playwright's "networkidle"."""

import time

import pytest

from tests.browser_support import PHONE, overflow

ORIGIN = "http://walk.test"
PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width"></head>
<body style="margin: 0"><main id="main">narrow</main><script>
  fetch("/first").then((r) => r.text()).then((next) => fetch(next)).then((r) => r.text())
    .then((html) => { document.getElementById("main").insertAdjacentHTML("beforeend", html); });
</script></body></html>"""


def late(body: str):
    def answer(route):
        time.sleep(0.3)  # the server is slow: the answer comes well after the load event
        route.fulfill(status=200, content_type="text/html", body=body)

    return answer


@pytest.mark.browser
def test_a_page_that_grows_too_wide_after_its_load_event_is_reported(browser_page):
    page = browser_page
    page.set_viewport_size(PHONE)
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE))
    page.route(f"{ORIGIN}/first", late("/second"))
    page.route(f"{ORIGIN}/second", late('<div id="wide" style="width: 2000px">a wide table</div>'))
    page.goto(f"{ORIGIN}/")
    problems = overflow(page)
    assert len(problems) == 1 and "scrollWidth 2000 > 390" in problems[0] and "div#wide" in problems[0], problems
