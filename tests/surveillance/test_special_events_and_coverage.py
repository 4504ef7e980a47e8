"""Pure rules of ND 99-01.3-08-04: the special-event exemption (14 or fewer consecutive days,
at most two events a quarter) and recordings covering a table's play (08-04(5)(b))."""

from datetime import UTC, date, datetime, timedelta

import pytest

from surveillance import coverage, special_events
from surveillance.rules import SPECIAL_EVENT_MAX_DAYS, SPECIAL_EVENT_MAX_PER_QUARTER


def run(first: date, days: int) -> list[date]:
    return [first + timedelta(days=n) for n in range(days)]


def test_the_limits_are_the_rules_numbers():
    assert (SPECIAL_EVENT_MAX_DAYS.value, SPECIAL_EVENT_MAX_PER_QUARTER.value) == (14, 2)


@pytest.mark.parametrize(("day", "exempt"), [(13, True), (14, True), (15, False)])
def test_an_event_is_exempt_for_fourteen_consecutive_days_not_fifteen(day, exempt):
    first = date(2026, 7, 1)
    result = special_events.exemption(run(first, 20), first + timedelta(days=day - 1))
    assert (result.exempt, result.event_day) == (exempt, day)
    if not exempt:
        assert result.cited("ND").startswith("ND 99-01.3-08-04: day 15 of the event")


def test_a_day_without_use_ends_an_event():
    first = date(2026, 7, 1)
    days = run(first, 10) + run(first + timedelta(days=11), 10)  # a gap on July 11
    result = special_events.exemption(days, first + timedelta(days=20))
    assert (result.exempt, result.event_day, result.event_number) == (True, 10, 2)


@pytest.mark.parametrize(("events", "exempt"), [(1, True), (2, True), (3, False)])
def test_at_most_two_events_a_quarter_are_exempt(events, exempt):
    starts = [date(2026, 7, 3), date(2026, 8, 7), date(2026, 9, 4)][:events]
    days = [d for s in starts for d in run(s, 3)]
    result = special_events.exemption(days, starts[-1])
    assert (result.exempt, result.event_number) == (exempt, events)
    if not exempt:
        assert result.cited("ND").startswith("ND 99-01.3-08-04: event 3 of")
        assert "not more than two events per quarter" in result.reason


def test_events_of_the_previous_quarter_do_not_count_against_this_one():
    days = run(date(2026, 5, 1), 2) + run(date(2026, 6, 1), 2) + run(date(2026, 7, 3), 2)
    assert special_events.exemption(days, date(2026, 7, 3)).exempt


def at(hour, minute=0):
    return datetime(2026, 7, 1, tzinfo=UTC) + timedelta(hours=hour, minutes=minute)


def test_recordings_covering_the_play_exactly_leave_no_gap():
    assert coverage.gaps(at(18), at(26), [(at(18), at(22)), (at(21, 50), at(26))]) == []


def test_a_recording_starting_one_minute_after_the_opener_leaves_a_one_minute_gap():
    assert coverage.gaps(at(18), at(26), [(at(18, 1), at(26))]) == [(at(18), at(18, 1))]


def test_a_recording_stopping_one_minute_before_the_closer_leaves_a_one_minute_gap():
    assert coverage.gaps(at(18), at(26), [(at(17), at(25, 59))]) == [(at(25, 59), at(26))]


def test_a_one_minute_gap_between_two_recorders_is_found():
    found = coverage.gaps(at(18), at(26), [(at(18), at(22)), (at(22, 1), at(26))])
    assert found == [(at(22), at(22, 1))]


def test_no_recording_leaves_the_whole_play_uncovered():
    assert coverage.gaps(at(18), at(26), []) == [(at(18), at(26))]
