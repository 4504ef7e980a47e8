"""Dealer rotations: seating a dealer at a table and ending the shift (house controls; the
shifts feed per-dealer percent-of-hold and, where the site's pack states it, the tips a dealer
redeems before leaving, rules.TIPS_BEFORE_LEAVING). None where a player deals and banks the game
(rules.PLAYER_DEALER)."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists

from cardroom.access import require_role
from cardroom.models import Employee, Membership, Site, Table
from core import acts
from core.audit import appended_at_end, snapshot
from core.audit import record_site_event as _audit
from core.money import format_money
from core.rules import HOUSE_CONTROL

from .. import queries, rules
from ..active_tables import low_minimum_refusal
from ..models import DealerShift, GamingDay, TableInventory
from ..seating import refuse_seating, refuse_table_shift, remove_box_at_change
from ..tips import tip_status, tips_checked_at
from .steps import (
    active_chips,
    check_outage_cap,
    chip_lines,
    end_shift,
    line_values,
    moment_to_day_end,
    refuse_house_chips_at_fees_site,
    require_in_day,
    require_open_day,
    require_table_in_use,
    save_count,
)


def start_dealer_shift(
    *,
    acting_user,
    table: Table,
    dealer: Employee,
    started_at: datetime | None = None,
    chips=None,
    amounts=None,
    box_removal: dict | None = None,
) -> DealerShift:
    """Seat a dealer (or wheel operator) at a table. The dealer running there is relieved at
    the same moment; `chips` (or `amounts`, in dollars), if given, is the tray count at the
    change (the closer of the outgoing shift and the opener of the incoming one), so hold can
    be kept per dealer shift. `box_removal` (escorted_by, key_holder, second_key_holder,
    storage_place), where the site exchanges its drop boxes at each dealer change (house control):
    the table's box is removed by the same act at the change's moment, before the new shift begins,
    credited to the outgoing shift (`seating.remove_box_at_change`, the counts app's removal); a
    refusal of the removal changes nothing."""
    site = table.site
    employee = acts.acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="record a dealer rotation", rule=HOUSE_CONTROL)
    )
    if not rules.house_dealers(site):
        raise ValidationError({"table": rules.no_house_dealer(site)})
    given, started_at = (
        started_at,
        acts.moment(started_at, "started_at", site=site, what="a dealer shift", rule=rules.RECORD_TIME),
    )
    require_table_in_use(table)
    available = active_chips(site.organization_id)  # read once: the $25 check and the count's lines
    check_outage_cap(table, started_at, available=available)
    _check_dealer(dealer, site, table, started_at)
    has_count = bool(chips) or amounts is not None
    if has_count:
        refuse_house_chips_at_fees_site(site, "chips", "tray count at a dealer change")
    counted = chip_lines(chips, amounts, site, rules.TRAY_COUNT, available=available) if has_count else None
    with transaction.atomic(), appended_at_end():
        day = require_open_day(site, "table")
        require_in_day(site, day, started_at, given, "started_at")
        _check_table_accepts_shift(table, day, started_at)
        # Conducting games that day may undo a count team already judged (ND 99-01.3-08-14(2)), or a
        # video review of the shift it starts in (ND 99-01.3-08-04(9)).
        refuse_seating(dealer, site, day.gaming_date, started_at)
        # ... and, at this table, another reviewer's: its shift reviewed widened by this one (08-04(9)).
        refuse_table_shift(table, dealer, started_at, None, "started_at")
        # Seating a dealer makes the table active (ND 99-01.3-08-09(1): a dealer and chips present).
        low = low_minimum_refusal(table, day, started_at)
        if low is not None:
            raise ValidationError({"table": low})
        outgoing = queries.current_shift(table, started_at)
        if box_removal is not None:  # the box goes first: credited to the outgoing shift (house control)
            remove_box_at_change(acting_user, table, outgoing, started_at, box_removal)
        if outgoing is not None:
            end_shift(acting_user, outgoing, employee, started_at, field="started_at")
        shift = DealerShift.objects.create(
            table=table, dealer=dealer, gaming_day=day, started_at=started_at, started_by=employee
        )
        after = snapshot(shift)
        if counted:
            count = save_count(
                table,
                day,
                TableInventory.Kind.CHANGE,
                counted,
                employee,
                started_at,
                previous=queries.last_tray_count(table, before=started_at),
                shift=shift,
            )
            after["tray_count"] = {"id": count.pk, "chips": line_values(counted)}
        _audit(acting_user, "dealer_shift.started", shift, site=site, after=after)
    return shift


def _check_dealer(dealer: Employee, site: Site, table: Table, at: datetime) -> None:
    holds_role = Membership.objects.filter(employee=dealer, site=site, role__in=rules.DEALING_ROLES).exists()
    if dealer.organization_id != site.organization_id or not dealer.active or not holds_role:
        raise ValidationError(
            {"dealer": f"{rules.DEALER_SHIFTS}: {dealer} is not an active dealer or wheel operator at {site}."}
        )
    # House control: a table is dealt by the role of its game (a wheel operator at a paddlewheel, a
    # dealer at twenty-one), as its credit slips' initials are read by game (rules.TABLE_ROLE, the
    # product's reading of ND 99-01.3-08-05(3)(c), "a dealer or wheel operator"), so a credit there
    # is never refused for the person seated.
    role = rules.TABLE_ROLE.get(table.game)
    if role is not None and not Membership.objects.filter(employee=dealer, site=site, role=role).exists():
        raise ValidationError(
            {
                "dealer": f"{rules.DEALER_SHIFTS}: {table} is dealt by a {role.label.lower()}; {dealer} is not one "
                f"at {site}."
            }
        )
    # Relief: seated again at the table they deal at, their running shift ends at that moment
    # (start_dealer_shift ends the outgoing shift); at another table it must end first.
    elsewhere = queries.shifts_running(at).filter(dealer=dealer).exclude(table=table).select_related("table").first()
    if elsewhere is not None:
        raise ValidationError(
            {
                "dealer": f"{rules.DEALER_SHIFTS}: {dealer} is already on shift at {elsewhere.table}; end that shift "
                "first."
            }
        )


def _check_table_accepts_shift(table: Table, day: GamingDay, started_at: datetime) -> None:
    closed = TableInventory.objects.filter(table=table, gaming_day=day, kind=TableInventory.Kind.CLOSER)
    later = DealerShift.objects.filter(table=table, gaming_day=day, started_at__gt=started_at)
    found = Table.objects.filter(pk=table.pk).values_list(Exists(closed), Exists(later)).first()  # one query
    is_closed, has_later = found or (False, False)
    if is_closed:
        raise ValidationError({"table": f"{rules.TRAY_COUNT}: {table} is closed for the gaming day."})
    if has_later:
        raise ValidationError(
            {"started_at": f"{rules.DEALER_SHIFTS}: a later dealer shift is already recorded at this table today."}
        )


def end_dealer_shift(
    *, acting_user, shift: DealerShift, ended_at: datetime | None = None, left_site: bool = False
) -> DealerShift:
    """Record the end of a dealer shift (once). `left_site`: the dealer is leaving the site, which
    a site whose pack states rules.TIPS_BEFORE_LEAVING allows only once their tips are declared
    and redeemed. The shift is its gaming day's record (per-dealer percent-of-hold): once that day's
    books are closed it is not ended, at any time (core.closing, a house control)."""
    site = shift.table.site
    employee = acts.acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="record a dealer rotation", rule=HOUSE_CONTROL)
    )
    ended_at = moment_to_day_end(site, shift.gaming_day.gaming_date, ended_at, "ended_at", "a dealer shift")
    if ended_at < shift.started_at:
        raise ValidationError({"ended_at": f"{rules.DEALER_SHIFTS}: a dealer shift cannot end before it starts."})
    if left_site and tips_checked_at(site):
        _check_tips_redeemed(shift, site)
    with transaction.atomic():
        # House control (closed books): with no time given, core.moments leaves this to the service.
        acts.hold_books_open(site, shift.gaming_day.gaming_date, "a dealer shift", field="ended_at")
        end_shift(acting_user, shift, employee, ended_at)
    shift.refresh_from_db()
    return shift


def _check_tips_redeemed(shift: DealerShift, site: Site) -> None:
    status = tip_status(shift.dealer, site, since=shift.started_at)
    if not status.declared:
        raise ValidationError(
            {
                "left_site": f"{rules.TIPS_BEFORE_LEAVING.at(site)}: {shift.dealer} has not declared the tips "
                "they hold; declare and redeem them before leaving the site."
            }
        )
    if status.unredeemed_cents:
        raise ValidationError(
            {
                "left_site": f"{rules.TIPS_BEFORE_LEAVING.at(site)}: {shift.dealer} still holds "
                f"{format_money(status.unredeemed_cents)} of unredeemed tips; redeem "
                "them at the cashier before leaving the site."
            }
        )
