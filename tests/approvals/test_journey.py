"""Washington house-banked journey: the gaming manager opens the Double Down Madness table, sees
its approval, tries to switch surrender on and reads the refusal citing the approval."""

import pytest
from playwright.sync_api import expect

from tests.browser_support import browser_page, login  # noqa: F401
from tests.factories import PASSWORD


@pytest.fixture
def wagm(manager):
    manager.user.username = "wagm"
    manager.user.set_password(PASSWORD)
    manager.user.save()
    return manager


@pytest.mark.browser
def test_wagm_cannot_switch_surrender_on_at_the_ddm_table(browser_page, live_server, wagm, ddm_table):  # noqa: F811
    page = browser_page
    login(page, live_server, "wagm")
    page.goto(f"{live_server.url}/approvals/")
    assert "Double Down Madness Blackjack" in page.inner_text("#approvals")
    page.click(f"#table-{ddm_table.pk}")
    assert "submission #3172" in page.inner_text("#approval")
    page.select_option("#id_surrender", "late")
    page.click("#save")
    # The refusal comes back to this page, whose #settings is there before it: wait for the answer.
    expect(page.locator("#settings")).to_contain_text("needs a new approval", use_inner_text=True)
    assert "Double Down Madness Blackjack (WSGC approval of 2024-08-08, submission #3172)" in page.inner_text(
        "#settings"
    )
