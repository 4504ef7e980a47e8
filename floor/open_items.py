"""What is still open in a gaming day when it is to be closed.

A day closes once each open item is resolved or carried with a reason (house control, the
close of floor.services.gaming_days; the regulation does not say when a day closes, but each
item rests on a rule it cites):

- a slip neither voided nor verified and received (rules.SLIP_VERIFICATION, SLIP_RECEIPT, cited
  at the day's site);
- a table in play without its closer (house control: the closer ends the dealer's shift and
  enters the table's win; it is recorded only while the day is open, so it is never carried);
- a drop box not removed from its table, or removed but not counted (the counts app's rules).

Drop boxes belong to the counts app, above the floor; it registers its items here when its
app loads (`register_open_items`), so imports keep pointing down (as floor.tips does).
Every function issues a fixed number of queries whatever the number of slips, tables or boxes.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from cardroom.models import Table
from core.hooks import CARRIED_NOW, OPEN_ITEMS
from core.money import format_money
from core.rows import shaped_rows

from . import rules
from .models import DealerShift, GamingDay, Slip, SlipKind, SlipStep, TableInventory


class Kind:
    SLIP_UNVERIFIED = "slip_unverified"
    SLIP_UNRECEIVED = "slip_unreceived"
    TABLE_OPEN = "table_open"
    BOX_NOT_REMOVED = "box_not_removed"
    BOX_NOT_COUNTED = "box_not_counted"


KIND_LABELS = {
    Kind.SLIP_UNVERIFIED: "Slip not verified",
    Kind.SLIP_UNRECEIVED: "Slip not received",
    Kind.TABLE_OPEN: "Table still open",
    Kind.BOX_NOT_REMOVED: "Drop box not removed",
    Kind.BOX_NOT_COUNTED: "Drop box not counted",
}

# Refusing to close a day while any item is open, and carrying one with a reason: the
# product's control (the chapter does not say when a gaming day closes).
CLOSE_CONTROL = rules.HOUSE_CONTROL
# Who may carry an item past the close (house control).
CARRIERS_NOTE = "a shift manager or gaming manager"


@dataclass(frozen=True)
class OpenItem:
    key: str  # stable per thing and state: "slip:12", "table:3", "drop:7:count", "box:4"
    kind: str  # Kind
    table_number: int | None
    description: str  # "Fill slip 1002 · table 3 · $500.00 is not received"
    citation: str  # the rule the item rests on
    resolve: str  # what resolves it
    carryable: bool = True

    @property
    def kind_label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind)

    @property
    def sentence(self) -> str:
        """The item as a refusal names it: its rule, what is open and what resolves it."""
        return f"{self.citation}: {self.description}; {self.resolve}"


Provider = Callable[[GamingDay], list[OpenItem]]


def register_open_items(provider: Provider) -> None:
    """An app above the floor registers `provider(gaming_day) -> [OpenItem]` once, when ready."""
    OPEN_ITEMS.register(provider)


def register_carried_now(provider: Callable) -> None:
    """An app above the floor registers `provider([Carried]) -> {(gaming_date, key): state now}`
    for its carried items resolved since (floor.queries.carried_items), once, when ready."""
    CARRIED_NOW.register(provider)


def open_items(day: GamingDay) -> list[OpenItem]:
    """Every open item of the day, carried or not: slips, tables, then the registered ones."""
    items = slip_items(day) + table_items(day)
    for provider in OPEN_ITEMS.answers():
        items += provider(day)
    return items


def slip_items(day: GamingDay) -> list[OpenItem]:
    """Slips of the day neither voided nor received: one item each, unverified first. Their
    figures only, read as values with the site's jurisdiction joined (each item cites its rule
    at the site, never one query more), by SQL compiled once (core.rows.shaped_rows)."""
    return [_slip_item(*row) for row in shaped_rows(_open_slips_query, day_id=day.pk)]


def _open_slips_query(day_id: int):
    steps = SlipStep.objects.filter(slip=OuterRef("pk"))
    return (
        Slip.objects.filter(gaming_day_id=day_id)
        .annotate(
            verified=Exists(steps.filter(kind=SlipStep.Kind.VERIFY)),
            received=Exists(steps.filter(kind=SlipStep.Kind.RECEIVE)),
            voided=Exists(steps.filter(kind=SlipStep.Kind.VOID)),
        )
        .filter(voided=False, received=False)
        .order_by("kind", "number")
        .values_list("pk", "kind", "number", "table_number", "total_cents", "verified", "site__jurisdiction")
    )


def _slip_item(pk, kind, number, table_number, total_cents, verified, jurisdiction) -> OpenItem:
    label = f"{SlipKind(kind).label} {number} · table {table_number} · {format_money(total_cents)}"
    receiver = "the dealer at the table" if kind == SlipKind.FILL else "the cashier"
    if verified:
        return OpenItem(
            f"slip:{pk}",
            Kind.SLIP_UNRECEIVED,
            table_number,
            f"{label} is verified but not received by {receiver}",
            rules.SLIP_RECEIPT.at(jurisdiction),
            f"{receiver} receives it, or it is carried with a reason",
        )
    return OpenItem(
        f"slip:{pk}",
        Kind.SLIP_UNVERIFIED,
        table_number,
        f"{label} is not verified and not received",
        rules.SLIP_VERIFICATION.at(jurisdiction),
        "verify and receive it, or its preparer voids it, or it is carried with a reason",
    )


def table_items(day: GamingDay) -> list[OpenItem]:
    """Tables in play in the day without their closer (never carried). Asked with the day's counts
    and shifts as subqueries: joining both (an OR over two multi-valued joins) crossed every
    count of a table with every shift at it, a cost that grew with the site's history."""
    return [
        OpenItem(
            f"table:{pk}",
            Kind.TABLE_OPEN,
            number,
            f"table {number} is open (no closer)",
            rules.TRAY_COUNT,
            f"record the closer of table {number} first (it ends the dealer's shift and is recorded only "
            "while the day is open, so it is not carried)",
            carryable=False,
        )
        for pk, number in shaped_rows(_open_tables_query, day_id=day.pk, site_id=day.site_id)
    ]


def _open_tables_query(day_id: int, site_id: int):
    # Each of the day's lists read once (IN of a subquery, by the gaming day's index), not an
    # EXISTS a table: SQLite searched each table's whole history by its table index for those.
    counts = TableInventory.objects.filter(gaming_day_id=day_id)
    shifts = DealerShift.objects.filter(gaming_day_id=day_id)
    opened = Q(pk__in=counts.filter(kind=TableInventory.Kind.OPENER).values("table_id")) | Q(
        pk__in=shifts.values("table_id")
    )
    closed = counts.filter(kind=TableInventory.Kind.CLOSER).values("table_id")
    return (
        Table.objects.filter(opened, site_id=site_id)
        .exclude(pk__in=closed)
        .order_by("number")
        .values_list("pk", "number")
    )
