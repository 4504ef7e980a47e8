"""Every write to table chip custody: permission-checked, validated, audited, in one transaction.

The API, the browser pages and the demo loader call these; none of them validate on their own.
Each refusal is a ValidationError naming the field and citing its rule, or a PermissionDenied.
"""

import hashlib
import json
from dataclasses import replace
from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from sequences import get_next_value

from cardroom import closing
from cardroom.access import NOT_AN_EMPLOYEE, Access, require_role
from cardroom.audit import record_site_event as _audit
from cardroom.audit import snapshot
from cardroom.models import ChipDenomination, Employee, Membership, Site, Table
from cardroom.periods import Quarter
from cardroom.rules import HOUSE_CONTROL

from . import queries, rules
from .calculations import business_date, chips_total_cents, tray_differs, tray_variance_cents
from .models import (
    Adjustment,
    BooksClose,
    DealerShift,
    GamingDay,
    GamingDayClose,
    QuarterFiling,
    Slip,
    SlipBook,
    SlipKind,
    SlipLine,
    SlipStep,
    TableInventory,
    TableInventoryLine,
)

# --- Shared steps ------------------------------------------------------------------------


def _moment(at: datetime | None, field: str = "at") -> datetime:
    """The time of an action: now, or an earlier time written on paper; never the future."""
    now = timezone.now()
    if at is None:
        return now
    if timezone.is_naive(at):
        raise ValidationError({field: f"{rules.RECORD_TIME}: give the time with its time zone."})
    if at > now + rules.CLOCK_TOLERANCE:
        raise ValidationError({field: f"{rules.RECORD_TIME}: a record cannot be dated in the future."})
    return at


def _acting_employee(access: Access) -> Employee:
    if access.employee is None:
        raise PermissionDenied(NOT_AN_EMPLOYEE)
    return access.employee


def _require_table_in_use(table: Table, field: str = "table") -> None:
    if not table.active:
        raise ValidationError(
            {field: f"{rules.SLIP_MOVEMENT}: {table} is inactive; chips move only to an active table."}
        )


def _open_day(site: Site, field: str) -> GamingDay:
    day = queries.open_gaming_day(site)
    if day is None:
        raise ValidationError({field: f"{rules.BUSINESS_DAY}: no gaming day is open at {site}; open one first."})
    return day


def parse_chips(chips, organization_id: int, citation: str) -> dict[ChipDenomination, int]:
    """[{"denomination": <ChipDenomination, id or value in cents>, "quantity": n}, ...] ->
    {denomination: quantity}. A value in cents wins over an id when both could match.
    Quantities are whole positive numbers; the denomination is one of the organization's
    active chips (08-03(1)); one line per denomination; at least one line."""
    if not isinstance(chips, list | tuple) or not chips:
        raise ValidationError({"chips": f"{citation}: give at least one denomination and its quantity."})
    available = list(ChipDenomination.objects.filter(organization_id=organization_id, active=True))
    by_value = {c.value_cents: c for c in available}
    by_id = {c.pk: c for c in available}
    parsed: dict[ChipDenomination, int] = {}
    for item in chips:
        denomination, quantity = _chip_item(item, by_value, by_id, citation)
        if denomination in parsed:
            raise ValidationError({"chips": f"{citation}: {denomination} is listed twice; give one line per value."})
        parsed[denomination] = quantity
    return parsed


def _chip_item(item, by_value, by_id, citation) -> tuple[ChipDenomination, int]:
    if not isinstance(item, dict):
        raise ValidationError({"chips": f"{citation}: each line is {{'denomination': ..., 'quantity': ...}}."})
    raw = item.get("denomination", item.get("value_cents"))
    key = raw.pk if isinstance(raw, ChipDenomination) else raw
    denomination = None if isinstance(key, bool) or not isinstance(key, int) else by_value.get(key) or by_id.get(key)
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


# --- Gaming days -----------------------------------------------------------------------------


def open_gaming_day(*, acting_user, site: Site, gaming_date, at: datetime | None = None) -> GamingDay:
    """Open a business day at a site (ND 99-01.3-02-01). One day is open at a time; a day
    cannot be opened before it has begun."""
    employee = _acting_employee(require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="open a gaming day", rule=HOUSE_CONTROL))
    at = _moment(at)
    if not site.active:
        raise ValidationError({"site": f"{rules.BUSINESS_DAY}: {site} is inactive; no gaming day opens there."})
    if gaming_date > business_date(at, site.time_zone, site.business_day_start_hour):
        raise ValidationError({"gaming_date": f"{rules.BUSINESS_DAY}: the gaming day {gaming_date} has not begun yet."})
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if GamingDay.objects.filter(site=site, gaming_date=gaming_date).exists():
            raise ValidationError(
                {"gaming_date": f"The gaming day {gaming_date} was already opened at {site}. ({rules.BUSINESS_DAY})"}
            )
        refusal = closing.closed_books_refusal(site.pk, gaming_date, "the activity")  # a filed quarter
        if refusal is not None:
            raise ValidationError({"gaming_date": refusal})
        still_open = queries.open_gaming_day(site)
        if still_open is not None:
            raise ValidationError(
                {"gaming_date": f"{rules.BUSINESS_DAY}: close the gaming day {still_open.gaming_date} first."}
            )
        day = GamingDay.objects.create(site=site, gaming_date=gaming_date, opened_at=at, opened_by=employee)
        _audit(acting_user, "gaming_day.opened", day, site=site)
    return day


