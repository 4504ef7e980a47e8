"""A full count in Chromium with two members logged in at once (two browser contexts)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import login, new_watched_page, require_chromium, set_expect_timeout, shared_browser

from .conftest import GAMING_DATE


@pytest.fixture
def two_pages():
    require_chromium()
    set_expect_timeout()
    contexts = [shared_browser().new_context(viewport={"width": 1024, "height": 1366}) for _ in range(2)]  # tablets
    pages, watched = zip(*(new_watched_page(context) for context in contexts), strict=True)
    try:
        yield list(pages)
    finally:
        for context in contexts:
            context.close()
    assert not [v for problems in watched for v in problems.csp_violations]


def enter_count(page, quantities: dict, fills: str = ""):
    """Type quantities down the grid with the keyboard (Enter moves to the next row), on the box's
    page once it has loaded (every row there to be listed)."""
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/boxes/\d+/(count|resolve)/"))
    page.focus("#q_bill_10000")
    keys = [row.get_attribute("id") for row in page.query_selector_all("#count-grid .qty")]
    for key in keys:
        value = quantities.get(key.removeprefix("q_"), "")
        if value:
            page.keyboard.type(value)
        page.keyboard.press("Enter")
    if fills:
        page.fill("#fill_numbers", fills)


@pytest.mark.browser
def test_two_members_count_blind_resolve_and_sign(two_pages, live_server, counters, removed, boxes):
    first, second = two_pages
    login(first, live_server, counters[0].user.username)
    login(second, live_server, counters[1].user.username)

    first.goto(f"{live_server.url}/counts/")
    first.fill("#id_gaming_date", str(GAMING_DATE))
    first.select_option("#id_partner", str(counters[1].pk))
    first.click("#open-session button")
    first.wait_for_selector(f"#box-{boxes[0].pk}")
    session_url = first.url

    first.click(f"#box-{boxes[0].pk} .count-link")
    enter_count(first, {"bill_10000": "4", "bill_2000": "12", "coin_25": "3"})
    expect(first.locator("#running-total")).to_have_text("$640.75", use_inner_text=True)
    first.click("#submit-count")
    # the next count the member owes opens at once (the next box), not the session's list
    first.wait_for_url(f"{session_url}boxes/{boxes[1].pk}/count/")

    second.goto(session_url)
    assert "$640.75" not in second.inner_text(f"#box-{boxes[0].pk}")
    assert "1 of 2 counts in" in second.inner_text(f"#box-{boxes[0].pk}")
    second.click(f"#box-{boxes[0].pk} .count-link")
    enter_count(second, {"bill_10000": "4", "bill_2000": "11", "coin_25": "3"})
    second.click("#submit-count")
    second.wait_for_url(session_url)
    assert second.get_attribute(f"#box-{boxes[0].pk}", "data-status") == "difference"

    first.goto(session_url)
    first.click(f"#box-{boxes[0].pk} .resolve-link")
    enter_count(first, {"bill_10000": "4", "bill_2000": "12", "coin_25": "3"})
    first.fill("#note", "Recounted the $20s together: twelve.")
    first.click("#submit-count")
    first.wait_for_url(session_url)
    assert first.get_attribute(f"#box-{boxes[0].pk}", "data-status") == "agreed"

    for page in (first, second):
        page.goto(session_url)
        page.click(f"#box-{boxes[1].pk} .count-link")
        enter_count(page, {"bill_500": "20"})
        page.click("#submit-count")
        page.wait_for_url(session_url)

    first.goto(session_url)  # signing is offered once both counts are in and agree (issue 33)
    first.click("#sign-button")
    # The first signature shown, not just the list: it lists "Not signed yet." before, so the
    # second member went on signing while the first's was still on its way (and the count locked
    # on the first's page, never on the second's).
    first.wait_for_selector(f"#signatures >> text={counters[0].initials}")
    second.goto(session_url)
    second.click("#sign-button")
    second.wait_for_selector("#locked")
    assert "$640.75" in second.inner_text(f"#box-{boxes[0].pk} .agreed-drop")
    sheet = second.request.get(f"{live_server.url}{second.get_attribute('#sheet-link', 'href')}")
    assert sheet.status == 200 and sheet.headers["content-type"] == "application/pdf"
