"""The fill and credit slips accounting recorded for a table, read for the forms check.

Accounting owns the slips (`accounting.models.Slip`, one series per kind and site); this module
only reads them and is the one place that knows their shape. A voided slip is not expected in
the box (ND 99-01.3-08-05(2): the voided form is kept with the slip records).
"""

from datetime import datetime


def issued_for(drop, start: datetime, end: datetime) -> set[tuple[str, int]] | None:
    """(kind, number) of the slips for the drop's table: for the gaming day, or for the
    [start, end) of its dealer shift. None when accounting keeps no slips."""
    try:
        from accounting.models import Slip, SlipStep
    except ImportError:
        return None
    slips = Slip.objects.filter(table=drop.table).exclude(steps__kind=SlipStep.Kind.VOID)
    if drop.dealer_shift_id:
        slips = slips.filter(prepared_at__gte=start, prepared_at__lt=end)
    else:
        slips = slips.filter(gaming_day__gaming_date=drop.gaming_date)
    return set(slips.values_list("kind", "number"))
