"""A wheel operator runs a paddlewheel: the role is offered and given only at a site whose pack
deals one (North Dakota's twenty-one and paddlewheel; not Washington's blackjack rooms), through
the API, the employee pages and the admin alike (`Membership.clean`)."""

import pytest

from cardroom.forms import EmployeeForm, MembershipForm
from cardroom.models import Employee, Membership, Role, Site
from tests.factories import EmployeeFactory, SiteFactory, fees_site

pytestmark = pytest.mark.django_db


@pytest.fixture
def spokane(org):
    return SiteFactory(organization=org, name="Spokane", jurisdiction="WA-HB", time_zone="America/Los_Angeles")


def test_the_api_refuses_a_wheel_operator_where_no_paddlewheel_is_dealt_naming_the_role(
    client_for, manager, org, spokane
):
    tacoma = fees_site(org)
    employee = EmployeeFactory(organization=org)
    for site in (spokane, tacoma):
        response = client_for(manager).post(
            "/api/v1/memberships/",
            {"employee": employee.pk, "site": site.pk, "role": Role.WHEEL_OPERATOR},
            format="json",
        )
        assert response.status_code == 400, response.json()
        assert "deals no paddlewheel" in str(response.json()["role"]) and site.name in str(response.json()["role"])
    assert not Membership.objects.filter(employee=employee).exists()


def test_a_north_dakota_site_still_has_wheel_operators(client_for, manager, org, site):
    employee = EmployeeFactory(organization=org)
    response = client_for(manager).post(
        "/api/v1/memberships/", {"employee": employee.pk, "site": site.pk, "role": Role.WHEEL_OPERATOR}, format="json"
    )
    assert response.status_code == 201, response.json()


def test_the_forms_offer_the_role_only_where_a_site_deals_a_paddlewheel(org, site, spokane):
    washington_only = SiteFactory(jurisdiction="WA-HB", time_zone="America/Los_Angeles").organization
    offered = lambda form: [value for value, _ in form.fields["role"].choices]  # noqa: E731
    wa_sites = Site.objects.filter(organization=washington_only)
    assert Role.WHEEL_OPERATOR not in offered(MembershipForm(instance=Membership(), sites=wa_sites))
    assert Role.WHEEL_OPERATOR not in offered(EmployeeForm(instance=Employee(organization=washington_only)))
    assert Role.DEALER in offered(MembershipForm(instance=Membership(), sites=wa_sites))
    both = Site.objects.filter(organization=org)  # the org's North Dakota site beside Spokane
    assert Role.WHEEL_OPERATOR in offered(MembershipForm(instance=Membership(), sites=both))
    assert Role.WHEEL_OPERATOR in offered(EmployeeForm(instance=Employee(organization=org)))