def close_gaming_day(*, acting_user, gaming_day: GamingDay, at: datetime | None = None) -> GamingDayClose:
    """Close a gaming day once every table opened in it has its closer and no dealer is on shift."""
    site = gaming_day.site
    employee = _acting_employee(require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="close a gaming day", rule=HOUSE_CONTROL))
    at = _moment(at)
    with transaction.atomic():
        GamingDay.objects.select_for_update().filter(pk=gaming_day.pk).first()  # not while a slip is voided
        if GamingDayClose.objects.filter(gaming_day=gaming_day).exists():
            raise ValidationError(
                {"gaming_day": f"{rules.BUSINESS_DAY}: the gaming day {gaming_day.gaming_date} is already closed."}
            )
        unclosed = queries.tables_open(gaming_day)
        if unclosed:
            numbers = ", ".join(str(t.number) for t in unclosed)
            raise ValidationError({"gaming_day": f"{rules.TRAY_COUNT}: record the closer of table(s) {numbers} first."})
        close = GamingDayClose.objects.create(gaming_day=gaming_day, closed_at=at, closed_by=employee)
        _audit(acting_user, "gaming_day.closed", close, site=site)
    return close


# --- Tray counts --------------------------------------------------------------------------------


def record_table_inventory(
    *, acting_user, table: Table, kind: str, chips, variance_reason: str = "", at: datetime | None = None
) -> TableInventory:
    """Record a table's opener or closer count by denomination (ND 99-01.3-08-01(3) needs both
    for the table's win). An opener is compared with the table's previous closer: any
    difference is a variance that needs a reason. A closer ends the dealer shift running."""
    site = table.site
    employee = _acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="record a table opener or closer", rule=HOUSE_CONTROL)
    )
    if kind not in (TableInventory.Kind.OPENER, TableInventory.Kind.CLOSER):
        raise ValidationError({"kind": f"{rules.TRAY_COUNT}: a tray count is an opener or a closer."})
    at = _moment(at)
    _require_table_in_use(table)
    if kind == TableInventory.Kind.OPENER:
        _check_outage_cap(table, at)
    counted = parse_chips(chips, site.organization_id, rules.TRAY_COUNT)
    with transaction.atomic():
        day = _open_day(site, "table")
        _check_count_order(table, day, kind)
        previous = queries.last_tray_count(table, before=at)
        variance = _variance(previous, counted, variance_reason) if kind == TableInventory.Kind.OPENER else None
        inventory = _save_count(
            table, day, kind, counted, employee, at, previous=previous, variance=variance, reason=variance_reason
        )
        if kind == TableInventory.Kind.CLOSER:
            shift = queries.current_shift(table, at)
            if shift is not None:
                _end_shift(acting_user, shift, employee, at)
        _audit(
            acting_user,
            f"table_inventory.{kind}",
            inventory,
            site=site,
            after={**snapshot(inventory), "chips": _line_values(counted)},
        )
    return inventory


def _check_outage_cap(table: Table, at: datetime) -> None:
    """ND 99-01.3-08-04(7): past an unrepaired surveillance outage's deadline the table may
    not run with a maximum wager above $2 (the message says why and until when)."""
    from surveillance.services import check_wager_under_outage_cap

    check_wager_under_outage_cap(table, table.max_wager_cents, at)


def _check_count_order(table: Table, day: GamingDay, kind: str) -> None:
    counts = set(TableInventory.objects.filter(table=table, gaming_day=day).values_list("kind", flat=True))
    if TableInventory.Kind.CLOSER in counts:
        raise ValidationError({"table": f"{rules.TRAY_COUNT}: {table} is already closed for the gaming day."})
    if kind == TableInventory.Kind.OPENER and TableInventory.Kind.OPENER in counts:
        raise ValidationError({"kind": f"{rules.TRAY_COUNT}: {table} already has its opener for the gaming day."})
    if kind == TableInventory.Kind.CLOSER and not queries.table_was_opened(table, day):
        raise ValidationError({"table": f"{rules.TRAY_COUNT}: {table} was not opened in this gaming day."})


