"""The drop boxes still open when a gaming day closes (registered with floor.open_items).

`REMOVAL`: a drop box that has been used is removed from its table by the end of the day's
activity; `COUNT`: its cash is counted by the two-person team, the count initialed
and dated by both. A box of a table in play that day with no drop recorded, a drop still on
its table, and a removed drop without a signed count are open items. Two queries whatever the
number of tables and boxes, each reading values only (the site's jurisdiction joined, to cite
the rules at it) by SQL compiled once per process (core.rows.shaped_rows).
"""

from zoneinfo import ZoneInfo

from django.db.models import Exists, OuterRef, Q, Subquery

from core.money import format_money
from core.rows import shaped_rows
from floor.open_items import Kind, OpenItem

from .models import CountAgreement, CountSignature, Drop, DropBox
from .queries import current_agreements, signed_sessions_filter, unrecorded_boxes
from .rules import COUNT, REMOVAL


def box_items(day) -> list[OpenItem]:
    where = {"site_id": day.site_id, "gaming_date": day.gaming_date}
    items = [
        _not_removed(jurisdiction, _box(number, label), table_number, f"box:{pk}")
        for pk, _, table_number, number, label, jurisdiction in unrecorded_boxes(day)
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


def _box(number, label) -> DropBox:
    """The box as it names itself (its number and label), from the two values read."""
    return DropBox(number=number, label=label)


def _not_removed(jurisdiction: str, box: DropBox, table_number: int, key: str) -> OpenItem:
    return OpenItem(
        key,
        Kind.BOX_NOT_REMOVED,
        table_number,
        f"{box} of table {table_number} is not removed from its table",
        REMOVAL.at(jurisdiction),
        "a shift manager removes it to safe storage, or it is carried with a reason; carried, it is still "
        "removed and counted for this gaming date: the books close only once its count is signed",
    )


def _not_counted(jurisdiction: str, box: DropBox, table_number: int, drop_id: int, *, agreed: bool) -> OpenItem:
    state = "counted but the count is not signed by both members" if agreed else "removed but not counted"
    return OpenItem(
        f"drop:{drop_id}:count",
        Kind.BOX_NOT_COUNTED,
        table_number,
        f"{box} of table {table_number} is {state}",
        COUNT.at(jurisdiction),
        "the count team counts and signs it, or it is carried with a reason (counted after the close: the "
        "books close only once its count is signed)",
    )


def carried_boxes_now(carried) -> dict:
    """What became of the drop boxes carried past a close (floor.queries.carried_items asks, by
    core.hooks.CARRIED_NOW): {(gaming_date, key): "since counted, $420.00 signed 2026-12-08 03:10"},
    or "since removed, not counted", for a carried "drop:<id>:…" or "box:<id>" item resolved since.
    The carried text is the item as it stood (models.CarriedItem); this is its state now. One query."""
    drops = {int(c.key.split(":")[1]): c for c in carried if c.key.startswith("drop:")}
    boxes = {(int(c.key.split(":")[1]), c.gaming_date, c.site_id): c for c in carried if c.key.startswith("box:")}
    if not drops and not boxes:
        return {}
    found = Q(pk__in=drops)
    if boxes:
        found |= Q(drop_box_id__in={b for b, _, _ in boxes}, gaming_date__in={d for _, d, _ in boxes})
    now = {}
    for pk, box_id, gaming_date, site_id, removed, cents, signed_at, zone in _drops_now(found):
        item = drops.get(pk) or boxes.get((box_id, gaming_date, site_id))
        # A box carried "not counted" was removed when carried: only its count is news.
        removed = None if item is None or item.key.endswith(":count") else removed
        if item is not None and (removed or cents is not None):
            now[(item.gaming_date, item.key)] = _state_now(removed, cents, signed_at, ZoneInfo(zone))
    return now


def _drops_now(found: Q):
    """The drops with their removal and their standing signed count's total and last signature."""
    agreement = current_agreements().filter(drop=OuterRef("pk")).order_by("-agreed_at", "-pk")
    last_signature = CountSignature.objects.filter(session_id=OuterRef("signed_session")).order_by("-signed_at")
    return (
        Drop.objects.filter(found)
        .annotate(
            signed_cents=Subquery(agreement.values("total_cents")[:1]),
            signed_session=Subquery(agreement.values("session_id")[:1]),
        )
        .annotate(signed_at=Subquery(last_signature.values("signed_at")[:1]))
        .order_by("placed_at", "pk")
        .values_list(
            "pk",
            "drop_box_id",
            "gaming_date",
            "site_id",
            "removal__removed_at",
            "signed_cents",
            "signed_at",
            "site__time_zone",
        )
    )


def _state_now(removed, cents, signed_at, zone: ZoneInfo) -> str:
    if cents is not None:
        return f"since counted, {format_money(cents)} signed {signed_at.astimezone(zone):%Y-%m-%d %H:%M}"
    return f"since removed {removed.astimezone(zone):%Y-%m-%d %H:%M}, not counted yet"
