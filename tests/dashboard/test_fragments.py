"""Rendered figure fragments in the cache (dashboard.fragments, issue 18): a write that changes a
site's figures renders that site's fragment again and leaves every other site's cached; a
fragment holds one site's figures and is served only to a user who may see that site."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounting import day_figures
from cardroom.models import Role
from dashboard import fragments
from tests.factories import make_person

from .conftest import FIRST_DAY, TODAY, Play

pytestmark = pytest.mark.django_db
UNUSUAL = "unusual-table-days"
TEMPLATE = "dashboard/_unusual_rows.html"


def _unusual(client, site) -> tuple[str, int]:
    """The dashboard's "table-days to look at" of `site`, and the queries the page took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/dashboard/?site={site.pk}")
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('id="unusual"')
    return html[start : html.index("</table>", start)], len(queries)


def _cached(site) -> str | None:
    token = day_figures.site_versions([site.pk])[site.pk]
    return cache.get(fragments.fragment_key(UNUSUAL, site.pk, token, TODAY, TEMPLATE))


@pytest.fixture
def both_sites(site, other_site, people, dealers):
    return Play(site, people, dealers, 2).days(FIRST_DAY, 3), Play(other_site, people, dealers, 2).days(FIRST_DAY, 3)


def test_a_change_to_one_day_renders_only_that_sites_fragment_again(client, cast, site, other_site, both_sites):
    play, _ = both_sites
    client.force_login(cast[Role.AUDITOR].user)
    before = {s: _unusual(client, s)[0] for s in (site, other_site)}
    tokens = day_figures.site_versions([site.pk, other_site.pk])
    other_fragment = _cached(other_site)
    assert other_fragment is not None and _cached(site) is not None

    # A late fill on one closed day at `site`: its prizes now exceed its gross proceeds.
    day = FIRST_DAY + timedelta(days=1)
    play.scenario.slip(play.tables[0], day, "fill", 500_000, number=9_001)

    after = day_figures.site_versions([site.pk, other_site.pk])
    assert after[site.pk] != tokens[site.pk] and after[other_site.pk] == tokens[other_site.pk]
    assert _cached(site) is None  # nothing cached under the new token yet
    assert _cached(other_site) == other_fragment

    changed, queries_rendered = _unusual(client, site)
    assert changed != before[site]
    assert f"date={day}" in changed and "prizes exceeded gross proceeds" in changed
    unchanged, queries_cached = _unusual(client, other_site)
    assert unchanged == before[other_site]
    assert queries_cached < queries_rendered  # served from the cache: no figures read


def test_renumbering_a_table_renders_its_sites_fragment_again(client, cast, site, both_sites):
    play, _ = both_sites
    client.force_login(cast[Role.GAMING_MANAGER].user)
    before, _ = _unusual(client, site)
    table = play.tables[1]
    assert f"<td>{table.number}</td>" in before
    table.number = 42
    table.save()
    after, _ = _unusual(client, site)
    assert "<td>42</td>" in after and after.replace("<td>42</td>", f"<td>{2}</td>") == before


def test_a_cached_fragment_is_never_served_outside_the_users_sites(client, cast, site, stranger_site, both_sites):
    client.force_login(cast[Role.AUDITOR].user)
    ours, _ = _unusual(client, site)
    assert "prizes" in ours or "hold outside" in ours or "not counted" in ours or "missing" in ours
    assert _cached(site) is not None

    stranger = make_person(stranger_site.organization, Role.AUDITOR)
    client.force_login(stranger.user)
    assert client.get(f"/dashboard/?site={site.pk}").status_code == 404
    theirs, _ = _unusual(client, stranger_site)
    assert f"site={site.pk}&" not in theirs and "None in these weeks." in theirs


def test_the_key_follows_the_templates_and_the_builders_source(tmp_path, settings):
    """A deploy that changes the fragment's template (or the code in BUILT_BY that picks its rows)
    never reads a fragment rendered by the older one: the key carries a digest of both."""
    key = fragments.fragment_key(UNUSUAL, 1, "t", TODAY, TEMPLATE)
    (tmp_path / "dashboard").mkdir()
    (tmp_path / "dashboard" / "_unusual_rows.html").write_text("changed {{ site_id }}")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    fragments.source_version.cache_clear()
    try:
        assert fragments.fragment_key(UNUSUAL, 1, "t", TODAY, TEMPLATE) != key
    finally:
        fragments.source_version.cache_clear()
