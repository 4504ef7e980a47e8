"""A forms exception is explained once when two terminals explain it at once (house control: the
reconciliation of forms found with slips issued), on whichever database the suite runs (SQLite by
default, PostgreSQL with DATABASE_URL): the second, which found it unexplained before its
transaction, reads the first explanation inside it and is refused."""

import threading

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
