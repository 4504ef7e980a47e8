"""The table fees page of the current site (WA-BJ): record a fee collection, the day-by-day
reconciliation of fees collected against the fee cash counted, and the latest collections. At a
site of another pack it says whose revenue model fees are and shows nothing else."""

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import access_for
from cardroom.models import Table
from cardroom.views import call_service
from packs import pack_for

from . import forms, queries, rules, services
from .models import FeeCollection

RECENT_DAYS = 7
RECENT_ROWS = 50


def _site(request):
    site, access = request.site, access_for(request.user)
    if site is None or not rules.FEE_RECORDS.allows(access, site.pk):
        raise PermissionDenied(rules.FEE_RECORDS.refusal())
    return site, access


def _page(request, site, access, *, form=None, void_failed=None, status=200):
    """The page: the fee form (for a collector), the reconciliation and the latest collections,
    each with both its times (when it happened, when it was entered) and, for a voider, a void
    form at each fee not voided yet."""
    today = timezone.localdate()
    voided = FeeCollection.objects.filter(voids=OuterRef("pk"))
    context = {
        "site": site,
        "pack": pack_for(site),
        "applies": True,
        "form": form,
        "can_void": access.has_role(site.pk, *rules.VOIDERS),
        "void_failed": void_failed,
        "days": queries.fee_days([site.pk], today - timedelta(days=RECENT_DAYS), today),
        "collections": FeeCollection.objects.filter(site=site)
        .select_related("table", "collected_by")
        .annotate(voided=Exists(voided))
        .order_by("-collected_at", "-id")[:RECENT_ROWS],
    }
    return render(request, "fees/page.html", context, status=status)


@login_required
def fee_page(request):
    site, access = _site(request)
    if not rules.keeps_table_fees(site):
        return render(request, "fees/page.html", {"site": site, "pack": pack_for(site), "applies": False})
    timezone.activate(ZoneInfo(site.time_zone))
    tables = Table.objects.filter(site=site, active=True).order_by("number")
    can_collect = access.has_role(site.pk, *rules.COLLECTORS)
    form = forms.FeeForm(request.POST or None, tables=tables, site=site) if can_collect else None
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(
                f"{rules.ROLE_RULE}: only a shift manager, pit boss or cashier collects a table fee."
            )
        done = form.is_valid() and call_service(
            form, lambda: services.record_fee(acting_user=request.user, **form.cleaned_data)
        )
        if done:
            return redirect("fees:page")
        return _page(request, site, access, form=form, status=400)
    return _page(request, site, access, form=form)


@login_required
@require_POST
def void_fee(request, pk):
    """Void a fee of the current site (a gaming or shift manager): its reason and, from paper, when
    it was voided; a refusal (fees.services.void_fee) shows at the fee's row and writes nothing."""
    site, access = _site(request)
    fee = get_object_or_404(FeeCollection, pk=pk, site=site)
    timezone.activate(ZoneInfo(site.time_zone))
    form = forms.VoidForm(request.POST)
    done = form.is_valid() and call_service(
        form,
        lambda: services.void_fee(
            acting_user=request.user,
            fee=fee,
            reason=form.cleaned_data["reason"],
            voided_at=form.cleaned_data["voided_at"],
        ),
    )
    if done:
        return redirect("fees:page")
    failed = {
        "pk": fee.pk,
        "reason": form.data.get("reason", ""),
        "voided_at": form.data.get("voided_at", ""),
        "errors": [message for messages in form.errors.values() for message in messages],
    }
    tables = Table.objects.filter(site=site, active=True).order_by("number")
    collect = forms.FeeForm(tables=tables, site=site) if access.has_role(site.pk, *rules.COLLECTORS) else None
    return _page(request, site, access, form=collect, void_failed=failed, status=400)
