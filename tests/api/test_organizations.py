"""Organizations: yours (`GET /organizations/`), who you are (`GET /me/`), and a platform
operator (superuser) creating an organization with its first gaming manager."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from cardroom.access import access_for
from cardroom.models import Employee, Organization, Role
from core.models import AuditEvent

NEW = {
    "name": "Valley Boosters",
    "licence_number": "G-77",
    "manager_username": "vera",
    "manager_password": "a long enough pass phrase 77",
    "manager_initials": "VB",
    "manager_first_name": "Vera",
}


@pytest.fixture
def operator(db):
    return get_user_model().objects.create_superuser("operator", password="operator pass phrase 1")


def test_an_employee_lists_only_their_organization(client_for, cast, org, stranger_site):
    response = client_for(cast[Role.DEALER]).get("/api/v1/organizations/")
    assert response.status_code == 200
    assert [o["id"] for o in response.json()["results"]] == [org.pk]
    assert response.json()["results"][0]["name"] == org.name
    assert (
        client_for(cast[Role.DEALER]).get(f"/api/v1/organizations/{stranger_site.organization_id}/").status_code == 404
    )


def test_a_platform_operator_lists_every_organization(api_client, operator, org, stranger_site):
    api_client.force_authenticate(operator)
    ids = {o["id"] for o in api_client.get("/api/v1/organizations/").json()["results"]}
    assert ids == {org.pk, stranger_site.organization_id}


def test_me_names_the_organization_and_the_roles_per_site(client_for, cast, org, site, other_site):
    me = client_for(cast[Role.PIT_BOSS]).get("/api/v1/me/").json()
    assert me["employee"] == cast[Role.PIT_BOSS].pk
    assert me["organization"] == {"id": org.pk, "name": org.name, "licence_number": org.licence_number}
    assert me["organization_roles"] == []
    assert me["sites"] == [{"site": site.pk, "site_name": site.name, "roles": [Role.PIT_BOSS]}]
    manager = client_for(cast[Role.GAMING_MANAGER]).get("/api/v1/me/").json()
    assert manager["organization_roles"] == [Role.GAMING_MANAGER]
    assert {s["site"] for s in manager["sites"]} == {site.pk, other_site.pk}
    assert all(Role.GAMING_MANAGER in s["roles"] for s in manager["sites"])


def test_me_for_a_login_without_an_employee(api_client, operator):
    api_client.force_authenticate(operator)
    me = api_client.get("/api/v1/me/").json()
    assert me["platform_operator"] is True
    assert me["employee"] is None and me["organization"] is None and me["sites"] == []


def test_me_needs_a_login(api_client):
    assert api_client.get("/api/v1/me/").status_code == 401


def test_a_platform_operator_creates_an_organization_and_its_first_gaming_manager(api_client, operator):
    api_client.force_authenticate(operator)
    response = api_client.post("/api/v1/organizations/", NEW, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Valley Boosters" and body["manager"]["username"] == "vera"
    manager = Employee.objects.get(pk=body["manager"]["id"])
    assert manager.organization_id == body["id"]
    assert access_for(manager.user).is_gaming_manager
    assert AuditEvent.objects.filter(organization_id=body["id"], action="organization.created").exists()
    # The new gaming manager can sign in and set up the organization.
    token = api_client.post("/api/v1/auth/token/", {"username": "vera", "password": NEW["manager_password"]})
    assert token.status_code == 200


def test_a_gaming_manager_may_not_create_an_organization(client_for, manager):
    response = client_for(manager).post("/api/v1/organizations/", NEW, format="json")
    assert response.status_code == 403
    assert "platform operator" in response.json()["detail"]
    assert not Organization.objects.filter(name="Valley Boosters").exists()


@pytest.mark.parametrize(
    "change,field",
    [
        ({"name": "Prairie Charities"}, "name"),
        ({"manager_username": "taken"}, "manager_username"),
        ({"manager_password": "short"}, "manager_password"),
        ({"manager_initials": ""}, "manager_initials"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(api_client, operator, org, change, field):
    get_user_model().objects.create_user("taken", password="x")
    api_client.force_authenticate(operator)
    before = Organization.objects.count()
    response = api_client.post("/api/v1/organizations/", {**NEW, **change}, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert Organization.objects.count() == before
    assert not get_user_model().objects.filter(username="vera").exists()


def test_the_command_creates_an_organization_and_its_manager(db, monkeypatch, capsys):
    monkeypatch.setenv("CARDROOM_MANAGER_PASSWORD", NEW["manager_password"])
    call_command(
        "create_organization",
        "Valley Boosters",
        "--licence",
        "G-77",
        "--manager-username",
        "vera",
        "--manager-initials",
        "VB",
    )
    organization = Organization.objects.get(name="Valley Boosters")
    assert access_for(Employee.objects.get(user__username="vera").user).is_gaming_manager
    assert f"organization {organization.pk}" in capsys.readouterr().out
    with pytest.raises(CommandError, match="already exists"):
        call_command("create_organization", "valley boosters", "--manager-username", "w", "--manager-initials", "W")
