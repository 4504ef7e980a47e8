"""The site's duty register: who is on duty to verify slips (ND 99-01.3-08-05(5)).

A shift manager or authorized employee (floor.rules.VERIFIERS) signs in when they come on duty
at a site and out when they leave; a shift manager may sign someone else in or out. The
register answers "an organization has a shift manager or authorized employee on duty"
(floor.queries.verifiers_on_duty)."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cardroom.access import require_role
from cardroom.models import Employee, Site
from core import acts, moments
from core.audit import record_site_event as _audit
from core.audit import snapshot

from .. import queries, rules
from ..models import DutyPeriod, SlipKind, SlipStep
from ..seating import refuse_duty_end
from .steps import moment_to_day_end, require_in_day, require_open_day


def on_duty_by_signing(
    acting_user, site: Site, employee: Employee, roles: set[str], day, at: datetime, *, on_duty: bool | None = None
) -> None:
    """House control (rules.DUTY_REGISTER): a pit boss or shift manager who signs a slip's step
    live at a site is on duty there from that moment for the shift (until they sign out), so
    the register knows who could verify without anyone filling it in. Called inside the step's
    transaction; nothing happens for another role, a closed day, or someone already on duty
    (one query then). `on_duty`: whether `employee` is on duty at `at`, when the caller has
    just read it in its transaction with the day as the open one (a slip's context): no query."""
    held = roles & rules.VERIFIERS
    if not held or day is None or on_duty or not (on_duty is not None or day.is_open):
        return
    if on_duty is None and queries.duty_periods_running(site, at).filter(employee=employee).exists():
        return
    role = next(str(r) for r in rules.SIGNING_ORDER if r in held)
    period = _open_period(site=site, gaming_day=day, employee=employee, role=role, started_at=at, recorded_by=employee)
    if period is not None:  # else they went on duty since it was read: the register has them
        _audit(acting_user, "duty.started", period, site=site, after={**snapshot(period), "by_signing": True})


def _open_period(**fields) -> DutyPeriod | None:
    """A new open duty period, or None when the person already has one open at the site: the
    check before it read the register outside the locks, so someone signing in and signing a
    slip at once both find them off duty; the constraint duty_period_open_once_per_site lets
    one insert through and the other re-reads (PostgreSQL and SQLite alike)."""
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on
            return DutyPeriod.objects.create(**fields)
    except IntegrityError:
        if DutyPeriod.objects.filter(site=fields["site"], employee=fields["employee"], ended_at__isnull=True).exists():
            return None
        raise


def start_duty(*, acting_user, site: Site, employee: Employee | None = None, at: datetime | None = None) -> DutyPeriod:
    """Sign `employee` (default: the acting employee) in on duty at `site`, in the open gaming
    day: at `at` (the paper's time, naive for the site's local time) or now, either in that day's
    business hours (core.moments.occurred_at)."""
    access = require_role(
        acting_user, site, *rules.VERIFIERS, action="sign in on duty", rule=rules.DUTY_REGISTER.at(site)
    )
    actor = acts.acting_employee(access)
    employee = employee or actor
    if employee != actor:
        require_role(
            acting_user,
            site,
            *rules.DUTY_REGISTRARS,
            action="sign someone else in on duty",
            rule=rules.DUTY_REGISTER.at(site),
        )
    given, at = at, acts.moment(at, "at", site=site, what="a duty sign-in", rule=rules.RECORD_TIME)
    roles = (
        queries.roles_held(employee, site) & rules.VERIFIERS
        if employee.organization_id == site.organization_id
        else set()
    )
    if not employee.active or not roles:
        raise ValidationError(
            {
                "employee": f"{rules.DUTY_REGISTER.at(site)}: {employee} is not an active shift manager or pit boss at {site}."
            }
        )
    with transaction.atomic():
        day = require_open_day(site, "site")
        # The sign-in joins the open gaming day: it lies in that day's business hours (a blank time,
        # now, too: a day already over is signed in with its paper's time).
        require_in_day(site, day, at, given, "at")
        role = next(str(r) for r in rules.SIGNING_ORDER if r in roles)
        period = None
        if not queries.duty_periods_running(site, at).filter(employee=employee).exists():
            fields = {"gaming_day": day, "role": role, "started_at": at, "recorded_by": actor}
            period = _open_period(site=site, employee=employee, **fields)
        if period is None:
            raise ValidationError(
                {"employee": f"{rules.DUTY_REGISTER.at(site)}: {employee} is already on duty at {site}."}
            )
        _audit(acting_user, "duty.started", period, site=site, after=snapshot(period))
    return period


def end_duty(*, acting_user, period: DutyPeriod, at: datetime | None = None) -> DutyPeriod:
    """Sign a duty period out (once), at `at` (the paper's time, naive for the site's local time)
    or now: not in the future, not before the period's start; it may follow its gaming day's last
    hour (core.moments.occurred_at's `after_day_end`)."""
    site = period.site
    access = require_role(
        acting_user, site, *rules.VERIFIERS, action="sign out of duty", rule=rules.DUTY_REGISTER.at(site)
    )
    actor = acts.acting_employee(access)
    if period.employee_id != actor.pk:
        require_role(
            acting_user,
            site,
            *rules.DUTY_REGISTRARS,
            action="sign someone else out of duty",
            rule=rules.DUTY_REGISTER.at(site),
        )
    # Like a dealer shift's end: the paper's time (naive for the site's local time) or now, not in the
    # future, in the period's gaming day or after its last hour (someone on duty past the day's end
    # signs out then), never before the sign-in.
    at = moment_to_day_end(site, period.gaming_day.gaming_date, at, "at", "a duty sign-out")
    moments.refuse_before(
        site,
        at,
        period.started_at,
        field="at",
        rule=rules.DUTY_REGISTER.at(site),
        why="a duty period ends after it starts",
        what="its sign-in",
    )
    # On duty until `at` may undo what was recorded meanwhile on the register as it stood: a slip
    # received unverified because nobody who could verify was on duty (ND 99-01.3-08-05(5)), a drop
    # box's removal with no escort, its transporter "the only employee on duty" (ND 99-01.3-08-14(1),
    # counts answers: floor.seating).
    _refuse_an_unverified_receipt_undone(period, at)
    refuse_duty_end(period.employee, site, period.started_at, at)
    with transaction.atomic():
        before = snapshot(period)
        if not DutyPeriod.objects.filter(pk=period.pk, ended_at__isnull=True).update(ended_at=at):
            raise ValidationError({"at": f"{rules.DUTY_REGISTER.at(site)}: {period.employee} has already signed out."})
        period.refresh_from_db()
        _audit(acting_user, "duty.ended", period, site=site, before=before)
    return period


def _refuse_an_unverified_receipt_undone(period: DutyPeriod, ended_at: datetime) -> None:
    """A slip received unverified because nobody who could verify was on duty (its receipt says
    so: rules.unverified_note) was judged on the duty register as it stood then (ND
    99-01.3-08-05(5) asks verification "if an organization has a shift manager or authorized
    employee on duty who is not presently dealing"). A period entered later from paper that has a
    verifier on duty, not dealing and not the slip's preparer, at such a receipt contradicts it: its
    sign-out is refused at `at`, naming the slip and the moment to end it by."""
    site = period.site
    receipts = (
        SlipStep.objects.filter(
            kind=SlipStep.Kind.RECEIVE,
            slip__site=site,
            at__gte=period.started_at,
            at__lt=ended_at,
            reason__startswith=f"{rules.UNVERIFIED_NOTE_START} (",
        )
        .exclude(slip__prepared_by=period.employee)
        .select_related("slip")
        .order_by("at", "pk")
    )
    for step in receipts:
        if queries.shifts_running(step.at).filter(table__site=site, dealer=period.employee).exists():
            continue  # presently dealing then: not one who could verify
        slip, received = step.slip, moments.shown(site, step.at)
        raise ValidationError(
            {
                "at": f"{rules.SLIP_VERIFICATION.at(site)}: {SlipKind(slip.kind).label.lower()} {slip.number} was "
                f"received unverified at {received}, its receipt saying nobody who could verify was on duty; "
                f"{period.employee} on duty until {moments.shown(site, ended_at)} would have been on duty and not "
                f"dealing then, and a slip is verified when someone is. End it by {received}."
            }
        )
