"""The count settings and drop boxes in the Django admin, scoped to the gaming manager's
organization (as the cardroom's master data). Count settings are written through
`counts.services.update_count_settings`, so a change is checked and audited as on the page and
through the API; drop boxes are read here (with their history) and registered or retired on the
drop boxes page (`counts.services.register_drop_box`, `retire_drop_box`)."""

from django import forms
from django.contrib import admin, messages

from cardroom.admin import ORG_PATHS, OrgScopedAdmin, ViewOnlyMixin
from core.forms import offer_only

from . import queries, services
from .models import BoxExchange, CountSettings, DropBox
from .rules import dealer_hold_absent

ORG_PATHS[CountSettings] = "site__organization_id"


class CountSettingsAdminForm(forms.ModelForm):
    """The service's refusal of an exchange at each dealer change where no dealer has a hold
    (`rules.dealer_hold_absent`), at its field before `save_model` calls the service."""

    def clean(self):
        cleaned = super().clean()
        site = cleaned.get("site") or (self.instance.site if self.instance.site_id else None)
        if site is not None and cleaned.get("box_exchange") == BoxExchange.DEALER_SHIFT:
            if absent := dealer_hold_absent(site):
                self.add_error("box_exchange", absent)
        return cleaned


ORG_PATHS[DropBox] = "site__organization_id"


@admin.register(CountSettings)
class CountSettingsAdmin(OrgScopedAdmin):
    form = CountSettingsAdminForm
    list_display = ["site", "box_exchange", "twenty_one_auditor"]
    list_filter = ["box_exchange"]
    fields = ["site", "box_exchange", "twenty_one_auditor"]
    fixed_on_change = ("site",)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        picker = form.base_fields.get("twenty_one_auditor")
        exchange = form.base_fields.get("box_exchange")
        if obj is not None and exchange is not None and dealer_hold_absent(obj.site):
            # as the boxes page: no exchange at each dealer change where no dealer has a hold (the
            # site's own setting kept to show; one posted is refused at the field, above)
            offer_only(exchange, [BoxExchange.GAMING_DAY], recorded=obj.box_exchange)
        if obj is not None and picker is not None:
            # AUDITOR_BAR: the site's count team is not offered (CountSettings.clean refuses it anyway).
            picker.queryset = picker.queryset.exclude(pk__in=queries.count_team_at(obj.site).values("pk"))
        return form

    def save_model(self, request, obj, form, change):
        values = {name: form.cleaned_data[name] for name in ("box_exchange", "twenty_one_auditor")}
        saved = services.update_count_settings(acting_user=request.user, site=obj.site, **values)
        obj.pk = saved.pk
        for warning in saved.warnings:
            self.message_user(request, warning, level=messages.WARNING)


@admin.register(DropBox)
class DropBoxAdmin(ViewOnlyMixin, OrgScopedAdmin):
    list_display = ["__str__", "site", "table", "locks", "active"]
    list_filter = ["active"]
    list_select_related = ["site", "table__site"]
