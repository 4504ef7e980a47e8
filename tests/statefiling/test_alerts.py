"""The organization's compliance alerts go to the state registry with the nightly anchors, where
its gaming manager consented when linking (`share_alerts`), and the state auditor sees them per
licensee, open and closed. The registry is reachable in this process (registry_in_process)."""

from datetime import UTC, date, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from compliance import services as compliance
from compliance.models import Alert
from compliance.rules import Finding, ShiftRecord, dealer_shifts_without_figures
from registry.models import Credential, ReceivedAlert, Regulator, RegulatorRole
from registry.services import receive_alerts
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


def test_the_state_sees_each_alerts_table_period_and_slip_but_no_dealers_name(consenting, state, site, org, client):
    """What the licensee's alert page tells an alert apart by goes with it (compliance.labels):
    its table, its period in words, its slip or drop box; a dealer's name stays at home."""
    day = date(2026, 10, 6)
    missing = Finding(  # as compliance.rules.slip_findings words a missing number
        "slip_missing",
        "ND 99-01.3-08-05(2)",
        "Slip number missing",
        site.pk,
        str(day),
        day,
        day,
        "ND 99-01.3-08-05(2): account for fill slip number 12.",
        day,
        {"series": "fill", "number": 12},
        "fill:12",
    )
    shift = ShiftRecord(7, site.pk, "Dana Dealer", 4, datetime(2026, 10, 7, 20, tzinfo=UTC), has_own_drop=False)
    [unseparated] = dealer_shifts_without_figures(
        [shift], (date(2026, 10, 5), date(2026, 12, 27)), "ND 99-01.3-08-01(3)"
    )
    findings = [missing, unseparated]
    compliance.open_alerts(findings, organization_of={site.pk: org.pk})
    sent = {a["rule"]: a for a in services.alerts_to_share(consenting)}
    slip, dealer = sent["slip_missing"], sent["dealer_hold_missing"]
    assert (slip["table"], slip["period"], slip["subject"]) == ("", "2026-10-06", "Fill slip 12")
    assert (dealer["table"], dealer["period"], dealer["subject"]) == (
        "Table 4",
        "2026-10-05 to 2026-12-27",
        "Dealer shift 7 on 2026-10-07",  # two shifts of a table in the window read alike without it
    )
    assert "Dana" not in str(sent)

    assert tasks.push_alerts(consenting.pk, list(sent.values()))["stored"] == 2
    listed = {a["rule"]: a for a in state.get("/registry/api/v1/alerts/").json()["results"]}
    assert (listed["slip_missing"]["table"], listed["slip_missing"]["subject"]) == ("", "Fill slip 12")
    assert (listed["dealer_hold_missing"]["table"], listed["dealer_hold_missing"]["period"]) == (
        "Table 4",
        "2026-10-05 to 2026-12-27",
    )
    client.force_login(get_user_model().objects.get(username="state"))
    page = client.get("/registry/alerts/").content.decode()
    assert '<span class="alert-told-apart">Fill slip 12</span>' in page
    assert '<span class="alert-told-apart">Table 4, Dealer shift 7 on 2026-10-07</span>' in page
    assert "2026-10-05 to 2026-12-27" in page and "Dana" not in page
    download = client.get("/registry/alerts/?format=csv").content.decode()
    assert "table,period,subject" in download.splitlines()[0] and "Fill slip 12" in download


def test_an_alert_sent_without_them_is_stored_blank_and_a_wrong_type_is_refused(consenting, site, org):
    alert = {
        "id": 1,
        "site": {"id": site.pk, "name": site.name},
        "rule": "r",
        "citation": "House control",
        "title": "t",
        "period_key": "2026Q3",
        "opened_at": "2026-10-01T00:00:00+00:00",
        "resolved_at": None,
    }
    credential = Credential.objects.get()
    assert receive_alerts(credential=credential, alerts=[alert]).stored == 1
    assert ReceivedAlert.objects.values_list("table", "period", "subject").get() == ("", "", "")
    with pytest.raises(ValidationError) as refused:
        receive_alerts(credential=credential, alerts=[{**alert, "id": 2, "table": 3}])
    assert "alerts[0].table" in refused.value.message_dict
