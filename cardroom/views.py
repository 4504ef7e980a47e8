"""Browser pages for the core: home, site switcher, and setup of master data."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from core import limits
from core.forms import call_service, page_status
from core.money import format_money
from core.pins import PIN_MAX_DIGITS, PIN_MIN_DIGITS
from core.rules import HOUSE_CONTROL

from . import forms, pins, services
from .access import SESSION_KEY, access_for, current_site, refusal
from .api import visible_employees
from .chips import marking_notices
from .models import ORG_WIDE_ROLES, ChipDenomination, EmployeeRelation, Game, Membership, Role, Station, Table
from .navigation import home_panels_for, party_of
from .table_limits import limits_plaque_notices


def favicon(request):
    """Pages without an icon link (the admin's) make the browser ask for /favicon.ico."""
    return redirect(static("cardroom/favicon.svg"))


@login_required
def signed_in(request):
    """Who is signed in, as plain text: a page that reads the session and the user only. The
    floor `bench_http` measures the other pages against (issue 37); harmless to anyone signed in."""
    return HttpResponse(f"Signed in as {request.user.get_username()}.\n", content_type="text/plain; charset=utf-8")


@login_required
def home(request):
    station = access_for(request.user).station
    if station is not None:  # a shared terminal's home is its site's pit (issue 33), a count tablet's its counts
        return redirect("floor:pit_here" if station.presents(Station.Kind.PIT) else "counts:sessions")
    site = getattr(request, "site", None)
    access = access_for(request.user)
    if access.employee is None and access.station is None:
        party = party_of(request.user)  # a regulator's staff: their own home
        if party:
            return redirect(party[1])
    roles = access_for(request.user).roles_at(site.pk) if site else set()
    return render(request, "cardroom/home.html", {"home_panels": home_panels_for(roles)})


@login_required
@require_POST
def switch_site(request):
    site_id = limits.record_id(request.POST.get("site"))
    site = access_for(request.user).sites().filter(pk=site_id).first() if site_id else None
    if site is None:
        raise Http404("No such site among yours.")
    request.session[SESSION_KEY] = site.pk
    return redirect(safe_next(request, request.POST.get("next")))


@login_required
def signing_pin(request):
    """Set one's own signing PIN (cardroom.pins), or, for a gaming manager, reset an employee's."""
    access = access_for(request.user)
    employee = access.require_employee()
    form = forms.SigningPinForm(request.POST or None)
    if access.is_gaming_manager:
        form.fields["employee"].queryset = visible_employees(access).filter(organization_id=employee.organization_id)
    else:
        del form.fields["employee"]
    if request.method == "POST" and form.is_valid():
        whose = form.cleaned_data.get("employee") or employee
        saved = call_service(
            form, lambda: pins.set_pin(acting_user=request.user, employee=whose, pin=form.cleaned_data["pin"])
        )
        if saved is not None:
            messages.success(request, f"The signing PIN of {whose} is set.")
            return redirect("signing_pin")
    return render(
        request,
        "cardroom/signing_pin.html",
        {"form": form, "digits": (PIN_MIN_DIGITS, PIN_MAX_DIGITS)},
        status=page_status(form),
    )


def safe_next(request, target: str | None) -> str:
    """`target` when it is a path on this site (no open redirect; not a word, which redirect()
    would look up as a view's name); the home page otherwise."""
    allowed = target and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    )
    if allowed and target.startswith("/"):
        return target
    return reverse("home")


def show_site(request, site) -> None:
    """A page showing `site`'s records, which its address may name apart from the current site
    (`?site=`, an alert's site): the page is that site's, its header and menu in the words of its
    pack (config.context_processors reads `request.site`), as if switched to it for this page (the
    session's choice stays); times, and today's date, in its zone for the rest of the request (the
    middleware resets the zone after each one, config.middleware)."""
    request.site = site
    timezone.activate(ZoneInfo(site.time_zone))


def page_at_current_site(may_read: Callable):
    """A page of records at the current site: login, a current site (404 without one), the
    user's `may_read(access, site)` (it raises PermissionDenied with the rule's words); the
    site's time zone is set by config.middleware. The view is called as `view(request, site, access, ...)`."""

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            site = current_site(request)
            access = access_for(request.user)
            may_read(access, site)
            return view(request, site, access, *args, **kwargs)

        return wrapper

    return decorate


def refusal_text(exc: ValidationError) -> str:
    """A service's refusal as one message for the browser: its sentences, which name the rule,
    without the field names the API keys them by."""
    return " ".join(exc.messages)


@dataclass(frozen=True)
class SetupKind:
    title: str
    form_class: type
    columns: tuple
    queryset: Callable
    new_instance: Callable
    save: Callable
    form_kwargs: Callable = field(default=lambda request: {})
    notices: Callable = field(default=lambda objects: [])  # what the law asks of the listed objects together


