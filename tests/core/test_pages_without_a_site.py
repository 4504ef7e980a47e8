"""A card room's site pages asked for by a login with no current site: an agency's registry staff
(no card room's employee) is refused with the rule, 403, as a card room's people are refused the
registry's pages; an employee holding no role at any site finds none, 404. Before, some pages told
the regulator to "Choose a site first", which they never can (found walking the demo as every user)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from registry.models import Agency, Regulator, RegulatorRole
from tests.factories import EmployeeFactory

pytestmark = pytest.mark.django_db

# One page of each way a page finds its site: floor.views.site_page, cardroom.views.page_at_current_site
# (the cage), dashboard.access (the figures), accounting.views (the day sheet), compliance.views (a POST).
PAGES = [
    ("get", "/floor/"),
    ("get", "/cage/"),
    ("get", "/dashboard/daily/"),
    ("get", "/accounting/day-sheets/"),
    ("post", "/compliance/run/"),
]


@pytest.mark.parametrize(("method", "address"), PAGES)
def test_a_regulator_is_refused_a_card_rooms_page_in_the_rules_words(method, address):
    user = get_user_model().objects.create_user("auditor-of-state", password="x")
    Regulator.objects.create(
        user=user, agency=Agency.objects.create(name="Attorney General", jurisdiction="ND"),
        role=RegulatorRole.STATE_AUDITOR,
    )  # fmt: skip
    client = Client()
    client.force_login(user)
    response = getattr(client, method)(address)
    assert response.status_code == 403, address
    assert "House control: the card room&#x27;s pages are its staff&#x27;s." in response.content.decode()


@pytest.mark.parametrize(("method", "address"), PAGES)
def test_an_employee_with_no_role_at_any_site_finds_no_site(org, method, address):
    client = Client()
    client.force_login(EmployeeFactory(organization=org).user)
    response = getattr(client, method)(address)
    assert response.status_code == 404, address
    assert "Choose a site first" not in response.content.decode()
