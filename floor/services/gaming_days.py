"""Opening and closing a site's gaming day (rules.BUSINESS_DAY: "business day")."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from cardroom.access import require_role
from cardroom.models import Site
from core import acts, moments
from core.audit import appended_at_end
from core.audit import record_site_event as _audit
from core.limits import MAX_TEXT_LENGTH
from core.rules import HOUSE_CONTROL

from .. import queries, rules
from ..models import CarriedItem, DealerShift, GamingDay, GamingDayClose
from ..open_items import CARRIERS_NOTE, CLOSE_CONTROL, OpenItem, open_items
from ..tips import check_tips_at_last_shift, tips_checked_at
from .steps import moment_to_day_end


def open_gaming_day(*, acting_user, site: Site, gaming_date, at: datetime | None = None) -> GamingDay:
    """Open a business day at a site (rules.BUSINESS_DAY). One day is open at a time; a day
    cannot be opened before it has begun."""
    employee = acts.acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="open a gaming day", rule=HOUSE_CONTROL)
    )
    # Before the moment's refusals on opened_at (now outside the day, a time in the future): the date is at fault.
    moments.refuse_day_not_begun(site, gaming_date, rule=rules.GAMING_DAY_STATE)
    at = acts.moment(at, "opened_at", site=site, gaming_date=gaming_date, what="the activity", rule=rules.RECORD_TIME)
    if not site.active:
        raise ValidationError({"site": f"{rules.GAMING_DAY_STATE}: {site} is inactive; no gaming day opens there."})
    with transaction.atomic(), appended_at_end():  # the day's row event and its opening: one INSERT
        Site.objects.select_for_update().get(pk=site.pk)
        if GamingDay.objects.filter(site=site, gaming_date=gaming_date).exists():
            raise ValidationError(
                {"gaming_date": f"{rules.GAMING_DAY_STATE}: the gaming day {gaming_date} was already opened at {site}."}
            )
        acts.refuse_closed_books(site, gaming_date, "the activity")  # a filed quarter
        still_open = queries.open_gaming_day(site)
        if still_open is not None:
            _refuse_before_the_last_day(site, gaming_date, still_open)
            raise ValidationError(
                {"gaming_date": f"{rules.GAMING_DAY_STATE}: close the gaming day {still_open.gaming_date} first."}
            )
        day = GamingDay.objects.create(site=site, gaming_date=gaming_date, opened_at=at, opened_by=employee)
        _audit(acting_user, "gaming_day.opened", day, site=site)
    return day


def _refuse_before_the_last_day(site: Site, gaming_date, still_open: GamingDay) -> None:
    """While a day is open, a date before the site's last gaming day (the open one, or a later
    closed one) is not opened: the refusal says so, naming that day, rather than only asking that
    the open day be closed (an earlier day missed is entered from paper when none is open)."""
    last = queries.last_gaming_date(site)
    if last is not None and gaming_date < last:
        raise ValidationError(
            {
                "gaming_date": f"{rules.GAMING_DAY_STATE}: the gaming day {gaming_date} is before the last gaming day "
                f"at {site}, {last}, so it cannot be opened while the gaming day {still_open.gaming_date} is open."
            }
        )


def close_gaming_day(*, acting_user, gaming_day: GamingDay, at: datetime | None = None) -> GamingDayClose:
    """Close a gaming day once each of its open items (floor.open_items: slips not verified
    or received, tables without their closer, drop boxes not removed or not counted) is
    resolved or carried with a reason (house control, CLOSE_CONTROL), and no dealer shift of the
    day is still running (rules.DEALER_SHIFTS: each table's closer ends its shift)."""
    site = gaming_day.site
    employee = acts.acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="close a gaming day", rule=HOUSE_CONTROL)
    )
    at = moment_to_day_end(site, gaming_day.gaming_date, at, "closed_at", "the close", not_before=gaming_day.opened_at)
    with transaction.atomic():
        GamingDay.objects.select_for_update().filter(pk=gaming_day.pk).first()  # not while a slip is voided
        if GamingDayClose.objects.filter(gaming_day=gaming_day).exists():
            raise ValidationError(
                {"gaming_day": f"{rules.GAMING_DAY_STATE}: the gaming day {gaming_day.gaming_date} is already closed."}
            )
        _refuse_open_items(gaming_day)
        _refuse_shifts_running(gaming_day)
        # The close's row event and the closing go in one INSERT (appended_at_end); the tips
        # check may open an alert in a savepoint of its own, so it runs after that block.
        with appended_at_end():
            close = GamingDayClose.objects.create(gaming_day=gaming_day, closed_at=at, closed_by=employee)
            _audit(acting_user, "gaming_day.closed", close, site=site)
        _check_tips_of_the_day(gaming_day)
    return close


def items_left_open(gaming_day: GamingDay) -> list[OpenItem]:
    """The day's open items that are not carried: what keeps it from closing."""
    carried = set(CarriedItem.objects.filter(gaming_day=gaming_day).values_list("key", flat=True))
    return [item for item in open_items(gaming_day) if item.key not in carried]


def _refuse_open_items(gaming_day: GamingDay) -> None:
    left = items_left_open(gaming_day)
    if not left:
        return
    count = f"{len(left)} open item{'s' if len(left) != 1 else ''}"
    raise ValidationError(
        {
            "gaming_day": f"{CLOSE_CONTROL}: the gaming day {gaming_day.gaming_date} has {count}; resolve each, "
            f"or have {CARRIERS_NOTE} carry it with a reason, before the day closes.",
            "open_items": [item.sentence + "." for item in left],
        }
    )