def _save_site(request, site, data):
    if site.pk:
        return services.update_site(acting_user=request.user, site=site, **data)
    return services.create_site(acting_user=request.user, organization=site.organization, **data)


def _save_table(request, table, data):
    if table.pk:
        data.pop("site", None)
        saved = services.update_table(acting_user=request.user, table=table, **data)
    else:
        saved = services.create_table(acting_user=request.user, **data)
    # ND 99-01.3-08-09(1): a change of limits posted and announced; the site's plaque notice is on
    # the tables' page the form goes back to, so not said twice.
    for warning in saved.warnings:
        if warning not in saved.site_notices:
            messages.warning(request, warning)
    return saved


def _save_chip(request, chip, data):
    if chip.pk:
        data.pop("value_cents", None)
        return services.update_chip_denomination(acting_user=request.user, chip=chip, **data)
    return services.create_chip_denomination(acting_user=request.user, organization=chip.organization, **data)


def _save_employee(request, employee, data):
    if employee.pk:
        return services.update_employee(acting_user=request.user, employee=employee, **data)
    role, site = data.pop("role", ""), data.pop("site", None)
    roles = [(role, site)] if role else []
    return services.create_employee(acting_user=request.user, organization=employee.organization, roles=roles, **data)


def _cards_only(table, value):
    """`value`, a figure of a card game's table, or a dash at a paddlewheel."""
    return "—" if table.game == Game.PADDLEWHEEL else value


SETUP: dict[str, SetupKind] = {
    "sites": SetupKind(
        "Sites",
        forms.SiteForm,
        (
            ("Name", "name"),
            ("Jurisdiction", "get_jurisdiction_display"),
            ("Time zone", "time_zone"),
            ("Day starts", "business_day_start_hour"),
            ("Seasonal", "seasonal"),
            ("Active", "active"),
        ),
        lambda access: access.sites(),
        lambda request: request_org_instance(request, "site"),
        _save_site,
    ),
    "tables": SetupKind(
        "Tables",
        forms.TableForm,
        (
            ("Site", "site"),
            ("Number", "number"),
            ("Game", "game_label"),
            ("Min", lambda t: format_money(t.min_wager_cents)),
            ("Max", lambda t: format_money(t.max_wager_cents)),
            ("Location", "get_location_display"),
            # A paddlewheel deals no cards: its decks and blackjack payout are no figure of its game.
            ("Decks", lambda t: _cards_only(t, t.decks)),
            ("Blackjack pays", lambda t: _cards_only(t, t.blackjack_payout)),
            ("Rules", lambda t: t.site.get_jurisdiction_display()),
            ("Active", "active"),
        ),
        lambda access: Table.objects.filter(site__in=access.sites()).select_related("site"),
        lambda request: Table(site=request.site),
        _save_table,
        lambda request: {"sites": access_for(request.user).sites()},
        limits_plaque_notices,  # ND 99-01.3-08-09(1): a plaque on each table where the limits differ
    ),
    "chips": SetupKind(
        "Chip denominations",
        forms.ChipDenominationForm,
        (
            ("Value", lambda c: format_money(c.value_cents)),
            ("Marking", "marking"),
            ("Primary colour", "primary_colour"),
            ("Edge spots", "edge_spots"),
            ("Edge colours", lambda c: " / ".join(x for x in (c.edge_colour, c.second_edge_colour) if x)),
            ("Active", "active"),
        ),
        lambda access: ChipDenomination.objects.filter(organization_id=access.organization_id),
        lambda request: ChipDenomination(organization=access_for(request.user).employee_org()),
        _save_chip,
        notices=marking_notices,  # ND 99-01.3-08-03(2): the chips recorded with no marking, named
    ),
    "employees": SetupKind(
        "Employees",
        forms.EmployeeForm,
        (
            ("Name", "name"),
            ("Login", "user.username"),
            ("Initials", "initials"),
            ("Type", "get_employment_type_display"),
            ("Supervisor", "supervisor"),
            ("Active", "active"),
        ),
        lambda access: visible_employees(access).select_related("user", "supervisor__user"),
        lambda request: request_org_instance(request, "employee"),
        _save_employee,
    ),
}


def request_org_instance(request, kind):
    from .models import Employee, Site

    organization = access_for(request.user).employee_org()
    if kind == "employee":
        return Employee(organization=organization)
    # A new site starts from the current site's pack, time zone and day start (a New York
    # organization's next site is not offered North Dakota's, the model's defaults).
    current = getattr(request, "site", None)
    if organization is None or current is None or current.organization_id != organization.pk:
        return Site(organization=organization)
    return Site(
        organization=organization,
        jurisdiction=current.jurisdiction,
        time_zone=current.time_zone,
        business_day_start_hour=current.business_day_start_hour,
    )


