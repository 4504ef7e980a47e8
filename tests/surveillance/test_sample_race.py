"""A change's sample and a sample's evaluation each recorded once when two terminals send them at
once (ND 99-01.3-08-04(11)), on whichever database the suite runs (SQLite by default, PostgreSQL
with DATABASE_URL): the second, which found nothing before its transaction, reads the first inside
it and is refused in the words it meets afterwards."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from core.audit_verify import verify_chain
from surveillance import services
from surveillance.models import EquipmentChange, SampleEvaluation, SampleSubmission
from surveillance.services import equipment
from tests.race_support import after_first_look, while_writing

SENT = date(2026, 3, 5)


@pytest.fixture
def change(manager, table):
    camera = services.install_equipment(
        acting_user=manager.user, site=table.site, table=table, kind="camera", make_model="Axis", installed_on=SENT
    )
    return camera.changes.get()


def _submit(user, change):
    return services.submit_sample(acting_user=user, change=change, submitted_on=SENT)


@pytest.mark.django_db(transaction=True)
def test_two_samples_sent_at_once_for_one_change_are_one_sample(monkeypatch, manager, change):
    other = after_first_look(
        monkeypatch,
        equipment,
        "_previous_sample",
        lambda user: _submit(user, EquipmentChange.objects.get(pk=change.pk)),
        manager.user,
    )
    with pytest.raises(ValidationError) as refused:
        _submit(manager.user, change)
    first = [other.result()]
    assert isinstance(first[0], SampleSubmission), first
    assert refused.value.message_dict == {
        "change": [
            "ND 99-01.3-08-04(11): the previous sample is still waiting for its evaluation; a sample is resubmitted once it is found not satisfactory."
        ]
    }
    assert list(SampleSubmission.objects.values_list("pk", flat=True)) == [first[0].pk]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_sample_sent_while_another_is_being_written_waits_and_is_refused(monkeypatch, manager, change):
    """The second sample comes once the first holds the change (inside its transaction, not yet
    committed): it waits for the first and reads it."""
    other = while_writing(
        monkeypatch,
        equipment,
        "append_audited",
        lambda user: _submit(user, EquipmentChange.objects.get(pk=change.pk)),
        manager.user,
        when=lambda obj, **kwargs: isinstance(obj, SampleSubmission),
    )
    first = _submit(manager.user, change)
    second = [other.result()]
    assert isinstance(second[0], ValidationError), second
    assert second[0].message_dict == {
        "change": [
            "ND 99-01.3-08-04(11): the previous sample is still waiting for its evaluation; a sample is resubmitted once it is found not satisfactory."
        ]
    }
    assert list(SampleSubmission.objects.values_list("pk", flat=True)) == [first.pk]
    assert verify_chain().ok


def _evaluate(user, submission):
    return services.record_sample_evaluation(
        acting_user=user, submission=submission, evaluated_on=date(2026, 3, 9), outcome="approved"
    )


@pytest.mark.django_db(transaction=True)
def test_a_sample_evaluated_twice_at_once_has_one_evaluation(monkeypatch, manager, change):
    submission = _submit(manager.user, change)
    other = after_first_look(
        monkeypatch,
        equipment,
        "_refuse_evaluated",
        lambda user: _evaluate(user, SampleSubmission.objects.get(pk=submission.pk)),
        manager.user,
    )
    with pytest.raises(ValidationError) as refused:
        _evaluate(manager.user, submission)
    first = [other.result()]
    assert isinstance(first[0], SampleEvaluation), first
    assert refused.value.message_dict == {
        "submission": [
            "ND 99-01.3-08-04(11): this sample already has its evaluation; one found not satisfactory is resubmitted as a new sample."
        ]
    }
    assert list(SampleEvaluation.objects.values_list("pk", flat=True)) == [first[0].pk]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_an_evaluation_sent_while_another_is_being_written_waits_and_is_refused(monkeypatch, manager, change):
    """The second evaluation comes once the first holds the sample (inside its transaction, not yet
    committed): it waits for the first and is refused in its words, not the database's."""
    submission = _submit(manager.user, change)
    other = while_writing(
        monkeypatch,
        equipment,
        "append_audited",
        lambda user: _evaluate(user, SampleSubmission.objects.get(pk=submission.pk)),
        manager.user,
        when=lambda obj, **kwargs: isinstance(obj, SampleEvaluation),
    )
    first = _evaluate(manager.user, submission)
    second = [other.result()]
    assert isinstance(second[0], ValidationError), second
    assert second[0].message_dict == {
        "submission": [
            "ND 99-01.3-08-04(11): this sample already has its evaluation; one found not satisfactory is resubmitted as a new sample."
        ]
    }
    assert list(SampleEvaluation.objects.values_list("pk", flat=True)) == [first.pk]
    assert verify_chain().ok
