"""A gaming manager's page for the site's drop boxes and count settings: the register of boxes
(register, retire), the box exchange and the twenty-one auditor. Views parse and call one
service; a refusal shows the service's message inline. Custody (placing, removing) stays on the
boxes page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cardroom.access import access_for, refusal
from cardroom.models import Employee, Role, Table
from cardroom.views import refusal_text
from core.forms import call_service, page_status
from core.rules import HOUSE_CONTROL

from . import forms, queries, rules, services
from .models import CountAgreement, Drop, DropBox


def _site(request):
    site = request.site
    if site is None or not access_for(request.user).has_role(site.pk, Role.GAMING_MANAGER):
        raise PermissionDenied(
            refusal(HOUSE_CONTROL, [Role.GAMING_MANAGER], "manage the drop boxes and count settings")
        )
    return site


def _boxes(site):
    """The site's boxes with whether each is on its table or holds uncounted cash, in one query."""
    drops = Drop.objects.filter(drop_box=OuterRef("pk"))
    counted = CountAgreement.objects.filter(drop=OuterRef("pk"))
    return (
        DropBox.objects.filter(site=site)
        .select_related("table")
        .annotate(
            on_table=Exists(drops.filter(removal__isnull=True)),
            uncounted=Exists(drops.filter(removal__isnull=False).exclude(Exists(counted))),
        )
        .order_by("-active", "number", "label")
    )


def _post(request, site, settings_form, register_form):
    """Run the posted action; the redirect on success, None when a form shows errors."""
    action = request.POST.get("action")
    if action == "settings" and settings_form.is_valid():
        saved = call_service(
            settings_form,
            lambda: services.update_count_settings(acting_user=request.user, site=site, **settings_form.cleaned_data),
        )
        if saved is not None:
            messages.success(request, f"The count settings of {site} are saved.")
            for warning in saved.warnings:
                messages.warning(request, warning)
            return redirect("counts:drop_boxes")
    if action == "register" and register_form.is_valid():
        box = call_service(
            register_form, lambda: services.register_drop_box(acting_user=request.user, **register_form.cleaned_data)
        )
        if box is not None:
            messages.success(request, f"{box} is registered for table {box.table.number}.")
            return redirect("counts:drop_boxes")
    return None


def _forms(request, site):
    current = queries.count_settings(site)
    people = Employee.objects.filter(organization_id=site.organization_id, active=True).select_related("user")
    action = request.POST.get("action") if request.method == "POST" else None
    settings_form = forms.CountSettingsForm(
        request.POST if action == "settings" else None,
        people=people.exclude(pk__in=queries.count_team_at(site).values("pk")),  # the auditor checks the count
        site=site,
        initial={"box_exchange": current.box_exchange, "twenty_one_auditor": current.twenty_one_auditor_id},
    )
    register_form = forms.RegisterBoxForm(
        request.POST if action == "register" else None,
        tables=Table.objects.filter(site=site, active=True),
    )
    return current, settings_form, register_form


def _page(request, site, current, settings_form, register_form, error=""):
    return render(
        request,
        "counts/drop_boxes.html",
        {
            "site": site,
            "settings": current,
            "settings_form": settings_form,
            "register_form": register_form,
            "boxes": _boxes(site),
            "error": error,
            "fees_only": rules.fees_only_notice(site),
        },
        status=page_status(settings_form, register_form, refusal=error),
    )


@login_required
def drop_boxes(request):
    site = _site(request)
    current, settings_form, register_form = _forms(request, site)
    if request.method == "POST":
        done = _post(request, site, settings_form, register_form)
        if done is not None:
            return done
    return _page(request, site, current, settings_form, register_form)


@login_required
@require_POST
def retire_box(request, pk):
    """Retire one box of the current site; a refusal is shown on the page, inline."""
    site = _site(request)
    box = get_object_or_404(DropBox.objects.select_related("site"), pk=pk, site=site)
    try:
        services.retire_drop_box(acting_user=request.user, drop_box=box)
    except ValidationError as exc:
        return _page(request, site, *_forms(request, site), error=refusal_text(exc))
    messages.success(request, f"{box} is retired.")
    return redirect("counts:drop_boxes")
