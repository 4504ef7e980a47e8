"""The thresholds of the rules in the Django admin: read by gaming managers and auditors; a
superuser adds a change of regulation as a new row with a later `effective_from` (audited on the
platform's chain); no row is ever edited or deleted, so a past period is judged by its own rule."""

from django import forms
from django.contrib import admin
from django.db import transaction

from cardroom.access import access_for
from cardroom.admin import SharedReferenceAdmin
from core.audit import record_event, snapshot

from .models import Threshold


class ThresholdForm(forms.ModelForm):
    """A new row is refused at its `effective_from` where that date falls inside a quarter filed
    at a site whose pack reads the threshold: the model's own refusal (`Threshold.clean`, which
    the form runs), the one every write of a threshold passes, shown at the field."""

    class Meta:
        model = Threshold
        fields = ["code", "value", "unit", "citation", "summary", "effective_from"]


@admin.register(Threshold)
class ThresholdAdmin(SharedReferenceAdmin):
    form = ThresholdForm
    list_display = ["code", "value", "unit", "citation", "effective_from"]
    list_filter = ["unit", "citation"]
    search_fields = ["code", "citation", "summary"]

    def get_queryset(self, request):
        """A gaming manager or auditor reads the thresholds of their organization's packs and the
        house's own (as `/compliance/thresholds/` does); a superuser reads them all."""
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        from .threshold_views import organization_packs
        from .thresholds import codes_of

        return rows.filter(code__in=sorted(codes_of(organization_packs(access_for(request.user)))))

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            obj.full_clean()
            obj._history_user = request.user
            obj.save()
            record_event(actor=request.user, action="threshold.added", obj=obj, after=snapshot(obj))
