"""Special-event tables (ND 99-01.3-08-04, opening paragraph): pure functions, no ORM.

"A temporary table that is brought onto a site for fourteen or fewer consecutive days for a
special event according to subsection 4 of section 99-01.3-01-02, but for not more than two
events per quarter, does not need a system."

As the text reads: the event is the site's (`surveillance.models.SpecialEvent`, recorded with its
first and last day), and its days are the consecutive days the temporary tables are on the site,
first to last, whether or not a table is played on each (a day without play does not end the
event, nor start another). The exemption holds on a day that falls in an event of the site that
lasts fourteen or fewer consecutive days and is one of the first two events of the site in the
day's calendar quarter (an event that began in the previous quarter counts in both, as it is an
event in each). A temporary table played on a day no recorded event covers was not brought onto
the site for a special event: it needs a system like a regular one.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from core.periods import Quarter

from .rules import SPECIAL_EVENT_MAX_DAYS, SPECIAL_EVENT_MAX_PER_QUARTER


@dataclass(frozen=True)
class Exemption:
    exempt: bool
    event_day: int  # which consecutive day of its event the day asked about is (1 = first; 0 = no event)
    event_number: int  # which event of the site in the quarter it belongs to (1 = first; 0 = no event)
    reason: str = ""  # why the exemption does not hold, as the rule reads (without its citation)
    event_start: date | None = None  # the first day of the event covering the day (None: no event)

    def cited(self, where) -> str:
        """The reason with the rule's citation at `where` (a site, or its pack)."""
        return f"{SPECIAL_EVENT_MAX_DAYS.rule.at(where)}: {self.reason}"


def exemption(events: Iterable[tuple[date, date]], on_date: date, where) -> Exemption:
    """Whether a temporary table of a site whose special events are `events` ((first day, last
    day) each, the events in force) needs no system on `on_date`, under the limits of `where`'s pack
    (a site or a pack's code) in force that day. A pack that states no exemption grants none."""
    if not SPECIAL_EVENT_MAX_DAYS.rule.applies(where):
        return Exemption(False, 0, 0, "the site's law states no special-event exemption")
    max_days, per_quarter = SPECIAL_EVENT_MAX_DAYS.on(where, on_date), SPECIAL_EVENT_MAX_PER_QUARTER.on(where, on_date)
    events = sorted(set(events))
    covering = [(first, last) for first, last in events if first <= on_date <= last]
    if not covering:
        return Exemption(
            False, 0, 0,
            f"no special event of the site covers {on_date}; a temporary table needs no system only while it is on "
            "the site for a special event",
        )  # fmt: skip
    first, last = covering[0]
    event_day = (on_date - first).days + 1
    length = (last - first).days + 1
    quarter = Quarter.containing(on_date)
    in_quarter = [e for e in events if e[1] >= quarter.start and e[0] <= quarter.end]
    event_number = in_quarter.index((first, last)) + 1
    if length > max_days.value:
        return Exemption(
            False, event_day, event_number,
            f"the special event of {first} to {last} runs {length} consecutive days; a temporary special-event table "
            f"needs no system only for {max_days.text}",
            first,
        )  # fmt: skip
    if event_number > per_quarter.value:
        return Exemption(
            False, event_day, event_number,
            f"event {event_number} of the site in {quarter}; a temporary special-event table needs no system for "
            f"{per_quarter.text}",
            first,
        )  # fmt: skip
    return Exemption(True, event_day, event_number, "", first)