def _variance(previous: TableInventory | None, counted: dict, reason: str) -> int | None:
    """Opener minus the previous closer; a difference in any denomination needs a reason."""
    if previous is None:
        return None
    expected = dict(previous.lines.values_list("value_cents", "quantity"))
    mine = _line_values(counted)
    if tray_differs(expected, mine) and not (reason or "").strip():
        raise ValidationError(
            {"variance_reason": f"{rules.TRAY_COUNT}: the opener differs from the previous closer; give the reason."}
        )
    return tray_variance_cents(expected, mine)


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


# --- Dealer rotations ---------------------------------------------------------------------------


def start_dealer_shift(
    *, acting_user, table: Table, dealer: Employee, started_at: datetime | None = None, chips=None
) -> DealerShift:
    """Seat a dealer (or wheel operator) at a table. The dealer running there is relieved at
    the same moment; `chips`, if given, is the tray count at the change (the closer of the
    outgoing shift and the opener of the incoming one), so hold can be kept per dealer shift."""
    site = table.site
    employee = _acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="record a dealer rotation", rule=HOUSE_CONTROL)
    )
    started_at = _moment(started_at, "started_at")
    _require_table_in_use(table)
    _check_outage_cap(table, started_at)
    _check_dealer(dealer, site, started_at)
    counted = parse_chips(chips, site.organization_id, rules.TRAY_COUNT) if chips else None
    with transaction.atomic():
        day = _open_day(site, "table")
        _check_table_accepts_shift(table, day, started_at)
        outgoing = queries.current_shift(table, started_at)
        if outgoing is not None:
            _end_shift(acting_user, outgoing, employee, started_at)
        shift = DealerShift.objects.create(
            table=table, dealer=dealer, gaming_day=day, started_at=started_at, started_by=employee
        )
        after = snapshot(shift)
        if counted:
            count = _save_count(
                table,
                day,
                TableInventory.Kind.CHANGE,
                counted,
                employee,
                started_at,
                previous=queries.last_tray_count(table, before=started_at),
                shift=shift,
            )
            after["tray_count"] = {"id": count.pk, "chips": _line_values(counted)}
        _audit(acting_user, "dealer_shift.started", shift, site=site, after=after)
    return shift


def _check_dealer(dealer: Employee, site: Site, at: datetime) -> None:
    holds_role = Membership.objects.filter(employee=dealer, site=site, role__in=rules.DEALING_ROLES).exists()
    if dealer.organization_id != site.organization_id or not dealer.active or not holds_role:
        raise ValidationError(
            {"dealer": f"{rules.DEALER_SHIFTS}: {dealer} is not an active dealer or wheel operator at {site}."}
        )
    if queries.shifts_running(at).filter(dealer=dealer).exists():
        raise ValidationError(
            {"dealer": f"{rules.DEALER_SHIFTS}: {dealer} is already on shift at a table; end that shift first."}
        )


def _check_table_accepts_shift(table: Table, day: GamingDay, started_at: datetime) -> None:
    if TableInventory.objects.filter(table=table, gaming_day=day, kind=TableInventory.Kind.CLOSER).exists():
        raise ValidationError({"table": f"{rules.TRAY_COUNT}: {table} is closed for the gaming day."})
    if DealerShift.objects.filter(table=table, gaming_day=day, started_at__gt=started_at).exists():
        raise ValidationError(
            {"started_at": f"{rules.DEALER_SHIFTS}: a later dealer shift is already recorded at this table today."}
        )


def end_dealer_shift(
    *, acting_user, shift: DealerShift, ended_at: datetime | None = None, left_site: bool = False
) -> DealerShift:
    """Record the end of a dealer shift (once). `left_site`: the dealer is leaving the site, which
    ND 99-01.3-08-06(3) allows only once their tips are declared and redeemed."""
    site = shift.table.site
    employee = _acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="record a dealer rotation", rule=HOUSE_CONTROL)
    )
    ended_at = _moment(ended_at, "ended_at")
    if ended_at < shift.started_at:
        raise ValidationError({"ended_at": f"{rules.DEALER_SHIFTS}: a dealer shift cannot end before it starts."})
    if left_site:
        _check_tips_redeemed(shift, site)
    with transaction.atomic():
        _end_shift(acting_user, shift, employee, ended_at)
    shift.refresh_from_db()
    return shift


