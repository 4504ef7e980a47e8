"""The low-hold video review program (ND 99-01.3-08-04(9)): six weeks of weekly tasks per
active table, at least one hour each, reviewers who did not deal the shift reviewed."""

from datetime import date, timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Role
from core.models import AuditEvent
from surveillance import queries, services
from surveillance.models import ReviewEntry, ReviewTask
from surveillance.rules import REVIEW_MIN_FOOTAGE, REVIEW_PROGRAM_LENGTH
from tests.factories import TableFactory, make_person

from .conftest import add_shift, local

START = date(2026, 4, 6)  # a Monday


@pytest.fixture
def tables(site, table):
    return [
        table,
        TableFactory(site=site, number=2),
        TableFactory(site=site, number=3, active=False),
        TableFactory(site=site, number=4, location="special_event"),
    ]


@pytest.fixture
def program(manager, site, tables):
    with time_machine.travel(local(2026, 4, 5, 12), tick=False):
        return services.open_review_program(manager.user, site, START, "Q1 hold 7.2% (below 10%)")


@pytest.fixture
def reviewer(org, site):
    return make_person(org, Role.SHIFT_MANAGER, site)


def entry(acting, task, reviewer, *, day=None, start=(20, 0), minutes=60, shift=(18, 0, 2, 0)):
    day = day or task.week_start
    at = local(day.year, day.month, day.day)
    return services.record_review_entry(
        acting_user=acting.user,
        task=task,
        gaming_date=day,
        reviewer=reviewer,
        findings="Procedures followed",
        shift_started_at=at + timedelta(hours=shift[0], minutes=shift[1]),
        shift_ended_at=at + timedelta(days=1, hours=shift[2], minutes=shift[3]),
        footage_start_at=at + timedelta(hours=start[0], minutes=start[1]),
        footage_end_at=at + timedelta(hours=start[0], minutes=start[1] + minutes),
    )


def test_the_program_runs_six_continuous_weeks(program):
    assert REVIEW_PROGRAM_LENGTH.on(program.site, program.start_date).value == timedelta(weeks=6)
    assert program.end_date == date(2026, 5, 17)
    assert (program.end_date - program.start_date).days + 1 == 42


def test_one_weekly_task_per_active_regular_table_for_each_of_six_weeks(program, tables):
    tasks = ReviewTask.objects.filter(program=program)
    assert tasks.count() == 12
    assert set(tasks.values_list("table__number", flat=True)) == {1, 2}
    weeks = sorted(set(tasks.values_list("week", "week_start", "week_end")))
    assert weeks[0] == (1, date(2026, 4, 6), date(2026, 4, 12))
    assert weeks[-1] == (6, date(2026, 5, 11), date(2026, 5, 17))


def test_opening_a_program_is_audited(program):
    assert AuditEvent.objects.filter(action="surveillance.review_program.opened").count() == 1


def test_a_compliance_job_may_open_a_program_as_the_system(site, tables):
    program = services.open_review_program(None, site, START, "Computed: Q1 hold below 10%")
    assert program.opened_by is None
    assert AuditEvent.objects.get(action="surveillance.review_program.opened").actor_label == "system"


def test_a_second_program_overlapping_the_first_is_refused(program, manager, site):
    with pytest.raises(ValidationError, match="already running"):
        services.open_review_program(manager.user, site, START + timedelta(weeks=2), "again")


def test_a_program_starting_before_another_and_running_into_it_is_refused(program, manager, site):
    """Opened back-dated two weeks before the running program (6 weeks from START - 14 days), it
    would run four weeks beside it, each table's weekly task twice: refused on the start date,
    naming the other program's start, and nothing written."""
    tasks = ReviewTask.objects.count()
    with pytest.raises(ValidationError) as refusal:
        services.open_review_program(manager.user, site, START - timedelta(weeks=2), "again")
    assert refusal.value.message_dict["start_date"] == [
        "ND 99-01.3-08-04(9): a video review program starts at this site on 2026-04-06, within the weeks of "
        "this one (to 2026-05-03); start it after that program ends."
    ]
    assert (site.review_programs.count(), ReviewTask.objects.count()) == (1, tasks)


def test_a_program_ending_the_day_before_another_starts_is_opened(program, manager, site):
    earlier = services.open_review_program(manager.user, site, START - timedelta(weeks=6), "an earlier quarter")
    assert earlier.end_date == START - timedelta(days=1)


def test_a_program_may_start_once_a_documented_reason_ended_the_running_one(program, manager, site):
    services.close_review_program(
        acting_user=manager.user, program=program, closed_on=date(2026, 4, 20), low_hold_reason="Retrained"
    )
    assert services.open_review_program(manager.user, site, date(2026, 4, 21), "a new low hold").start_date == date(
        2026, 4, 21
    )


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.AUDITOR, Role.DEALER])
def test_only_a_gaming_manager_opens_a_program(cast, site, tables, role):
    with pytest.raises(PermissionDenied):
        services.open_review_program(cast[role].user, site, START, "x")


