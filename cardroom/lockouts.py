"""Locked accounts, and a gaming manager unlocking them (house control, issue 15).

Two locks guard the people of an organization: five wrong passwords lock a login for
settings.AXES_COOLOFF_TIME (django-axes, per username), and as many wrong signing PINs lock
the PIN for as long (cardroom.pins). A gaming manager of the person's organization lists who is
locked and unlocks them before the time runs out; each unlock is audited. A station's login
(cardroom.models.Station) is locked and unlocked like a person's.
"""

from dataclasses import dataclass
from datetime import datetime

from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, Sum
from django.db.models.functions import Lower
from django.utils import timezone

from core.audit import record_event
from core.rules import HOUSE_CONTROL

from .access import require_gaming_manager
from .models import Employee, SigningPin, Station

UNLOCK_ACTION = "unlock an account"


@dataclass(frozen=True)
class Lockout:
    """One login with wrong passwords or a locked PIN: `holder` is an Employee or a Station."""

    holder: Employee | Station
    username: str
    password_failures: int
    pin_locked_until: datetime | None

    @property
    def is_station(self) -> bool:
        return isinstance(self.holder, Station)

    @property
    def login_locked(self) -> bool:
        return self.password_failures >= settings.AXES_FAILURE_LIMIT

    @property
    def pin_locked(self) -> bool:
        return self.pin_locked_until is not None


def _recent_attempts():
    """The wrong-password counts of the cool-off period, by username (django-axes keeps one row
    per username, address and browser; the lock counts them all, AXES_LOCKOUT_PARAMETERS)."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    return AccessAttempt.objects.filter(attempt_time__gte=since, username__isnull=False)


def password_failures(username: str) -> int:
    counted = _recent_attempts().filter(username__iexact=username).aggregate(n=Sum("failures_since_start"))
    return counted["n"] or 0


def lockouts(organization_id: int) -> list[Lockout]:
    """Everyone of the organization (people and stations) with wrong passwords in the cool-off
    period or a locked signing PIN, in four queries."""
    attempted = _recent_attempts().annotate(name=Lower("username")).values("name")
    failures = dict(attempted.annotate(n=Sum("failures_since_start")).values_list("name", "n"))
    now = timezone.now()
    # The logins with failures as a subquery, not a list: anyone may try any number of names.
    people = (
        Employee.objects.filter(organization_id=organization_id)
        .annotate(login=Lower("user__username"))
        .filter(Q(login__in=attempted) | Q(signing_pin__locked_until__gt=now))
        .select_related("user", "signing_pin")
        .order_by("user__last_name", "user__first_name", "initials")
    )
    stations = (
        Station.objects.filter(site__organization_id=organization_id)
        .annotate(login=Lower("user__username"))
        .filter(login__in=attempted)
        .select_related("user", "site")
    )
    rows = []
    for holder in [*people, *stations]:
        pin = getattr(holder, "signing_pin", None) if isinstance(holder, Employee) else None
        locked_until = pin.locked_until if pin is not None and pin.locked_until and pin.locked_until > now else None
        rows.append(Lockout(holder, holder.user.username, failures.get(holder.login, 0), locked_until))
    return rows


def _organization_of(holder: Employee | Station) -> int:
    return holder.organization_id if isinstance(holder, Employee) else holder.site.organization_id


def unlock_login(*, acting_user, holder: Employee | Station) -> int:
    """Clear the wrong passwords of `holder`'s login, so that it signs in again at once (a gaming
    manager of its organization; house control). Returns the failures cleared."""
    organization_id = _organization_of(holder)
    require_gaming_manager(acting_user, organization_id, action=UNLOCK_ACTION)
    username = holder.user.username
    with transaction.atomic():
        failures = password_failures(username)
        if not failures:
            raise ValidationError(
                {"user": f"{HOUSE_CONTROL}: the login {username} has no wrong passwords to clear; it is not locked."}
            )
        AccessAttempt.objects.filter(username__iexact=username).delete()
        record_event(
            actor=acting_user,
            action="login.unlocked",
            obj=holder,
            organization_id=organization_id,
            site_id=getattr(holder, "site_id", None),
            after={"username": username, "failed_sign_ins_cleared": failures},
        )
    return failures


def unlock_signing_pin(*, acting_user, employee: Employee) -> SigningPin:
    """Lift the lock of `employee`'s signing PIN and clear its wrong entries, keeping the PIN (a
    gaming manager of their organization; house control). Resetting the PIN (cardroom.pins.set_pin)
    also unlocks it."""
    require_gaming_manager(acting_user, employee.organization_id, action=UNLOCK_ACTION)
    with transaction.atomic():
        pin = SigningPin.objects.select_for_update().filter(employee=employee).first()
        if pin is None or pin.locked_until is None or pin.locked_until <= timezone.now():
            raise ValidationError({"employee": f"{HOUSE_CONTROL}: the signing PIN of {employee} is not locked."})
        before = {"locked_until": pin.locked_until, "failed_attempts": pin.failed_attempts}
        pin.locked_until = None
        pin.failed_attempts = 0
        pin.save(update_fields=["locked_until", "failed_attempts"])
        record_event(
            actor=acting_user,
            action="signing_pin.unlocked",
            obj=pin,
            organization_id=employee.organization_id,
            before=before,
            after={"employee": employee.pk, "initials": employee.initials},
        )
    return pin
