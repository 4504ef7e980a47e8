"""Signing PINs: initialling a step on a shared terminal (a pit terminal or count tablet).

A station (cardroom.models.Station) stays signed in and holds no role. The person doing a step
gives their badge (their initials, unique in the organization) and PIN; `signer_for` checks the
PIN and returns a cardroom.access.PinSigner, which the services treat as that person logged in
(their roles, sites and rules) and the audit log records as the actor, the station noted.

The mechanism (the PIN's form, hashing, checking, counting wrong entries and the lock's time)
is the platform's, `core.pins`; here are the parts that need an employee or a site: who may set
a PIN (its holder, or a gaming manager resetting it), whose badge signs, the audit of each, and
the stations. House controls, as `core.pins` states them.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from core.audit import record_event
from core.moments import site_zone
from core.pins import validate_pin
from core.rules import HOUSE_CONTROL

from .access import PinSigner, access_for, require_gaming_manager
from .models import Employee, SigningPin, Site, Station, refuse_taken_login, refuse_weak_password

WRONG_PIN_HOUSE_CONTROL = (
    f"{HOUSE_CONTROL}: that badge and PIN do not match an active employee's; the step is not initialled."
)
NO_PIN_HOUSE_CONTROL = (
    f"{HOUSE_CONTROL}: type the PIN of the person whose badge is chosen; an empty PIN initials nothing "
    "and is not counted as a wrong one."
)
NO_BADGE_HOUSE_CONTROL = (
    f"{HOUSE_CONTROL}: tap the badge of who takes this step (whose PIN is typed); a step on a shared terminal "
    "is initialled by who takes it."
)
NO_SIGNER_HOUSE_CONTROL = (
    f"{HOUSE_CONTROL}: a station signs nothing itself; the person doing this step initials it with their badge and PIN."
)


def set_pin(*, acting_user, employee: Employee, pin: str) -> SigningPin:
    """Set `employee`'s PIN: by the employee themselves, or reset by a gaming manager of their
    organization. Setting it clears its failures and lock. The audit row never holds the PIN."""
    access = access_for(acting_user)
    own = access.employee is not None and access.employee.pk == employee.pk
    if not own and not (access.is_gaming_manager and access.organization_id == employee.organization_id):
        raise PermissionDenied(f"{HOUSE_CONTROL}: a PIN is set by its holder or reset by a gaming manager.")
    pin = validate_pin(pin)
    with transaction.atomic():
        row, _ = SigningPin.objects.update_or_create(employee=employee, defaults=SigningPin.fresh(pin))
        record_event(
            actor=acting_user,
            action="signing_pin.reset" if not own else "signing_pin.set",
            obj=row,
            organization_id=employee.organization_id,
            after={"employee": employee.pk, "initials": employee.initials},
        )
    return row


def signer_for(terminal, *, badge: str, pin: str) -> PinSigner:
    """The person initialling a step on `terminal` (the signed-in login, a station or a person):
    an active employee of the terminal's organization whose badge and PIN match. Raises
    PermissionDenied (403) on a wrong or locked PIN; a wrong PIN counts towards the lock."""
    if not (pin or "").strip():
        # Enter pressed before the PIN was typed is no guess: asked for, never counted towards the lock.
        raise PermissionDenied(NO_PIN_HOUSE_CONTROL)
    access = access_for(terminal)
    organization_id = access.organization_id
    employee = (
        Employee.objects.select_related("user", "signing_pin")
        .filter(organization_id=organization_id, initials__iexact=(badge or "").strip(), active=True)
        .first()
        if organization_id is not None and badge
        else None
    )
    row = getattr(employee, "signing_pin", None) if employee is not None else None
    if row is None:
        raise PermissionDenied(WRONG_PIN_HOUSE_CONTROL)
    if row.locked:
        # Until when, in the terminal's site's time: its steps come through the API, where no
        # site's zone is active (a Washington terminal was told a Chicago hour).
        zone = site_zone(access.station.site) if access.station is not None else None
        raise PermissionDenied(row.locked_refusal(zone))
    if not row.matches(pin):
        _count_failure(terminal, row)
        raise PermissionDenied(WRONG_PIN_HOUSE_CONTROL)
    row.clear_failures()
    return PinSigner(terminal, employee)


def witnessed_by(terminal, witness: Employee, pin: str) -> None:
    """`witness` attests, with their own PIN, a record the person at `terminal` makes (the fee cash
    counted by two): the PIN checked, counted and locked as `signer_for` checks a badge's. Raises
    PermissionDenied on a wrong or locked PIN, or where the witness has none."""
    signer = signer_for(terminal, badge=witness.initials, pin=pin)
    if signer.signer.pk != witness.pk:  # badges are unique in an organization: never, but never trusted
        raise PermissionDenied(WRONG_PIN_HOUSE_CONTROL)


def _count_failure(terminal, row: SigningPin) -> None:
    """Count one wrong PIN in its own transaction (it stands though the step is refused); the
    failure that reaches the limit locks the PIN (`core.pins`), and both are audited."""
    with transaction.atomic():
        locked = row.count_failure()
        record_event(
            actor=terminal,
            action="signing_pin.locked_out" if locked else "signing_pin.failed",
            obj=row,
            organization_id=row.employee.organization_id,
            after={"employee": row.employee_id, "initials": row.employee.initials},
        )


def acting_user_for(request_user, *, badge: str = "", pin: str = ""):
    """Who acts in a request: the PIN holder when a badge or PIN is given, otherwise the logged-in
    person; a station alone acts as nobody."""
    if badge or pin:
        return signer_for(request_user, badge=badge, pin=pin)
    if access_for(request_user).station is not None:
        raise PermissionDenied(NO_SIGNER_HOUSE_CONTROL)
    return request_user


def create_station(
    *, acting_user, site: Site, username: str, password: str, name: str, kind: str = Station.Kind.BOTH
) -> Station:
    """A shared terminal's login at `site` (a gaming manager of its organization, or the platform
    operator's command with no acting user). It is no employee and holds no role: it only
    presents forms, those of its `kind` (a pit terminal, a count tablet, or both), and each step
    on it is initialled with a person's badge and PIN."""
    if kind not in Station.Kind.values:
        raise ValidationError({"kind": f"{HOUSE_CONTROL}: a station is one of {', '.join(Station.Kind.values)}."})
    if acting_user is not None:
        require_gaming_manager(acting_user, site.organization_id, action="create a station login")
    User = get_user_model()
    refuse_taken_login(username)
    with transaction.atomic():
        user = User(username=username)
        refuse_weak_password(password, user)
        user.set_password(password)
        user.save()
        station = Station.objects.create(user=user, site=site, name=name or username, kind=kind)
        record_event(
            actor=acting_user,
            action="station.created",
            obj=station,
            organization_id=site.organization_id,
            site_id=site.pk,
            after={"username": username, "site": site.pk, "name": station.name, "kind": station.kind},
        )
    return station


