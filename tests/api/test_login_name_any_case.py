"""A login name is unique whatever its case (house control): "JDoe" beside "jdoe" would be two
people signing in under one name. Each service that makes a login (an employee, an organization's
first gaming manager, a shared terminal) refuses it in the same words, at its own field, and
writes nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from cardroom import pins, services
from cardroom.models import Employee, Organization, Station

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
