"""Filtering a list by another organization's id answers exactly as filtering by an id that
does not exist: an empty page, never an error that tells the two apart."""

import pytest
from rest_framework.test import APIClient

from cardroom.models import Employee, Role
from core import limits
from tests.api.demo import load_short_demo
from tests.api.test_list_queries import list_paths
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_person

pytestmark = pytest.mark.django_db

NONEXISTENT = limits.MAX_ID  # a valid id that no row has


def _strangers() -> dict[str, int]:
    """Ids of another organization's site, table and employee, by the filter names that take them."""
    site = SiteFactory(organization=OrganizationFactory(name="Other Charity"), name="Far Away Bar")
    table = TableFactory(site=site, number=1)
    person = make_person(site.organization, Role.DEALER, site)
    people = dict.fromkeys(("employee", "dealer", "reviewer", "accessed_by", "relative"), person.pk)
    return {"site": site.pk, "table": table.pk, **people}


@pytest.mark.unshared  # the demo refuses an organization of its name it did not make: the module's shared one (NotTheDemos)
def test_another_organizations_id_answers_like_a_nonexistent_one_in_every_list():
    load_short_demo(weeks=1)
    strangers = _strangers()
    client = APIClient()
    client.force_authenticate(Employee.objects.get(user__username="gm").user)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    compared = 0
    for path in list_paths(client):
        names = {p["name"] for p in schema["paths"][path]["get"].get("parameters", [])}
        for name in sorted(names & set(strangers)):
            theirs = client.get(path, {name: strangers[name]})
            nobody = client.get(path, {name: NONEXISTENT})
            assert (theirs.status_code, theirs.json()) == (nobody.status_code, nobody.json()), (path, name)
            assert theirs.status_code == 200 and theirs.json()["count"] == 0, (path, name)
            compared += 1
    assert compared >= 40


@pytest.mark.parametrize("value", ["null", "true", "0.05", "-1", "0", str(limits.MAX_ID + 1), "9" * 30])
def test_an_id_filter_that_is_not_an_id_is_a_400_naming_the_filter(client_for, manager, value):
    for path in (
        "/api/v1/tables/",
        "/api/v1/cage/ious/",
        "/api/v1/cage/chip-movements/",
        "/api/v1/surveillance/outages/",
    ):
        response = client_for(manager).get(path, {"site": value})
        assert response.status_code == 400, (path, value)
        assert "site" in response.json(), (path, value)


def test_a_site_filter_on_a_record_of_the_whole_organization_filters_by_the_sites_organization(
    client_for, manager, site, stranger_site
):
    from cage import services

    services.record_tip_policy(
        acting_user=manager.user,
        organization=site.organization,
        pooled=True,
        description="Pooled.",
        effective_on=limits.FIRST_DATE,
    )
    api = client_for(manager)
    assert api.get("/api/v1/cage/tip-policies/", {"site": site.pk}).json()["count"] == 1
    assert api.get("/api/v1/cage/tip-policies/", {"site": stranger_site.pk}).json()["count"] == 0
    for path in ("/api/v1/cage/chip-movements/", "/api/v1/cage/chip-inventory-counts/"):
        assert api.get(path, {"site": site.pk}).status_code == 200
