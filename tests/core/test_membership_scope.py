"""Who holds which role where is scoped like everything else (domain: a person sees only the
sites they are a member of; gaming managers and auditors, their whole organization): listing the
roles (`/api/v1/memberships/`) shows a single-site person the roles held at their own sites and
the organization-wide ones, never who works as what at the organization's other sites, even a
colleague's who works at both."""

import pytest

from cardroom.models import ORG_WIDE_ROLES, Membership, Role
from tests.factories import make_person

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", list(Role))
def test_the_roles_listed_are_those_at_ones_own_sites_unless_one_sees_the_whole_organization(
    org, site, other_site, cast, client_for, role
):
    colleague = make_person(org, Role.SHIFT_MANAGER, site)  # at both sites: one sees them
    Membership.objects.create(employee=colleague, site=other_site, role=Role.CASHIER)
    make_person(org, Role.DEALER, other_site)  # at the other site only

    listed = client_for(cast[role]).get("/api/v1/memberships/", {"page_size": 500})

    assert listed.status_code == 200
    rows = listed.json()["results"]
    there = {(r["employee"], r["role"]) for r in rows if r["site"] == other_site.pk}
    if role in ORG_WIDE_ROLES:
        assert (colleague.pk, Role.CASHIER) in there and len(there) == 2
    else:
        assert there == set()
        assert (colleague.pk, Role.SHIFT_MANAGER) in {(r["employee"], r["role"]) for r in rows}
