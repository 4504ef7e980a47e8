"""Pure rules of ND 99-01.3-08-04: the special-event exemption (an event of the site of 14 or
fewer consecutive days, at most two events of the site a quarter) and recordings covering a table's play (08-04(5)(b))."""

from datetime import UTC, date, datetime, timedelta

import pytest

from surveillance import coverage, special_events
from surveillance.rules import SPECIAL_EVENT_MAX_DAYS, SPECIAL_EVENT_MAX_PER_QUARTER


def event(first: date, days: int) -> tuple[date, date]:
    """A special event of the site: its first and last day (consecutive days)."""
    return first, first + timedelta(days=days - 1)


def test_the_limits_are_the_rules_numbers():
    assert (SPECIAL_EVENT_MAX_DAYS.on("ND").value, SPECIAL_EVENT_MAX_PER_QUARTER.on("ND").value) == (14, 2)


@pytest.mark.parametrize(("days", "exempt"), [(13, True), (14, True), (15, False)])
def test_an_event_of_fourteen_consecutive_days_is_exempt_not_one_of_fifteen(days, exempt):
    """ "brought onto a site for fourteen or fewer consecutive days": the event's length decides,
    from its first day, not how far into it the day is."""
    first = date(2026, 7, 1)
    result = special_events.exemption([event(first, days)], first + timedelta(days=2), "ND")
    assert (result.exempt, result.event_day) == (exempt, 3)
    if not exempt:
        assert result.cited("ND").startswith("ND 99-01.3-08-04: the special event of 2026-07-01 to 2026-07-15 runs 15")


def test_a_day_without_play_neither_ends_an_event_nor_starts_another():
    """The days are the event's, consecutive from first to last: a table not played on July 11
    is still on the site for the same event, so July 12 is its twelfth day and event 1."""
    result = special_events.exemption([event(date(2026, 7, 1), 14)], date(2026, 7, 12), "ND")
    assert (result.exempt, result.event_day, result.event_number) == (True, 12, 1)


def test_a_day_no_event_covers_is_not_exempt():
    result = special_events.exemption([event(date(2026, 7, 1), 3)], date(2026, 7, 4), "ND")
    assert (result.exempt, result.event_start) == (False, None)
    assert "no special event of the site covers 2026-07-04" in result.reason


@pytest.mark.parametrize(("events", "exempt"), [(1, True), (2, True), (3, False)])
def test_at_most_two_events_of_the_site_a_quarter_are_exempt(events, exempt):
    starts = [date(2026, 7, 3), date(2026, 8, 7), date(2026, 9, 4)][:events]
    result = special_events.exemption([event(s, 3) for s in starts], starts[-1], "ND")
    assert (result.exempt, result.event_number) == (exempt, events)
    if not exempt:
        assert result.cited("ND").startswith("ND 99-01.3-08-04: event 3 of the site in")
        assert "not more than two events per quarter" in result.reason


def test_events_of_the_previous_quarter_do_not_count_against_this_one():
    events = [event(date(2026, 5, 1), 2), event(date(2026, 6, 1), 2), event(date(2026, 7, 3), 2)]
    assert special_events.exemption(events, date(2026, 7, 3), "ND").exempt


def test_an_event_running_into_the_quarter_counts_in_it():
    events = [event(date(2026, 6, 29), 4), event(date(2026, 7, 10), 2), event(date(2026, 8, 10), 2)]
    result = special_events.exemption(events, date(2026, 8, 10), "ND")
    assert (result.exempt, result.event_number) == (False, 3)


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
