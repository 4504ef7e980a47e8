"""The person who audits twenty-one at a site is never on its count team (counts.rules.AUDITOR_BAR,
a house control): the boxes page's picker leaves the count team out, and the service refuses a
count-team member sent anyway, through the API, naming the field and the rule, changing nothing."""

import re

from django.utils.html import escape

from cardroom import services as cardroom_services
from cardroom.models import Role
from core.models import AuditEvent
from counts import queries
from counts.models import CountSettings
from counts.rules import AUDITOR_BAR
from tests.factories import SiteFactory, admin_role_added, make_person


def url(site):
    return f"/api/v1/count-settings/{site.pk}/"


def test_a_count_team_member_sent_as_the_auditor_is_refused_naming_the_field_and_the_rule(
    client_for, manager, org, site, counters
):
    api = client_for(manager)
    before = AuditEvent.objects.count()
    refused = api.patch(
        url(site), {"twenty_one_auditor": counters[0].pk, "box_exchange": "dealer_shift"}, format="json"
    )
    assert refused.status_code == 400
    message = " ".join(refused.json()["twenty_one_auditor"])
    assert message.startswith(f"{AUDITOR_BAR}: {counters[0]} is on the count team at {site}"), message
    settings = queries.count_settings(site)
    assert (settings.twenty_one_auditor_id, settings.box_exchange) == (None, "gaming_day")
    assert AuditEvent.objects.count() == before

    # An auditor who also counts at this site is refused as well.
    counting_auditor = make_person(org, Role.AUDITOR)
    cardroom_services.add_membership(
        acting_user=manager.user, employee=counting_auditor, role=Role.COUNT_TEAM, site=site
    )
    assert api.patch(url(site), {"twenty_one_auditor": counting_auditor.pk}, format="json").status_code == 400

    auditor = make_person(org, Role.AUDITOR)
    accepted = api.patch(url(site), {"twenty_one_auditor": auditor.pk}, format="json")
    assert accepted.status_code == 200 and accepted.json()["twenty_one_auditor"] == auditor.pk
    assert queries.count_settings(site).twenty_one_auditor == auditor


# --- The count-team role is not given to the site's twenty-one auditor (where roles are given) ---


def _named_auditor(client_for, manager, org, site):
    """An auditor the gaming manager names as auditing twenty-one at `site` (through the API)."""
    auditor = make_person(org, Role.AUDITOR)
    assert client_for(manager).patch(url(site), {"twenty_one_auditor": auditor.pk}, format="json").status_code == 200
    return auditor


def _refusal(auditor, site):
    return f"{AUDITOR_BAR}: {auditor} audits twenty-one at {site} and may not be on its count team."


def _count_team_roles(employee):
    return list(employee.memberships.filter(role=Role.COUNT_TEAM))


def test_the_api_refuses_the_count_team_role_to_the_twenty_one_auditor_naming_the_field(client_for, manager, org, site):
    auditor = _named_auditor(client_for, manager, org, site)
    before = AuditEvent.objects.count()
    refused = client_for(manager).post(
        "/api/v1/memberships/", {"employee": auditor.pk, "site": site.pk, "role": Role.COUNT_TEAM}, format="json"
    )
    assert refused.status_code == 400
    assert " ".join(refused.json()["role"]).startswith(_refusal(auditor, site))
    assert _count_team_roles(auditor) == [] and AuditEvent.objects.count() == before

    # At a site where someone else audits twenty-one, the same person may count.
    other_site = SiteFactory(organization=org, name="Mandan Hall")
    given = client_for(manager).post(
        "/api/v1/memberships/", {"employee": auditor.pk, "site": other_site.pk, "role": Role.COUNT_TEAM}, format="json"
    )
    assert given.status_code == 201 and [m.site for m in _count_team_roles(auditor)] == [other_site]


def test_the_employee_page_refuses_it_inline_and_writes_nothing(client, client_for, manager, org, site):
    auditor = _named_auditor(client_for, manager, org, site)
    before = AuditEvent.objects.count()
    client.force_login(manager.user)
    response = client.post(f"/setup/employees/{auditor.pk}/membership/add/", {"role": Role.COUNT_TEAM, "site": site.pk})
    assert response.status_code == 400
    form = response.context["membership_form"]
    assert " ".join(form.errors["role"]).startswith(_refusal(auditor, site))
    assert escape(_refusal(auditor, site)) in response.content.decode()
    assert _count_team_roles(auditor) == [] and AuditEvent.objects.count() == before


def test_the_admin_refuses_it_on_the_role_row_and_writes_nothing(client, client_for, manager, org, site):
    auditor = _named_auditor(client_for, manager, org, site)
    data = admin_role_added(auditor, site, Role.COUNT_TEAM)
    before = AuditEvent.objects.count()
    client.force_login(manager.user)
    response = client.post(f"/admin/cardroom/employee/{auditor.pk}/change/", data)
    assert response.status_code == 400
    assert escape(_refusal(auditor, site)) in response.content.decode()
    assert _count_team_roles(auditor) == [] and AuditEvent.objects.count() == before

    # The admin's own page of roles refuses it the same way.
    response = client.post(
        "/admin/cardroom/membership/add/", {"employee": auditor.pk, "site": site.pk, "role": Role.COUNT_TEAM}
    )
    assert response.status_code == 400 and escape(_refusal(auditor, site)) in response.content.decode()
    assert _count_team_roles(auditor) == [] and AuditEvent.objects.count() == before


def test_the_admin_refuses_a_count_team_member_as_the_auditor_and_does_not_offer_one(client, manager, site, counters):
    client.force_login(manager.user)
    response = client.post(
        "/admin/counts/countsettings/add/",
        {"site": site.pk, "box_exchange": "gaming_day", "twenty_one_auditor": counters[0].pk},
    )
    assert response.status_code == 400
    assert escape(f"{AUDITOR_BAR}: {counters[0]} is on the count team at {site}") in response.content.decode()
    assert not CountSettings.objects.filter(site=site).exists()

    client.post("/admin/counts/countsettings/add/", {"site": site.pk, "box_exchange": "gaming_day"})
    settings = CountSettings.objects.get(site=site)
    page = client.get(f"/admin/counts/countsettings/{settings.pk}/change/").content.decode()
    picker = re.search(r'<select name="twenty_one_auditor"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert f'value="{manager.pk}"' in picker and f'value="{counters[0].pk}"' not in picker
