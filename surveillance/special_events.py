"""Special-event tables (ND 99-01.3-08-04, opening paragraph): pure functions, no ORM.

"A temporary table that is brought onto a site for fourteen or fewer consecutive days for a
special event ..., but for not more than two events per quarter, does not need a system."

*Assumed*: the days a temporary table is on the site are the gaming days it is used (a
dealer shift on it), plus the day asked about (a table being opened is there). An event is a
run of consecutive gaming days; a day without use ends it. Events are counted in the calendar
quarter of the day asked about, an event that began in the previous quarter counting in both.
So the exemption ends on the fifteenth consecutive day of an event, and for the whole of a
third event in a quarter.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from core.periods import Quarter

from .rules import SPECIAL_EVENT_MAX_DAYS, SPECIAL_EVENT_MAX_PER_QUARTER


@dataclass(frozen=True)
class Exemption:
    exempt: bool
    event_day: int  # which consecutive day of its event the day asked about is (1 = first)
    event_number: int  # which event of the quarter it belongs to (1 = first)
    reason: str = ""  # why the exemption does not hold, as the rule reads (without its citation)

    def cited(self, where) -> str:
        """The reason with the rule's citation at `where` (a site, or its pack)."""
        return f"{SPECIAL_EVENT_MAX_DAYS.rule.at(where)}: {self.reason}"


def events(days: Iterable[date]) -> list[tuple[date, date]]:
    """Runs of consecutive days, as (first, last), in order."""
    runs: list[tuple[date, date]] = []
    for day in sorted(set(days)):
        if runs and day == runs[-1][1] + timedelta(days=1):
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def exemption(days_used: Iterable[date], on_date: date) -> Exemption:
    """Whether a temporary table used on `days_used` needs no system on `on_date`."""
    runs = events([d for d in days_used if d <= on_date] + [on_date])
    first, _ = runs[-1]
    event_day = (on_date - first).days + 1
    quarter = Quarter.containing(on_date)
    event_number = sum(1 for a, b in runs if b >= quarter.start and a <= quarter.end)
    if event_day > SPECIAL_EVENT_MAX_DAYS.value:
        return Exemption(
            False,
            event_day,
            event_number,
            (
                f"day {event_day} of the event; a temporary special-event table "
                f"needs no system only for {SPECIAL_EVENT_MAX_DAYS.text}"
            ),
        )
    if event_number > SPECIAL_EVENT_MAX_PER_QUARTER.value:
        return Exemption(
            False,
            event_day,
            event_number,
            (
                f"event {event_number} of {quarter}; a temporary "
                f"special-event table needs no system for {SPECIAL_EVENT_MAX_PER_QUARTER.text}"
            ),
        )
    return Exemption(True, event_day, event_number)