def test_an_hour_of_footage_completes_the_weeks_task(program, manager, reviewer):
    task = program.tasks.get(week=1, table__number=1)
    entry(manager, task, reviewer, minutes=45)
    assert not queries.task_done(task)
    entry(manager, task, reviewer, start=(22, 0), minutes=15)
    assert queries.task_footage(task) == REVIEW_MIN_FOOTAGE.on(program.site, program.start_date).value
    assert queries.task_done(task)


def test_the_same_footage_reviewed_twice_counts_once(program, manager, reviewer, org, site):
    """ND 99-01.3-08-04(9): "a minimum of one hour per week of video surveillance for each active
    table" is an hour of the table's video: half an hour reviewed twice (by two reviewers, or entered
    twice) is half an hour, and footage overlapping another entry counts only where it does not."""
    task = program.tasks.get(week=1, table__number=1)
    entry(manager, task, reviewer, minutes=30)
    entry(manager, task, make_person(org, Role.SHIFT_MANAGER, site), minutes=30)
    assert queries.task_footage(task) == timedelta(minutes=30)
    assert not queries.task_done(task)
    # The nightly check of the week and the calendar read the same measure (compliance's review_weeks_short).
    _, reviewed = queries.review_weeks([site.pk], task.week_end, task.week_end)
    assert reviewed[task.pk] == timedelta(minutes=30)
    entry(manager, task, reviewer, start=(20, 15), minutes=30)  # 20:15-20:45: a quarter of an hour more
    assert queries.task_footage(task) == timedelta(minutes=45)
    assert not queries.task_done(task)
    entry(manager, task, reviewer, start=(21, 0), minutes=15)
    assert queries.task_footage(task) == timedelta(minutes=60) and queries.task_done(task)


def test_a_corrected_entry_no_longer_counts(program, manager, reviewer):
    task = program.tasks.get(week=1, table__number=1)
    wrong = entry(manager, task, reviewer, minutes=60)
    services.record_review_entry(
        acting_user=manager.user,
        task=task,
        gaming_date=wrong.gaming_date,
        reviewer=reviewer,
        findings="Corrected window",
        shift_started_at=wrong.shift_started_at,
        shift_ended_at=wrong.shift_ended_at,
        footage_start_at=wrong.footage_start_at,
        footage_end_at=wrong.footage_start_at + timedelta(minutes=30),
        corrects=wrong,
    )
    assert queries.task_footage(task) == timedelta(minutes=30)


def test_a_reviewer_who_dealt_the_shift_reviewed_is_refused(program, manager, reviewer, table):
    task = program.tasks.get(week=1, table=table)
    add_shift(table, reviewer, local(2026, 4, 6, 19), local(2026, 4, 6, 21))
    with pytest.raises(ValidationError) as refusal:
        entry(manager, task, reviewer)
    message = refusal.value.message_dict["reviewer"][0]
    assert message.startswith("ND 99-01.3-08-04(9):") and "conducted games" in message
    assert ReviewEntry.objects.count() == 0


def test_a_dealer_may_not_review_even_one_who_dealt_another_shift(program, manager, dealer, table):
    """ND 99-01.3-08-04(5)(a): only a gaming or shift manager or an independent person
    accesses stored video; a dealer is neither, whichever shift they dealt."""
    add_shift(table, dealer, local(2026, 4, 6, 10), local(2026, 4, 6, 14))
    with pytest.raises(ValidationError) as refusal:
        entry(manager, program.tasks.get(week=1, table=table), dealer)
    message = refusal.value.message_dict["reviewer"][0]
    assert (
        message.startswith("ND 99-01.3-08-04(5)(a):") and "gaming or shift manager or an independent person" in message
    )
    assert ReviewEntry.objects.count() == 0


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.DEALER, Role.COUNT_TEAM])
def test_a_reviewer_who_is_not_a_manager_or_independent_is_refused(program, manager, org, site, role):
    person = make_person(org, role, site)
    with pytest.raises(ValidationError, match=r"ND 99-01\.3-08-04\(5\)\(a\)"):
        entry(manager, program.tasks.first(), person)


def test_a_gaming_manager_or_an_independent_person_may_review(program, manager, independent_person):
    assert entry(manager, program.tasks.first(), manager).reviewer == manager
    assert entry(manager, program.tasks.first(), independent_person, start=(22, 0)).reviewer == independent_person


def test_a_shift_manager_who_dealt_another_shift_may_review(program, manager, reviewer, table):
    add_shift(table, reviewer, local(2026, 4, 6, 10), local(2026, 4, 6, 14))
    assert entry(manager, program.tasks.get(week=1, table=table), reviewer).reviewer == reviewer


def test_a_reviewer_who_dealt_at_another_site_on_that_shift_may_review(program, manager, org, site, other_site):
    person = make_person(org, Role.SHIFT_MANAGER, site)
    add_shift(TableFactory(site=other_site, number=1), person, local(2026, 4, 6, 19), local(2026, 4, 6, 23))
    assert entry(manager, program.tasks.first(), person).reviewer == person


