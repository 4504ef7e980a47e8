"""A forms exception is explained once when two terminals explain it at once (house control: the
reconciliation of forms found with slips issued), on whichever database the suite runs (SQLite by
default, PostgreSQL with DATABASE_URL): the second, which found it unexplained before its
transaction, reads the first explanation inside it and is refused."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from core.audit_verify import verify_chain
from counts import queries, services
from counts.models import Drop, FormsExplanation

from .test_custody_and_forms import _count_both, floor  # noqa: F401


def _explain_meanwhile(monkeypatch, shift_manager, drop_pk: int, number: int) -> list:
    """Right after the explaining's first look at the box's exceptions (before its transaction),
    another terminal (its own connection) explains the same form and commits."""
    look, done, started = queries.forms_reconciliation, [], []

    def other():
        try:
            user = get_user_model().objects.get(pk=shift_manager.user_id)  # its own Access cache
            done.append(_explain(user, Drop.objects.get(pk=drop_pk), number, "Found in the cage, filed."))
        except Exception as exc:  # noqa: BLE001 - asserted by the test
            done.append(exc)
        finally:
            connection.close()

    def look_then_explain(*args, **kwargs):
        found = look(*args, **kwargs)
        if not started:
            started.append(True)
            other_terminal = threading.Thread(target=other)
            other_terminal.start()
            other_terminal.join()
        return found

    monkeypatch.setattr(queries, "forms_reconciliation", look_then_explain)
    return done


def _explain(user, drop, number, explanation):
    return services.explain_forms_exception(
        acting_user=user, drop=drop, kind="credit", number=number, explanation=explanation
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("floor")
def test_a_forms_exception_explained_twice_at_once_is_explained_once(
    monkeypatch, counters, session, boxes, shift_manager
):
    _count_both(counters, session, boxes[0], [{"kind": "credit", "number": 99}])  # a form not expected
    drop = Drop.objects.get(drop_box=boxes[0])
    first = _explain_meanwhile(monkeypatch, shift_manager, drop.pk, 99)
    with pytest.raises(ValidationError) as refused:
        _explain(shift_manager.user, drop, 99, "Credit slip from the old book, found stuck; filed.")
    assert isinstance(first[0], FormsExplanation), first
    assert refused.value.message_dict == {"number": ["credit slip 99 is already explained."]}
    assert list(FormsExplanation.objects.values_list("pk", "explanation")) == [
        (first[0].pk, "Found in the cage, filed.")
    ]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("floor")
def test_an_explanation_given_while_another_is_being_written_waits_and_is_refused(
    monkeypatch, counters, session, boxes, shift_manager
):
    """The second explanation comes once the first holds the box's drop (inside its transaction,
    not yet committed): it waits for the first and reads it."""
    _count_both(counters, session, boxes[0], [{"kind": "credit", "number": 99}])
    drop = Drop.objects.get(drop_box=boxes[0])
    create, second, their_pid = FormsExplanation.objects.create, [], []

    def explain():
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    their_pid.append(cursor.fetchone()[0])
            user = get_user_model().objects.get(pk=shift_manager.user_id)  # its own Access cache
            second.append(_explain(user, Drop.objects.get(pk=drop.pk), 99, "Found in the cage, filed."))
        except Exception as exc:  # noqa: BLE001 - asserted below
            second.append(exc)
        finally:
            connection.close()

    other_terminal = threading.Thread(target=explain)

    def explain_meanwhile_then_create(**values):
        if not other_terminal.is_alive() and not second:
            other_terminal.start()
            _waiting_or_done(other_terminal, their_pid)
        return create(**values)

    monkeypatch.setattr(FormsExplanation.objects, "create", explain_meanwhile_then_create)
    first = _explain(shift_manager.user, drop, 99, "Credit slip from the old book, found stuck; filed.")
    other_terminal.join()
    assert isinstance(second[0], ValidationError), second
    assert second[0].message_dict == {"number": ["credit slip 99 is already explained."]}
    assert list(FormsExplanation.objects.values_list("pk", flat=True)) == [first.pk]
    assert verify_chain().ok


def _waiting_or_done(other_terminal, their_pid: list, seconds: float = 10) -> None:
    """Until the other terminal has ended, or (PostgreSQL) waits for a lock this one holds; on
    SQLite it waits for this transaction to end (its writers queue), so no wait here."""
    deadline = time.monotonic() + seconds
    while connection.vendor == "postgresql" and other_terminal.is_alive() and time.monotonic() < deadline:
        if their_pid:
            with connection.cursor() as cursor:
                cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [their_pid[0]])
                row = cursor.fetchone()
            if row and row[0] == "Lock":
                return
        time.sleep(0.02)
