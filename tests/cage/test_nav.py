"""The cage's tabs (templates/cage/_nav.html) at a site of each pack, role by role: a tab is shown
exactly when its page opens for that role there, so no tab leads to a refusal; where the house has
no chips (WA-BJ, fees only: floor.rules.house_chips) no tab leads to the chip pages, which only
say why they take nothing there."""

import re

import pytest
from django.test import Client

from cardroom.models import Role
from tests.page_support import at_site

PAGES = {
    "/cage/": "Bank counts",
    "/cage/ious/": "IOUs",
    "/cage/redemptions/": "Chip redemptions",
    "/cage/tips/": "Tips",
    "/cage/deposits/": "Bank deposits",
    "/cage/inventory/": "Chip inventory log",
}
CHIP_PAGES = {"/cage/redemptions/", "/cage/tips/", "/cage/inventory/"}


def _tabs(html: str) -> dict[str, str]:
    nav = html.split('id="cage-nav">', 1)[1].split("</ul>", 1)[0]
    return dict(re.findall(r'href="([^"]+)">([^<]+)</a>', nav))


@pytest.mark.parametrize("jurisdiction", ["ND", "WA-HB", "WA-BJ", "NY"])
@pytest.mark.parametrize("role", list(Role))
def test_each_cage_tab_is_shown_exactly_when_its_page_opens(site, cast, chips, jurisdiction, role):
    site.jurisdiction = jurisdiction
    site.save()
    client = at_site(Client(), cast[role], site)
    answers = {path: client.get(path) for path in PAGES}
    assert {a.status_code for a in answers.values()} <= {200, 403}, answers
    readable = {path: a for path, a in answers.items() if a.status_code == 200}
    usable = {p: PAGES[p] for p in readable if jurisdiction != "WA-BJ" or p not in CHIP_PAGES}
    for path, answer in readable.items():
        assert _tabs(answer.content.decode()) == usable, path


def test_a_dealer_on_the_tips_page_sees_the_tips_tab_alone(site, cast, chips):
    html = at_site(Client(), cast[Role.DEALER], site).get("/cage/tips/").content.decode()
    assert _tabs(html) == {"/cage/tips/": "Tips"}
    assert "Bank counts" not in html.split('id="cage-nav"', 1)[1].split("</ul>", 1)[0]