def _check_tips_redeemed(shift: DealerShift, site: Site) -> None:
    from cage.queries import tip_status
    from cardroom.money import format_money

    status = tip_status(shift.dealer, site, since=shift.started_at)
    if not status.declared:
        raise ValidationError(
            {
                "left_site": f"{rules.TIPS_BEFORE_LEAVING}: {shift.dealer} has not declared the tips "
                "they hold; declare and redeem them before leaving the site."
            }
        )
    if status.unredeemed_cents:
        raise ValidationError(
            {
                "left_site": f"{rules.TIPS_BEFORE_LEAVING}: {shift.dealer} still holds "
                f"{format_money(status.unredeemed_cents)} of unredeemed tips; redeem "
                "them at the cashier before leaving the site."
            }
        )


def _end_shift(acting_user, shift: DealerShift, employee: Employee, ended_at: datetime) -> None:
    """Claim the end with a conditional update, so two clerks never end one shift twice."""
    before = snapshot(shift)
    claimed = DealerShift.objects.filter(pk=shift.pk, ended_at__isnull=True).update(
        ended_at=ended_at, ended_by=employee
    )
    if not claimed:
        raise ValidationError({"ended_at": f"{rules.DEALER_SHIFTS}: the shift of {shift.dealer} has already ended."})
    shift.refresh_from_db()
    _audit(acting_user, "dealer_shift.ended", shift, site=shift.table.site, before=before)


# --- Fill and credit slips --------------------------------------------------------------------


def prepare_fill(
    *,
    acting_user,
    table: Table,
    chips,
    purpose: str = Slip.Purpose.REGULAR,
    number: int | None = None,
    at: datetime | None = None,
) -> Slip:
    """Prepare a fill slip: chips from the chip bank to one table (ND 99-01.3-08-05(1), (3))."""
    return _prepare(
        SlipKind.FILL, acting_user=acting_user, table=table, chips=chips, purpose=purpose, number=number, at=at
    )


def prepare_credit(
    *,
    acting_user,
    table: Table,
    chips,
    purpose: str = Slip.Purpose.REGULAR,
    number: int | None = None,
    at: datetime | None = None,
) -> Slip:
    """Prepare a credit slip: chips from one table back to the chip bank (ND 99-01.3-08-05(1), (3))."""
    return _prepare(
        SlipKind.CREDIT, acting_user=acting_user, table=table, chips=chips, purpose=purpose, number=number, at=at
    )


def _prepare(kind: str, *, acting_user, table: Table, chips, purpose: str, number: int | None, at) -> Slip:
    """One slip = one table. `number` is the printed number of a paper slip from a registered
    book; without it the site's electronic series gives the next number, in the transaction
    that saves the slip, so a rolled-back slip leaves no gap (08-05(2))."""
    site = table.site
    employee = _acting_employee(
        require_role(acting_user, site, *rules.PREPARERS[kind], action=f"prepare a {kind} slip", rule=rules.SLIP_CONTENT)
    )
    at = _moment(at)
    if purpose not in Slip.Purpose.values:
        raise ValidationError({"purpose": f"{rules.SLIP_MOVEMENT}: the purpose is regular, tray_transfer or jar_bar."})
    _require_table_in_use(table)
    lines = parse_chips(chips, site.organization_id, rules.SLIP_CONTENT)
    with transaction.atomic():
        context = queries.slip_context(table, kind)
        day = _require_table_open(table, context)
        number, book = _slip_number(site, kind, number, uses_books=context.site_uses_books)
        slip = Slip.objects.create(
            site=site,
            kind=kind,
            number=number,
            table=table,
            gaming_day=day,
            purpose=purpose,
            game=table.game,
            table_number=table.number,
            prepared_at=at,
            prepared_by=employee,
            slip_book=book,
            total_cents=chips_total_cents(_line_values(lines).items()),
        )
        SlipLine.objects.bulk_create(
            SlipLine(slip=slip, denomination=d, value_cents=d.value_cents, quantity=q) for d, q in lines.items()
        )
        _audit(
            acting_user,
            f"{kind}_slip.prepared",
            slip,
            site=site,
            after={**snapshot(slip), "chips": _line_values(lines)},
        )
    return slip


def _require_table_open(table: Table, context: queries.SlipContext) -> GamingDay:
    if context.day is None:
        raise ValidationError(
            {"table": f"{rules.BUSINESS_DAY}: no gaming day is open at {table.site}; open one first."}
        )
    if context.table_state == "closed":
        raise ValidationError({"table": f"{rules.SLIP_MOVEMENT}: {table} is closed for the gaming day."})
    if context.table_state != "open":
        raise ValidationError({"table": f"{rules.SLIP_MOVEMENT}: {table} is not open (no opener, no dealer seated)."})
    return context.day


