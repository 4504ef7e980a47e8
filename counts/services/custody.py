"""Custody of a drop box: placing it on a table and removing it (`counts.rules.REMOVAL`, `KEYS`)."""

from collections.abc import Mapping
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from cardroom.access import require_role
from cardroom.models import Employee, Membership, Role, Site
from core import acts, moments
from core.audit import appended_at_end
from core.audit import record_site_event as _audit
from core.rules import HOUSE_CONTROL
from floor.queries import duty_periods_running, shifts_running

from .. import queries
from ..models import BoxExchange, Drop, DropBox, DropRemoval
from ..rules import KEYS, REMOVAL, refuse_drop_boxes
from .steps import at_or_now

# The refusal of a removal of no box, the service's and the page's (which says it before the confirmation).
NO_BOX_CHOSEN = f"{HOUSE_CONTROL}: choose at least one drop box to remove."


def _validate_dealer_shift(site: Site, drop_box: DropBox, gaming_date: date, dealer_shift_id: int | None) -> None:
    """Where boxes are exchanged at each dealer change (house control), a drop covers one dealer
    shift of its table that day, named; where once a gaming day, none."""
    table = drop_box.table
    exchange = queries.box_exchange(site)
    if exchange == BoxExchange.DEALER_SHIFT and dealer_shift_id is None:
        raise ValidationError(
            {
                "dealer_shift": f"{HOUSE_CONTROL}: this site exchanges drop boxes at each dealer change: name the "
                f"dealer shift {drop_box} served at table {table.number} on {gaming_date}."
            }
        )
    if exchange == BoxExchange.GAMING_DAY and dealer_shift_id is not None:
        raise ValidationError(
            {
                "dealer_shift": f"{HOUSE_CONTROL}: this site exchanges drop boxes once per gaming day, not per dealer shift."
            }
        )
    if dealer_shift_id is not None:
        try:
            from floor.models import DealerShift
        except ImportError:
            return
        if not DealerShift.objects.filter(
            pk=dealer_shift_id, table=table, gaming_day__gaming_date=gaming_date
        ).exists():
            raise ValidationError(
                {
                    "dealer_shift": f"{HOUSE_CONTROL}: no dealer shift {dealer_shift_id} at table {table.number} "
                    f"on {gaming_date}."
                }
            )


def _validate_reuse(site: Site, drop_box: DropBox, *, open_drop_read: bool = False) -> None:
    """`open_drop_read`: the caller found no open drop of the box already (not asked twice)."""
    if not open_drop_read and queries.open_drop(drop_box) is not None:
        raise ValidationError(
            {"box": f"{REMOVAL.at(site)}: {drop_box} is still on its table: record its removal first."}
        )
    if queries.uncounted_drop(drop_box) is not None:
        raise ValidationError(
            {
                "box": f"{REMOVAL.at(site)}: {drop_box} still holds uncounted cash; it is counted before it is used again."
            }
        )


def self_escort_refusal(site) -> str:
    """The escort is not the shift manager transporting the box (the removal's rule at `site`):
    said by the service, and by a count tablet's confirm before the transporter's PIN is checked."""
    return f"{REMOVAL.at(site)}: the escort is another employee than the shift manager transporting the box."


def place_drop_box(
    *, acting_user, drop_box: DropBox, gaming_date: date, dealer_shift_id: int | None = None, at: datetime | None = None
) -> Drop:
    """Put a box on its table for a gaming day (or a dealer shift)."""
    site = drop_box.site
    require_role(acting_user, site, Role.SHIFT_MANAGER, action="place a drop box", rule=HOUSE_CONTROL)
    refuse_drop_boxes(site)
    employee = acts.acting_employee_of(acting_user)
    _refuse_retired(drop_box)
    placed_at = acts.moment(at, "placed_at", gaming_date=gaming_date, after_day_end=True, what="the drop", site=site)
    acts.refuse_closed_books(site, gaming_date, "the drop")
    _validate_reuse(site, drop_box)
    _validate_dealer_shift(site, drop_box, gaming_date, dealer_shift_id)
    with transaction.atomic(), appended_at_end():
        acts.hold_books_open(site, gaming_date, "the drop")
        drop_box = _held_free(site, drop_box)
        drop = Drop.objects.create(
            site=site,
            drop_box=drop_box,
            table=drop_box.table,
            gaming_date=gaming_date,
            dealer_shift_id=dealer_shift_id,
            placed_at=placed_at,
            placed_by=employee,
        )
        _audit(acting_user, "drop.placed", drop, site)
    return drop


