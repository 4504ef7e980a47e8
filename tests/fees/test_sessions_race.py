"""A games-of-chance session sent from two terminals at once (house control: a session is
recorded once, fees.services.record_session) is recorded once and counted once in the day's
total, on whichever database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL):
the copy that looked before the other landed is refused at its field, in the rule's words."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from core import acts
from core.audit_verify import verify_chain
from fees import queries
from fees.models import GameSession
from tests.race_support import after_first_look

from .conftest import one_days_start, record_session


@pytest.mark.django_db(transaction=True)
def test_a_session_sent_from_two_terminals_at_once_is_recorded_and_counted_once(ny_site, ny_shift, monkeypatch):
    started = one_days_start(ny_site, timedelta(hours=3))
    other = after_first_look(
        monkeypatch, acts, "refuse_closed_books", lambda user: record_session(user, ny_site, started), ny_shift.user
    )
    with pytest.raises(ValidationError) as refused:
        record_session(ny_shift.user, ny_site, started)

    assert isinstance(other.result(), GameSession)
    assert (
        "House control: a session is recorded once; NY-GC-4620's session" in refused.value.message_dict["started_at"][0]
    )
    day = other.result().gaming_date
    assert queries.session_totals([ny_site.pk], day, day) == {
        "sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000
    }  # fmt: skip
    assert GameSession.objects.count() == 1
    assert verify_chain().ok