def _cell(obj, accessor):
    if callable(accessor):
        return accessor(obj)
    value = obj
    for part in accessor.split("."):
        value = getattr(value, part)
        value = value() if callable(value) else value
    if isinstance(value, bool):
        return "Yes" if value else "No"
    return "" if value is None else value


def _kind(kind: str) -> SetupKind:
    if kind not in SETUP:
        raise Http404("No such setup page.")
    return SETUP[kind]


@login_required
def setup_list(request, kind):
    setup = _kind(kind)
    access = access_for(request.user)
    if not access.org_roles:
        raise PermissionDenied(refusal(HOUSE_CONTROL, ORG_WIDE_ROLES, "see the setup pages"))
    objects = list(setup.queryset(access))
    rows = [(obj.pk, [_cell(obj, acc) for _, acc in setup.columns]) for obj in objects]
    return render(
        request,
        "cardroom/setup_list.html",
        {
            "kind": kind,
            "setup": setup,
            "headers": [h for h, _ in setup.columns],
            "rows": rows,
            "notices": setup.notices(objects),
            "can_edit": access.is_gaming_manager,
        },
    )


@login_required
def setup_edit(request, kind, pk=None):
    setup = _kind(kind)
    access = access_for(request.user)
    if not access.is_gaming_manager:
        raise PermissionDenied(refusal(HOUSE_CONTROL, [Role.GAMING_MANAGER], "change the setup"))
    instance = get_object_or_404(setup.queryset(access), pk=pk) if pk else setup.new_instance(request)
    form = setup.form_class(request.POST or None, instance=instance, **setup.form_kwargs(request))
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        saved = call_service(form, lambda: setup.save(request, instance, data))
        if saved is not None:
            return (
                redirect("setup_edit", kind=kind, pk=saved.pk)
                if kind == "employees"
                else redirect("setup_list", kind=kind)
            )
    context = {
        "kind": kind,
        "setup": setup,
        "form": form,
        "object": instance if instance.pk else None,
        "new": f"New {instance._meta.verbose_name}",  # "New table", not "New: tables"
    }
    if kind == "employees" and instance.pk:
        context.update(_employee_context(request, instance))
    # A refusal (the form's field rules, or the service's put on its fields) is shown inline with 400.
    return render(request, "cardroom/setup_edit.html", context, status=page_status(form))


def _employee_context(request, employee, membership_form=None, relation_form=None):
    sites = access_for(request.user).sites()
    return {
        "memberships": employee.memberships.select_related("site"),
        "relations": EmployeeRelation.objects.filter(employee=employee).select_related("relative__user"),
        "membership_form": membership_form or forms.MembershipForm(instance=Membership(employee=employee), sites=sites),
        "relation_form": relation_form or forms.RelationForm(instance=EmployeeRelation(employee=employee)),
    }


@login_required
@require_POST
def employee_add(request, pk, what):
    access = access_for(request.user)
    employee = get_object_or_404(visible_employees(access), pk=pk)
    if what == "membership":
        form = forms.MembershipForm(request.POST, instance=Membership(employee=employee), sites=access.sites())
        save = lambda: services.add_membership(acting_user=request.user, employee=employee, **form.cleaned_data)  # noqa: E731
        extra = {"membership_form": form}
    elif what == "relation":
        form = forms.RelationForm(request.POST, instance=EmployeeRelation(employee=employee))
        save = lambda: services.add_relation(acting_user=request.user, employee=employee, **form.cleaned_data)  # noqa: E731
        extra = {"relation_form": form}
    else:
        raise Http404("Nothing to add here.")
    if form.is_valid() and call_service(form, save) is not None:
        return redirect("setup_edit", kind="employees", pk=employee.pk)
    context = {
        "kind": "employees",
        "setup": SETUP["employees"],
        "object": employee,
        "form": forms.EmployeeForm(instance=employee),
    }
    context.update(_employee_context(request, employee, **extra))
    return render(request, "cardroom/setup_edit.html", context, status=400)


@login_required
@require_POST
def employee_remove(request, pk, what, item_pk):
    access = access_for(request.user)
    employee = get_object_or_404(visible_employees(access), pk=pk)
    if what == "membership":
        item = get_object_or_404(Membership, pk=item_pk, employee=employee)
        services.remove_membership(acting_user=request.user, membership=item)
    elif what == "relation":
        item = get_object_or_404(EmployeeRelation, pk=item_pk, employee=employee)
        services.remove_relation(acting_user=request.user, relation=item)
    else:
        raise Http404("Nothing to remove here.")
    return redirect("setup_edit", kind="employees", pk=employee.pk)
