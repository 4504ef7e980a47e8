"""A state supervisor in Debian's Chromium: from the licensees, a licensee's page; a credential
issued (its secret shown once, then only its prefix) files; revoked once confirmed, it no
longer does."""

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from registry import services
from registry.models import Credential, Regulator, RegulatorRole
from tests.browser_support import login
from tests.factories import PASSWORD

from .test_registry_api import licensee_client, package, post_filing


@pytest.mark.browser
def test_a_supervisor_issues_a_credential_and_revokes_it(browser_page, live_server):
    elks, _ = services.register_licensee(
        acting_user=None, agency_name="North Dakota Attorney General - Gaming Division", jurisdiction="ND",
        contact="", name="Elks", licence_number="G-1", expected_from=date(2026, 1, 1),
    )  # fmt: skip
    user = get_user_model().objects.create_user("boss", password=PASSWORD)
    Regulator.objects.create(user=user, agency=elks.agency, role=RegulatorRole.STATE_SUPERVISOR)
    page = browser_page
    login(page, live_server, "boss")

    page.click("#licensees a:has-text('Elks')")
    page.wait_for_url(f"{live_server.url}/registry/licensees/{elks.pk}/")
    expect(page.locator("#credentials")).to_contain_text("No credential issued yet.")
    page.click("#issue-credential")
    expect(page.locator("#shown-once")).to_contain_text("this secret is shown once, now")
    secret = page.locator("#credential-secret").input_value()
    credential = Credential.objects.get(licensee=elks)
    assert secret.startswith(credential.prefix) and credential.issued_by == "boss"
    assert post_filing(licensee_client(services.Issued(credential, secret)), package()).status_code == 201

    page.click("#back-to-licensee")
    row = page.locator(f"#credential-{credential.pk}")
    expect(row).to_contain_text(f"{credential.prefix}...")
    expect(row).to_contain_text("live")
    assert secret not in page.content()
    page.check(f"#id_c{credential.pk}-confirm")
    page.click(f"#revoke-button-{credential.pk}")
    expect(page.locator("main")).to_contain_text(f"Credential {credential.prefix}... of Elks (G-1) is revoked")
    expect(page.locator(f"#credential-{credential.pk} .revoked")).to_contain_text("by boss")
    expect(page.locator(f"#revoke-{credential.pk}")).to_have_count(0)
    assert post_filing(licensee_client(services.Issued(credential, secret)), package(), key="k-2").status_code == 401

    # The quarter across licensees at 1280 px: a wide table scrolling sideways, each heading two
    # lines at most (its headings stood a word a line, "Tournament gross proceeds" three lines
    # and the head row four, pushing the rows a screen's third down).
    page.goto(f"{live_server.url}/registry/quarter/?quarter=2026Q3")
    expect(page.locator("#quarter-rows tbody")).to_contain_text("Elks")
    lines = page.evaluate(HEADING_LINES)
    assert lines and max(lines.values()) <= 2, lines


# Each heading of the quarter's table: the lines its text is set on.
HEADING_LINES = """() => Object.fromEntries([...document.querySelectorAll('#quarter-rows th')].map(th => {
    const range = document.createRange(); range.selectNodeContents(th);
    return [th.textContent, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size];
}))"""


# A table's own width beside its wrapper's: over it, the wrapper scrolls it sideways (`.table-responsive`)
# and its last columns are off the screen until scrolled to.
TABLE_OVER_ITS_BOX = """(id) => { const table = document.getElementById(id);
    return [Math.round(table.getBoundingClientRect().width), table.parentElement.clientWidth]; }"""


def ny_package() -> dict:
    """A New York site's return: its games-of-chance sessions (`summary.pack`), no drop and no tax."""
    from core import filing_package

    body = package(jurisdiction="NY", licence="NY-GC-4620", name="Kingston Fire Hall Association")
    sessions = {"sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000}
    figures = {"summary": {"site": 7, "quarter": "2026Q3", "pack": {"sessions": sessions}, "cash_profit_cents": 0}}
    return {**body, "figures": figures, "figures_sha256": filing_package.digest(figures), "tax": None}


@pytest.mark.browser
@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_a_packs_own_quarter_fits_a_1366_pixel_laptop(browser_page, live_server, jurisdiction):
    """Washington's quarter (drop, paid out, win, hold, cash profit, its dealers without an
    identifier; no tournament column) and New York's (its sessions) show every column at 1366 px,
    a return and its amendment on their lines, without scrolling the table sideways: Washington's
    was 2,082 px (North Dakota's tournament columns among them), New York's 1,344 px."""
    from .test_registry_dealers_alerts import dealer, wa_package

    body = wa_package(1, [dealer()]) if jurisdiction == "WA-HB" else ny_package()
    licensee, _ = services.register_licensee(
        acting_user=None, agency_name=f"{jurisdiction} regulator", jurisdiction=jurisdiction, contact="",
        name="River Card Room Association", licence_number=body["organization"]["licence_number"],
        expected_from=date(2026, 1, 1),
    )  # fmt: skip
    client = licensee_client(services.issue_credential(acting_user=None, licensee=licensee))
    filed = post_filing(client, body)
    assert filed.status_code == 201, filed.content
    amended = post_filing(client, {**body, "amends": filed.json()["receipt_number"]}, key="k-2")
    assert amended.status_code == 201, amended.content
    user = get_user_model().objects.create_user("auditor", password=PASSWORD)
    Regulator.objects.create(user=user, agency=licensee.agency, role=RegulatorRole.STATE_AUDITOR)
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 900})
    login(page, live_server, "auditor")
    page.goto(f"{live_server.url}/registry/quarter/?quarter=2026Q3")
    expect(page.locator("#quarter-rows tbody tr")).to_have_count(2)
    width, box = page.evaluate(TABLE_OVER_ITS_BOX, "quarter-rows")
    assert width <= box, (width, box)
    lines = page.evaluate(HEADING_LINES)
    assert lines and max(lines.values()) <= 2, lines
