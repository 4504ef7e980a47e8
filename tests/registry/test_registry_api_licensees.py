"""The registry's API does what the supervisor's pages do: a state's own systems read a licensee's
credentials with their last use (`GET licensees/<id>/credentials/`, the agency's staff) and a state
supervisor registers a licensee with the agency (`POST licensees/`), through the same services and
checks, in the same words, audited alike; a retry with the same Idempotency-Key registers once.
Before, both answered 405: the API only listed licensees and issued and revoked credentials."""

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client

from registry import services
from registry.models import Agency, Licensee

from . import test_registry_supervisor_pages as pages
from .test_registry_api import FILINGS, LICENSEES, licensee_client
from .test_registry_supervisor_pages import AGENCY_NAME, LICENCE_TAKEN, OTHER_AGENCY, events

world = pages.world  # the agencies, Elks with its credential, the supervisor, the auditor, Washington's supervisor

REGISTERED = "registry.licensee_registered"
NOON = datetime(2026, 11, 20, 18, tzinfo=UTC)  # 12:00 in North Dakota, the agency's zone
MOOSE = {"name": "Moose Lodge", "licence_number": "G-7", "expected_from": "2026-07-01"}
CREDENTIAL_KEYS = {"id", "prefix", "issued_at", "issued_by", "revoked_at", "revoked_by", "last_used_at"}


def credentials_address(licensee) -> str:
    return f"/registry/api/v1/licensees/{licensee.pk}/credentials/"


def register(client, body=MOOSE, **headers):
    return client.post(LICENSEES, body, content_type="application/json", headers=headers)


# --- Who may do what: the matrix ---------------------------------------------------------------------

EXPECTED = {
    "supervisor": {"credentials": 200, "register": 201},
    "auditor": {"credentials": 200, "register": 403},
    # Another agency's supervisor finds none of this agency's licensees (404) and registers with its own.
    "other_supervisor": {"credentials": 404, "register": 201},
    "gaming_manager": {"credentials": 403, "register": 403},
    "licensee": {"credentials": 403, "register": 403},
    "anonymous": {"credentials": 401, "register": 401},
}


def client_of(world, who, manager):
    if who in ("supervisor", "auditor", "other_supervisor"):
        return world[who]
    if who == "licensee":
        return licensee_client(world["issued"])
    client = Client()
    if who == "gaming_manager":
        client.force_login(manager.user)
    return client


@pytest.mark.parametrize("act", ("credentials", "register"))
@pytest.mark.parametrize("who", EXPECTED)
def test_who_reads_a_licensees_credentials_and_who_registers_through_the_api(world, manager, who, act):
    client, elks = client_of(world, who, manager), world["elks"]
    before = events(REGISTERED).count()
    if act == "credentials":
        response = client.get(credentials_address(elks))
    else:
        response = register(client)
    assert response.status_code == EXPECTED[who][act], response.content
    if response.status_code == 403 and act == "register":
        assert response.json()["detail"] == services.SUPERVISOR_ONLY  # as the page and the issue endpoint say
    if response.status_code == 403 and act == "credentials":
        # Refused as the staff's other endpoints refuse the same party: an organization's login as
        # the list of licensees refuses it, a licensee credential saying the list is the staff's.
        said = {
            "gaming_manager": client.get(LICENSEES).json()["detail"],
            "licensee": "House control: a licensee's credentials are the agency's staff's.",
        }[who]
        assert response.json()["detail"] == said
        assert client.get(LICENSEES).status_code == 403
    if response.status_code == 200:
        assert [c["id"] for c in response.json()] == [world["issued"].credential.pk]
    registered_with = {("supervisor", "register"): [AGENCY_NAME], ("other_supervisor", "register"): [OTHER_AGENCY]}
    registered = Licensee.objects.filter(licence_number="G-7").values_list("agency__name", flat=True)
    assert list(registered) == registered_with.get((who, act), [])
    assert events(REGISTERED).count() - before == len(registered_with.get((who, act), []))
    if (who, act) == ("other_supervisor", "credentials"):
        # Its 404 is the agency's: its own agency's licensee's credentials are answered.
        assert client.get(credentials_address(world["evergreen"])).status_code == 200


# --- Registering ---------------------------------------------------------------------------------------


def test_a_supervisor_registers_a_licensee_then_lists_it_audited_as_the_page_audits(world):
    supervisor = world["supervisor"]
    response = register(supervisor, {"name": "Moose Lodge", "licence_number": " ND-GC-0777 "})
    assert response.status_code == 201
    moose = Licensee.objects.get(licence_number="ND-GC-0777")  # kept trimmed, as the page keeps it
    body = response.json()
    assert (body["id"], body["name"], body["licence_number"]) == (moose.pk, "Moose Lodge", "ND-GC-0777")
    today = datetime.now(ZoneInfo("America/Chicago")).date()  # the agency's
    assert moose.expected_from == today.replace(day=1)  # none sent: the first of this month, the page's default
    assert (body["sites"], body["late"], body["missing"]) == ([], [], [])
    listed = supervisor.get(LICENSEES).json()["results"]
    assert [r for r in listed if r["id"] == moose.pk] == [body]
    event = events(REGISTERED).last()
    assert event.actor.username == "boss" and event.after["licence_number"] == "ND-GC-0777"
    assert supervisor.get(credentials_address(moose)).json() == []  # issued on its own, as on the page


