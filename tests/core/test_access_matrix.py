"""Every role x every core endpoint x own site / other site of the org / another organization."""

import pytest

from cardroom.models import ChipDenomination, Employee, Membership, Role, Table
from tests.conftest import ALL_ROLES, SITE_ROLES
from tests.factories import TableFactory, make_chips, make_person
from tests.shared_world import built_once

ORG_WIDE = {Role.GAMING_MANAGER, Role.AUDITOR}


@built_once
def world(org, site, other_site, stranger_site, cast):
    """Objects at the user's site, at another site of the same org, and in another org (built
    once for the module: tests/shared_world.py)."""
    stranger_chips = make_chips(stranger_site.organization)
    return {
        "own_table": TableFactory(site=site, number=1),
        "other_table": TableFactory(site=other_site, number=1),
        "stranger_table": TableFactory(site=stranger_site, number=1),
        "own_chip": make_chips(org)[500],
        "stranger_chip": stranger_chips[500],
        "other_site_dealer": make_person(org, Role.DEALER, other_site),
        "stranger_employee": make_person(stranger_site.organization, Role.DEALER, stranger_site),
    }


def _detail(kind, obj):
    return f"/api/v1/{kind}/{obj.pk}/"


VISIBILITY = [
    # (endpoint, object key or site fixture, visible to org-wide roles, visible to site roles)
    ("sites", "site", True, True),
    ("sites", "other_site", True, False),
    ("sites", "stranger_site", False, False),
    ("tables", "own_table", True, True),
    ("tables", "other_table", True, False),
    ("tables", "stranger_table", False, False),
    ("chip-denominations", "own_chip", True, True),
    ("chip-denominations", "stranger_chip", False, False),
    ("employees", "other_site_dealer", True, False),
    ("employees", "stranger_employee", False, False),
]


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("endpoint,key,org_visible,site_visible", VISIBILITY)
def test_retrieve_answers_200_in_scope_and_404_outside(
    request, client_for, cast, world, role, endpoint, key, org_visible, site_visible
):
    obj = world[key] if key in world else request.getfixturevalue(key)
    visible = org_visible if role in ORG_WIDE else site_visible
    response = client_for(cast[role]).get(_detail(endpoint, obj))
    assert response.status_code == (200 if visible else 404)


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("endpoint", ["sites", "tables", "chip-denominations", "employees", "memberships"])
def test_lists_never_show_another_organization(client_for, cast, world, stranger_site, role, endpoint):
    response = client_for(cast[role]).get(f"/api/v1/{endpoint}/")
    assert response.status_code == 200
    ids = {row["id"] for row in response.json()["results"]}
    foreign = {
        "sites": stranger_site.pk,
        "tables": world["stranger_table"].pk,
        "chip-denominations": world["stranger_chip"].pk,
        "employees": world["stranger_employee"].pk,
        "memberships": Membership.objects.get(employee=world["stranger_employee"]).pk,
    }[endpoint]
    assert foreign not in ids
    assert ids, "the user's own scope is never empty here"


@pytest.mark.parametrize("role", SITE_ROLES)
def test_site_roles_list_only_their_sites_tables(client_for, cast, world, role):
    ids = {row["id"] for row in client_for(cast[role]).get("/api/v1/tables/").json()["results"]}
    assert ids == {world["own_table"].pk}


