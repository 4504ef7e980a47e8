"""Pure calculations for chip custody: no ORM, integers in and out (cents, chip counts)."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone


def chips_total_cents(lines: Iterable[tuple[int, int]]) -> int:
    """Grand total of (value_cents, quantity) lines: sum of value x quantity (08-05(3)(b))."""
    return sum(value_cents * quantity for value_cents, quantity in lines)


def chips_for_amount(amount_cents: int, value_cents: int) -> int | None:
    """How many chips of `value_cents` make `amount_cents`: amount / value when it divides
    exactly, otherwise None ($30 is no whole number of $25 chips)."""
    quantity, remainder = divmod(amount_cents, value_cents)
    return None if remainder else quantity


def tray_variance_cents(expected: Mapping[int, int], counted: Mapping[int, int]) -> int:
    """Counted minus expected value, both {value_cents: quantity}."""
    return chips_total_cents(counted.items()) - chips_total_cents(expected.items())


def tray_differs(expected: Mapping[int, int], counted: Mapping[int, int]) -> bool:
    """Any denomination whose quantity differs: a swap of chips of equal total still differs."""
    values = set(expected) | set(counted)
    return any(expected.get(v, 0) != counted.get(v, 0) for v in values)


def business_date(moment: datetime, time_zone: str, start_hour: int) -> date:
    """The gaming date a moment belongs to: local time minus the business-day start hour
    (ND 99-01.3-02-01: a business day may run past midnight)."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return (local - timedelta(hours=start_hour)).date()


def site_today(site) -> date:
    """Today's gaming date at `site`: now, in its time zone, less its business day's start hour."""
    return business_date(timezone.now(), site.time_zone, site.business_day_start_hour)


def gaming_day_bounds(gaming_date: date, time_zone: str, start_hour: int) -> tuple[datetime, datetime]:
    """[start, end) of a gaming date as aware datetimes: start hour local to the next day's."""
    zone = ZoneInfo(time_zone)
    start = datetime.combine(gaming_date, time(start_hour), tzinfo=zone)
    end = datetime.combine(gaming_date + timedelta(days=1), time(start_hour), tzinfo=zone)
    return start, end


def slip_status(step_kinds: Iterable[str]) -> str:
    """issued -> verified -> received; voided overrides everything."""
    kinds = set(step_kinds)
    for kind, status in (("void", "voided"), ("receive", "received"), ("verify", "verified")):
        if kind in kinds:
            return status
    return "issued"


@dataclass(frozen=True)
class SeriesCheck:
    missing: list[int]  # numbers between the first and last used that no slip carries
    out_of_order: list[int]  # numbers used after a higher number was already used


def check_series(numbers_in_use_order: list[int], *, first: int | None = None, last: int | None = None) -> SeriesCheck:
    """Consecutive numbering, used in order (ND 99-01.3-08-05(2)). `numbers_in_use_order` are
    the slip numbers sorted by when they were used (Slip.number_used_at); gaps are looked for
    in [first, last] (default: the lowest and highest number used)."""
    if not numbers_in_use_order:
        return SeriesCheck([], [])
    used = set(numbers_in_use_order)
    low = min(used) if first is None else first
    high = max(used) if last is None else last
    missing = [n for n in range(low, high + 1) if n not in used]
    out_of_order, highest = [], None
    for number in numbers_in_use_order:
        if highest is not None and number < highest:
            out_of_order.append(number)
        highest = number if highest is None else max(highest, number)
    return SeriesCheck(missing, out_of_order)


def last_begun_by(starts: Sequence[datetime | None], moment: datetime | None) -> int | None:
    """Which of a table's dealer shifts a drop box removed at `moment` served, where boxes are
    exchanged at each dealer change (house control): the index of the last of `starts` (the
    shifts' starts in the order begun; None: a start not known, taken as begun) at or before
    `moment` (any, when `moment` is not known). None when no shift had begun: none is invented."""
    served = [n for n, start in enumerate(starts) if moment is None or start is None or start <= moment]
    return served[-1] if served else None