def _refuse_retired(drop_box: DropBox) -> None:
    """House control: a retired box is out of use for good (no pack's text retires a box)."""
    if not drop_box.active:
        raise ValidationError({"box": f"{HOUSE_CONTROL}: {drop_box} is retired and is not placed again."})


def _held_free(site: Site, drop_box: DropBox) -> DropBox:
    """The box, locked to the end of the placing's transaction and read again: a retirement
    (boxes.retire_drop_box, which takes the same lock) or another placing that committed after
    the first look is refused here, so a retired box is never placed and a box is on its table
    once (`REMOVAL`)."""
    box = acts.hold(drop_box)
    _refuse_retired(box)
    _validate_reuse(site, box)
    return box


def holds_count_role(employee: Employee | None, site: Site) -> bool:
    return (
        employee is not None and Membership.objects.filter(employee=employee, site=site, role=Role.COUNT_TEAM).exists()
    )


def others_on_duty(site: Site, transporter: Employee, at: datetime) -> list[Employee]:
    """The employees other than `transporter` the site's records show on duty at `at` (ND
    99-01.3-08-14(1): "if there is more than one employee on duty"): its duty register
    (floor.models.DutyPeriod) and the dealers whose shift at one of its tables is running then."""
    registered = duty_periods_running(site, at).exclude(employee=transporter).select_related("employee__user")
    dealing = shifts_running(at).filter(table__site=site).exclude(dealer=transporter).select_related("dealer__user")
    people = {period.employee for period in registered} | {shift.dealer for shift in dealing}
    return sorted(people, key=lambda employee: employee.pk)


def on_duty_through_an_unescorted_removal(
    employee: Employee, site: Site, started_at: datetime, ended_at: datetime
) -> str | None:
    """The floor asks before a dealer shift or a duty period of `employee` at `site` from
    `started_at` ends at `ended_at` (`floor.seating`): a box removed with no escort, its transporter
    "the only employee on duty", was judged on the records of its removal (`others_on_duty`); a
    shift or duty period recorded afterwards (entered later from paper) that has `employee` on duty
    at the removal contradicts it, and is refused here naming the removal (`REMOVAL`). It may end
    at the removal: running at a moment is started at or before it and ended after it, as
    `others_on_duty` reads the records."""
    removal = (
        DropRemoval.objects.filter(
            drop__site=site, escorted_by__isnull=True, removed_at__gte=started_at, removed_at__lt=ended_at
        )
        .exclude(transported_by=employee)
        .select_related("drop__drop_box", "drop__table", "transported_by__user")
        .order_by("removed_at", "pk")
        .first()
    )
    if removal is None:
        return None
    drop, removed = removal.drop, moments.shown(site, removal.removed_at)
    return (
        f"{REMOVAL.at(site)}: {drop.drop_box} was removed from table {drop.table.number} at {removed} with no "
        f"escort, {removal.transported_by} recording that they were the only employee on duty; {employee} on duty "
        f"until {moments.shown(site, ended_at)} would make two, and with more than one employee on duty the box is "
        f"escorted by another employee. End it by {removed}."
    )


