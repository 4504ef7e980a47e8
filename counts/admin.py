"""The count settings in the Django admin: scoped to the gaming manager's organization (as the
cardroom's master data) and written through `counts.services.update_count_settings`, so a
change is checked and audited as on the page and through the API."""

from django.contrib import admin

from cardroom.admin import ORG_PATHS, OrgScopedAdmin

from . import services
from .models import CountSettings

ORG_PATHS[CountSettings] = "site__organization_id"


@admin.register(CountSettings)
class CountSettingsAdmin(OrgScopedAdmin):
    list_display = ["site", "box_exchange", "twenty_one_auditor"]
    list_filter = ["box_exchange"]
    fields = ["site", "box_exchange", "twenty_one_auditor"]
    fixed_on_change = ("site",)

    def save_model(self, request, obj, form, change):
        values = {name: form.cleaned_data[name] for name in ("box_exchange", "twenty_one_auditor")}
        saved = services.update_count_settings(acting_user=request.user, site=obj.site, **values)
        obj.pk = saved.pk
