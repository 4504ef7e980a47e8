"""Who reads the register of game approvals, internal controls, tables' games and licences: the
API answers the same roles as the pages (approvals.rules.RECORDS, gaming managers and auditors),
role by role. Before, the API listed the register to every role of the organization while its
pages refused all but those two; the floor reads what it follows in the written procedures."""

from datetime import date

import pytest

from approvals import services
from approvals.rules import RECORDS
from cardroom.models import Role
from tests.factories import SiteFactory

REGISTER = ("game-approvals", "internal-controls", "table-games", "licences")


@pytest.fixture
def licence(org, manager):
    """A New York site of the organization, whose pack holds the tie option on the licence."""
    SiteFactory(organization=org, name="Kingston Hall", jurisdiction="NY", time_zone="America/New_York")
    return services.record_licence(
        acting_user=manager.user,
        organization=org,
        licence_number="GC-0417",
        tie_option=1,
        effective_on=date(2026, 1, 1),
        jurisdiction="NY",
    )


@pytest.mark.parametrize("role", list(Role))
def test_the_api_lists_the_register_to_the_roles_its_pages_open_to(client, client_for, cast, ddm_table, licence, role):
    client.force_login(cast[role].user)
    page = client.get("/approvals/").status_code
    reads = role in RECORDS.roles
    assert page == (200 if reads else 403)
    api = client_for(cast[role])
    for endpoint in REGISTER:
        listed = api.get(f"/api/v1/{endpoint}/")
        assert listed.status_code == 200, (endpoint, listed.content[:300])
        assert bool(listed.json()["results"]) == reads, (role, endpoint, listed.json())
    # One record by its address: found by the readers, not found (404) by the others.
    approval = client_for(cast[Role.GAMING_MANAGER]).get("/api/v1/game-approvals/").json()["results"][0]["id"]
    api = client_for(cast[role])
    assert api.get(f"/api/v1/game-approvals/{approval}/").status_code == (200 if reads else 404)
    # The floor still reads the written procedures it follows (every role, as their page).
    assert api.get("/api/v1/written-procedures/").status_code == 200
