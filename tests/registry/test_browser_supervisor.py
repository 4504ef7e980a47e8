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