def test_a_registration_given_expected_from_keeps_it(world):
    assert register(world["supervisor"]).status_code == 201
    assert Licensee.objects.get(licence_number="G-7").expected_from == date(2026, 7, 1)


@pytest.mark.parametrize(("posted", "field", "said"), pages.REFUSALS)
def test_a_registration_refused_is_a_400_at_its_field_in_the_pages_words_and_writes_nothing(world, posted, field, said):
    before = (Licensee.objects.count(), Agency.objects.count(), events(REGISTERED).count())
    response = register(world["supervisor"], {**MOOSE, **posted})
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert any(said in message for message in response.json()[field])
    assert (Licensee.objects.count(), Agency.objects.count(), events(REGISTERED).count()) == before
    assert Licensee.objects.get(licence_number="G-1").name == "Elks"


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ([], {"name", "licence_number"}),
        ("x", {"detail"}),  # no JSON at all
        ({"name": {"a": 1}, "licence_number": [1]}, {"name", "licence_number"}),
        ({**MOOSE, "expected_from": 7}, {"expected_from"}),
    ],
)
def test_a_malformed_registration_is_a_400_naming_its_fields_never_a_500(world, body, fields):
    before = Licensee.objects.count()
    response = register(world["supervisor"], body)
    assert response.status_code == 400 and set(response.json()) == fields
    assert Licensee.objects.count() == before


def test_a_retry_with_the_same_idempotency_key_registers_once(world):
    supervisor, before = world["supervisor"], events(REGISTERED).count()
    first = register(supervisor, **{"Idempotency-Key": "moose-1"})
    again = register(supervisor, **{"Idempotency-Key": "moose-1"})
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Licensee.objects.filter(licence_number="G-7").count() == 1
    assert events(REGISTERED).count() == before + 1
    other = register(supervisor, {**MOOSE, "licence_number": "G-8"}, **{"Idempotency-Key": "moose-1"})
    assert other.status_code == 409 and not Licensee.objects.filter(licence_number="G-8").exists()
    # Without a key a second request is another registration, refused as the licence is held.
    assert register(supervisor).json() == {"licence_number": [LICENCE_TAKEN]}


def test_a_refused_registration_keeps_no_key_and_the_corrected_retry_runs(world):
    supervisor = world["supervisor"]
    refused = register(supervisor, {**MOOSE, "name": " "}, **{"Idempotency-Key": "moose-2"})
    assert refused.status_code == 400
    assert register(supervisor, **{"Idempotency-Key": "moose-2"}).status_code == 201


# --- A licensee's credentials ------------------------------------------------------------------------


def test_the_credentials_newest_first_with_their_last_use_and_never_the_hash(world):
    elks, first = world["elks"], world["issued"].credential
    with time_machine.travel(NOON, tick=False):
        assert licensee_client(world["issued"]).get(FILINGS).status_code == 200
    services.revoke_credential(acting_user=None, credential=first)
    live = services.issue_credential(acting_user=None, licensee=elks)
    response = world["auditor"].get(credentials_address(elks))
    assert response.status_code == 200
    rows = response.json()
    assert [r["id"] for r in rows] == [live.credential.pk, first.pk]  # newest first
    assert all(set(r) == CREDENTIAL_KEYS for r in rows)
    assert rows[1]["last_used_at"] == NOON.isoformat() and rows[0]["last_used_at"] is None
    assert rows[1]["revoked_at"] is not None and rows[0]["revoked_at"] is None
    assert (rows[0]["prefix"], rows[1]["prefix"]) == (live.credential.prefix, first.prefix)
    text = response.content.decode()
    for credential, secret in ((first, world["issued"].secret), (live.credential, live.secret)):
        assert credential.secret_sha256 not in text and secret not in text


# --- Read strictly, as the organization's API reads its input ---------------------------------------


def test_a_registration_naming_a_field_the_endpoint_does_not_read_is_a_400_naming_it_and_registers_nothing(world):
    """core.api.Input, as under /api/: a misspelt field is refused, never dropped (the first of this
    month would have stood for an `expected_form` of 2026-07-01)."""
    body = {"name": "Moose Lodge", "licence_number": "G-7", "expected_form": "2026-07-01"}
    response = register(world["supervisor"], body)
    assert response.status_code == 400
    assert response.json() == {
        "expected_form": [
            "House control: unknown field 'expected_form'; this endpoint reads expected_from, licence_number, name."
        ]
    }
    assert not Licensee.objects.filter(licence_number="G-7").exists()


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"name": {"a": 1}}, {"name": ["House control: name: not a valid string."]}),
        ({"licence_number": True}, {"licence_number": ["House control: licence_number: not a valid string."]}),
        ({"name": None}, {"name": ["House control: name may not be null."]}),
    ],
)
def test_a_value_that_is_no_text_is_refused_at_its_field_in_the_organization_apis_words(world, sent, said):
    response = register(world["supervisor"], {**MOOSE, **sent})
    assert response.status_code == 400 and response.json() == said
    assert not Licensee.objects.filter(licence_number="G-7").exists()
