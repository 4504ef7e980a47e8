"""9 NYCRR 4620.5(h): the tie option is the organization's, set forth in its licence application
and reflected by the licence; every table under the licence follows it. A licence is never
edited: a change of option is a new licence from its own date. Driven through the API."""

from datetime import timedelta

import pytest

from approvals.models import Licence
from approvals.queries import site_today
from cardroom.models import Table

NY_TABLE = {
    "game": "21",
    "decks": 4,
    "betting_spaces": 7,
    "max_players": 7,
    "dealer_hits_soft_17": False,
    "double_on": "ten_eleven",
    "double_after_split": False,
    "split_pairs": "any_pair",
    "min_wager_cents": 100,
    "max_wager_cents": 500,
    "tie_option": 1,
    "blackjack_payout": "3:2",
}
FOREIGN = ("99-01.3", "SFN", "N.D.C.C.", "North Dakota", "WAC", "WSGC")


@pytest.fixture
def site(org):
    from tests.factories import SiteFactory

    return SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")


@pytest.fixture
def api(client_for, manager):
    return client_for(manager)


def licence(api, tie_option, effective_on, number="NY-GC-4620"):
    return api.post(
        "/api/v1/licences/",
        {"licence_number": number, "tie_option": tie_option, "effective_on": effective_on.isoformat()},
        format="json",
    )


def table(api, site, number=1, **options):
    return api.post("/api/v1/tables/", {"site": site.pk, "number": number, **NY_TABLE, **options}, format="json")


def test_a_table_waits_for_the_licence(api, site):
    refused = table(api, site)
    assert refused.status_code == 400
    message = refused.json()["tie_option"][0]
    assert message.startswith("9 NYCRR 4620.5(h)") and "licence" in message
    assert not [word for word in FOREIGN if word in message]
    assert licence(api, 1, site_today(site) - timedelta(days=100)).status_code == 201
    assert table(api, site).status_code == 201


def test_an_option_3_table_beside_an_option_1_licence_is_refused_naming_h(api, site):
    created = licence(api, 1, site_today(site) - timedelta(days=100))
    assert created.status_code == 201, created.json()
    assert created.json()["jurisdiction"] == "NY" and created.json()["tie_option"] == 1
    assert table(api, site, number=1).status_code == 201
    refused = table(api, site, number=2, tie_option=3, blackjack_payout="2:1")
    assert refused.status_code == 400
    message = refused.json()["tie_option"][0]
    assert message.startswith("9 NYCRR 4620.5(h)") and "reflects tie option 1" in message
    assert not [word for word in FOREIGN if word in message]
    assert not Table.objects.filter(site=site, number=2).exists()


def test_a_change_of_option_is_a_new_licence_and_the_tables_follow_it(api, site):
    today = site_today(site)
    first = licence(api, 1, today - timedelta(days=100)).json()
    table_id = table(api, site).json()["id"]
    # The new licence from today: option 3 (the house wins all ties, naturals 2 to 1).
    second = licence(api, 3, today)
    assert second.status_code == 201 and second.json()["supersedes"] == first["id"]
    assert Licence.objects.count() == 2  # the first is kept as it was
    stale = api.patch(f"/api/v1/tables/{table_id}/", {"max_wager_cents": 400}, format="json")
    assert stale.status_code == 400 and "reflects tie option 3" in stale.json()["tie_option"][0]
    follows = api.patch(f"/api/v1/tables/{table_id}/", {"tie_option": 3, "blackjack_payout": "2:1"}, format="json")
    assert follows.status_code == 200, follows.json()
    # A licence cannot be backdated before the one it supersedes, nor carry an option (h) lacks.
    assert licence(api, 2, today - timedelta(days=200)).status_code == 400
    assert licence(api, 4, today).status_code == 400
    assert api.get("/api/v1/licences/").json()["count"] == 2


def test_a_licence_is_not_recorded_where_the_law_puts_no_tie_option_on_it(api, org, site):
    site.jurisdiction = "ND"
    site.save()
    refused = licence(api, 1, site_today(site))
    assert refused.status_code == 400
    message = refused.json()["jurisdiction"][0]
    assert message.startswith("House control") and "NYCRR" not in message


def test_the_register_page_lists_the_licences(client, manager, api, site):
    licence(api, 2, site_today(site) - timedelta(days=10), number="NY-GC-77")
    client.force_login(manager.user)
    page = client.get("/approvals/").content.decode()
    assert 'id="licences"' in page and "NY-GC-77" in page and "Option two" in page
