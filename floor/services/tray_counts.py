"""A table's opener and closer counts (house control; they enter the table's win and
percent-of-hold). None where the house's revenue is its fees (rules.FEES_ONLY)."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from cardroom.access import require_role
from cardroom.models import Table
from core import acts, moments
from core.audit import appended_at_end, snapshot
from core.audit import record_site_event as _audit
from core.rules import HOUSE_CONTROL

from .. import queries, rules
from ..calculations import tray_differs, tray_variance_cents
from ..chip_log import refuse_more_than_exist
from ..models import DealerShift, GamingDay, TableInventory
from ..tips import check_tips_at_last_shift, tips_checked_at
from .steps import (
    active_chips,
    check_outage_cap,
    chip_lines,
    end_shift,
    line_values,
    refuse_house_chips_at_fees_site,
    require_in_day,
    require_open_day,
    require_table_in_use,
    save_count,
)


def record_table_inventory(
    *,
    acting_user,
    table: Table,
    kind: str,
    chips=None,
    amounts=None,
    same_as_last_closer: bool = False,
    variance_reason: str = "",
    at: datetime | None = None,
) -> TableInventory:
    """Record a table's opener or closer count by denomination (both enter the table's win), as chip counts (`chips`) or dollar amounts (`amounts`). An opener is
    compared with the table's previous closer: any difference is a variance that needs a
    reason. `same_as_last_closer` records an opener equal to that count, line for line (the
    common case, in one action). A closer ends the dealer shift running."""
    site = table.site
    employee = acts.acting_employee(
        require_role(
            acting_user, site, *rules.FLOOR_SUPERVISORS, action="record a table opener or closer", rule=HOUSE_CONTROL
        )
    )
    refuse_house_chips_at_fees_site(site, "table", "table opener or closer")
    if kind not in (TableInventory.Kind.OPENER, TableInventory.Kind.CLOSER):
        raise ValidationError({"kind": f"{rules.TRAY_COUNT}: a tray count is an opener or a closer."})
    given, at = at, acts.moment(at, "counted_at", site=site, what="a tray count", rule=rules.RECORD_TIME)
    require_table_in_use(table)
    available = active_chips(site.organization_id)  # read once: the $25 check and the lines
    if kind == TableInventory.Kind.OPENER:
        check_outage_cap(table, at, available=available)
    if same_as_last_closer:
        chips = _last_closer_chips(table, kind, at, chips, amounts)
        amounts = None
    counted = chip_lines(chips, amounts, site, rules.TRAY_COUNT, available=available)
    with transaction.atomic():
        # The rows' events go in one INSERT (appended_at_end); the tips check may open an
        # alert in a savepoint of its own, so it runs after that block, in the same order.
        with appended_at_end():
            day = require_open_day(site, "table")
            require_in_day(site, day, at, given, "counted_at")
            _check_count_order(table, day, kind, at)
            refuse_more_than_exist(site, counted, record=f"table {kind}", on_date=day.gaming_date)
            previous = queries.last_tray_count(table, before=at)
            variance = _variance(previous, counted, variance_reason) if kind == TableInventory.Kind.OPENER else None
            inventory = save_count(
                table, day, kind, counted, employee, at, previous=previous, variance=variance, reason=variance_reason
            )
            shift = queries.current_shift(table, at) if kind == TableInventory.Kind.CLOSER else None
            if shift is not None:
                end_shift(acting_user, shift, employee, at, field="counted_at")
        if shift is not None:
            _check_tips_if_last_shift(shift, day, at)
        _audit(
            acting_user,
            f"table_inventory.{kind}",
            inventory,
            site=site,
            after={**snapshot(inventory), "chips": line_values(counted), **_copied(same_as_last_closer)},
        )
    return inventory


def _copied(same_as_last_closer: bool) -> dict:
    """The audit row says when the opener was recorded as a copy of the last closer."""
    return {"same_as_last_closer": True} if same_as_last_closer else {}


def _last_closer_chips(table: Table, kind: str, at: datetime, chips, amounts) -> list[dict]:
    """The lines of the count the opener is compared with (the table's last closer, or a
    dealer-change count after it), to record the opener as equal to it."""
    if kind != TableInventory.Kind.OPENER:
        raise ValidationError({"same_as_last_closer": f"{rules.TRAY_COUNT}: only an opener copies the last closer."})
    if chips or amounts is not None:
        raise ValidationError(
            {"same_as_last_closer": f"{rules.TRAY_COUNT}: give the chips or ask for the last closer's, not both."}
        )
    previous = queries.last_tray_count(table, before=at)
    if previous is None:
        raise ValidationError(
            {"same_as_last_closer": f"{rules.TRAY_COUNT}: {table} has no previous closer to copy; count its tray."}
        )
    return [
        {"denomination": value, "quantity": quantity}
        for value, quantity in previous.lines.values_list("value_cents", "quantity")
    ]


def _check_count_order(table: Table, day: GamingDay, kind: str, at: datetime) -> None:
    found = dict(TableInventory.objects.filter(table=table, gaming_day=day).values_list("kind", "counted_at"))
    counts = set(found)
    if TableInventory.Kind.CLOSER in counts:
        raise ValidationError({"table": f"{rules.TRAY_COUNT}: {table} is already closed for the gaming day."})
    if kind == TableInventory.Kind.OPENER and TableInventory.Kind.OPENER in counts:
        raise ValidationError({"kind": f"{rules.TRAY_COUNT}: {table} already has its opener for the gaming day."})
    if kind == TableInventory.Kind.CLOSER and not queries.table_was_opened(table, day):
        raise ValidationError({"table": f"{rules.TRAY_COUNT}: {table} was not opened in this gaming day."})
    opened_at = found.get(TableInventory.Kind.OPENER)
    if kind == TableInventory.Kind.CLOSER and opened_at is not None and at < opened_at:
        shown = [m.astimezone(moments.site_zone(table.site)).strftime("%Y-%m-%d %H:%M %Z") for m in (at, opened_at)]
        raise ValidationError(
            {
                "counted_at": f"{rules.TRAY_COUNT}: the closer is counted after the table opened; {shown[0]} is before "
                f"its opener ({shown[1]})."
            }
        )
    if kind == TableInventory.Kind.CLOSER:
        _refuse_closer_before_a_shift(table, day, at)


def _refuse_closer_before_a_shift(table: Table, day: GamingDay, at: datetime) -> None:
    """The closer ends the dealer shift running at its time (`record_table_inventory`) and the
    table's play for the day (rules.TRAY_COUNT, rules.DEALER_SHIFTS: house controls). Dated before a
    shift of the day at the table began, it would end no shift: the shift would run on past the
    table's close and its day's close, and its end would change the day's per-dealer hold later."""
    later = (
        DealerShift.objects.filter(table=table, gaming_day=day, started_at__gt=at)
        .select_related("dealer")
        .order_by("started_at")
        .first()
    )
    if later is None:
        return
    site = table.site
    left = "which it would leave running" if later.ended_at is None else "so the table would be dealt after it"
    raise ValidationError(
        {
            "counted_at": f"{rules.TRAY_COUNT}: the closer ends the table's dealer shift and its play for the day; "
            f"{moments.shown(site, at)} is before the shift of {later.dealer} at {table} began "
            f"({moments.shown(site, later.started_at)}), {left}. Date the closer at or after that start."
        }
    )