def _refuse_shifts_running(gaming_day: GamingDay) -> None:
    """House control (rules.DEALER_SHIFTS): a table's closer ends the dealer shift running there, so
    a closed day has none running. One left running (a closer entered before 2026-12-07 dated
    before the shift began, floor.services.tray_counts) is ended, from its paper, before the close:
    once the day's books close it can no longer be (end_dealer_shift), and its day's per-dealer
    hold would stay without its end."""
    running = list(
        DealerShift.objects.filter(gaming_day=gaming_day, ended_at__isnull=True)
        .select_related("table", "dealer")
        .order_by("table__number", "started_at")
    )
    if not running:
        return
    site = gaming_day.site
    shifts = "; ".join(
        f"{shift.dealer} at table {shift.table.number} since {moments.shown(site, shift.started_at)} (shift {shift.pk})"
        for shift in running
    )
    raise ValidationError(
        {
            "gaming_day": f"{rules.DEALER_SHIFTS}: a table's closer ends its dealer's shift, yet the gaming day "
            f"{gaming_day.gaming_date} has {len(running)} dealer shift{'s' if len(running) != 1 else ''} still "
            f"running ({shifts}); end each (on its table's Dealers page, or with the time on its paper through "
            "POST /api/v1/dealer-shifts/{id}/end/) before the day closes."
        }
    )


def carry_open_items(
    *, acting_user, gaming_day: GamingDay, keys, reason: str, at: datetime | None = None
) -> list[CarriedItem]:
    """Carry open items of a day past its close with one reason (house control, CLOSE_CONTROL):
    one append-only row per item naming it, the reason, who and when, each audited. Only an
    open item of the day that is carryable and not carried yet is carried; a table's closer
    is recorded, never carried."""
    site = gaming_day.site
    access = require_role(
        acting_user, site, *rules.OPEN_ITEM_CARRIERS, action="carry an open item past the close", rule=CLOSE_CONTROL
    )
    employee = acts.acting_employee(access)
    at = moment_to_day_end(site, gaming_day.gaming_date, at, "carried_at", "the carry", not_before=gaming_day.opened_at)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": f"{CLOSE_CONTROL}: say why the item is carried past the close."})
    if len(reason) > MAX_TEXT_LENGTH:
        raise ValidationError({"reason": f"House control: a reason is at most {MAX_TEXT_LENGTH} characters."})
    keys = list(dict.fromkeys(keys or []))
    if not keys:
        raise ValidationError({"items": f"{CLOSE_CONTROL}: choose the open items to carry."})
    carried_as = next(str(role) for role in rules.OPEN_ITEM_CARRIERS if role in access.roles_at(site.pk))
    with transaction.atomic():
        GamingDay.objects.select_for_update().filter(pk=gaming_day.pk).first()  # not while the day closes
        if GamingDayClose.objects.filter(gaming_day=gaming_day).exists():
            raise ValidationError(
                {"gaming_day": f"{CLOSE_CONTROL}: the gaming day {gaming_day.gaming_date} is closed; items are "
                 "carried before the close."}
            )  # fmt: skip
        items = _items_to_carry(gaming_day, keys)
        rows = [
            CarriedItem.objects.create(
                gaming_day=gaming_day,
                key=item.key,
                kind=item.kind,
                table_number=item.table_number,
                description=item.description,
                citation=item.citation,
                reason=reason,
                carried_by=employee,
                carried_as=carried_as,
                carried_at=at,
            )  # fmt: skip
            for item in items
        ]
        for row in rows:
            _audit(acting_user, "gaming_day.item_carried", row, site=site)
    return rows


def _items_to_carry(gaming_day: GamingDay, keys: list[str]) -> list[OpenItem]:
    by_key = {item.key: item for item in items_left_open(gaming_day)}
    carried = set(CarriedItem.objects.filter(gaming_day=gaming_day).values_list("key", flat=True))
    for key in keys:
        if key in carried:
            raise ValidationError({"items": f"{CLOSE_CONTROL}: {key} is already carried."})
        if key not in by_key:
            raise ValidationError(
                {"items": f"{CLOSE_CONTROL}: {key} is not an open item of the gaming day {gaming_day.gaming_date}."}
            )
        if not by_key[key].carryable:
            raise ValidationError(
                {"items": f"{by_key[key].citation}: {by_key[key].description}; {by_key[key].resolve}."}
            )
    return [by_key[key] for key in keys]


def _check_tips_of_the_day(gaming_day: GamingDay) -> None:
    """Where the site's pack states that a dealer redeems tips before leaving
    (rules.TIPS_BEFORE_LEAVING): at the day's close every dealer's last shift has ended; the tips
    of each dealer of the day are checked and flagged if undeclared or unredeemed (floor.tips).
    Elsewhere nothing is checked (no query, no flag)."""
    if not tips_checked_at(gaming_day.site):
        return
    first_starts: dict = {}
    for shift in DealerShift.objects.filter(gaming_day=gaming_day).select_related("dealer").order_by("started_at"):
        first_starts.setdefault(shift.dealer, shift.started_at)
    for dealer, since in first_starts.items():
        check_tips_at_last_shift(dealer, gaming_day.site, gaming_day.gaming_date, since, "day close")
