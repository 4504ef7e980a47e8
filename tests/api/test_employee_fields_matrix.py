"""Which fields of an employee each role reads: every role x a co-worker at their site and
themselves, through the employees API's list and detail. One rule (cardroom.access.PERSONNEL):
a gaming manager, who manages people, and an auditor, who audits their records, read a
co-worker's personnel record in full; everyone else reads only what the floor needs to name
them (id, names, initials, active, memberships), and their own record in full (before, every
role read every visible co-worker's login, state identifier, employment type and supervisor)."""

import pytest

from cardroom.models import Employee, Role
from tests.conftest import ALL_ROLES
from tests.factories import SiteFactory, make_person

GM, AUD = Role.GAMING_MANAGER, Role.AUDITOR
PERSONNEL_READERS = {GM, AUD}  # written out here, not read from the code
NAMING = {"id", "first_name", "last_name", "initials", "active", "memberships"}
EVERYTHING = NAMING | {
    "organization",
    "username",
    "state_identifier",
    "employment_type",
    "supervisor",
    "independent_contractor",
}


def _world(org):
    site = SiteFactory(organization=org, jurisdiction="WA-HB", name="Spokane Card Room")
    cast = {
        role: make_person(org, role, None if role in (GM, AUD) else site, state_identifier=f"WA-{n:05d}")
        for n, role in enumerate(ALL_ROLES)
    }
    co_worker = make_person(
        org,
        Role.CASHIER,
        site,
        state_identifier="WA-99999",
        employment_type="non_gaming",
        supervisor=cast[Role.SHIFT_MANAGER],
        independent_contractor=True,
    )
    return cast, co_worker


def _fields_read(api, me: Employee, co_worker: Employee) -> dict:
    listed = {row["id"]: row for row in api.get("/api/v1/employees/", {"limit": 500}).json()["results"]}
    return {
        "co-worker (list)": set(listed[co_worker.pk]),
        "co-worker (detail)": set(api.get(f"/api/v1/employees/{co_worker.pk}/").json()),
        "self (list)": set(listed[me.pk]),
        "self (detail)": set(api.get(f"/api/v1/employees/{me.pk}/").json()),
    }


def _expected(role) -> dict:
    co_worker = EVERYTHING if role in PERSONNEL_READERS else NAMING
    return {
        "co-worker (list)": co_worker,
        "co-worker (detail)": co_worker,
        "self (list)": EVERYTHING,
        "self (detail)": EVERYTHING,
    }


def test_only_gaming_managers_and_auditors_read_a_co_workers_personnel_record(client_for, org):
    cast, co_worker = _world(org)
    got = {role: _fields_read(client_for(cast[role]), cast[role], co_worker) for role in ALL_ROLES}
    assert got == {role: _expected(role) for role in ALL_ROLES}


@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.SHIFT_MANAGER])
def test_a_co_worker_is_still_named_with_their_roles_at_the_site(client_for, org, role):
    cast, co_worker = _world(org)
    row = client_for(cast[role]).get(f"/api/v1/employees/{co_worker.pk}/").json()
    assert (row["first_name"], row["last_name"], row["initials"]) == (
        co_worker.user.first_name,
        co_worker.user.last_name,
        co_worker.initials,
    )
    assert [(m["site"], m["role"]) for m in row["memberships"]] == [(co_worker.memberships.get().site_id, "cashier")]
    assert "WA-99999" not in client_for(cast[role]).get("/api/v1/employees/", {"limit": 500}).content.decode()


def test_a_gaming_manager_reads_the_state_identifier_they_set(client_for, org):
    cast, co_worker = _world(org)
    body = {"state_identifier": "WA-424242"}
    response = client_for(cast[GM]).patch(f"/api/v1/employees/{co_worker.pk}/", body, format="json")
    assert response.json()["state_identifier"] == "WA-424242"
