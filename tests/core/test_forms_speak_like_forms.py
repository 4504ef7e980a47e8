"""Setup and admin speak like forms (issue 33): Yes/No rather than True/False, a picker of time
zones, the browser's date picker for dates, and plurals an admin reads without wincing."""

import re

import pytest
from django.apps import apps

from cardroom.models import Role

pytestmark = pytest.mark.django_db


def test_the_setup_lists_say_yes_and_no(client, cast, site):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get("/setup/sites/").content.decode()
    cells = re.findall(r"<td>([^<]*)</td>", page)
    assert "Yes" in cells and "True" not in cells and "False" not in cells


@pytest.mark.parametrize(
    ("kind", "heading"),
    [("sites", "New site"), ("tables", "New table"), ("chips", "New chip denomination"), ("employees", "New employee")],
)
def test_a_new_records_form_is_headed_in_the_singular(client, cast, site, kind, heading):
    """The setup form of a new record said "New: tables", "New: chip denominations"."""
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get(f"/setup/{kind}/new/").content.decode()
    assert f'<h1 class="h3">{heading}</h1>' in page and "New: " not in page


def test_the_site_form_picks_a_time_zone_and_dates_with_the_browsers_pickers(client, cast, site):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get(f"/setup/sites/{site.pk}/").content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', page, re.S)
    assert select and f'<option value="{site.time_zone}" selected>' in select.group(1)
    assert 'value="America/Los_Angeles"' in select.group(1) and 'value="Europe/Paris"' in select.group(1)
    assert re.search(r'<input type="date" name="twenty_one_discontinued_on"', page)


def test_a_new_site_starts_from_the_current_sites_pack_time_zone_and_day_start(client, cast, site):
    """A New York organization's next site is offered New York's pack, not the model's North Dakota."""
    from cardroom import services

    manager = cast[Role.GAMING_MANAGER]
    services.update_site(acting_user=manager.user, site=site, jurisdiction="NY", time_zone="America/New_York",
                         business_day_start_hour=8)  # fmt: skip
    client.force_login(manager.user)
    page = client.get("/setup/sites/new/").content.decode()
    chosen = dict(re.findall(r'<select name="(\w+)"[^>]*>.*?<option value="([^"]*)" selected>', page, re.S))
    assert chosen["jurisdiction"] == "NY" and chosen["time_zone"] == "America/New_York"
    assert re.search(r'name="business_day_start_hour" value="8"', page)


def test_a_time_zone_not_among_the_choices_is_refused_naming_the_field(client, cast, site):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    response = client.post(f"/setup/sites/{site.pk}/", {"name": site.name, "time_zone": "Mars/Olympus"})
    # the field's label and House control before Django's words; the value as it was typed
    words = "House control: Time zone: select a valid choice; Mars/Olympus is not one of the available choices."
    assert words in response.content.decode()
    site.refresh_from_db()
    assert site.time_zone != "Mars/Olympus"


def test_every_model_has_a_plural_an_admin_can_read():
    wrong = {m._meta.label: str(m._meta.verbose_name_plural) for m in apps.get_models()
             if re.search(r"(ss|xs|[^aeiou]ys|chs|shs)$", str(m._meta.verbose_name_plural))}  # fmt: skip
    assert wrong == {}


def test_the_twenty_one_auditor_picker_offers_nobody_of_the_count_team(client, cast, site):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get(f"/counts/drop-boxes/?site={site.pk}").content.decode()
    picker = re.search(r'<select name="twenty_one_auditor"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert f'value="{cast[Role.AUDITOR].pk}"' in picker
    assert f'value="{cast[Role.COUNT_TEAM].pk}"' not in picker


def test_a_new_employee_gets_a_first_role_on_the_first_save(client, cast, site):
    from cardroom.models import Employee, Membership

    client.force_login(cast[Role.GAMING_MANAGER].user)
    form = client.get("/setup/employees/new/").content.decode()
    assert 'name="role"' in form and 'name="site"' in form
    client.post("/setup/employees/new/", {
        "username": "newdealer", "password": "a-long-pass-phrase-2026", "first_name": "Nell", "last_name": "Dean",
        "initials": "ND", "employment_type": Employee._meta.get_field("employment_type").default,
        "role": Role.DEALER, "site": site.pk, "active": "on",
    })  # fmt: skip
    employee = Employee.objects.get(user__username="newdealer")
    assert list(Membership.objects.filter(employee=employee).values_list("role", "site")) == [(Role.DEALER, site.pk)]


@pytest.mark.parametrize("jurisdiction", ["ND", "WA-HB", "NY"])
def test_the_discontinued_days_help_cites_the_thirty_days_only_where_the_sites_pack_states_them(
    client, cast, site, jurisdiction
):
    """ND 99-01.3-08-06(2): chips of a discontinued site are redeemed for thirty days; a WA or NY
    site's form says nothing of it (its pack states no such rule, so the day is not asked there:
    tests/core/test_site_form_discontinued_day.py)."""
    site.jurisdiction = jurisdiction
    site.save()
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get(f"/setup/sites/{site.pk}/").content.decode()
    assert ("The day twenty-one was discontinued at this site." in page) == (jurisdiction == "ND")
    assert ("was discontinued" in page) == (jurisdiction == "ND")
    assert ("twenty-one" in page.lower()) == (jurisdiction == "ND")
    assert ("ND 99-01.3-08-06(2): its chips are redeemed for thirty days after." in page) == (jurisdiction == "ND")
    assert "30 days" not in page
