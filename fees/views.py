"""The table fees page of the current site (WA-BJ): record a fee collection, the day-by-day
reconciliation of fees collected against the fee cash counted, and the latest collections. At a
site of another pack it says whose revenue model fees are and shows nothing else."""

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils import timezone

from cardroom.access import access_for
from cardroom.models import Table
from cardroom.views import call_service
from packs import pack_for

from . import forms, queries, rules, services
from .models import FeeCollection

RECENT_DAYS = 7
RECENT_ROWS = 50


@login_required
def fee_page(request):
    site, access = request.site, access_for(request.user)
    if site is None or not rules.FEE_RECORDS.allows(access, site.pk):
        raise PermissionDenied(rules.FEE_RECORDS.refusal())
    context = {"site": site, "pack": pack_for(site), "applies": rules.keeps_table_fees(site)}
    if not context["applies"]:
        return render(request, "fees/page.html", context)
    timezone.activate(ZoneInfo(site.time_zone))
    tables = Table.objects.filter(site=site, active=True).order_by("number")
    can_collect = access.has_role(site.pk, *rules.COLLECTORS)
    form = forms.FeeForm(request.POST or None, tables=tables, site=site) if can_collect else None
    status = 200
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(f"{rules.ROLE_RULE}: only a shift manager, pit boss or cashier collects a table fee.")
        done = form.is_valid() and call_service(
            form, lambda: services.record_fee(acting_user=request.user, **form.cleaned_data)
        )
        if done:
            return redirect("fees:page")
        status = 400
    today = timezone.localdate()
    context.update(
        form=form,
        days=queries.fee_days([site.pk], today - timedelta(days=RECENT_DAYS), today),
        collections=FeeCollection.objects.filter(site=site).select_related("table", "collected_by")
        .order_by("-collected_at", "-id")[:RECENT_ROWS],
    )
    return render(request, "fees/page.html", context, status=status)