def test_typed_shift_times_cannot_leave_out_the_recorded_shift_the_reviewer_dealt(
    program, manager, reviewer, dealer, table
):
    """The table's recorded dealer shift runs 17:00-23:00 and covers the footage; the reviewer
    dealt another table 17:00-19:00, inside that shift. Typing the shift as 19:30-02:00 does
    not make the reviewer eligible."""
    add_shift(table, dealer, local(2026, 4, 6, 17), local(2026, 4, 6, 23))
    add_shift(TableFactory(site=table.site, number=5), reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 19))
    with pytest.raises(ValidationError) as refusal:
        entry(manager, program.tasks.get(week=1, table=table), reviewer, shift=(19, 30, 2, 0))
    message = refusal.value.message_dict["reviewer"][0]
    assert message.startswith("ND 99-01.3-08-04(9):") and "2026-04-06 17:00" in message


@pytest.mark.parametrize(("reviewer_ends", "refused"), [((17, 0), False), ((17, 1), True)])
def test_the_recorded_shift_boundary_is_exact_to_the_minute(
    program, manager, reviewer, dealer, table, reviewer_ends, refused
):
    """The recorded shift at the table starts at 17:00: a reviewer who stopped dealing at 17:00
    did not deal on it; one who stopped at 17:01 did."""
    add_shift(table, dealer, local(2026, 4, 6, 17), local(2026, 4, 6, 23))
    add_shift(
        TableFactory(site=table.site, number=5), reviewer, local(2026, 4, 6, 12), local(2026, 4, 6, *reviewer_ends)
    )
    task = program.tasks.get(week=1, table=table)
    if refused:
        with pytest.raises(ValidationError, match=r"ND 99-01\.3-08-04\(9\)"):
            entry(manager, task, reviewer, shift=(19, 30, 2, 0))
    else:
        assert entry(manager, task, reviewer, shift=(19, 30, 2, 0)).reviewer == reviewer


def test_footage_ending_before_it_starts_is_refused(program, manager, reviewer):
    with pytest.raises(ValidationError) as refusal:
        entry(manager, program.tasks.first(), reviewer, minutes=-10)
    assert "footage_end_at" in refusal.value.message_dict


def test_a_day_outside_the_week_is_refused(program, manager, reviewer):
    task = program.tasks.get(week=1, table__number=1)
    with pytest.raises(ValidationError) as refusal:
        entry(manager, task, reviewer, day=task.week_end + timedelta(days=1))
    assert "outside the week" in refusal.value.message_dict["gaming_date"][0]


def test_footage_outside_the_gaming_day_reviewed_is_refused(program, manager, reviewer):
    task = program.tasks.get(week=1, table__number=1)
    with pytest.raises(ValidationError) as refusal:
        entry(manager, task, reviewer, start=(30, 0), shift=(18, 0, 8, 0))  # 06:00 the next gaming day
    assert "ND 99-01.3-08-04(9)" in refusal.value.message_dict["footage_start_at"][0]


def test_documenting_the_reason_ends_the_program_early(program, manager, reviewer):
    services.close_review_program(
        acting_user=manager.user,
        program=program,
        closed_on=date(2026, 4, 20),
        low_hold_reason="A dealer paid 3:2 on a 6:5 table; retrained",
    )
    program.refresh_from_db()
    assert queries.program_ended_on(program) == date(2026, 4, 20)
    late_task = program.tasks.get(week=4, table__number=1)
    with pytest.raises(ValidationError, match="ended"):
        entry(manager, late_task, reviewer)


def test_a_shift_manager_may_not_document_the_low_hold_reason(program, shift_manager):
    with pytest.raises(PermissionDenied):
        services.close_review_program(
            acting_user=shift_manager.user, program=program, closed_on=START, low_hold_reason="x"
        )


def test_without_a_reason_the_program_ends_after_six_weeks(program):
    assert queries.program_is_open(program, date(2026, 5, 17))
    assert not queries.program_is_open(program, date(2026, 5, 18))


def test_a_review_of_footage_not_yet_recorded_is_refused(manager, program, reviewer):
    """The footage of the program's first day, reviewed that evening before it was recorded: the
    footage's end is in the future, refused on its field, nothing written."""
    task = program.tasks.first()
    with time_machine.travel(local(START.year, START.month, START.day, 20, 30), tick=False):
        with pytest.raises(ValidationError) as refusal:
            entry(manager, task, reviewer, start=(20, 0), minutes=60)
    assert "a record cannot be dated in the future" in refusal.value.message_dict["footage_end_at"][0]
    assert not ReviewEntry.objects.exists()


def test_a_review_of_a_gaming_day_not_begun_is_refused(manager, program, reviewer):
    task = program.tasks.first()
    with time_machine.travel(local(START.year, START.month, START.day, 5), tick=False):
        with pytest.raises(ValidationError) as refusal:
            entry(manager, task, reviewer)
    message = refusal.value.message_dict["gaming_date"][0]
    assert message.startswith(f"ND 99-01.3-02-01: the gaming day {START} has not begun yet")
    assert not ReviewEntry.objects.exists()
