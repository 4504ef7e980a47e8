"""The fill and credit slips accounting recorded for a table, read for the forms check.

Accounting owns the slips; this module only reads them, and is the one place that knows
their model names. Until accounting keeps slips, `issued_for` answers None.
"""

from datetime import datetime


def issued_for(drop, start: datetime, end: datetime) -> set[tuple[str, int]] | None:
    try:
        from accounting import models as accounting_models
    except ImportError:
        return None
    fill = getattr(accounting_models, "FillSlip", None)
    credit = getattr(accounting_models, "CreditSlip", None)
    if fill is None or credit is None:
        return None
    issued: set[tuple[str, int]] = set()
    for kind, model in (("fill", fill), ("credit", credit)):
        numbers = model.objects.filter(table=drop.table, created_at__gte=start, created_at__lt=end)
        issued |= {(kind, n) for n in numbers.values_list("number", flat=True)}
    return issued
