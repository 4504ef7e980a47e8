"""Outage deadline arithmetic (ND 99-01.3-08-04(7)): pure functions, no ORM.

A camera or recorder that is not working properly must be repaired within 48 hours of
activity on the table or 4 calendar days, whichever comes first:

    activity deadline = the moment the table's accumulated activity since the outage
                        reaches 48 hours (activity = the union of dealer shifts on it)
    calendar deadline = outage time + 4 days, counted on the site's wall clock
    deadline          = min(activity deadline, calendar deadline)

*Assumed*: "4 calendar days" is read as 4 x 24 hours of the site's local wall clock from the
time the outage began (a DST change does not move it by an hour). A shift still running
(no end) is projected to continue, so the page shows when 48 hours would be reached if it
went on; comparing `at >= deadline` is then the same as counting activity up to `at`.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from packs import Rule

from .rules import OUTAGE_ACTIVITY_LIMIT, OUTAGE_CALENDAR_LIMIT

Interval = tuple[datetime, datetime | None]
_FOREVER = timedelta(days=365 * 100)


@dataclass(frozen=True)
class OutageDeadline:
    at: datetime
    basis: str  # which limit comes first, as the rule reads
    rule: Rule  # cited at the outage's site: `deadline.rule.at(site)`


def merge_intervals(intervals: Iterable[Interval], *, open_end: datetime) -> list[tuple[datetime, datetime]]:
    """Sorted, non-overlapping intervals; an interval with no end runs to `open_end`."""
    # In UTC: Python subtracts two times of one zone on the wall clock, ignoring DST.
    spans = sorted((start.astimezone(UTC), (end or open_end).astimezone(UTC)) for start, end in intervals)
    merged: list[tuple[datetime, datetime]] = []
    for start, end in spans:
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def activity_between(intervals: Iterable[Interval], start: datetime, end: datetime) -> timedelta:
    """Time within [start, end) covered by at least one interval (overlapping shifts count once)."""
    total = timedelta()
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    for a, b in merge_intervals(intervals, open_end=end):
        total += max(timedelta(), min(b, end) - max(a, start))
    return total


def activity_deadline(since: datetime, intervals: Iterable[Interval], limit: timedelta) -> datetime | None:
    """The moment accumulated activity after `since` reaches `limit`; None if it never does."""
    remaining = limit
    since = since.astimezone(UTC)
    for a, b in merge_intervals(intervals, open_end=since + _FOREVER):
        a = max(a, since)
        if b <= a:
            continue
        if b - a >= remaining:
            return a + remaining
        remaining -= b - a
    return None


def calendar_deadline(since: datetime, time_zone: str, limit: timedelta) -> datetime:
    local = since.astimezone(ZoneInfo(time_zone))
    return (local + limit).replace(fold=0)


def outage_deadline(since: datetime, intervals: Iterable[Interval], time_zone: str, where) -> OutageDeadline:
    """Whichever of the two limits of the outage rule (ND 99-01.3-08-04(7)) comes first: the limits
    of `where`'s pack (a site or a pack's code) in force on the day the outage began."""
    day = since.astimezone(ZoneInfo(time_zone)).date()
    activity, calendar = OUTAGE_ACTIVITY_LIMIT.on(where, day), OUTAGE_CALENDAR_LIMIT.on(where, day)
    by_calendar = calendar_deadline(since, time_zone, calendar.value)
    by_activity = activity_deadline(since, intervals, activity.value)
    if by_activity is not None and by_activity < by_calendar:
        return OutageDeadline(by_activity, activity.text, OUTAGE_ACTIVITY_LIMIT.rule)
    return OutageDeadline(by_calendar, calendar.text, OUTAGE_CALENDAR_LIMIT.rule)
