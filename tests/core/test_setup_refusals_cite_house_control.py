"""The set-up refusals no pack's text states name their field and "House control" at a site of
every pack (North Dakota, Washington house-banked, Washington blackjack, New York): a table moved
to another site (its records, figures and filed quarters are its site's), a station's login that is
an employee's (a station signs nothing itself), a role held at all sites that is no gaming
manager's or auditor's, a wheel operator where the pack deals no paddlewheel. None cites another
pack's law. Through the API where it offers the act; a station has no API (Station.clean)."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from cardroom import pins
from cardroom.models import Employee, Membership, Role, Station, Table
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import EmployeeFactory, SiteFactory, TableFactory

PACKS = ["ND", "WA-HB", "WA-BJ", "NY"]
TABLES = {
    "ND": {"max_wager_cents": 2500},
    "WA-HB": {"max_wager_cents": 5000, "payout_rounding": "down", "decks": 2, "dealt_from": "hand"},
    "WA-BJ": {"max_wager_cents": 2500, "banker": "player", "min_bank_cents": 30000, "decks": 1},
    "NY": {"max_wager_cents": 500, "decks": 1, "tie_option": 2, "blackjack_payout": "2:1", "double_on": "ten_eleven"},
}


def _cites_house_control_alone(message: str) -> None:
    assert message.startswith("House control: "), message
    assert not law_words_in(message, ND_WORDS) and not law_words_in(message, OTHER_WORDS), message


@pytest.fixture(params=PACKS)
def pack_site(request, site):
    site.jurisdiction = request.param
    site.save()
    return site


def test_a_table_moved_to_another_site_is_refused_naming_site_and_house_control(client_for, manager, org, pack_site):
    table = TableFactory(site=pack_site, number=1, **TABLES[pack_site.jurisdiction])
    there = SiteFactory(organization=org, name="Other Hall", jurisdiction=pack_site.jurisdiction)
    response = client_for(manager).patch(f"/api/v1/tables/{table.pk}/", {"site": there.pk}, format="json")
    assert response.status_code == 400, response.content
    (message,) = response.json()["site"]
    _cites_house_control_alone(message)
    assert "cannot move to another site" in message
    assert Table.objects.get(pk=table.pk).site_id == pack_site.pk


def test_a_station_whose_login_is_an_employees_is_refused_naming_user_and_house_control(org, pack_site):
    employee = EmployeeFactory(organization=org)
    with pytest.raises(ValidationError) as refused:
        Station(site=pack_site, user=employee.user, name="Pit terminal").full_clean()
    (message,) = refused.value.message_dict["user"]
    _cites_house_control_alone(message)
    assert not Station.objects.exists()


def test_a_dealer_at_all_sites_is_refused_naming_site_and_house_control(client_for, manager, org, pack_site):
    employee = EmployeeFactory(organization=org)
    response = client_for(manager).post(
        "/api/v1/memberships/", {"employee": employee.pk, "site": None, "role": Role.DEALER}, format="json"
    )
    assert response.status_code == 400, response.content
    (message,) = response.json()["site"]
    _cites_house_control_alone(message)
    assert not Membership.objects.filter(employee=employee).exists()


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_wheel_operator_where_no_paddlewheel_is_dealt_is_refused_naming_role_and_house_control(
    client_for, manager, org, site, code
):
    site.jurisdiction = code
    site.save()
    employee = EmployeeFactory(organization=org)
    response = client_for(manager).post(
        "/api/v1/memberships/", {"employee": employee.pk, "site": site.pk, "role": Role.WHEEL_OPERATOR}, format="json"
    )
    assert response.status_code == 400, response.content
    (message,) = response.json()["role"]
    _cites_house_control_alone(message)
    assert "deals no paddlewheel" in message
    assert not Membership.objects.filter(employee=employee).exists()


@pytest.mark.parametrize("kind", [Station.Kind.PIT, Station.Kind.COUNT])
def test_a_stations_wrong_password_is_answered_naming_house_control_on_the_page_and_the_api(
    client, manager, pack_site, kind
):
    """The lock five wrong passwords lead to is the house's (django-axes' settings): the sign-in page
    and the API's token endpoint say it in one wording (`core.lockouts.SIGN_IN_REFUSED`)."""
    pins.create_station(
        acting_user=manager.user, site=pack_site, username="terminal-1", password="Ochre-Lantern-Drift-58",
        name="Terminal", kind=kind,
    )  # fmt: skip
    said = "House control: your login name and password did not match; after 5 wrong tries the account is locked"
    page = client.post("/login/", {"username": "terminal-1", "password": "not-the-password"})
    assert page.status_code == 400 and said in page.content.decode()
    answer = Client().post("/api/v1/auth/token/", {"username": "terminal-1", "password": "not-the-password"})
    assert answer.status_code == 400, answer.content
    (message,) = answer.json()["non_field_errors"]
    assert message.startswith(said), message
    _cites_house_control_alone(message)


@pytest.mark.parametrize(
    ("payload", "field", "said"),
    [
        (
            {"username": "twin", "password": "Ochre-Lantern-Drift-58", "initials": "jr"},
            "initials",
            "House control: initials are unique in the organization whatever their case: they sign forms.",
        ),
        (
            {"username": "weak", "password": "12345678", "initials": "WK"},
            "password",
            "House control: this password is too common.",
        ),
    ],
    ids=["initials taken in another case", "a weak password"],
)
def test_an_employee_with_taken_initials_or_a_weak_password_is_refused_naming_the_field_and_house_control(
    client_for, manager, org, pack_site, payload, field, said
):
    """An employee's initials sign forms and find a badge whatever their case, and a password is
    judged by the site's validators: no pack's text states either."""
    EmployeeFactory(organization=org, initials="JR")
    before = set(Employee.objects.values_list("pk", flat=True))
    response = client_for(manager).post("/api/v1/employees/", payload, format="json")
    assert response.status_code == 400, response.content
    messages = response.json()[field]
    assert said in messages, messages
    for message in messages:
        _cites_house_control_alone(message)
    assert set(Employee.objects.values_list("pk", flat=True)) == before
