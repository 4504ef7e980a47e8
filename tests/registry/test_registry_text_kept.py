"""What the registry keeps is text a database keeps: a licensee's package, chain heads or alerts,
or a supervisor's registration, holding a NUL character or half of a UTF-16 surrogate pair (JSON's
"\\ud800" escape alone) is a 400 naming where it is in the body, in the words of House control, and
nothing is kept: the API's parser refuses it (core.parsers), as in every body the organization's
API reads, and the registry's own checks of a package, an anchor or an alert say it in the same
words. Before, half a pair was a 500 on both databases (no UTF-8 encodes it) and a NUL a 400 naming
no field on PostgreSQL, kept on SQLite (the registry's fuzzer found the first, tests/api/test_fuzz.py)."""

import json

import pytest

from registry.models import Licensee, ReceivedAlert, ReceivedAnchor, ReceivedFiling

from . import test_registry_api as api
from . import test_registry_api_licensees as licensees
from .test_registry_api import ANCHORS, FILINGS, LICENSEES, licensee_client, package
from .test_registry_api_licensees import MOOSE

agency, elks = api.agency, api.elks  # the ND agency and Elks with its credential
world = licensees.world  # the agencies, Elks with its credential, the supervisor, ...

ALERTS = "/registry/api/v1/alerts/"
NUL, HALF_PAIR = "a\x00b", "a\ud800b"
KEPT = "House control: give text a database keeps: no NUL character and no half of a UTF-16 surrogate pair."
HEAD = {"chain": "org-1", "seq": 1, "hash": "a" * 64, "head_at": "2026-10-05T15:00:00+00:00"}
ALERT = {
    "id": 1, "site": {"id": 7, "name": "Elks Lodge"}, "rule": "floor.fill_limit", "citation": "House control",
    "title": "A fill over the limit", "period_key": "2026-10-05", "opened_at": "2026-10-05T15:00:00+00:00",
    "resolved_at": None,
}  # fmt: skip


def post_json(client, path, body, **headers):
    """The body as JSON text: an unpaired surrogate escaped (\\ud800), as a client's JSON sends it."""
    return client.generic("POST", path, json.dumps(body), content_type="application/json", headers=headers)


def with_site_name(text):
    filed = package()
    filed["site"]["name"] = text
    return filed


SENT = {
    "a head's time": (ANCHORS, lambda text: {"anchors": [{**HEAD, "head_at": text}]}, "anchors[0].head_at"),
    "an alert's title": (ALERTS, lambda text: {"alerts": [{**ALERT, "title": text}]}, "alerts[0].title"),
    "an alert's site": (
        ALERTS,
        lambda text: {"alerts": [{**ALERT, "site": {"id": 7, "name": text}}]},
        "alerts[0].site.name",
    ),
    "a package's site": (FILINGS, lambda text: {"package": with_site_name(text)}, "package.site.name"),
    "a package's key": (FILINGS, lambda text: {"package": {**package(), text: 1}}, "package"),
}


@pytest.mark.parametrize("text", [NUL, HALF_PAIR], ids=["NUL", "half a pair"])
@pytest.mark.parametrize("sent", SENT)
def test_a_licensees_text_no_database_keeps_is_a_400_naming_where_and_nothing_is_kept(elks, sent, text):
    path, body, field = SENT[sent]
    response = post_json(licensee_client(elks[1]), path, body(text), **{"Idempotency-Key": "k-1"})
    assert response.status_code == 400, response.content
    assert response.json() == {field: [KEPT]}
    assert not (ReceivedAnchor.objects.exists() or ReceivedAlert.objects.exists() or ReceivedFiling.objects.exists())


@pytest.mark.parametrize("text", [NUL, HALF_PAIR], ids=["NUL", "half a pair"])
@pytest.mark.parametrize("field", ["name", "licence_number"])
def test_a_registration_with_text_no_database_keeps_is_a_400_at_its_field_and_registers_nothing(world, field, text):
    """In the words of every body's refusal (core.parsers reads it before the form's CharField;
    it said DRF's "House control: name: null characters are not allowed.")."""
    before = Licensee.objects.count()
    response = post_json(world["supervisor"], LICENSEES, {**MOOSE, field: text})
    assert response.status_code == 400, response.content
    assert response.json() == {field: [KEPT]}
    assert Licensee.objects.count() == before
