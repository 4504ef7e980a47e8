"""The day game 21 was discontinued at a site matters where the site's pack states the thirty
days' redemption after it (ND 99-01.3-08-06(2)): the setup form shows that field only there, by
the pack's name ("Twenty-one discontinued on"). A Washington or New York organization's "New
site" form (its pack the current site's) shows no "Game 21" field, and a day given anyway for a
pack that states no such rule is refused naming the field."""

import pytest

from cardroom.models import Role, Site
from tests.page_support import at_site, page

pytestmark = pytest.mark.django_db

NAMES = {"ND": "Twenty-one", "WA-HB": "Blackjack", "WA-BJ": "Blackjack", "NY": "Black Jack"}


def as_pack(site, code):
    site.jurisdiction = code
    site.save()
    return site


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_washington_or_new_york_organizations_site_forms_show_no_discontinued_day(client, cast, site, code):
    browser = at_site(client, cast[Role.GAMING_MANAGER], as_pack(site, code))
    for url in ("/setup/sites/new/", f"/setup/sites/{site.pk}/"):
        text = page(browser.get(url))
        assert 'name="jurisdiction"' in text, url
        assert 'name="twenty_one_discontinued_on"' not in text, url
        assert "discontinued" not in text and "Game 21" not in text and "21 was" not in text, url


def test_a_north_dakota_organizations_site_forms_name_twenty_one_and_its_rule(client, cast, site):
    browser = at_site(client, cast[Role.GAMING_MANAGER], as_pack(site, "ND"))
    for url in ("/setup/sites/new/", f"/setup/sites/{site.pk}/"):
        text = page(browser.get(url))
        assert 'name="twenty_one_discontinued_on"' in text, url
        assert "Twenty-one discontinued on" in text and "Game 21" not in text, url
        assert "The day twenty-one was discontinued at this site. ND 99-01.3-08-06(2)" in text, url


def test_a_discontinued_day_for_a_new_site_of_a_pack_without_the_rule_is_refused(client, cast, site):
    """Offered from an ND site, the new site is given Washington's rules with a day anyway."""
    browser = at_site(client, cast[Role.GAMING_MANAGER], as_pack(site, "ND"))
    posted = {
        "name": "Spokane Card Room",
        "jurisdiction": "WA-HB",
        "time_zone": "America/Los_Angeles",
        "business_day_start_hour": 10,
        "late_entry_minutes": 60,
        "active": "on",
        "twenty_one_discontinued_on": "2026-10-01",
    }
    text = page(browser.post("/setup/sites/new/", posted))
    assert "House control: a site of " in text and "records no day blackjack was discontinued; leave it blank." in text
    assert not Site.objects.filter(name="Spokane Card Room").exists()
    del posted["twenty_one_discontinued_on"]
    browser.post("/setup/sites/new/", posted)
    assert Site.objects.get(name="Spokane Card Room").twenty_one_discontinued_on is None


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_the_sites_api_refuses_a_discontinued_day_where_the_pack_has_no_such_rule(client_for, cast, site, code):
    """The same refusal through the API (the model's clean: page, API and admin alike), for a new
    site and for an existing one; an ND site keeps its day."""
    api = client_for(cast[Role.GAMING_MANAGER])
    body = {"name": "Elsewhere", "jurisdiction": code, "time_zone": "America/Chicago",
            "twenty_one_discontinued_on": "2026-10-01"}  # fmt: skip
    created = api.post("/api/v1/sites/", body, format="json")
    assert created.status_code == 400, created.json()
    assert "records no day" in created.json()["twenty_one_discontinued_on"][0]
    assert not Site.objects.filter(name="Elsewhere").exists()
    as_pack(site, code)
    patched = api.patch(f"/api/v1/sites/{site.pk}/", {"twenty_one_discontinued_on": "2026-10-01"}, format="json")
    assert patched.status_code == 400 and "twenty_one_discontinued_on" in patched.json()
    site.refresh_from_db()
    assert site.twenty_one_discontinued_on is None
    as_pack(site, "ND")
    kept = api.patch(f"/api/v1/sites/{site.pk}/", {"twenty_one_discontinued_on": "2026-10-01"}, format="json")
    assert kept.status_code == 200, kept.json()