def _slip_number(site: Site, kind: str, printed: int | None, *, uses_books: bool) -> tuple[int, SlipBook | None]:
    books = SlipBook.objects.filter(site=site, kind=kind)
    label = SlipKind(kind).label.lower()
    if printed is None:
        if uses_books:
            raise ValidationError(
                {"number": f"{rules.SLIP_NUMBERING}: {site} uses pre-printed {label}s; give the printed number."}
            )
        return get_next_value(f"{kind}:{site.pk}"), None
    book = books.filter(first_number__lte=printed, last_number__gte=printed).first()
    if book is None:
        raise ValidationError({"number": f"{rules.SLIP_NUMBERING}: {printed} is not in a registered book of {label}s."})
    if Slip.objects.filter(site=site, kind=kind, number=printed).exists():
        raise ValidationError(
            {"number": f"{rules.SLIP_NUMBERING}: {label} {printed} is already used; numbers are never reused."}
        )
    return printed, book


def verify_slip(*, acting_user, slip: Slip, at: datetime | None = None) -> SlipStep:
    """Verify the chips and initial the original (ND 99-01.3-08-05(5)): a shift manager or
    authorized employee who is not presently dealing and did not prepare the slip."""
    access = require_role(acting_user, slip.site, *rules.VERIFIERS, action="verify a slip", rule=rules.SLIP_VERIFICATION)
    employee, at = _acting_employee(access), _moment(at)
    if employee.pk == slip.prepared_by_id:
        raise ValidationError({"slip": f"{rules.SLIP_VERIFICATION}: the preparer cannot verify their own slip."})
    if queries.is_dealing(employee, slip.site, at):
        raise ValidationError({"slip": f"{rules.SLIP_VERIFICATION}: you are presently dealing; someone else verifies."})
    return _add_step(acting_user, slip, SlipStep.Kind.VERIFY, employee, at)


def receive_slip(*, acting_user, slip: Slip, at: datetime | None = None) -> SlipStep:
    """Verify and initial the copy on the receiving side (ND 99-01.3-08-05(6)): for a fill the
    dealer on shift at that table, for a credit the cashier."""
    access = require_role(acting_user, slip.site, *rules.RECEIVERS[slip.kind], action=f"receive a {slip.kind} slip", rule=rules.SLIP_RECEIPT)
    employee, at = _acting_employee(access), _moment(at)
    if slip.kind == SlipKind.FILL and queries.current_dealer(slip.table, at) != employee:
        raise ValidationError(
            {"slip": f"{rules.SLIP_RECEIPT}: only the dealer on shift at {slip.table} receives this fill."}
        )
    return _add_step(acting_user, slip, SlipStep.Kind.RECEIVE, employee, at)