def _validate_custody(
    site,
    drop_box,
    transporter,
    *,
    escorted_by,
    sole_employee_on_duty,
    storage_place,
    key_holder,
    second_key_holder,
    removed_at: datetime | None = None,
):
    if escorted_by is None and not sole_employee_on_duty:
        raise ValidationError(
            {
                "escorted_by": f"{REMOVAL.at(site)}: with more than one employee on duty, the shift manager transporting the box is escorted by another employee."
            }
        )
    if escorted_by is None and removed_at is not None and (others := others_on_duty(site, transporter, removed_at)):
        # 08-14(1): "if there is more than one employee on duty, escorted by an employee": being the only
        # one on duty is not taken on the shift manager's word against the site's own duty register.
        raise ValidationError(
            {
                "escorted_by": f"{REMOVAL.at(site)}: with more than one employee on duty, the shift manager transporting "
                f"the box is escorted by another employee; the site's records (its duty register, the dealers' shifts) "
                f"show {', '.join(map(str, others))} on duty at the removal: name the escort."
            }
        )
    if escorted_by is not None and escorted_by.pk == transporter.pk:
        raise ValidationError({"escorted_by": self_escort_refusal(site)})
    if escorted_by is not None and escorted_by.organization_id != site.organization_id:
        raise ValidationError(
            {"escorted_by": f"{REMOVAL.at(site)}: the escort must be an employee of this organization."}
        )
    if not (storage_place or "").strip():
        raise ValidationError({"storage_place": f"{REMOVAL.at(site)}: say where the box is stored until the count."})
    if not holds_count_role(key_holder, site):
        raise ValidationError(
            {
                "key_holder": f"{KEYS.at(site)}: the key to the box's contents is controlled by a count team member of this site."
            }
        )
    if drop_box.locks == 2:
        if not holds_count_role(second_key_holder, site) or second_key_holder.pk == key_holder.pk:
            raise ValidationError(
                {
                    "second_key_holder": f"{KEYS.at(site)}: the key to the second lock is controlled by the other count team member."
                }
            )
    elif second_key_holder is not None:
        raise ValidationError(
            {"second_key_holder": f"{KEYS.at(site)}: {drop_box} has one lock; there is no second key."}
        )


