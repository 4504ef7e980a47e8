"""A login name is unique whatever its case (house control): "JDoe" beside "jdoe" would be two
people signing in under one name. Each service that makes a login (an employee, an organization's
first gaming manager, a shared terminal) refuses it in the same words, at its own field, and
writes nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cardroom import pins, services
from cardroom.models import Employee, Organization, Station
from core.database_refusals import database_refusal

PASSWORD = "a long enough pass phrase 77"
TAKEN = "House control: a login name is unique whatever its case; the login 'JDoe' already exists."


def _employee(manager, site):
    return services.create_employee(
        acting_user=manager.user, organization=site.organization, username="JDoe", password=PASSWORD, initials="JD"
    )


def _organization(manager, site):
    return services.create_organization(
        acting_user=None,
        name="Valley Boosters",
        manager_username="JDoe",
        manager_password=PASSWORD,
        manager_initials="JD",
    )


def _station(manager, site):
    return pins.create_station(acting_user=manager.user, site=site, username="JDoe", password=PASSWORD, name="Pit 2")


@pytest.mark.parametrize(
    "make,field",
    [(_employee, "username"), (_organization, "manager_username"), (_station, "username")],
    ids=["employee", "organization", "station"],
)
def test_a_login_differing_only_in_case_is_refused_in_one_sentence(manager, site, make, field):
    get_user_model().objects.create_user("jdoe", password=PASSWORD)
    rows = (get_user_model().objects.count(), Employee.objects.count(), Organization.objects.count())
    stations = Station.objects.count()
    with pytest.raises(ValidationError) as refused:
        make(manager, site)
    assert refused.value.message_dict == {field: [TAKEN]}
    after = (get_user_model().objects.count(), Employee.objects.count(), Organization.objects.count())
    assert (after, Station.objects.count()) == (rows, stations)


def test_the_database_refuses_a_login_differing_only_in_case_at_its_field(db):
    """Two logins made at once (or one past the services) meet the database's index (cardroom
    migration 0028), said at the field in the house's words, never a 500."""
    get_user_model().objects.create_user("jdoe", password=PASSWORD)
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        get_user_model().objects.create(username="JDoe")
    assert database_refusal(refused.value).message_dict == {
        "username": ["House control: a login name is unique whatever its case."]
    }
    assert list(get_user_model().objects.filter(username__iexact="jdoe").values_list("username", flat=True)) == ["jdoe"]


def test_the_api_answers_a_login_refused_by_the_database_as_a_400_at_its_field(client_for, manager, monkeypatch):
    """The service's own look switched off, as when another terminal made "jdoe" after it looked: the
    database's refusal is the API's 400 at `username`, and nothing is written."""
    get_user_model().objects.create_user("jdoe", password=PASSWORD)
    monkeypatch.setattr(services, "refuse_taken_login", lambda username, field="username": None)
    employees = Employee.objects.count()
    response = client_for(manager).post(
        "/api/v1/employees/",
        {"username": "JDoe", "password": PASSWORD, "initials": "JD", "first_name": "Jay", "last_name": "Doe"},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["username"] == ["House control: a login name is unique whatever its case."]
    assert Employee.objects.count() == employees


def test_a_first_manager_refused_by_the_database_is_said_at_manager_username(db, monkeypatch):
    """Two organizations' first managers made at once, "jdoe" and "JDoe": the second meets the
    database's index after its own look, and is answered at the organization form's own field,
    with no organization left behind."""
    get_user_model().objects.create_user("jdoe", password=PASSWORD)
    monkeypatch.setattr(services, "refuse_taken_login", lambda username, field="username": None)
    organizations = Organization.objects.count()
    with pytest.raises(ValidationError) as refused:
        _organization(None, None)
    assert refused.value.message_dict == {
        "manager_username": ["House control: a login name is unique whatever its case."]
    }
    assert Organization.objects.count() == organizations
