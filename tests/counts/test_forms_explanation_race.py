"""A forms exception is explained once when two terminals explain it at once (house control: the
reconciliation of forms found with slips issued), on whichever database the suite runs (SQLite by
default, PostgreSQL with DATABASE_URL): the second, which found it unexplained before its
transaction, reads the first explanation inside it and is refused."""

import pytest
from django.core.exceptions import ValidationError

from core.audit_verify import verify_chain
from counts import queries, services
from counts.models import Drop, FormsExplanation
from tests.race_support import after_first_look, while_writing

from .test_custody_and_forms import _count_both, floor  # noqa: F401


def _other_explains(drop):
    """Another terminal's explanation of the same credit slip 99, from its own read of the drop."""
    return lambda user: _explain(user, Drop.objects.get(pk=drop.pk), 99, "Found in the cage, filed.")


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
    other = after_first_look(monkeypatch, queries, "forms_reconciliation", _other_explains(drop), shift_manager.user)
    with pytest.raises(ValidationError) as refused:
        _explain(shift_manager.user, drop, 99, "Credit slip from the old book, found stuck; filed.")
    first = [other.result()]
    assert isinstance(first[0], FormsExplanation), first
    assert refused.value.message_dict == {"number": ["House control: credit slip 99 is already explained."]}
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
    other = while_writing(monkeypatch, FormsExplanation.objects, "create", _other_explains(drop), shift_manager.user)
    first = _explain(shift_manager.user, drop, 99, "Credit slip from the old book, found stuck; filed.")
    second = [other.result()]
    assert isinstance(second[0], ValidationError), second
    assert second[0].message_dict == {"number": ["House control: credit slip 99 is already explained."]}
    assert list(FormsExplanation.objects.values_list("pk", flat=True)) == [first.pk]
    assert verify_chain().ok
