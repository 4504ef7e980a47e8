"""A page showing another site's records than the current one, by its address (`?site=` on the
figures pages, the dashboard and the alerts list; a pit by its site; an alert's site), is that site's page: its header and menu are
the shown site's, in the words of its pack (cardroom.views.show_site). Before, a North Dakota
site's menu ("percent-of-hold") framed a Washington site's quarter. The session's current site
stays as the site switcher chose it."""

import pytest

from cardroom.models import Role
from tests.conformance.words import MARKS, compiled, law_words_in, visible_text
from tests.factories import fees_site
from tests.page_support import at_site

PAGES = (
    "/dashboard/daily/?site={site}&date=2026-08-14",
    "/dashboard/quarter/?site={site}&quarter=2026Q3",
    "/dashboard/dealers/?site={site}",
    "/dashboard/?site={site}",
    "/floor/sites/{site}/pit/",  # the pit of another of the user's sites
    "/compliance/alerts/?site={site}",  # the alerts list filtered to one site
)


def _selected(html: str, site) -> bool:
    return f'<option value="{site.pk}" selected>' in html


@pytest.mark.parametrize("page", PAGES)
def test_a_washington_sites_page_opened_from_a_north_dakota_site_is_framed_in_washingtons_words(
    client, cast, org, site, page
):
    tacoma = fees_site(org)  # WA-BJ, in the organization of the ND `site`
    at_site(client, cast[Role.GAMING_MANAGER], site)
    html = client.get(page.format(site=tacoma.pk)).content.decode()
    assert law_words_in(visible_text(html), compiled(MARKS["ND"])) == []
    assert _selected(html, tacoma) and not _selected(html, site)
    # and back: North Dakota's page from the Washington site speaks North Dakota's words
    at_site(client, cast[Role.GAMING_MANAGER], tacoma)
    html = client.get(page.format(site=site.pk)).content.decode()
    assert _selected(html, site) and "percent-of-hold" in visible_text(html).lower()


def test_the_session_keeps_the_site_the_switcher_chose(client, cast, org, site):
    tacoma = fees_site(org)
    at_site(client, cast[Role.GAMING_MANAGER], site)
    client.get(f"/dashboard/quarter/?site={tacoma.pk}&quarter=2026Q3")
    assert _selected(client.get("/dashboard/quarter/?quarter=2026Q3").content.decode(), site)