def deactivate_station(*, acting_user, station: Station) -> Station:
    """Take a shared terminal out of use (house control: a lost or retired tablet must not stay
    signed in). Its login is made inactive, so it cannot sign in, its sessions stop working at
    their next request and its API tokens are revoked; `reactivate_station` undoes it."""
    return _set_station_active(acting_user=acting_user, station=station, active=False)


def reactivate_station(*, acting_user, station: Station) -> Station:
    """Put a deactivated shared terminal back in use: it may sign in again (with its password)."""
    return _set_station_active(acting_user=acting_user, station=station, active=True)


def _set_station_active(*, acting_user, station: Station, active: bool) -> Station:
    from core.tokens import revoke_tokens

    verb = "reactivate" if active else "deactivate"
    require_gaming_manager(acting_user, station.site.organization_id, action=f"{verb} a station")
    with transaction.atomic():
        station = Station.objects.select_for_update().select_related("user", "site").get(pk=station.pk)
        if station.active == active:
            state = "active" if active else "deactivated"
            raise ValidationError(f"{HOUSE_CONTROL}: the station {station.name} is already {state}.")
        station.active = active
        station.save(update_fields=["active"])
        station.user.is_active = active
        station.user.save(update_fields=["is_active"])
        revoked = 0 if active else revoke_tokens(station.user)
        record_event(
            actor=acting_user,
            action=f"station.{verb}d",
            obj=station,
            organization_id=station.site.organization_id,
            site_id=station.site_id,
            before={"active": not active},
            after={"active": active, "username": station.user.username, "api_tokens_revoked": revoked},
        )
    return station


def deactivated_station_refusal(username: str, password: str) -> str | None:
    """The sign-in refusal of a deactivated station, given its right password (a wrong one gets
    the usual answer, which says nothing of the login); None for any other login."""
    station = Station.objects.filter(user__username=username, active=False).select_related("user", "site").first()
    if station is None or not station.user.check_password(password):
        return None
    return (
        f"{HOUSE_CONTROL}: the station {station.name} ({station.site.name}) is deactivated and cannot sign in; "
        "a gaming manager of the organization may reactivate it."
    )