def _variance(previous: TableInventory | None, counted: dict, reason: str) -> int | None:
    """Opener minus the previous closer; a difference in any denomination needs a reason."""
    if previous is None:
        return None
    expected = dict(previous.lines.values_list("value_cents", "quantity"))
    mine = line_values(counted)
    if tray_differs(expected, mine) and not (reason or "").strip():
        raise ValidationError(
            {"variance_reason": f"{rules.TRAY_COUNT}: the opener differs from the previous closer; give the reason."}
        )
    return tray_variance_cents(expected, mine)


def _check_tips_if_last_shift(shift, day, at) -> None:
    """A dealer redeems tips before leaving the site, where the site's pack states it
    (rules.TIPS_BEFORE_LEAVING). When the closer ends the dealer's last running shift of the
    day, their tips are checked and flagged if undeclared or unredeemed (floor.tips; compliance
    opens the alert). Elsewhere nothing is checked (no query, no flag)."""
    site = shift.table.site
    if not tips_checked_at(site):
        return
    if queries.shifts_running(at).filter(dealer=shift.dealer, table__site=site).exists():
        return
    first = DealerShift.objects.filter(dealer=shift.dealer, gaming_day=day).order_by("started_at").first()
    check_tips_at_last_shift(shift.dealer, site, day.gaming_date, first.started_at, "closer")
