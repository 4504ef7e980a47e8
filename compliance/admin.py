"""The thresholds of the rules in the Django admin: read by gaming managers and auditors; a
superuser adds a change of regulation as a new row with a later `effective_from` (audited on the
platform's chain); no row is ever edited or deleted, so a past period is judged by its own rule."""

from django.contrib import admin
from django.db import transaction

from cardroom.admin import SharedReferenceAdmin
from cardroom.audit import record_event, snapshot

from .models import Threshold


@admin.register(Threshold)
class ThresholdAdmin(SharedReferenceAdmin):
    list_display = ["code", "value", "unit", "citation", "effective_from"]
    list_filter = ["unit", "citation"]
    search_fields = ["code", "citation", "summary"]

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            obj.full_clean()
            obj._history_user = request.user
            obj.save()
            record_event(actor=request.user, action="threshold.added", obj=obj, after=snapshot(obj))
