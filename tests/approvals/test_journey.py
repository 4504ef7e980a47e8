"""Washington house-banked journey: the gaming manager opens the Double Down Madness table, sees
its approval, finds no surrender offered (no internal controls document it), tries to split pairs and
reads the refusal citing the approval."""

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
def test_wagm_is_offered_no_surrender_and_cannot_split_pairs_at_the_ddm_table(
    browser_page,  # noqa: F811
    live_server,
    wagm,
    ddm_table,
):
    page = browser_page
    login(page, live_server, "wagm")
    page.goto(f"{live_server.url}/approvals/")
    assert "Double Down Madness Blackjack" in page.inner_text("#approvals")
    page.click(f"#table-{ddm_table.pk}")
    assert "submission #3172" in page.inner_text("#approval")
    # Surrender is documented by no game's internal controls in effect here: not offered. Splitting
    # identical cards is (the house game's), offered for a move to it; Double Down Madness refuses it.
    surrender = page.eval_on_selector_all("#id_surrender option", "options => options.map(o => o.value)")
    assert surrender == ["none"]
    page.select_option("#id_split_pairs", "identical")
    page.click("#save")
    # The refusal comes back to this page, whose #settings is there before it: wait for the answer.
    expect(page.locator("#settings")).to_contain_text("needs a new approval", use_inner_text=True)
    assert "Double Down Madness Blackjack (WSGC approval of 2024-08-08, submission #3172)" in page.inner_text(
        "#settings"
    )


# A table's own width beside its wrapper's: over it, the wrapper scrolls it sideways (`.table-responsive`).
TABLE_OVER_ITS_BOX = """(id) => { const table = document.getElementById(id);
    return [Math.round(table.getBoundingClientRect().width), table.parentElement.clientWidth]; }"""


@pytest.mark.browser
def test_the_internal_controls_register_fits_a_1366_pixel_laptop(browser_page, live_server, wagm, site, today):  # noqa: F811
    """Every option's column on the screen and each version's row a few lines tall: the register
    was 1,366 px in its 1,318 px box, its Irregularities column cut off and its rows ~550 px tall.
    How the version addresses irregularities reads on a line of its own, its first words until
    opened ("show all")."""
    from datetime import timedelta

    from approvals import services
    from approvals.demo import IRREGULARITIES

    from .conftest import HOUSE_CONTROLS

    services.record_internal_controls(
        acting_user=wagm.user, site=site, effective_on=today - timedelta(days=30),
        approved_on=today - timedelta(days=40), approved_by="Brian Lane, Special Agent, WSGC Regulation Unit",
        irregularities=IRREGULARITIES, **HOUSE_CONTROLS,
    )  # fmt: skip
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 900})
    login(page, live_server, "wagm")
    page.goto(f"{live_server.url}/approvals/")
    width, box = page.evaluate(TABLE_OVER_ITS_BOX, "internal-controls")
    assert width <= box, (width, box)
    options = page.locator("#internal-controls tbody tr:not(.irregularities)")
    assert options.count() == 1 and options.bounding_box()["height"] < 200, options.bounding_box()
    procedures = page.locator("#internal-controls .irregularities details")
    assert IRREGULARITIES not in procedures.inner_text() and "show all" in procedures.inner_text()
    procedures.locator("summary").click()
    expect(procedures).to_contain_text(IRREGULARITIES, use_inner_text=True)
