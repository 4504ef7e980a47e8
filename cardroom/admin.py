"""The Django admin, scoped to the gaming manager's organization and writing through the services."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from . import services
from .access import access_for
from .models import AuditEvent, ChipDenomination, Employee, EmployeeRelation, Membership, Organization, Site, Table


class OrgScopedAdmin(SimpleHistoryAdmin):
    """Visible to gaming managers (change) and auditors (view), only within their organization."""

    org_path = "organization"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.org_path}_id" if self.org_path != "pk" else "pk": access_for(request.user).organization_id})

    def has_module_permission(self, request):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser or access_for(request.user).is_gaming_manager

    has_add_permission = has_change_permission

    def has_delete_permission(self, request, obj=None):
        return False  # master data is deactivated, not deleted: history and slips point at it

    def save_model(self, request, obj, form, change):
        services.save_master_data(obj, acting_user=request.user)


@admin.register(Organization)
class OrganizationAdmin(OrgScopedAdmin):
    org_path = "pk"
    list_display = ["name", "licence_number"]

    def has_add_permission(self, request):
        return request.user.is_superuser


@admin.register(Site)
class SiteAdmin(OrgScopedAdmin):
    list_display = ["name", "organization", "jurisdiction", "time_zone", "business_day_start_hour", "seasonal", "active"]
    list_filter = ["jurisdiction", "active"]


@admin.register(Table)
class TableAdmin(OrgScopedAdmin):
    org_path = "site__organization"
    list_display = ["site", "number", "game", "min_wager_cents", "max_wager_cents", "location", "active"]
    list_filter = ["game", "active", "location"]


@admin.register(ChipDenomination)
class ChipDenominationAdmin(OrgScopedAdmin):
    list_display = ["value_cents", "primary_colour", "edge_spots", "organization", "active"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Employee)
class EmployeeAdmin(OrgScopedAdmin):
    list_display = ["__str__", "initials", "employment_type", "supervisor", "active"]
    list_filter = ["employment_type", "active"]


@admin.register(Membership)
class MembershipAdmin(OrgScopedAdmin):
    org_path = "employee__organization"
    list_display = ["employee", "role", "site"]


@admin.register(EmployeeRelation)
class EmployeeRelationAdmin(OrgScopedAdmin):
    org_path = "employee__organization"
    list_display = ["employee", "kind", "relative"]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["chain", "seq", "occurred_at", "actor_label", "action", "object_type", "object_id"]
    list_filter = ["chain", "action"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(organization_id=access_for(request.user).organization_id)

    def has_module_permission(self, request):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)

    has_view_permission = lambda self, request, obj=None: self.has_module_permission(request)  # noqa: E731

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
