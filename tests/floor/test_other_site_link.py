"""A link to a table at another of one's sites switches to that site (as the site switcher
does) instead of answering 404; a form posted for it is not taken; a table at a site one does
not work at stays a 404."""

import pytest

from cardroom.models import Membership, Role
from tests.factories import SiteFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_a_link_to_a_table_at_ones_other_site_switches_to_that_site(client, cast, site, other_site):
    shift = cast[Role.SHIFT_MANAGER]
    Membership.objects.create(employee=shift, site=other_site, role=Role.SHIFT_MANAGER)
    there = TableFactory(site=other_site, number=7)
    client.force_login(shift.user)
    client.post("/switch-site/", {"site": site.pk, "next": "/"})
    posted = client.post(f"/floor/tables/{there.pk}/opener/", {})
    assert posted.status_code == 404  # a form from another site's page is not taken
    page = client.get(f"/floor/tables/{there.pk}/opener/")
    assert page.status_code == 200 and f"Switched to {other_site.name}" in page.content.decode()
    assert client.session["current_site_id"] == other_site.pk


def test_a_table_at_a_site_one_does_not_work_at_is_not_found(client, cast, org):
    elsewhere = TableFactory(site=SiteFactory(organization=org, name="Far Hall"), number=3)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert client.get(f"/floor/tables/{elsewhere.pk}/opener/").status_code == 404
