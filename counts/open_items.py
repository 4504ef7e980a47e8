"""The drop boxes still open when a gaming day closes (registered with floor.open_items).

`REMOVAL`: a drop box that has been used is removed from its table by the end of the day's
activity; `COUNT`: its cash is counted by the two-person team, the count initialed
and dated by both. A box of a table in play that day with no drop recorded, a drop still on
its table, and a removed drop without a signed count are open items. Two queries whatever the
number of tables and boxes, each reading values only (the site's jurisdiction joined, to cite
the rules at it) by SQL compiled once per process (core.rows.shaped_rows).
"""

from django.db.models import Exists, OuterRef, Q

from core.rows import shaped_rows
from floor.open_items import Kind, OpenItem

from .models import CountAgreement, Drop, DropBox
from .queries import signed_sessions_filter
from .rules import COUNT, REMOVAL


def box_items(day) -> list[OpenItem]:
    where = {"site_id": day.site_id, "gaming_date": day.gaming_date}
    unrecorded = shaped_rows(_unrecorded_boxes_query, day_id=day.pk, **where)
    items = [
        _not_removed(jurisdiction, _box(number, label), table_number, f"box:{pk}")
        for pk, _, table_number, number, label, jurisdiction in _one_per_table(unrecorded)
    ]
    for pk, table_number, number, label, removed, agreed, signed, jurisdiction in shaped_rows(_drops_query, **where):
        if not removed:
            items.append(_not_removed(jurisdiction, _box(number, label), table_number, f"drop:{pk}:remove"))
        elif not signed:
            items.append(_not_counted(jurisdiction, _box(number, label), table_number, pk, agreed=agreed))
    return sorted(items, key=lambda item: (item.table_number or 0, item.key))


def _drops_query(site_id: int, gaming_date):
    """The day's drops with whether each is removed, counted, and its count signed by both."""
    return (
        Drop.objects.filter(site_id=site_id, gaming_date=gaming_date)
        .annotate(
            removed=Exists(Drop.objects.filter(pk=OuterRef("pk"), removal__isnull=False)),
            agreed=Exists(CountAgreement.objects.filter(drop=OuterRef("pk"))),
            signed=Exists(CountAgreement.objects.filter(Q(drop=OuterRef("pk")), signed_sessions_filter())),
        )
        .order_by("table__number", "placed_at", "pk")
        .values_list(
            "pk",
            "table__number",
            "drop_box__number",
            "drop_box__label",
            "removed",
            "agreed",
            "signed",
            "site__jurisdiction",
        )
    )


def _unrecorded_boxes_query(day_id: int, site_id: int, gaming_date):
    """The active boxes of the tables opened in the day at which no drop is recorded."""
    from floor.models import TableInventory

    in_play = TableInventory.objects.filter(gaming_day_id=day_id, kind=TableInventory.Kind.OPENER).values("table_id")
    dropped = Drop.objects.filter(site_id=site_id, gaming_date=gaming_date, table_id=OuterRef("table_id"))
    return (
        DropBox.objects.filter(site_id=site_id, active=True, table_id__in=in_play)
        .exclude(Exists(dropped))
        .order_by("table__number", "label")
        .values_list("pk", "table_id", "table__number", "number", "label", "site__jurisdiction")
    )


def _box(number, label) -> DropBox:
    """The box as it names itself (its number and label), from the two values read."""
    return DropBox(number=number, label=label)


def _one_per_table(boxes) -> list:
    """A table may have several boxes (one counted while the next is in use): its first one."""
    seen, result = set(), []
    for box in boxes:
        if box[1] not in seen:
            seen.add(box[1])
            result.append(box)
    return result


def _not_removed(jurisdiction: str, box: DropBox, table_number: int, key: str) -> OpenItem:
    return OpenItem(
        key,
        Kind.BOX_NOT_REMOVED,
        table_number,
        f"{box} of table {table_number} is not removed from its table",
        REMOVAL.at(jurisdiction),
        "a shift manager removes it to safe storage, or it is carried with a reason",
    )


def _not_counted(jurisdiction: str, box: DropBox, table_number: int, drop_id: int, *, agreed: bool) -> OpenItem:
    state = "counted but the count is not signed by both members" if agreed else "removed but not counted"
    return OpenItem(
        f"drop:{drop_id}:count",
        Kind.BOX_NOT_COUNTED,
        table_number,
        f"{box} of table {table_number} is {state}",
        COUNT.at(jurisdiction),
        "the count team counts and signs it, or it is carried with a reason (counted after the close)",
    )
