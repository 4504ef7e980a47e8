"""Steps the floor's services share: the time of an action, the acting employee, the open
gaming day, the chips on a count or a slip, a tray count saved with its lines, the end of a
dealer shift claimed once, and the outage cap on a table that opens or seats a dealer."""

from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from cardroom import figure_days, moments
from cardroom.access import NOT_AN_EMPLOYEE, Access
from cardroom.audit import record_site_event as _audit
from cardroom.audit import snapshot
from cardroom.chips import require_twenty_five_chips
from cardroom.models import ChipDenomination, Employee, Site, Table
from cardroom.wager_caps import check_max_wager

from .. import queries, rules
from ..calculations import chips_total_cents
from ..models import DealerShift, GamingDay, TableInventory, TableInventoryLine


def _moment(at: datetime | None, field: str = "at", *, site: Site | None = None, **checks) -> datetime:
    """The time of an action: now, or an earlier time written on paper; never the future.
    With the site, a naive time is its local time and the paper-first rules apply
    (cardroom.moments.occurred_at: business hours of `gaming_date`, closed books)."""
    if site is not None:
        return moments.occurred_at(site, at, field=field, rule=rules.RECORD_TIME, **checks)
    now = timezone.now()
    if at is None:
        return now
    if timezone.is_naive(at):
        raise ValidationError({field: f"{rules.RECORD_TIME}: give the time with its time zone."})
    if at > now + rules.CLOCK_TOLERANCE:
        raise ValidationError({field: f"{rules.RECORD_TIME}: a record cannot be dated in the future."})
    return at


def _in_day(site: Site, day: GamingDay, at: datetime, given: datetime | None, field: str, **checks) -> None:
    """A time written on paper lies in the business hours of the gaming day it is entered in."""
    if given is not None:
        moments.occurred_at(site, at, field=field, rule=rules.RECORD_TIME, gaming_date=day.gaming_date, **checks)


def _acting_employee(access: Access) -> Employee:
    if access.employee is None:
        raise PermissionDenied(NOT_AN_EMPLOYEE)
    return access.employee


def _require_table_in_use(table: Table, field: str = "table") -> None:
    if not table.active:
        raise ValidationError(
            {field: f"{rules.TABLE_STATE}: {table} is inactive; chips move only to an active table."}
        )


def _open_day(site: Site, field: str) -> GamingDay:
    day = queries.open_gaming_day(site)
    if day is None:
        raise ValidationError({field: f"{rules.GAMING_DAY_STATE}: no gaming day is open at {site}; open one first."})
    return day


CHIP_LINE_KEYS = frozenset({"denomination", "quantity"})


def parse_chips(chips, organization_id: int, citation: str) -> dict[ChipDenomination, int]:
    """[{"denomination": <ChipDenomination or its value in cents>, "quantity": n}, ...] ->
    {denomination: quantity}. `denomination` is the chip's value in cents, never its id.
    Quantities are whole positive numbers; the denomination is one of the organization's
    active chips (08-03(1)); one line per denomination; at least one line."""
    if not isinstance(chips, list | tuple) or not chips:
        raise ValidationError({"chips": f"{citation}: give at least one denomination and its quantity."})
    available = list(ChipDenomination.objects.filter(organization_id=organization_id, active=True))
    by_value = {c.value_cents: c for c in available}
    parsed: dict[ChipDenomination, int] = {}
    for item in chips:
        denomination, quantity = _chip_item(item, by_value, citation)
        if denomination in parsed:
            raise ValidationError({"chips": f"{citation}: {denomination} is listed twice; give one line per value."})
        parsed[denomination] = quantity
    return parsed


def _chip_item(item, by_value, citation) -> tuple[ChipDenomination, int]:
    if not isinstance(item, dict) or set(item) - CHIP_LINE_KEYS:
        raise ValidationError({"chips": f"{citation}: each line is {{'denomination': ..., 'quantity': ...}}."})
    raw = item.get("denomination")
    key = raw.value_cents if isinstance(raw, ChipDenomination) else raw
    denomination = None if isinstance(key, bool) or not isinstance(key, int) else by_value.get(key)
    if denomination is None:
        raise ValidationError({"chips": f"{rules.CHIP_VALUES}: {raw!r} is not a chip value of the organization."})
    return denomination, _quantity(item.get("quantity"), denomination, citation)


def _quantity(raw, denomination, citation) -> int:
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValidationError({"chips": f"{citation}: the quantity of {denomination} must be a whole number of chips."})
    if raw <= 0:
        raise ValidationError({"chips": f"{citation}: the quantity of {denomination} must be at least 1."})
    if raw > rules.MAX_CHIPS_PER_LINE:
        raise ValidationError({"chips": f"{citation}: {raw} chips of {denomination} is more than a tray holds."})
    return raw


def _line_values(chips: dict[ChipDenomination, int]) -> dict[int, int]:
    return {denomination.value_cents: quantity for denomination, quantity in chips.items()}


def _check_outage_cap(table: Table, at: datetime) -> None:
    """ND 99-01.3-08-04(7): past an unrepaired surveillance outage's deadline the table may
    not run with a maximum wager above $2 (the message says why and until when)."""
    check_max_wager(table, table.max_wager_cents, at)  # surveillance registers the cap (cardroom.wager_caps)
    # ND 99-01.3-08-03(1): a table opening to $25 wagers needs the organization's $25 chips.
    require_twenty_five_chips(table)


def _save_count(table, day, kind, counted, employee, at, *, previous, variance=None, reason="", shift=None):
    inventory = TableInventory.objects.create(
        gaming_day=day,
        table=table,
        kind=kind,
        counted_at=at,
        counted_by=employee,
        dealer_shift=shift,
        previous=previous,
        total_cents=chips_total_cents(_line_values(counted).items()),
        variance_cents=variance,
        variance_reason=(reason or "").strip(),
    )
    TableInventoryLine.objects.bulk_create(
        TableInventoryLine(inventory=inventory, denomination=d, value_cents=d.value_cents, quantity=q)
        for d, q in counted.items()
    )
    return inventory


def _end_shift(acting_user, shift: DealerShift, employee: Employee, ended_at: datetime) -> None:
    """Claim the end with a conditional update, so two clerks never end one shift twice."""
    before = snapshot(shift)
    claimed = DealerShift.objects.filter(pk=shift.pk, ended_at__isnull=True).update(
        ended_at=ended_at, ended_by=employee
    )
    if not claimed:
        raise ValidationError({"ended_at": f"{rules.DEALER_SHIFTS}: the shift of {shift.dealer} has already ended."})
    shift.refresh_from_db()
    figure_days.day_changed(shift.gaming_day.site_id, shift.gaming_day.gaming_date)  # no save(): tell the books
    _audit(acting_user, "dealer_shift.ended", shift, site=shift.table.site, before=before)
