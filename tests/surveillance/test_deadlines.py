"""The outage deadline arithmetic of ND 99-01.3-08-04(7), as pure functions: 48 hours of
activity on the table or 4 calendar days, whichever comes first."""

from datetime import UTC, timedelta

import pytest

from surveillance.deadlines import activity_between, activity_deadline, outage_deadline
from surveillance.rules import OUTAGE_ACTIVITY_LIMIT, OUTAGE_CALENDAR_LIMIT

from .conftest import local

TZ = "America/Chicago"
MONDAY_8PM = local(2026, 3, 2, 20)  # well before the DST change of 2026-03-08


def nightly(first_day, days, start_hour, hours):
    """One shift a night from `start_hour` for `hours` (may run past midnight)."""
    return [
        (local(2026, 3, first_day + n, start_hour), local(2026, 3, first_day + n, start_hour) + timedelta(hours=hours))
        for n in range(days)
    ]


def test_the_limits_are_48_hours_of_activity_and_4_calendar_days():
    assert OUTAGE_ACTIVITY_LIMIT.on("ND").value == timedelta(hours=48)
    assert OUTAGE_CALENDAR_LIMIT.on("ND").value == timedelta(days=4)
    assert OUTAGE_ACTIVITY_LIMIT.rule.at("ND") == "ND 99-01.3-08-04(7)"


def test_with_no_activity_the_table_has_4_calendar_days():
    deadline = outage_deadline(MONDAY_8PM, [], TZ, "ND")
    assert deadline.at == local(2026, 3, 6, 20)
    assert deadline.basis == "4 calendar days"


def test_a_table_dealt_around_the_clock_reaches_48_hours_of_activity_first():
    deadline = outage_deadline(MONDAY_8PM, [(local(2026, 3, 1, 6), None)], TZ, "ND")
    assert deadline.at == local(2026, 3, 4, 20)
    assert deadline.basis == "48 hours of activity on the table"


def test_night_shifts_across_midnight_reach_48_hours_before_the_fourth_day():
    # 10:00-02:00 every day: 6 h Monday night, 16 h Tuesday and Wednesday, 10 more by Thursday 20:00.
    deadline = outage_deadline(MONDAY_8PM, nightly(2, 5, 10, 16), TZ, "ND")
    assert deadline.at == local(2026, 3, 5, 20)
    assert deadline.basis == "48 hours of activity on the table"


def test_eight_hour_nights_never_reach_48_hours_so_4_calendar_days_come_first():
    shifts = nightly(2, 5, 18, 8)  # 18:00-02:00
    assert activity_between(shifts, MONDAY_8PM, local(2026, 3, 6, 20)) == timedelta(hours=32)
    assert outage_deadline(MONDAY_8PM, shifts, TZ, "ND").at == local(2026, 3, 6, 20)


def test_days_without_activity_do_not_count_towards_the_48_hours():
    shifts = [(MONDAY_8PM, local(2026, 3, 3, 20)), (local(2026, 3, 5, 8), None)]  # Wednesday dark
    deadline = outage_deadline(MONDAY_8PM, shifts, TZ, "ND")
    assert deadline.at == local(2026, 3, 6, 8)
    assert deadline.basis == "48 hours of activity on the table"


def test_a_dark_day_pushes_the_activity_deadline_past_the_calendar_deadline():
    shifts = [(MONDAY_8PM, local(2026, 3, 3, 20)), (local(2026, 3, 6, 8), None)]  # Wednesday and Thursday dark
    assert outage_deadline(MONDAY_8PM, shifts, TZ, "ND").basis == "4 calendar days"


def test_overlapping_shifts_on_one_table_count_once():
    shifts = [(MONDAY_8PM, local(2026, 3, 3, 20)), (local(2026, 3, 3, 8), local(2026, 3, 4, 20))]
    assert activity_between(shifts, MONDAY_8PM, local(2026, 3, 5)) == timedelta(hours=48)
    assert activity_deadline(MONDAY_8PM, shifts, OUTAGE_ACTIVITY_LIMIT.on("ND").value) == local(2026, 3, 4, 20)


def test_a_shift_across_the_daylight_saving_change_counts_real_hours():
    shifts = [(local(2026, 3, 7, 20), local(2026, 3, 8, 8))]  # 12 wall-clock hours, 11 real ones
    assert activity_between(shifts, local(2026, 3, 7, 12), local(2026, 3, 9)) == timedelta(hours=11)


def test_activity_before_the_outage_does_not_count():
    shifts = [(local(2026, 3, 1, 20), local(2026, 3, 3, 20))]
    assert activity_between(shifts, MONDAY_8PM, local(2026, 3, 6)) == timedelta(hours=24)


@pytest.mark.parametrize("began_hour,expected", [(20, (2026, 3, 6, 20)), (0, (2026, 3, 6, 0))])
def test_the_calendar_deadline_is_the_same_wall_clock_time_4_days_later(began_hour, expected):
    began = local(2026, 3, 2, began_hour)
    assert outage_deadline(began, [], TZ, "ND").at == local(*expected)


def test_four_calendar_days_follow_the_site_wall_clock_across_daylight_saving():
    # Assumed reading (surveillance/deadlines.py): 4 days on the wall clock, so 95 real hours here.
    began = local(2026, 3, 7, 12)
    deadline = outage_deadline(began, [], TZ, "ND").at
    assert deadline == local(2026, 3, 11, 12)
    assert deadline.astimezone(UTC) - began.astimezone(UTC) == timedelta(hours=95)
