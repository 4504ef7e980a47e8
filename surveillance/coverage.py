"""Whether recordings cover a table's play (ND 99-01.3-08-04(5)(b)): pure functions, no ORM.

A recording runs "when chips are first made available for use on the table" until "the table
is permanently closed for the day". *Assumed*: chips are first made available when the
table's opener is counted, and the table closes for the day when its closer is counted; so
the recordings of a table's gaming day must together cover [opener, closer]. Anything less,
down to a minute, is a gap.
"""

from collections.abc import Iterable
from datetime import datetime

from .deadlines import merge_intervals


def gaps(
    start: datetime, end: datetime, recordings: Iterable[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    """The parts of [start, end) that no recording covers, in order."""
    found = []
    cursor = start
    for a, b in merge_intervals(recordings, open_end=end):
        if b <= cursor:
            continue
        if a > cursor:
            found.append((cursor, min(a, end)))
        cursor = max(cursor, b)
        if cursor >= end:
            break
    if cursor < end:
        found.append((cursor, end))
    return [(a, b) for a, b in found if b > a]
