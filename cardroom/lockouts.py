"""Locked accounts, and a gaming manager unlocking them (house control, issue 15).

Two locks guard the people of an organization: five wrong passwords lock a login for
settings.AXES_COOLOFF_TIME (django-axes, per username: `core.lockouts`), and as many wrong
signing PINs lock the PIN for as long (`core.pins`). Here, the parts that need the organization's
employees and stations: a gaming manager of the person's organization lists who is locked and
unlocks them before the time runs out; each unlock is audited. A station's login
(cardroom.models.Station) is locked and unlocked like a person's.
"""

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from core.audit import record_event
from core.lockouts import (
    attempted_logins,
    clear_password_failures,
    failures_by_login,
    login_locked,
    password_failures,
)
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
        return login_locked(self.password_failures)

    @property
    def pin_locked(self) -> bool:
        return self.pin_locked_until is not None


def lockouts(organization_id: int) -> list[Lockout]:
    """Everyone of the organization (people and stations) with wrong passwords in the cool-off
    period or a locked signing PIN, in four queries."""
    attempted = attempted_logins()
    failures = failures_by_login()
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
        clear_password_failures(username)
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
        if pin is None or not pin.locked:
            raise ValidationError({"employee": f"{HOUSE_CONTROL}: the signing PIN of {employee} is not locked."})
        before = {"locked_until": pin.locked_until, "failed_attempts": pin.failed_attempts}
        pin.clear_failures()
        record_event(
            actor=acting_user,
            action="signing_pin.unlocked",
            obj=pin,
            organization_id=employee.organization_id,
            before=before,
            after={"employee": employee.pk, "initials": employee.initials},
        )
    return pin