def void_slip(*, acting_user, slip: Slip, reason: str, at: datetime | None = None) -> SlipStep:
    """Mark a slip VOID (ND 99-01.3-08-05(2)): never edited, it keeps its number; initialed by
    its preparer, who says why. House controls beyond the text (rules.VOID_CITATION): only
    before the slip is received and while its gaming day is open. Past either point the slip
    stands and the correction is a gaming manager's adjustment to the closed books
    (record_adjustment), counted on the day it is entered."""
    access = require_role(acting_user, slip.site, *rules.ALL_SITE_ROLES, action="void a slip", rule=rules.SLIP_NUMBERING)
    employee, at = _acting_employee(access), _moment(at)
    if employee.pk != slip.prepared_by_id:
        raise ValidationError(
            {
                "slip": f"{rules.VOID_CITATION}: a voided slip is initialed by its preparer; only "
                f"{slip.prepared_by} may void {_slip_label(slip)}. Ask them to void it while its gaming day is "
                "open; otherwise the slip stands and a gaming manager corrects the day with an adjustment "
                "once its books are closed."
            }
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": f"{rules.SLIP_NUMBERING}: say why the slip is void."})
    return _add_step(acting_user, slip, SlipStep.Kind.VOID, employee, at, reason=reason.strip())


def _slip_label(slip: Slip) -> str:
    return f"{SlipKind(slip.kind).label.lower()} {slip.number}"


def _check_void(slip: Slip, done: set[str]) -> None:
    """The house controls on a VOID (rules.VOID_CITATION), read under the gaming day's lock so
    a void and the day's close never cross."""
    day = GamingDay.objects.select_for_update().get(pk=slip.gaming_day_id)
    instead = (
        f"If it is wrong, a gaming manager records an adjustment to the books of {day.gaming_date} once they "
        "are closed, counted on the gaming day it is entered."
    )
    if GamingDayClose.objects.filter(gaming_day=day).exists():
        raise ValidationError(
            {
                "slip": f"{rules.VOID_HOUSE_CONTROL}: the gaming day {day.gaming_date} of {_slip_label(slip)} is "
                "closed, so its slips are no longer voided (its figures are what its books close on, "
                f"{rules.DAILY_SUMMARY}). {instead}"
            }
        )
    if SlipStep.Kind.RECEIVE in done:
        raise ValidationError(
            {
                "slip": f"{rules.VOID_HOUSE_CONTROL}: {_slip_label(slip)} was received (its copy initialed, "
                f"{rules.SLIP_RECEIPT}), so it is no longer voided: the chips moved with it. {instead}"
            }
        )


def _add_step(acting_user, slip: Slip, kind: str, employee: Employee, at: datetime, reason: str = "") -> SlipStep:
    with transaction.atomic():
        Slip.objects.select_for_update().filter(pk=slip.pk).first()  # one signer at a time per slip
        done = set(SlipStep.objects.filter(slip=slip).values_list("kind", flat=True))
        _check_step_order(slip, kind, done)
        if kind == SlipStep.Kind.VOID:
            _check_void(slip, done)
        step = SlipStep.objects.create(
            slip=slip, kind=kind, employee=employee, initials=employee.initials, at=at, reason=reason
        )
        _audit(
            acting_user,
            f"{slip.kind}_slip.{kind}",
            step,
            site=slip.site,
            after={**snapshot(step), "number": slip.number},
        )
    return step


def _check_step_order(slip: Slip, kind: str, done: set[str]) -> None:
    label = f"{SlipKind(slip.kind).label.lower()} {slip.number}"
    if SlipStep.Kind.VOID in done:
        raise ValidationError({"slip": f"{rules.SLIP_NUMBERING}: {label} is void."})
    if kind in done:
        raise ValidationError(
            {"slip": f"{rules.STEP_CITATIONS[kind]}: {label} is already {SlipStep.Kind(kind).label.lower()}."}
        )
    if kind == SlipStep.Kind.RECEIVE and rules.RECEIPT_REQUIRES_VERIFICATION and SlipStep.Kind.VERIFY not in done:
        raise ValidationError({"slip": f"{rules.SLIP_VERIFICATION}: {label} must be verified before it is received."})


# --- Slip books -----------------------------------------------------------------------------


def register_slip_book(*, acting_user, site: Site, kind: str, first_number: int, last_number: int) -> SlipBook:
    """Register a book of pre-printed, consecutively numbered two-part slips (ND 99-01.3-08-05(2)).
    Books of one series at a site never overlap, and the site's electronic series must not
    have been used for that kind."""
    employee = _acting_employee(
        require_role(acting_user, site, *rules.SLIP_BOOK_REGISTRARS, action="register a slip book", rule=HOUSE_CONTROL)
    )
    if kind not in SlipKind.values:
        raise ValidationError({"kind": f"{rules.SLIP_NUMBERING}: a slip book holds fill slips or credit slips."})
    if first_number < 1 or first_number > last_number:
        raise ValidationError(
            {"first_number": f"{rules.SLIP_NUMBERING}: give a range of printed numbers, first to last."}
        )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _check_book_fits(site, kind, first_number, last_number)
        book = SlipBook.objects.create(
            site=site,
            kind=kind,
            first_number=first_number,
            last_number=last_number,
            registered_at=timezone.now(),
            registered_by=employee,
        )
        _audit(acting_user, "slip_book.registered", book, site=site)
    return book


def _check_book_fits(site: Site, kind: str, first: int, last: int) -> None:
    books = SlipBook.objects.filter(site=site, kind=kind)
    if books.filter(first_number__lte=last, last_number__gte=first).exists():
        raise ValidationError({"first_number": f"{rules.SLIP_NUMBERING}: the range overlaps a registered book."})
    electronic = Slip.objects.filter(site=site, kind=kind, slip_book__isnull=True)
    if electronic.exists():
        highest = electronic.aggregate(Max("number"))["number__max"]
        raise ValidationError(
            {"kind": f"{rules.SLIP_NUMBERING}: {site} already numbers this series electronically (up to {highest})."}
        )


# --- Closing the books --------------------------------------------------------------------------


def figures_digest(figures: dict) -> str:
    """SHA-256 of the figures as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(figures, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def close_books(*, acting_user, site: Site, gaming_date: date) -> BooksClose:
    """Close the books of a gaming day (ND 99-01.3-08-16(1)(g)): once the gaming day is closed
    (every table has its closer), every drop box of the day has a signed count and the cash
    bank has its starting and ending counts, the daily summary is snapshotted and locked.
    A later correction is an Adjustment, never an edit."""
    from .api_figures import daily_json
    from .summaries import daily_summary

    employee = _acting_employee(
        require_role(acting_user, site, *rules.BOOKS_CLOSERS, action="close the books of a gaming day", rule=HOUSE_CONTROL)
    )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _check_books_can_close(site, gaming_date)
        figures = daily_json(replace(daily_summary(site, gaming_date), books_closed=True))
        close = BooksClose.objects.create(
            site=site,
            gaming_date=gaming_date,
            closed_at=timezone.now(),
            closed_by=employee,
            figures=figures,
            figures_sha256=figures_digest(figures),
        )
        _audit(acting_user, "books.closed", close, site=site)
    return close


def _check_books_can_close(site: Site, gaming_date: date) -> None:
    if queries.books_closed(site, gaming_date):
        raise ValidationError(
            {
                "gaming_date": f"{rules.DAILY_SUMMARY}: the books of {gaming_date} at {site} are already closed; "
                "record a correction as an adjustment."
            }
        )
    day = GamingDay.objects.filter(site=site, gaming_date=gaming_date).select_related("close").first()
    if day is None:
        raise ValidationError({"gaming_date": f"{rules.BUSINESS_DAY}: there is no gaming day {gaming_date} at {site}."})
    if day.is_open:
        unclosed = ", ".join(str(t.number) for t in queries.tables_open(day))
        why = f"table(s) {unclosed} have no closer" if unclosed else "the gaming day is not closed"
        raise ValidationError({"gaming_date": f"{rules.TRAY_COUNT}: {why}; close the gaming day {gaming_date} first."})
    _check_drops_counted(site, gaming_date)
    _check_bank_counted(site, gaming_date)


def _check_drops_counted(site: Site, gaming_date: date) -> None:
    from counts.models import Drop
    from counts.queries import current_agreements

    drops = Drop.objects.filter(site=site, gaming_date=gaming_date)
    counted = current_agreements(drops).values("drop_id")
    uncounted = sorted(set(drops.exclude(pk__in=counted).values_list("table__number", flat=True)))
    if uncounted:
        numbers = ", ".join(str(n) for n in uncounted)
        raise ValidationError(
            {"gaming_date": f"{rules.DROP_COUNT}: the drop of table(s) {numbers} has no signed count yet."}
        )


def _check_bank_counted(site: Site, gaming_date: date) -> None:
    from cage.queries import bank_day

    bank = bank_day(site, gaming_date)
    missing = [
        label
        for label, cents in (("starting", bank.starting_cash_cents), ("ending", bank.ending_cash_cents))
        if cents is None
    ]
    if missing:
        raise ValidationError(
            {
                "gaming_date": f"{rules.BANK_RECORDS}: the {' and '.join(missing)} cash bank count of {gaming_date} "
                "is missing."
            }
        )


def record_adjustment(
    *,
    acting_user,
    books_close: BooksClose,
    table: Table | None = None,
    field: str,
    amount_cents: int,
    reason: str,
    recorded_on: date,
) -> Adjustment:
    """Correct a closed day with a separate entry (never an edit): `amount_cents` (signed) of
    `field` for `table` (none for cash), entered on the later gaming day `recorded_on`, whose
    totals it counts in; both days' reports list it. The gaming manager records and approves it."""
    site = books_close.site
    employee = _acting_employee(
        require_role(acting_user, site, *rules.ADJUSTMENT_APPROVERS, action="record an adjustment to closed books", rule=HOUSE_CONTROL)
    )
    _check_adjustment(books_close, table, field, amount_cents, reason, recorded_on)
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if queries.books_closed(site, recorded_on):
            raise ValidationError(
                {
                    "recorded_on": f"{rules.DAILY_SUMMARY}: the books of {recorded_on} are closed too; "
                    "record the adjustment on a day still open."
                }
            )
        entered_in = Quarter.containing(recorded_on)
        if queries.quarter_filing(site.pk, entered_in) is not None:
            raise ValidationError(
                {
                    "recorded_on": f"{rules.QUARTERLY_SUMMARY}: the quarterly summary of {entered_in} is filed, so "
                    f"nothing is entered on {recorded_on}; record the adjustment on a gaming day of a quarter not "
                    "yet filed. It shows beside the filed figures it corrects as an amendment."
                }
            )
        adjustment = Adjustment.objects.create(
            books_close=books_close,
            recorded_on=recorded_on,
            table=table,
            field=field,
            amount_cents=amount_cents,
            reason=reason.strip(),
            recorded_by=employee,
            approved_by=employee,
            recorded_at=timezone.now(),
        )
        _audit(acting_user, "books.adjusted", adjustment, site=site)
    return adjustment


def _check_adjustment(books_close, table, field, amount_cents, reason, recorded_on) -> None:
    site, citation = books_close.site, rules.DAILY_SUMMARY
    if field not in Adjustment.Field.values:
        names = ", ".join(Adjustment.Field.values)
        raise ValidationError({"field": f"{citation}: an adjustment corrects one of {names}."})
    if field == Adjustment.Field.CASH and table is not None:
        raise ValidationError({"table": f"{citation}: a cash adjustment is the site's; give no table."})
    if field != Adjustment.Field.CASH and (table is None or table.site_id != site.pk):
        raise ValidationError({"table": f"{citation}: give the table of {site} whose {field} is corrected."})
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents == 0:
        raise ValidationError({"amount_cents": f"{citation}: give the correction in whole cents, not zero."})
    if not (reason or "").strip():
        raise ValidationError({"reason": f"{citation}: say why the closed figures are corrected."})
    today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    if not isinstance(recorded_on, date) or isinstance(recorded_on, datetime):
        raise ValidationError({"recorded_on": f"{citation}: give the gaming date the adjustment is entered on."})
    if not books_close.gaming_date < recorded_on <= today:
        raise ValidationError(
            {
                "recorded_on": f"{citation}: an adjustment is entered on a gaming day after {books_close.gaming_date}, "
                f"up to today ({today})."
            }
        )


# --- Filing a quarter ------------------------------------------------------------------------------


def file_quarter(*, acting_user, site: Site, quarter: Quarter, reference: str = "") -> QuarterFiling:
    """Mark the site's twenty-one quarterly summary (SFN 50901) filed (ND 99-01.3-08-16(1)(g)).
    Once the quarter has ended, every gaming day in it is closed and every day with figures has
    closed books, its figures (the site's quarter day by day, each day with the digest of its
    closed books, and the organization's tax as it stands) are frozen with their SHA-256.
    Filing closes every date of the quarter (cardroom.closing): a later correction is an
    adjustment entered in a later quarter, shown beside the filed figures as an amendment."""
    from . import books
    from .api_figures import tax_json
    from .summaries import organization_quarter

    employee = _acting_employee(
        require_role(acting_user, site, *rules.QUARTER_FILERS, action="file a quarterly summary", rule=HOUSE_CONTROL)
    )
    reference = (reference or "").strip()
    if len(reference) > QuarterFiling._meta.get_field("reference").max_length:
        raise ValidationError({"reference": "A filing reference is at most 100 characters."})
    today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    if quarter.end >= today:
        raise ValidationError(
            {"quarter": f"{rules.QUARTERLY_SUMMARY}: {quarter} runs to {quarter.end}; it is filed once it has ended."}
        )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _check_quarter_can_file(site, quarter)
        every_site = organization_quarter(site.organization, quarter)
        summary = next(s for s in every_site if s.site_id == site.pk)
        _check_quarter_books_closed(site, quarter, summary)
        others = books.filings([s.site_id for s in every_site], [quarter])
        tax = books.tax_return(site.organization, quarter, every_site, others)
        figures = {
            "summary": books.quarter_figures(summary, books.quarter_closes(summary)),
            "tax": {**tax_json(tax.figures), "filed_sites": [*tax.filed_sites, site.name]},
        }
        filing = QuarterFiling.objects.create(
            site=site,
            quarter=str(quarter),
            start=quarter.start,
            end=quarter.end,
            filed_at=timezone.now(),
            filed_by=employee,
            reference=reference,
            figures=figures,
            figures_sha256=figures_digest(figures),
        )
        _audit(acting_user, "quarter.filed", filing, site=site)
    return filing


def _check_quarter_can_file(site: Site, quarter: Quarter) -> None:
    filed = queries.quarter_filing(site.pk, quarter)
    if filed is not None:
        raise ValidationError(
            {
                "quarter": f"{rules.QUARTERLY_SUMMARY}: the quarterly summary of {quarter} at {site} was filed on "
                f"{filed.filed_at:%Y-%m-%d}; a correction is an adjustment entered in a later quarter, shown "
                "beside the filed figures as an amendment."
            }
        )
    still_open = GamingDay.objects.filter(
        site=site, gaming_date__range=(quarter.start, quarter.end), close__isnull=True
    )
    dates = [str(d) for d in still_open.values_list("gaming_date", flat=True)]
    if dates:
        raise ValidationError(
            {"quarter": f"{rules.BUSINESS_DAY}: close the gaming day {', '.join(dates)} first, then its books."}
        )


def _check_quarter_books_closed(site: Site, quarter: Quarter, summary) -> None:
    """Every day of the quarter with figures (tables, adjustments entered, or a counted bank) has closed books."""
    unclosed = [
        str(d.gaming_date)
        for d in summary.days
        if not d.books_closed and (d.tables or d.adjustments_recorded or d.cash.cash_profit_cents is not None)
    ]
    if unclosed:
        shown = ", ".join(unclosed[:10]) + (f" and {len(unclosed) - 10} more" if len(unclosed) > 10 else "")
        raise ValidationError(
            {
                "quarter": f"{rules.QUARTERLY_SUMMARY}: the summaries of {quarter} reconcile to the return only "
                f"once every day's books are closed; close the books of {shown} first."
            }
        )