def remove_drop_box(
    *,
    acting_user,
    drop_box: DropBox,
    storage_place: str,
    key_holder: Employee | None,
    second_key_holder: Employee | None = None,
    escorted_by: Employee | None = None,
    sole_employee_on_duty: bool = False,
    gaming_date: date | None = None,
    dealer_shift_id: int | None = None,
    removed_at: datetime | None = None,
    at: datetime | None = None,
) -> DropRemoval:
    """Record that a shift manager removed a used box from its table and took it, escorted,
    to safe storage (`REMOVAL`), and who holds its keys (`KEYS`). A box placed
    earlier is found; otherwise the removal also records its use for `gaming_date`."""
    site = drop_box.site
    require_role(acting_user, site, Role.SHIFT_MANAGER, action="remove and transport a drop box", rule=REMOVAL.at(site))
    transporter = acts.acting_employee_of(acting_user)
    if gaming_date is not None:
        # A box is removed after the gaming day it was used (`REMOVAL`), never for a day after the
        # site's current one: saved, its drop would hold the box for a day not begun (it could then
        # be neither removed for today nor counted).
        moments.refuse_day_not_begun(
            site, gaming_date, rule=REMOVAL.at(site), why="a box is removed for the gaming day it was used"
        )
    drop = queries.open_drop(drop_box)
    removed_at = acts.moment(
        removed_at if removed_at is not None else at,
        "removed_at",
        books_date=drop.gaming_date if drop is not None else gaming_date,
        not_before=drop.placed_at if drop is not None else None,
        what="the drop",
        site=site,
    )
    if drop is not None and gaming_date is not None and drop.gaming_date != gaming_date:
        raise ValidationError(
            {"gaming_date": f"{HOUSE_CONTROL}: {drop_box} is on its table for {drop.gaming_date}, not {gaming_date}."}
        )
    if drop is None:
        if gaming_date is None:
            raise ValidationError(
                {
                    "gaming_date": f"{HOUSE_CONTROL}: {drop_box} was not placed on a table: give the gaming date it was used."
                }
            )
        acts.refuse_closed_books(site, gaming_date, "the drop")
        _validate_reuse(site, drop_box, open_drop_read=True)
        _validate_dealer_shift(site, drop_box, gaming_date, dealer_shift_id)
    _validate_custody(
        site,
        drop_box,
        transporter,
        escorted_by=escorted_by,
        sole_employee_on_duty=sole_employee_on_duty,
        storage_place=storage_place,
        key_holder=key_holder,
        second_key_holder=second_key_holder,
        removed_at=removed_at,
    )
    with transaction.atomic(), appended_at_end():
        if drop is None:  # a drop implied by its removal enters the day's books
            acts.hold_books_open(site, gaming_date, "the drop")
            drop = Drop(
                site=site,
                drop_box=drop_box,
                table=drop_box.table,
                gaming_date=gaming_date,
                dealer_shift_id=dealer_shift_id,
                placed_at=min(removed_at, queries.gaming_day_bounds(site, gaming_date)[0]),
                placed_by=transporter,
            )
            drop.implied_by_moment = removed_at  # entered with its removal: late only if that is
            drop.save()
            _audit(acting_user, "drop.placed", drop, site)
        removal = DropRemoval.objects.create(
            drop=drop,
            removed_at=removed_at,
            transported_by=transporter,
            escorted_by=escorted_by,
            sole_employee_on_duty=sole_employee_on_duty,
            storage_place=storage_place.strip(),
            key_holder=key_holder,
            second_key_holder=second_key_holder,
            recorded_at=at_or_now(at),
        )
        _audit(acting_user, "drop.removed", removal, site)
    return removal


def remove_drop_boxes(
    *,
    acting_user,
    site: Site,
    gaming_date: date,
    drop_boxes,
    storage_place: str,
    key_holder: Employee | None,
    second_key_holder: Employee | None = None,
    escorted_by: Employee | None = None,
    sole_employee_on_duty: bool = False,
    removed_at: datetime | None = None,
    dealer_shift_ids: Mapping[int, int | None] | None = None,
) -> list[DropRemoval]:
    """Remove all of a day's boxes in one go: one shift manager's transport, with one escort,
    to one storage place, keys held by the same count team members (`REMOVAL`, `KEYS`).
    Each box is removed by `remove_drop_box` (its own checks and audit row); one refusal
    removes none. The second key holder applies to the boxes with two locks. `dealer_shift_ids`:
    {box id: the dealer shift its drop covers} where boxes are exchanged at each dealer change
    (house control; a box without one is refused as `remove_drop_box` refuses it)."""
    require_role(acting_user, site, Role.SHIFT_MANAGER, action="remove and transport a drop box", rule=REMOVAL.at(site))
    drop_boxes = list(drop_boxes or [])
    if not drop_boxes:
        raise ValidationError({"boxes": NO_BOX_CHOSEN})
    stranger = next((b for b in drop_boxes if b.site_id != site.pk), None)
    if stranger is not None:
        raise ValidationError({"boxes": f"{HOUSE_CONTROL}: {stranger} belongs to another site than {site}."})
    with transaction.atomic(), appended_at_end():
        return [
            remove_drop_box(
                acting_user=acting_user,
                drop_box=box,
                gaming_date=gaming_date,
                storage_place=storage_place,
                key_holder=key_holder,
                second_key_holder=second_key_holder if box.locks == 2 else None,
                escorted_by=escorted_by,
                sole_employee_on_duty=sole_employee_on_duty,
                removed_at=removed_at,
                dealer_shift_id=(dealer_shift_ids or {}).get(box.pk),
            )
            for box in drop_boxes
        ]
