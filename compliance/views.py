"""Alerts, the obligations calendar, and running the checks from the browser."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import access_for, refusal, require_role
from cardroom.models import Role
from cardroom.periods import Quarter
from cardroom.rules import HOUSE_CONTROL
from cardroom.views import call_service

from . import engine, services
from .engine import run_all
from .forms import RunForm, StepForm
from .menu import ALERT_ROLES
from .queries import alerts_for, obligations, status_of

STEP_SERVICES = {
    "acknowledge": services.acknowledge_alert,
    "document": services.document_alert,
    "resolve": services.resolve_alert,
}


def _require_alert_reader(request):
    if not access_for(request.user).all_roles() & ALERT_ROLES:
        raise PermissionDenied(refusal(HOUSE_CONTROL, ALERT_ROLES, "see the compliance pages"))


@login_required
def alert_list(request):
    _require_alert_reader(request)
    access = access_for(request.user)
    alerts = alerts_for(access).order_by("is_resolved", "due_date", "-opened_at")
    if request.GET.get("site"):
        alerts = alerts.filter(site_id=request.GET["site"])
    rows = [(a, status_of(a)) for a in alerts[:500]]
    return render(request, "compliance/alert_list.html", {
        "rows": rows, "today": timezone.localdate(), "run_form": RunForm(), "can_run": access.is_gaming_manager,
        **site_rules(request.site),
    })


def site_rules(site) -> dict:
    """The rules of the chosen site's jurisdiction pack only: the compliance rules that run there
    (each provider's first docstring line, which opens with its citation) and the pack's table
    rules (its citations). A WA or NY site lists no North Dakota rule."""
    if site is None:
        return {}
    from cardroom.packs import pack_for

    engine._load_providers()
    pack = pack_for(site)
    providers = [p for p in engine.QUARTER_PROVIDERS + engine.DAY_PROVIDERS
                 if site.jurisdiction in engine.jurisdictions_of(p)]
    checks = [(p.__doc__ or p.__name__).strip().splitlines()[0] for p in providers]
    table_rules = sorted(set(pack.citations.values()))
    return {"rules_site": site, "rules_pack": pack, "pack_checks": checks, "pack_table_rules": table_rules}


@login_required
def alert_detail(request, pk):
    _require_alert_reader(request)
    alert = get_object_or_404(alerts_for(access_for(request.user)), pk=pk)
    form = StepForm(request.POST or None)
    if request.method == "POST":
        service = STEP_SERVICES.get(request.POST.get("step"))
        if service is None:
            form.add_error(None, "Choose acknowledge, document or resolve.")
        elif form.is_valid():
            kwargs = {"note": form.cleaned_data["note"]}
            if service is not services.acknowledge_alert:
                kwargs["documentation"] = form.documentation()
            if call_service(form, lambda: service(acting_user=request.user, alert=alert, **kwargs)) is not None:
                return redirect("compliance:alert", pk=alert.pk)
    return render(request, "compliance/alert_detail.html", {
        "alert": alert, "status": status_of(alert), "form": form, "today": timezone.localdate(),
    }, status=400 if form.errors else 200)


@login_required
def calendar(request):
    _require_alert_reader(request)
    items = obligations(access_for(request.user), today=timezone.localdate())
    return render(request, "compliance/calendar.html", {"items": items, "today": timezone.localdate()})


@login_required
@require_POST
def run_checks(request):
    site = request.site
    if site is None:
        raise Http404("Choose a site first.")
    require_role(request.user, site, Role.GAMING_MANAGER, action="run the compliance checks", rule=HOUSE_CONTROL)
    form = RunForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors)
        quarter = Quarter.parse(form.cleaned_data["quarter"])
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("compliance:alerts")
    result = run_all(site_ids=[site.pk], quarter=quarter)
    messages.success(request, f"Checks run for {site.name}, {quarter}: {len(result.opened)} alert(s) opened, "
                              f"{result.already_open} already open.")
    return redirect("compliance:alerts")
