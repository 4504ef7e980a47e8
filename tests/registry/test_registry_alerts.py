"""The compliance alerts a licensee sends with its anchors: one row per alert and state, checked
field by field, read by the agency's staff per licensee and by the licensee itself only."""

import pytest

from registry.models import ReceivedAlert, RegulatorRole

from .test_registry_api import ANCHORS, FILINGS, LICENSEES, _licensee, licensee_client, regulator_client

ALERTS = "/registry/api/v1/alerts/"


def alert(ref=41, resolved_at=None, **extra) -> dict:
    return {
        "id": ref,
        "site": {"id": 7, "name": "Elks Lodge"},
        "rule": "filed_return_amended",
        "citation": "ND 99-01.3-08-16(1)(g)",
        "title": "A filed return was amended",
        "period_key": "2026Q3",
        "opened_at": "2026-11-20T18:00:00+00:00",
        "resolved_at": resolved_at,
        **extra,
    }


@pytest.fixture
def agency(db):
    from registry.models import Agency

    return Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")


def test_alerts_are_kept_once_per_state_and_counted_per_licensee(agency):
    elks, eagles = _licensee(agency, "Elks", "G-1"), _licensee(agency, "Eagles", "G-2")
    client = licensee_client(elks[1])
    first = client.post(ALERTS, {"alerts": [alert(41), alert(42)]}, format="json")
    assert first.status_code == 201 and first.json() == {"stored": 2, "already_held": 0}
    again = client.post(
        ALERTS, {"alerts": [alert(41), alert(42, resolved_at="2026-11-21T09:00:00+00:00")]}, format="json"
    )
    assert again.json() == {"stored": 1, "already_held": 1}

    rows = {r["id"]: r for r in regulator_client(agency).get(LICENSEES).json()["results"]}
    assert (rows[elks[0].pk]["alerts_open"], rows[elks[0].pk]["alerts_closed"]) == (1, 1)
    assert (rows[eagles[0].pk]["alerts_open"], rows[eagles[0].pk]["alerts_closed"]) == (0, 0)
    assert sorted(r["state"] for r in client.get(ALERTS).json()["results"]) == ["closed", "open"]
    assert licensee_client(eagles[1]).get(ALERTS).json()["results"] == []  # another licensee's are not theirs
    assert ReceivedAlert.objects.count() == 3


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ([alert(ref="41")], "alerts[0].id"),
        ([alert(site="Elks")], "alerts[0].site"),
        ([alert(citation="")], "alerts[0].citation"),
        ([alert(opened_at="yesterday")], "alerts[0].opened_at"),
        ([alert(resolved_at="soon")], "alerts[0].resolved_at"),
        # a time without its offset is of no known zone (it was kept as the registry's own time)
        ([alert(opened_at="2026-11-20T09:00:00")], "alerts[0].opened_at"),
        ([alert(resolved_at="2026-11-21T09:00:00")], "alerts[0].resolved_at"),
        ("every alert", "alerts"),
    ],
)
def test_a_malformed_alert_is_refused_naming_its_field(agency, sent, field):
    elks = _licensee(agency, "Elks", "G-1")
    response = licensee_client(elks[1]).post(ALERTS, {"alerts": sent}, format="json")
    assert response.status_code == 400 and response.json()[field][0].startswith("House control")
    assert not ReceivedAlert.objects.exists()


def test_the_agencys_staff_read_alerts_but_do_not_send_them(agency):
    elks = _licensee(agency, "Elks", "G-1")
    licensee_client(elks[1]).post(ALERTS, {"alerts": [alert()]}, format="json")
    staff = regulator_client(agency)
    assert staff.get(f"{ALERTS}?licensee={elks[0].pk}").json()["results"][0]["alert"] == 41
    for wrong in ("x", "0", "-1", "１２", "9" * 19):  # core.limits.record_id: no id, never a 500
        refused = staff.get(f"{ALERTS}?licensee={wrong}")
        assert refused.status_code == 400 and "give a licensee's id" in refused.json()["licensee"]
    assert staff.post(ALERTS, {"alerts": [alert(43)]}, format="json").status_code == 403


SENDS = "House control: only a licensee, with the credential the agency issued, sends filings, anchors and alerts."


@pytest.mark.parametrize("role", [RegulatorRole.STATE_AUDITOR, RegulatorRole.STATE_SUPERVISOR])
@pytest.mark.parametrize("path", [FILINGS, ANCHORS, ALERTS])
def test_the_agencys_staff_sending_what_a_licensee_sends_are_told_who_sends_it(agency, role, path):
    # The view's permission for its POST (RegistryView.licensee_methods): the staff read the general
    # "the registry answers its licensees and its agency's staff only" though they are its staff.
    response = regulator_client(agency, role=role).post(path, {}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 403 and response.json() == {"detail": SENDS}
