"""The person who audits twenty-one at a site is never on its count team (counts.rules.AUDITOR_BAR,
a house control): the boxes page's picker leaves the count team out, and the service refuses a
count-team member sent anyway, through the API, naming the field and the rule, changing nothing."""

from cardroom import services as cardroom_services
from cardroom.models import Role
from core.models import AuditEvent
from counts import queries
from counts.rules import AUDITOR_BAR
from tests.factories import make_person


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
