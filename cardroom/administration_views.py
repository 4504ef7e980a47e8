"""A gaming manager's administration pages of the core: locked accounts and shared terminals
(stations: created, deactivated and reactivated). Views parse and call one service; a refusal
shows the service's message inline."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from core.forms import call_service, page_status
from core.limits import record_id
from core.rules import HOUSE_CONTROL

from . import forms, lockouts, pins
from .access import Access, access_for, refusal, work_forms
from .models import Employee, Role, Station
from .site_keeps import house_chips, keeps_drop_boxes
from .views import refusal_text


def _gaming_manager(request, action: str) -> Access:
    access = access_for(request.user)
    if not access.is_gaming_manager:
        raise PermissionDenied(refusal(HOUSE_CONTROL, [Role.GAMING_MANAGER], action))
    return access


NOTHING_CHOSEN = f"{HOUSE_CONTROL}: choose a login or a signing PIN to unlock."


def _posted_id(request, name: str) -> int | None:
    return record_id(request.POST.get(name))


def _unlock(request, access: Access) -> str:
    """Unlock what the form names, among the organization's people and stations (404 outside)."""
    what, employee_id, station_id = (
        request.POST.get("unlock"),
        _posted_id(request, "employee"),
        _posted_id(request, "station"),
    )
    people = Employee.objects.filter(organization_id=access.organization_id).select_related("user")
    if what == "pin" and employee_id:
        employee = get_object_or_404(people, pk=employee_id)
        lockouts.unlock_signing_pin(acting_user=request.user, employee=employee)
        return f"The signing PIN of {employee} is unlocked."
    if what == "login" and station_id:
        stations = Station.objects.filter(site__organization_id=access.organization_id).select_related("user", "site")
        holder = get_object_or_404(stations, pk=station_id)
    elif what == "login" and employee_id:
        holder = get_object_or_404(people, pk=employee_id)
    else:
        raise ValidationError(NOTHING_CHOSEN)
    cleared = lockouts.unlock_login(acting_user=request.user, holder=holder)
    return f"The login {holder.user.username} is unlocked ({cleared} failed sign-ins cleared)."


@login_required
def locked_accounts(request):
    """Who is locked out of signing in or of their signing PIN, with an unlock button each."""
    access = _gaming_manager(request, "unlock an account")
    error = ""
    if request.method == "POST":
        try:
            messages.success(request, _unlock(request, access))
            return redirect("locked_accounts")
        except ValidationError as exc:
            error = refusal_text(exc)
    return render(
        request,
        "cardroom/locked_accounts.html",
        {
            "lockouts": lockouts.lockouts(access.organization_id),
            "error": error,
            "limit": settings.AXES_FAILURE_LIMIT,
            "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        },
        status=page_status(refusal=error),
    )


def _stations_of(access: Access):
    return Station.objects.filter(site__organization_id=access.organization_id).select_related("site", "user")


def _stations_page(request, access: Access, form, error: str = ""):
    return render(
        request,
        "cardroom/stations.html",
        {"form": form, "stations": _stations_of(access), "error": error, **_station_words(request.site)},
        status=page_status(form, refusal=error),
    )


def _station_words(site) -> dict:
    """What the stations page says a station presents at the current `site`, in its words: a pit
    terminal's slips or its table fees, a count tablet only where the site keeps drop boxes."""
    if site is None:
        return {"pit_forms": work_forms(Station.Kind.PIT, None), "counts_here": True, "fees_here": True}
    return {
        "pit_forms": work_forms(Station.Kind.PIT, site),
        "counts_here": keeps_drop_boxes(site),
        "fees_here": not house_chips(site),
    }


def _station_form(request, access: Access, data=None):
    return forms.StationForm(data, sites=access.sites(), here=request.site)


@login_required
def stations(request):
    """The organization's shared terminals (each with its deactivate or reactivate button), and
    a form creating one for a site."""
    access = _gaming_manager(request, "create a station login")
    form = _station_form(request, access, request.POST or None)
    if request.method == "POST" and form.is_valid():
        station = call_service(form, lambda: pins.create_station(acting_user=request.user, **form.cleaned_data))
        if station is not None:
            messages.success(request, f"The station {station.name} can sign in as {station.user.username}.")
            return redirect("stations")
    return _stations_page(request, access, form)


@require_POST
@login_required
def set_station_active(request, pk: int, active: bool):
    """Deactivate or reactivate one of the organization's stations (404 outside it)."""
    verb = "reactivate" if active else "deactivate"
    access = _gaming_manager(request, f"{verb} a station")
    station = get_object_or_404(_stations_of(access), pk=pk)
    change = pins.reactivate_station if active else pins.deactivate_station
    try:
        change(acting_user=request.user, station=station)
    except ValidationError as exc:
        return _stations_page(request, access, _station_form(request, access), refusal_text(exc))
    messages.success(request, f"The station {station.name} is {verb}d.")
    return redirect("stations")
