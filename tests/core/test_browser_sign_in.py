"""The sign-in page in Debian's Chromium: a wrong password is refused with a 400 on the same page,
the refusal shown above the form in the one wording of every sign-in (core.lockouts.SIGN_IN_REFUSED);
the right one then signs in."""

import pytest
from playwright.sync_api import expect

from cardroom.models import Role
from core.lockouts import SIGN_IN_REFUSED
from tests.browser_support import login


@pytest.mark.browser
def test_a_wrong_password_is_refused_on_the_sign_in_page_and_the_right_one_signs_in(browser_page, live_server, cast):
    page = browser_page
    username = cast[Role.GAMING_MANAGER].user.username
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "not-the-password")
    with page.expect_response(lambda answer: answer.request.method == "POST") as posted:
        page.click("button[type=submit]")
    assert posted.value.status == 400
    expect(page.locator("#sign-in-refusal")).to_have_text(SIGN_IN_REFUSED)
    assert page.url == f"{live_server.url}/login/"
    login(page, live_server, username)
