"""The Reports page offers the kinds of the current site only (each `kind.applies_to(site)`):
before, it offered the kinds of every pack of the user's sites, so at a fees-only site the count
sheets, the dealer reports and another pack's house rules were offered and then refused."""

import re

import pytest

from cardroom.models import Role, Site
from reports.catalogue import load_kinds
from tests.factories import SiteFactory
from tests.page_support import at_site, page

PACK_SITES = {
    "ND": dict(name="Bismarck Elks", time_zone="America/Chicago"),
    "WA-HB": dict(name="Spokane Card Room", time_zone="America/Los_Angeles"),
    "WA-BJ": dict(name="Tacoma Blackjack Room", time_zone="America/Los_Angeles"),
    "NY": dict(name="Kingston Fire Hall", time_zone="America/New_York"),
}


def _offered(html: str) -> set[str]:
    form = html[html.index('id="kind"') : html.index("</select>", html.index('id="kind"'))]
    return set(re.findall(r'<option value="([^"]+)"', form))


@pytest.mark.parametrize("jurisdiction", sorted(PACK_SITES))
def test_the_reports_page_offers_the_kinds_of_the_current_site_only(client, org, cast, jurisdiction):
    sites = {code: SiteFactory(organization=org, jurisdiction=code, **where) for code, where in PACK_SITES.items()}
    here = sites[jurisdiction]
    offered = _offered(page(at_site(client, cast[Role.GAMING_MANAGER], here).get("/reports/")))
    assert offered == {code for code, kind in load_kinds().items() if kind.applies_to(here)}


def test_tacoma_is_offered_no_count_sheets_dealer_reports_slip_register_or_another_packs_rules(client, org, cast):
    tacoma = SiteFactory(organization=org, jurisdiction="WA-BJ", **PACK_SITES["WA-BJ"])
    SiteFactory(organization=org, jurisdiction="WA-HB", **PACK_SITES["WA-HB"])
    offered = _offered(page(at_site(client, cast[Role.GAMING_MANAGER], tacoma).get("/reports/")))
    assert not offered & {"count_sheets", "dealer_hold", "dealer_shifts", "house_rules_wa_hb", "slip_register"}
    assert "alerts" in offered


def test_a_report_not_offered_at_the_site_is_refused_in_a_sentence(client, org, cast):
    tacoma = SiteFactory(organization=org, jurisdiction="WA-BJ", **PACK_SITES["WA-BJ"])
    browser = at_site(client, cast[Role.GAMING_MANAGER], tacoma)
    posted = {"kind": "count_sheets", "site": tacoma.pk, "start": "2026-11-01", "end": "2026-11-07"}
    response = browser.post("/reports/", posted)
    assert response.status_code == 400
    assert 'House control: the report "Drop box count sheets" is not offered at Tacoma Blackjack Room (' in page(
        response
    ).replace("&quot;", '"')


def _sites_offered(html: str) -> set[str]:
    form = html[html.index('id="site"') : html.index("</select>", html.index('id="site"'))]
    return set(re.findall(r'<option value="(\d+)"', form))


def test_the_site_asked_for_is_one_of_the_current_sites_pack(client, org, cast):
    # The kinds are the current site's pack's: a site of another pack beside them would be offered
    # kinds it refuses, in another law's words. An ND site beside the current one is offered.
    sites = {code: SiteFactory(organization=org, jurisdiction=code, **where) for code, where in PACK_SITES.items()}
    second = SiteFactory(organization=org, jurisdiction="ND", name="Minot Eagles", time_zone="America/Chicago")
    browser = at_site(client, cast[Role.GAMING_MANAGER], sites["ND"])
    north_dakota = {str(s.pk) for s in Site.objects.filter(organization=org, jurisdiction="ND")}
    assert {str(sites["ND"].pk), str(second.pk)} <= north_dakota
    assert _sites_offered(page(browser.get("/reports/"))) == north_dakota
    browser = at_site(client, cast[Role.GAMING_MANAGER], sites["WA-BJ"])
    assert _sites_offered(page(browser.get("/reports/"))) == {str(sites["WA-BJ"].pk)}


def test_a_fees_only_site_is_offered_no_chip_inventory_log_and_its_request_is_refused(client, org, cast):
    """Tacoma (WA-BJ) has no house chips (floor.rules.house_chips): the organization's chip float
    is not printed under its name. Spokane (WA-HB) beside it is still offered the log."""
    tacoma = SiteFactory(organization=org, jurisdiction="WA-BJ", **PACK_SITES["WA-BJ"])
    spokane = SiteFactory(organization=org, jurisdiction="WA-HB", **PACK_SITES["WA-HB"])
    browser = at_site(client, cast[Role.GAMING_MANAGER], tacoma)
    assert "chip_inventory" not in _offered(page(browser.get("/reports/")))
    response = browser.post("/reports/", {"kind": "chip_inventory", "site": tacoma.pk, "end": "2026-11-07"})
    assert response.status_code == 400
    assert 'House control: the report "Casino chips inventory log" is not offered at Tacoma Blackjack Room (' in page(
        response
    ).replace("&quot;", '"')
    browser = at_site(client, cast[Role.GAMING_MANAGER], spokane)
    assert "chip_inventory" in _offered(page(browser.get("/reports/")))


@pytest.mark.parametrize("jurisdiction", sorted(PACK_SITES))
def test_a_kind_whose_law_states_no_rule_is_offered_without_one_and_said_once(client, org, cast, jurisdiction):
    """The list names each kind's rule where the site's law states one; the kinds the house keeps as
    its own records (House control) are said so once under the list, not "(House control)" a line."""
    here = SiteFactory(organization=org, jurisdiction=jurisdiction, **PACK_SITES[jurisdiction])
    html = page(at_site(client, cast[Role.GAMING_MANAGER], here).get("/reports/"))
    form = html[html.index('id="kind"') : html.index("</select>", html.index('id="kind"'))]
    assert "(House control)" not in form
    kept = [kind for kind in load_kinds().values() if kind.applies_to(here) and kind.rule_at(here) == "House control"]
    said = "is kept as the house's own record (House control): the rules held for"
    assert (said in html) == bool(kept)
    if jurisdiction != "ND":  # Washington's and New York's texts ask for none of the count sheets
        assert kept and html.count(said) == 1
