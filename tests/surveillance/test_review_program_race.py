"""A low-hold video review program opened once, and closed once, when two terminals send it at
once (ND 99-01.3-08-04(9)), on whichever database the suite runs (SQLite by default, PostgreSQL
with DATABASE_URL): the second, which found nothing before its transaction, reads the first inside
it and is refused in the words it meets afterwards."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from core.audit_verify import verify_chain
from surveillance import services
from surveillance.models import ReviewProgram, ReviewProgramClosure, ReviewTask
from surveillance.rules import REVIEW_PROGRAM
from surveillance.services import review_programs
from tests.factories import TableFactory
from tests.race_support import after_first_look, while_writing

START = date(2026, 4, 6)  # a Monday
REASON = "Q1 hold 7.2% (below 10%)"


@pytest.fixture
def tables(site, table):
    return [table, TableFactory(site=site, number=2)]


@pytest.mark.django_db(transaction=True)
def test_two_programs_opened_at_once_are_one_program(monkeypatch, manager, site, tables):
    other = after_first_look(
        monkeypatch,
        review_programs,
        "_refuse_running",
        lambda user: services.open_review_program(user, site, START, REASON),
        manager.user,
    )
    with pytest.raises(ValidationError) as refused:
        services.open_review_program(manager.user, site, START, REASON)
    first = [other.result()]
    assert isinstance(first[0], ReviewProgram), first
    running = f"{REVIEW_PROGRAM.at(site)}: a video review program is already running at this site on that date."
    assert refused.value.message_dict == {"start_date": [running]}
    assert list(ReviewProgram.objects.values_list("pk", flat=True)) == [first[0].pk]
    assert ReviewTask.objects.count() == first[0].weeks * len(tables)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_program_opened_while_another_is_being_written_waits_and_is_refused(monkeypatch, manager, site, tables):
    """The second opening comes once the first holds the site (inside its transaction, its program
    saved but not yet committed): it waits for the first and reads it."""
    other = while_writing(
        monkeypatch,
        ReviewTask.objects,
        "bulk_create",
        lambda user: services.open_review_program(user, site, START, REASON),
        manager.user,
    )
    first = services.open_review_program(manager.user, site, START, REASON)
    second = [other.result()]
    assert isinstance(second[0], ValidationError), second
    assert "a video review program is already running at this site on that date" in second[0].messages[0]
    assert list(ReviewProgram.objects.values_list("pk", flat=True)) == [first.pk]
    assert ReviewTask.objects.count() == first.weeks * len(tables)
    assert verify_chain().ok


def _close(user, program):
    return services.close_review_program(
        acting_user=user, program=program, closed_on=date(2026, 4, 20), low_hold_reason="A big winner on table 2"
    )


@pytest.mark.django_db(transaction=True)
def test_a_program_closed_twice_at_once_has_one_closing(monkeypatch, manager, site, tables):
    program = services.open_review_program(manager.user, site, START, REASON)
    other = after_first_look(
        monkeypatch,
        review_programs,
        "_refuse_documented",
        lambda user: _close(user, ReviewProgram.objects.get(pk=program.pk)),
        manager.user,
    )
    with pytest.raises(ValidationError) as refused:
        _close(manager.user, program)
    first = [other.result()]
    assert isinstance(first[0], ReviewProgramClosure), first
    assert refused.value.message_dict == {
        "program": [
            "ND 99-01.3-08-04(9): the reason for this program's low hold is already documented; the program has ended."
        ]
    }
    assert list(ReviewProgramClosure.objects.values_list("pk", flat=True)) == [first[0].pk]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_closing_sent_while_another_is_being_written_waits_and_is_refused(monkeypatch, manager, site, tables):
    """The second closing comes once the first holds the program (inside its transaction, not yet
    committed): it waits for the first and is refused in its words, not the database's."""
    program = services.open_review_program(manager.user, site, START, REASON)
    other = while_writing(
        monkeypatch,
        review_programs,
        "append_audited",
        lambda user: _close(user, ReviewProgram.objects.get(pk=program.pk)),
        manager.user,
        when=lambda obj, **kwargs: isinstance(obj, ReviewProgramClosure),
    )
    first = _close(manager.user, program)
    second = [other.result()]
    assert isinstance(second[0], ValidationError), second
    assert second[0].message_dict == {
        "program": [
            "ND 99-01.3-08-04(9): the reason for this program's low hold is already documented; the program has ended."
        ]
    }
    assert list(ReviewProgramClosure.objects.values_list("pk", flat=True)) == [first.pk]
    assert verify_chain().ok
