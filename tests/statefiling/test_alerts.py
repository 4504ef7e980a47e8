"""The organization's compliance alerts go to the state registry with the nightly anchors, where
its gaming manager consented when linking (`share_alerts`), and the state auditor sees them per
licensee, open and closed. The registry is reachable in this process (registry_in_process)."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from compliance import services as compliance
from compliance.models import Alert
from registry.models import ReceivedAlert, Regulator, RegulatorRole
from statefiling import services, tasks

from .registry_in_process import URL

pytestmark = pytest.mark.usefixtures("quarter_played")


@pytest.fixture
def consenting(linked, manager, org):
    """The same registry, linked again with the organization's consent to share its alerts."""
    return services.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction="ND",
        url=URL,
        credential=linked.credential,
        share_alerts=True,
    )


@pytest.fixture
def state(licensee):
    user = get_user_model().objects.create_user("state", password="x")
    Regulator.objects.create(user=user, agency=licensee.agency, role=RegulatorRole.STATE_AUDITOR)
    client = APIClient()
    client.force_authenticate(user)
    return client


def amend_after_filing(client_for, manager, site, org) -> Alert:
    """File 2026Q3, then record the other games' AGP: the amendment opens an alert (08-16(1)(g))."""
    api = client_for(manager)
    api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    api.post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": 80_000_000, "note": "pull tabs"},
        format="json",
    )
    return Alert.objects.get(rule="filed_return_amended")


def counts(state, licensee) -> tuple[int, int]:
    [row] = [r for r in state.get("/registry/api/v1/licensees/").json()["results"] if r["id"] == licensee.pk]
    return row["alerts_open"], row["alerts_closed"]


def test_alerts_reach_the_state_with_the_anchors_open_then_closed(
    consenting, state, licensee, client_for, manager, site, org, client
):
    alert = amend_after_filing(client_for, manager, site, org)
    sent = services.alerts_to_share(consenting)
    assert [(a["id"], a["rule"], a["resolved_at"]) for a in sent] == [(alert.pk, "filed_return_amended", None)]
    assert sent[0]["citation"] == alert.citation == "ND 99-01.3-08-16(1)(g)"

    assert tasks.push_alerts(consenting.pk, sent) == {"stored": 1, "already_held": 0}  # what the nightly job queues
    assert counts(state, licensee) == (1, 0)
    [listed] = state.get(f"/registry/api/v1/alerts/?licensee={licensee.pk}").json()["results"]
    assert (listed["alert"], listed["state"], listed["citation"]) == (alert.pk, "open", alert.citation)

    compliance.resolve_alert_with_documentation(acting_user=manager.user, alert=alert, note="amended return mailed")
    assert tasks.push_alerts(consenting.pk, services.alerts_to_share(consenting)) == {"stored": 1, "already_held": 0}
    assert tasks.push_alerts(consenting.pk, services.alerts_to_share(consenting))["stored"] == 0  # the next night
    assert counts(state, licensee) == (0, 1)
    [listed] = state.get("/registry/api/v1/alerts/").json()["results"]
    assert listed["state"] == "closed" and listed["resolved_at"]
    assert list(ReceivedAlert.objects.values_list("state", flat=True).order_by("pk")) == ["open", "closed"]

    client.force_login(get_user_model().objects.get(username="state"))
    page = client.get("/registry/").content.decode()
    assert "0 open, 1 closed" in page


def test_without_the_organizations_consent_no_alert_is_shared(linked, client_for, manager, site, org):
    amend_after_filing(client_for, manager, site, org)
    assert not linked.share_alerts and services.alerts_to_share(linked) == []