def _create_payloads(site, other_site, stranger_site):
    return {
        "sites": ({"name": "New Hall", "jurisdiction": "ND", "time_zone": "America/Chicago"}, None),
        "tables": (
            {"site": site.pk, "number": 7, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500},
            "site",
        ),
        "chip-denominations": ({"value_cents": 200, "marking": "Elks Charity"}, None),
        "employees": ({"username": "newhire", "password": "a-long-good-password-1", "initials": "NH"}, None),
    }


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("endpoint", ["sites", "tables", "chip-denominations", "employees"])
def test_only_the_gaming_manager_creates_master_data(
    client_for, cast, world, site, other_site, stranger_site, role, endpoint
):
    ChipDenomination.objects.filter(organization=site.organization, value_cents=200).delete()
    payload, _ = _create_payloads(site, other_site, stranger_site)[endpoint]
    response = client_for(cast[role]).post(f"/api/v1/{endpoint}/", payload, format="json")
    assert response.status_code == (201 if role == Role.GAMING_MANAGER else 403), response.content


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("target", ["site", "other_site", "stranger_site"])
def test_creating_a_table_at_a_site_out_of_scope_is_unknown_site(request, client_for, cast, world, role, target):
    site = request.getfixturevalue(target)
    payload = {"site": site.pk, "number": 8, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500}
    response = client_for(cast[role]).post("/api/v1/tables/", payload, format="json")
    in_scope = target == "site" or (target == "other_site" and role in ORG_WIDE)
    if not in_scope:
        assert response.status_code == 400
        assert "site" in response.json()
    else:
        assert response.status_code == (201 if role == Role.GAMING_MANAGER else 403)
    assert Table.objects.filter(number=8).count() == (1 if in_scope and role == Role.GAMING_MANAGER else 0)


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize(
    "key,endpoint,change",
    [
        ("own_table", "tables", {"max_wager_cents": 2000}),
        ("own_chip", "chip-denominations", {"primary_colour": "orange"}),  # a colour from the list (house control)
    ],
)
def test_only_the_gaming_manager_updates_master_data(client_for, cast, world, role, key, endpoint, change):
    obj = world[key]
    response = client_for(cast[role]).patch(_detail(endpoint, obj), change, format="json")
    assert response.status_code == (200 if role == Role.GAMING_MANAGER else 403)
    obj.refresh_from_db()
    field, value = next(iter(change.items()))
    assert (getattr(obj, field) == value) == (role == Role.GAMING_MANAGER)


@pytest.mark.parametrize("role", ALL_ROLES)
def test_updating_another_organizations_table_is_not_found(client_for, cast, world, role):
    response = client_for(cast[role]).patch(
        _detail("tables", world["stranger_table"]), {"max_wager_cents": 2000}, format="json"
    )
    assert response.status_code == 404


@pytest.mark.parametrize(
    "endpoint",
    [
        "sites",
        "tables",
        "chip-denominations",
        "employees",
        "memberships",
        "employee-relations",
        "game-approvals",
        "internal-controls",
        "table-games",
    ],
)
def test_anonymous_requests_are_refused(api_client, endpoint):
    assert api_client.get(f"/api/v1/{endpoint}/").status_code in (401, 403)


def test_a_login_without_an_employee_sees_nothing(client_for, db, world, django_user_model):
    user = django_user_model.objects.create_user("loner", password="x-y-z-long-password")
    response = client_for(Employee(user=user)).get("/api/v1/sites/")
    assert response.json()["results"] == []


@pytest.mark.parametrize("role", ALL_ROLES)
def test_a_role_never_extends_to_another_organizations_site(cast, world, site, other_site, stranger_site, role):
    """`Access.roles_at` (every has_role and ReadRule check): an organization-wide role holds at
    each site of its organization, a site role at its own site, and neither at a site id of
    another organization, however a caller came by that id."""
    from cardroom.access import Access
    from reports.services import REPORT_ROLES

    access = Access(cast[role].user)
    held = {role} if role in ORG_WIDE else set()
    assert access.roles_at(stranger_site.pk) == set()
    assert not access.has_role(stranger_site.pk, *ALL_ROLES)
    assert access.roles_at(site.pk) == {role}
    assert access.roles_at(other_site.pk) == held
    assert access.has_role(site.pk, *REPORT_ROLES) == (role in REPORT_ROLES)
    later = type(site).objects.create(organization=site.organization, name="Opened since", time_zone=site.time_zone)
    assert access.roles_at(later.pk) == held  # a site made after the login's sites were read
