"""A gaming employee's state-issued identifier is asked only where the law of one of the
organization's sites names one (Washington's WSGC card room employee licence, WAC 230-03-265(3)),
and by that law's name. Found walking the demo: at a New York organization the employee form showed
"State-issued identifier" while the same page said New York's texts name none. The API keeps the
field (it is a column of every employee, blank where no law names one) and refuses a value there,
as the model does for every interface (`Employee.clean`), citing the pack's text; an identifier
recorded earlier is kept and the record stays editable."""

import pytest

from cardroom.models import Employee, Role
from core.models import AuditEvent
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


# Why each pack names none, citing its text, as the employee page's notes say it.
UNNAMED = {"ND": "ND 99-01.3-08-05(3)", "NY": "9 NYCRR 4620.5 names no state-issued identifier"}
RECRUIT = {"username": "rookie", "password": "a-long-good-password-1", "initials": "RK", "employment_type": "gaming"}


@pytest.mark.parametrize("code", ["ND", "NY"])
def test_the_api_refuses_an_identifier_where_no_pack_of_the_organization_names_one(
    client_for, manager, cast, site, code
):
    """Before, the API stored it where the employee form leaves the field out."""
    site.jurisdiction = code
    site.save()
    api, dealer = client_for(manager), cast[Role.DEALER]
    created = api.post("/api/v1/employees/", {**RECRUIT, "state_identifier": "B-12345"}, format="json")
    changed = api.patch(f"/api/v1/employees/{dealer.pk}/", {"state_identifier": "B-12345"}, format="json")
    for answer in (created, changed):
        assert answer.status_code == 400, answer.content
        [said] = answer.json()["state_identifier"]
        assert UNNAMED[code] in said and said.endswith(
            "No state-issued identifier is recorded for this organization's employees."
        )
    assert not Employee.objects.filter(user__username="rookie").exists()
    assert Employee.objects.get(pk=dealer.pk).state_identifier == ""
    assert not AuditEvent.objects.filter(action__in=["employee.created", "employee.updated"]).exists()


def test_the_api_takes_it_where_a_pack_of_the_organization_names_one(client_for, manager, site):
    site.jurisdiction = "WA-HB"
    site.save()
    answer = client_for(manager).post("/api/v1/employees/", {**RECRUIT, "state_identifier": "B-12345"}, format="json")
    assert answer.status_code == 201, answer.content
    assert Employee.objects.get(user__username="rookie").state_identifier == "B-12345"


def test_an_identifier_recorded_earlier_is_kept_and_its_employee_stays_editable(
    client, client_for, manager, cast, site
):
    """Recorded while the organization's site was under Washington's law; the site is now New York's."""
    site.jurisdiction = "WA-HB"
    site.save()
    api, dealer = client_for(manager), cast[Role.DEALER]
    url = f"/api/v1/employees/{dealer.pk}/"
    assert api.patch(url, {"state_identifier": "B-12345"}, format="json").status_code == 200
    site.jurisdiction = "NY"
    site.save()
    kept = api.patch(url, {"state_identifier": "B-12345", "initials": "QZ"}, format="json")
    assert kept.status_code == 200, kept.content
    other = api.patch(url, {"state_identifier": "B-99999"}, format="json")
    assert other.status_code == 400 and UNNAMED["NY"] in other.json()["state_identifier"][0]
    client.force_login(manager.user)
    page = client.post(
        f"/setup/employees/{dealer.pk}/", {"initials": "QY", "employment_type": "gaming", "active": "on"}
    )
    assert page.status_code == 302
    assert Employee.objects.filter(pk=dealer.pk, initials="QY", state_identifier="B-12345").exists()
    assert api.patch(url, {"state_identifier": ""}, format="json").status_code == 200
