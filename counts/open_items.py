"""The drop boxes still open when a gaming day closes (registered with floor.open_items).

`REMOVAL`: a drop box that has been used is removed from its table by the end of the day's
activity; `COUNT`: its cash is counted by the two-person team, the count initialed
and dated by both. A box of a table in play that day with no drop recorded, a drop still on
its table, and a removed drop without a signed count are open items. Three queries whatever
the number of tables and boxes (and the day's site, read once when there is an item, to cite
the rules at it).
"""

from django.db.models import Exists, OuterRef, Q

from floor.open_items import Kind, OpenItem

from .models import CountAgreement, Drop, DropBox
from .queries import signed_sessions_filter
from .rules import COUNT, REMOVAL


def box_items(day) -> list[OpenItem]:
    from floor.models import TableInventory

    drops = list(
        Drop.objects.filter(site_id=day.site_id, gaming_date=day.gaming_date)
        .annotate(
            removed=Exists(Drop.objects.filter(pk=OuterRef("pk"), removal__isnull=False)),
            agreed=Exists(CountAgreement.objects.filter(drop=OuterRef("pk"))),
            signed=Exists(CountAgreement.objects.filter(Q(drop=OuterRef("pk")), signed_sessions_filter())),
        )
        .select_related("drop_box", "table")
        .order_by("table__number", "placed_at", "pk")
    )
    in_play = TableInventory.objects.filter(gaming_day=day, kind=TableInventory.Kind.OPENER).values("table_id")
    unrecorded = (
        DropBox.objects.filter(site_id=day.site_id, active=True, table_id__in=in_play)
        .exclude(table_id__in=[d.table_id for d in drops])
        .select_related("table")
        .order_by("table__number", "label")
    )
    items = [_not_removed(day, box, f"box:{box.pk}") for box in _one_per_table(unrecorded)]
    for drop in drops:
        if not drop.removed:
            items.append(_not_removed(day, drop.drop_box, f"drop:{drop.pk}:remove"))
        elif not drop.signed:
            items.append(_not_counted(day, drop, agreed=drop.agreed))
    return sorted(items, key=lambda item: (item.table_number or 0, item.key))


def _one_per_table(boxes) -> list[DropBox]:
    """A table may have several boxes (one counted while the next is in use): its first one."""
    seen, result = set(), []
    for box in boxes:
        if box.table_id not in seen:
            seen.add(box.table_id)
            result.append(box)
    return result


def _not_removed(day, box: DropBox, key: str) -> OpenItem:
    return OpenItem(
        key,
        Kind.BOX_NOT_REMOVED,
        box.table.number,
        f"{box} of table {box.table.number} is not removed from its table",
        REMOVAL.at(day.site),
        "a shift manager removes it to safe storage, or it is carried with a reason",
    )


def _not_counted(day, drop: Drop, *, agreed: bool) -> OpenItem:
    state = "counted but the count is not signed by both members" if agreed else "removed but not counted"
    return OpenItem(
        f"drop:{drop.pk}:count",
        Kind.BOX_NOT_COUNTED,
        drop.table.number,
        f"{drop.drop_box} of table {drop.table.number} is {state}",
        COUNT.at(day.site),
        "the count team counts and signs it, or it is carried with a reason (counted after the close)",
    )
