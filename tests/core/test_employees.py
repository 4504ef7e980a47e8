import pytest

from cardroom.models import Employee, EmployeeRelation, Membership, Role
from tests.factories import make_person


def test_gaming_manager_adds_an_employee_who_can_then_log_in(client_for, manager, client):
    response = client_for(manager).post(
        "/api/v1/employees/",
        {
            "username": "rookie",
            "password": "a-long-good-password-1",
            "first_name": "Rae",
            "last_name": "Kie",
            "initials": "RK",
            "employment_type": "independent",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["employment_type"] == "independent"
    assert client.login(username="rookie", password="a-long-good-password-1")


@pytest.mark.parametrize(
    "payload,field",
    [
        ({"username": "weak", "password": "123", "initials": "WK"}, "password"),
        ({"username": "dup", "password": "a-long-good-password-1", "initials": "XX"}, "initials"),
    ],
)
def test_bad_employee_input_names_the_field(client_for, manager, org, site, payload, field):
    make_person(org, Role.DEALER, site, initials="XX")
    count = Employee.objects.count()
    response = client_for(manager).post("/api/v1/employees/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert Employee.objects.count() == count


def test_a_site_role_cannot_span_all_sites(client_for, manager, cast):
    response = client_for(manager).post(
        "/api/v1/memberships/", {"employee": cast[Role.DEALER].pk, "role": "dealer"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["site"][0].startswith("House control: only gaming managers and auditors")


def test_roles_and_relations_are_added_and_removed_with_an_audit_trail(client_for, manager, cast, other_site):
    api = client_for(manager)
    dealer, pit = cast[Role.DEALER], cast[Role.PIT_BOSS]
    created = api.post(
        "/api/v1/memberships/", {"employee": dealer.pk, "site": other_site.pk, "role": "dealer"}, format="json"
    )
    assert created.status_code == 201
    assert api.delete(f"/api/v1/memberships/{created.json()['id']}/").status_code == 204
    assert not Membership.objects.filter(employee=dealer, site=other_site).exists()
    relation = api.post(
        "/api/v1/employee-relations/", {"employee": dealer.pk, "relative": pit.pk, "kind": "spouse"}, format="json"
    )
    assert relation.status_code == 201
    assert EmployeeRelation.objects.get().kind == "spouse"
    self_relation = api.post(
        "/api/v1/employee-relations/", {"employee": dealer.pk, "relative": dealer.pk, "kind": "spouse"}, format="json"
    )
    assert self_relation.status_code == 400


def test_supervisor_must_be_in_the_same_organization(client_for, manager, cast, stranger_site):
    foreign = make_person(stranger_site.organization, Role.DEALER, stranger_site)
    response = client_for(manager).patch(
        f"/api/v1/employees/{cast[Role.DEALER].pk}/", {"supervisor": foreign.pk}, format="json"
    )
    assert response.status_code == 400
    assert "supervisor" in response.json()


def test_master_data_keeps_a_history_of_who_changed_what(manager, table):
    from cardroom import services

    services.update_table(acting_user=manager.user, table=table, max_wager_cents=1500)
    latest = table.history.latest("history_date")
    assert (latest.max_wager_cents, latest.history_type, latest.history_user) == (1500, "~", manager.user)
    assert latest.prev_record.max_wager_cents == 2500
