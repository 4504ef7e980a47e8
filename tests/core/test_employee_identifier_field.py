"""A gaming employee's state-issued identifier is asked only where the law of one of the
organization's sites names one (Washington's WSGC card room employee licence, WAC 230-03-265(3)),
and by that law's name. Found walking the demo: at a New York organization the employee form showed
"State-issued identifier" while the same page said New York's texts name none. The API keeps the
field (it is a column of every employee, blank where no law names one)."""

import pytest

from cardroom.models import Employee
from tests.factories import SiteFactory

# Each Washington pack's name of it and its citation (the house-banked Class B, the player-banked Class A).
NAMED = {
    "WA-HB": ("WSGC card room employee licence number (Class B)", "WAC 230-03-265(3), not in the texts held: assumed"),
    "WA-BJ": ("WSGC card room employee licence number (Class A)", "WAC 230-03-265(4), not in the texts held: assumed"),
}


def employee_pages(client, manager):
    client.force_login(manager.user)
    return client.get("/setup/employees/new/"), client.get(f"/setup/employees/{manager.pk}/")


@pytest.mark.parametrize("code", ["NY", "ND"])
def test_an_organization_whose_packs_name_no_identifier_is_not_asked_for_one(client, manager, site, code):
    site.jurisdiction = code
    site.save()
    for answer in employee_pages(client, manager):
        page = answer.content.decode()
        assert "state_identifier" not in answer.context["form"].fields
        assert 'name="state_identifier"' not in page and "State-issued identifier</label>" not in page
        assert 'id="identifier-notes"' in page  # the page still says why: the pack names none
    kept = Employee.objects.get(pk=manager.pk).state_identifier
    posted = client.post(
        f"/setup/employees/{manager.pk}/",
        {"initials": manager.initials, "employment_type": manager.employment_type, "active": "on",
         "state_identifier": "X-1"},
    )  # fmt: skip
    assert posted.status_code == 302 and Employee.objects.get(pk=manager.pk).state_identifier == kept


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ"])
def test_a_washington_organization_is_asked_for_it_by_its_laws_name_citing_it(client, manager, site, code):
    site.jurisdiction = code
    site.save()
    SiteFactory(organization=site.organization, jurisdiction="NY")  # a pack naming none beside it
    label, cited = NAMED[code]
    for answer in employee_pages(client, manager):
        field = answer.context["form"].fields["state_identifier"]
        assert field.label == label and field.help_text.startswith(f"{label} ({cited}): ")
        assert f'for="id_state_identifier">{label}</label>' in answer.content.decode()
