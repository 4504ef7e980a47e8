"""The fill and credit slips the floor recorded for a table, read for the forms check.

The floor owns the slips (`floor.models.Slip`, one series per kind and site); this module
only reads them and is the one place that knows their shape. A voided slip is not expected in
the box (ND 99-01.3-08-05(2): the voided form is kept with the slip records).
"""

from bisect import bisect_left
from datetime import date, datetime

from django.db.models import Q

from floor.calculations import gaming_day_bounds


def issued_for(drop, start: datetime, end: datetime) -> set[tuple[str, int]] | None:
    """(kind, number) of the slips for the drop's table: for the gaming day, or for the
    [start, end) of its dealer shift. None when the floor keeps no slips."""
    try:
        from floor.models import Slip, SlipStep
    except ImportError:
        return None
    slips = Slip.objects.filter(table=drop.table).exclude(steps__kind=SlipStep.Kind.VOID)
    if drop.dealer_shift_id:
        slips = slips.filter(prepared_at__gte=start, prepared_at__lt=end)
    else:
        slips = slips.filter(gaming_day__gaming_date=drop.gaming_date)
    return set(slips.values_list("kind", "number"))


def issued_for_drops(site, drops: list, start: date, end: date) -> dict | None:
    """`issued_for` for many drops in two queries: each drop's table's slips of
    its gaming day, or of its dealer shift where boxes follow dealers; voided ones excluded."""
    try:
        from floor.models import DealerShift, Slip, SlipStep
    except ImportError:
        return None
    shift_ids = [d.dealer_shift_id for d in drops if d.dealer_shift_id]
    from core.id_lists import rows_among

    shifts = {s.pk: s for s in rows_among(DealerShift.objects.all(), "pk", shift_ids)}  # a chunk at a time
    periods = {d.pk: _slip_period(d, shifts) for d in drops if d.dealer_shift_id}
    window = Q(gaming_day__gaming_date__gte=start, gaming_day__gaming_date__lte=end)
    if periods:
        window |= Q(
            prepared_at__gte=min(a for a, _ in periods.values()), prepared_at__lt=max(b for _, b in periods.values())
        )
    slips = list(
        Slip.objects.filter(window, table__site=site)
        .exclude(steps__kind=SlipStep.Kind.VOID)
        .values_list("kind", "number", "table_id", "gaming_day__gaming_date", "prepared_at")
    )
    # Grouped once: each drop looks only at its table's slips (of its day, or by time).
    by_day: dict = {}
    by_table: dict = {}
    for kind, number, table_id, gaming_date, prepared_at in slips:
        by_day.setdefault((table_id, gaming_date), set()).add((kind, number))
        by_table.setdefault(table_id, []).append((prepared_at, kind, number))
    for table_slips in by_table.values():
        table_slips.sort(key=lambda s: s[0])
    issued = {}
    for drop in drops:
        if drop.pk in periods:
            a, b = periods[drop.pk]
            table_slips = by_table.get(drop.table_id, [])
            first = bisect_left(table_slips, a, key=lambda s: s[0])
            last = bisect_left(table_slips, b, key=lambda s: s[0])
            issued[drop.pk] = {(kind, number) for _, kind, number in table_slips[first:last]}
        else:
            issued[drop.pk] = set(by_day.get((drop.table_id, drop.gaming_date), ()))
    return issued


def _slip_period(drop, shifts: dict) -> tuple[datetime, datetime]:
    """`counts.queries.slip_period` with the dealer shifts already loaded."""
    start, end = gaming_day_bounds(drop.gaming_date, drop.site.time_zone, drop.site.business_day_start_hour)
    shift = shifts.get(drop.dealer_shift_id)
    return (shift.started_at, shift.ended_at or end) if shift is not None else (start, end)
