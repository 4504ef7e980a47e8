"""ND 99-01.3-08-04(8) said when the count settings are saved, not only at night: a site that
requires video surveillance tracks each dealer's percent-of-hold, which needs the drop box
exchanged at each dealer change. Choosing once per gaming day there is not refused (the setting is
the gaming manager's), but the boxes page, the settings page, the admin and the API's answer say
what the night's check will flag. Nothing is said where the site requires no system, for the
dealer-change setting, or at a site whose pack does not state the rule."""

from datetime import timedelta

import pytest

from approvals.queries import site_today
from counts import queries
from counts.models import BoxExchange
from surveillance.services.status import set_surveillance_status
from tests.conformance.words import ND_WORDS, law_words_in

SAID = (
    "ND 99-01.3-08-04(8): the site requires video surveillance, and an organization shall track a dealer's and "
    "wheel operator's percent-of-hold performance; its drop boxes are exchanged once per gaming day, so no dealer "
    "shift has a drop, and a percent-of-hold, of its own. Set the count settings to exchange the drop box at each "
    "dealer change (house control, to track percent-of-hold (ND 99-01.3-08-04(8))). Until then the nightly checks flag it once a quarter."
)


def requires_surveillance(site, manager):
    since = site_today(site) - timedelta(days=30)
    set_surveillance_status(manager.user, site, True, since, since, "Gross proceeds over the level")


def url(site):
    return f"/api/v1/count-settings/{site.pk}/"


def test_the_api_answers_the_warning_with_the_setting_and_changes_nothing_else(client_for, manager, site):
    requires_surveillance(site, manager)
    api = client_for(manager)
    tracked = api.patch(url(site), {"box_exchange": "dealer_shift"}, format="json")
    assert tracked.status_code == 200 and tracked.json()["warnings"] == []
    once = api.patch(url(site), {"box_exchange": "gaming_day"}, format="json")
    assert once.status_code == 200
    assert once.json()["box_exchange"] == "gaming_day" and once.json()["warnings"] == [SAID]
    assert queries.box_exchange(site) == BoxExchange.GAMING_DAY  # not refused
    assert "warnings" not in api.get(url(site)).json()  # the settings read back never carry it


def test_a_site_that_requires_no_system_is_told_nothing(client_for, manager, site):
    once = client_for(manager).patch(url(site), {"box_exchange": "gaming_day"}, format="json")
    assert once.status_code == 200 and once.json()["warnings"] == []


@pytest.mark.parametrize(("page", "form"), [("/counts/boxes/", "exchange"), ("/counts/drop-boxes/", "settings")])
def test_both_pages_say_it_after_saving(client, manager, site, page, form):
    requires_surveillance(site, manager)
    client.force_login(manager.user)
    data = {"action": form, "box_exchange": "gaming_day"}
    if form == "settings":
        data["twenty_one_auditor"] = ""
    shown = client.post(page, data, follow=True).content.decode()
    assert SAID.replace("'", "&#x27;") in shown
    tracked = client.post(page, {**data, "box_exchange": "dealer_shift"}, follow=True).content.decode()
    assert "ND 99-01.3-08-04(8)" not in tracked
    assert queries.box_exchange(site) == BoxExchange.DEALER_SHIFT


def test_the_admin_says_it_too(client, manager, site):
    requires_surveillance(site, manager)
    client.force_login(manager.user)
    shown = client.post(
        "/admin/counts/countsettings/add/",
        {"site": site.pk, "box_exchange": "gaming_day", "twenty_one_auditor": ""},
        follow=True,
    ).content.decode()
    assert "ND 99-01.3-08-04(8)" in shown


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_another_packs_site_is_told_nothing(client_for, manager, site, code):
    site.jurisdiction = code
    site.save()
    requires_surveillance(site, manager)
    once = client_for(manager).patch(url(site), {"box_exchange": "gaming_day"}, format="json")
    assert once.status_code == 200 and once.json()["warnings"] == []
    assert not law_words_in(str(once.json()), ND_WORDS)
