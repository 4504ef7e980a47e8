"""Fill and credit slips and books of slips in the Django admin: read-only (they are signed,
append-only records, ND 99-01.3-08-05), scoped to the gaming manager's organization. Slips are
prepared, verified, received and voided on the floor's pages and the API; books are registered
on the slip books page."""

from django.contrib import admin

from cardroom.admin import ORG_PATHS, AppendOnlyAdmin, ViewOnlyInline
from core.money import format_money

from .models import Slip, SlipBook, SlipLine, SlipStep

ORG_PATHS[Slip] = "site__organization_id"
ORG_PATHS[SlipBook] = "site__organization_id"


class SlipLineInline(ViewOnlyInline):
    model = SlipLine
    fields = ["value_cents", "quantity"]


class SlipStepInline(ViewOnlyInline):
    model = SlipStep
    fields = ["kind", "initials", "signed_as", "at", "reason"]


@admin.register(Slip)
class SlipAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "site", "table_number", "gaming_day", "prepared_at", "prepared_by", "total"]
    list_filter = ["kind", "purpose"]  # no site filter: it would list every organization's
    list_select_related = ["site", "gaming_day__site", "prepared_by__user"]
    search_fields = ["number"]
    inlines = [SlipLineInline, SlipStepInline]

    @admin.display(description="Total")
    def total(self, slip):
        return format_money(slip.total_cents)


@admin.register(SlipBook)
class SlipBookAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "site", "registered_at", "registered_by"]
    list_filter = ["kind"]
    list_select_related = ["site", "registered_by__user"]
