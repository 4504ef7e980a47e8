"""The same chain heads sent twice at once (the organization's task retried while its first push is
still in flight), on whichever database the suite runs (SQLite by default, PostgreSQL with
DATABASE_URL): the second waits for the first and finds them held, never a 500 from the database
refusing a second row at one place. SQLite's writers queue, so there the two never cross; the test
pins the same outcome."""

import pytest

from registry import services
from registry.models import ReceivedAnchor
from tests.race_support import while_writing

from .test_registry_api import _licensee

HEADS = [{"chain": "org-1", "seq": 12, "hash": "a" * 64, "head_at": "2026-11-20T06:00:00+00:00"}]


@pytest.mark.django_db(transaction=True)
def test_the_same_heads_sent_twice_at_once_are_held_once(monkeypatch, agency, manager):
    _row, issued = _licensee(agency, "Elks", "G-1")
    credential = services.credential_for(issued.secret)
    other = while_writing(
        monkeypatch,
        ReceivedAnchor.objects,
        "bulk_create",
        lambda user: services.receive_anchors(credential=services.credential_for(issued.secret), anchors=HEADS),
        manager.user,
    )
    first = services.receive_anchors(credential=credential, anchors=HEADS)
    second = other.result()
    assert isinstance(second, services.AnchorsReceived), second
    assert sorted([(first.stored, first.already_held), (second.stored, second.already_held)]) == [(0, 1), (1, 0)]
    assert ReceivedAnchor.objects.count() == 1


@pytest.fixture
def agency(transactional_db):
    from registry.models import Agency

    return Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
