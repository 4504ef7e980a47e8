"""A games-of-chance session, or a session's correction, sent from two terminals at once (house
control: a session is recorded once, fees.services.record_session) is recorded once and counted
once in the day's total (a correction sent twice is the same session recorded twice), on
whichever database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL): the copy
that looked before the other landed is refused at its field, in the rule's words (read again
under the site's row lock), never by the database."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from core import acts
from core.audit_verify import verify_chain
from fees import queries, services
from fees.models import GameSession
from tests.race_support import after_first_look

from .conftest import one_days_start, record_session


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("sent", ["session", "correction"])
def test_a_session_sent_from_two_terminals_at_once_is_recorded_and_counted_once(ny_site, ny_shift, monkeypatch, sent):
    started = one_days_start(ny_site, timedelta(hours=3))
    corrected = {"corrects": record_session(ny_shift.user, ny_site, started)} if sent == "correction" else {}

    def send(user):  # each terminal reads the corrected session itself; a correction of its end
        changes = {"corrects": GameSession.objects.get(pk=corrected["corrects"].pk)} if corrected else {}
        ended = started + timedelta(hours=2 if corrected else 3)
        return record_session(user, ny_site, started, ended_at=ended, **changes)

    other = after_first_look(monkeypatch, acts, "refuse_closed_books", send, ny_shift.user)
    with pytest.raises(ValidationError) as refused:
        send(ny_shift.user)

    assert isinstance(other.result(), GameSession), other.result()
    said = refused.value.message_dict["started_at"][0]
    assert said.startswith("House control: a session is recorded once; NY-GC-4620's session"), said
    day = other.result().gaming_date
    assert queries.session_totals([ny_site.pk], day, day) == {
        "sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000
    }  # fmt: skip
    assert GameSession.objects.count() == 1 + len(corrected)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("meanwhile", ["another correction", "a void"])
def test_a_correction_of_a_session_replaced_meanwhile_is_refused_as_not_the_session_as_it_stands(
    ny_site, ny_shift, monkeypatch, meanwhile
):
    started = one_days_start(ny_site, timedelta(hours=3))
    session = record_session(ny_shift.user, ny_site, started)

    def replace(user):  # another terminal corrects its end, or voids it
        stands = GameSession.objects.get(pk=session.pk)
        if meanwhile == "a void":
            return services.void_session(acting_user=user, session=stands, reason="a test entry")
        return record_session(user, ny_site, started, ended_at=started + timedelta(hours=2), corrects=stands)

    other = after_first_look(monkeypatch, acts, "refuse_closed_books", replace, ny_shift.user)
    with pytest.raises(ValidationError) as refused:
        record_session(ny_shift.user, ny_site, started, ended_at=started + timedelta(hours=1), corrects=session)

    assert isinstance(other.result(), GameSession), other.result()
    assert refused.value.message_dict == {"corrects": [services.AS_IT_STANDS]}
    assert GameSession.objects.filter(corrects=session).count() == 1
    assert verify_chain().ok
