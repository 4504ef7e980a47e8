"""The Django admin, scoped to the gaming manager's organization and writing through the services.

Every view of an organization's records reads through `OrgScopedAdmin.get_queryset`: the change
list, the change page, the history pages (django-simple-history's, including records of deleted
rows), the autocomplete, and the choices of every foreign key on the add and change forms. A
gaming manager of one organization can neither see nor pick another organization's sites,
tables, employees or logins. The platform's own tables (logins, groups, lockouts, tokens,
sequences) have no organization: only a superuser sees them (`restrict_platform_admins`).
"""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.views import PasswordChangeView
from django.db.models import Model, QuerySet
from django.forms import BaseForm
from django.forms.models import BaseInlineFormSet
from django.http import Http404
from django.urls import reverse
from simple_history.admin import SimpleHistoryAdmin

from core.forms import NamesTheRule, answered_as_refused, page_status
from core.limits import digits
from core.models import AuditEvent

from . import services
from .access import access_for
from .forms import (
    AdminLoginCreationForm,
    AdminPasswordForm,
    AdminSignInForm,
    ChipDenominationAdminForm,
    OwnPasswordForm,
    SiteAdminForm,
    TableAdminForm,
)
from .models import (
    ChipDenomination,
    Employee,
    EmployeeRelation,
    Game,
    Membership,
    Organization,
    Site,
    Table,
    jurisdiction_choices,
)
from .table_rules import game_label, table_fields, table_games

# How each model reaches its organization, for querysets and form choices.
ORG_PATHS: dict[type[Model], str] = {
    Organization: "id",  # "id", not "pk": on a historical record the pk is the history id
    Site: "organization_id",
    Table: "site__organization_id",
    ChipDenomination: "organization_id",
    Employee: "organization_id",
    Membership: "employee__organization_id",
    EmployeeRelation: "employee__organization_id",
    AuditEvent: "organization_id",
}


def org_choices(model: type[Model], request) -> QuerySet | None:
    """The rows of `model` a non-superuser may pick in a form: their organization's only.
    None when the model is not tied to an organization (the field is then not offered)."""
    access = access_for(request.user)
    if model is get_user_model():
        return model.objects.filter(employee__organization_id=access.organization_id)
    path = ORG_PATHS.get(model)
    if path is None:
        return None
    return model._default_manager.filter(**{path: access.organization_id})


class OrgScopedFormMixin:
    """Every foreign key choice limited to the user's organization (listed and accepted)."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser:
            choices = org_choices(db_field.related_model, request)
            kwargs["queryset"] = choices if choices is not None else db_field.related_model._default_manager.none()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class RefusalStatusMixin:
    """A refused add, change or history-revert POST answers 400 with the same page (the form, its
    inline formsets and the refusal of a model's clean shown inline, nothing written), as every
    other browser page does (core.forms.page_status) and the API does; a valid one redirects as
    Django's admin does. Django's own admin answers 200 on a refused form."""

    def render_change_form(self, request, context, *args, **kwargs):
        response = super().render_change_form(request, context, *args, **kwargs)
        response.status_code = page_status(*forms_shown(context))
        return response

    def render_history_view(self, request, template, context, **kwargs):
        """django-simple-history's revert form (SimpleHistoryAdmin.history_form_view)."""
        response = super().render_history_view(request, template, context, **kwargs)
        response.status_code = page_status(*forms_shown(context))
        return response


class StockWordsNamedMixin:
    """Django's stock words on the admin's forms ("Enter a number.", "Select a valid choice. X is
    not one of the available choices.", "This field is required.") name the field's label and House
    control, as on every other browser page (core.forms.NamesTheRule): on the add and change form
    and the history revert form, whichever form class the admin gives (its own `form`, UserAdmin's
    `add_form`), and on each row of its inline formsets. A message a model's clean or a service
    gave, citing its own rule, stays as it is."""

    def get_form(self, request, obj=None, *args, **kwargs):  # UserAdmin's takes no positional `change`
        return naming_the_rule(super().get_form(request, obj, *args, **kwargs))

    def get_formsets_with_inlines(self, request, obj=None):
        for formset, inline in super().get_formsets_with_inlines(request, obj):
            yield type(formset.__name__, (formset,), {"form": naming_the_rule(formset.form)}), inline


def naming_the_rule(form_class: type[BaseForm]) -> type[BaseForm]:
    """`form_class` rewording Django's stock words as `NamesTheRule` does (itself when it already does)."""
    if issubclass(form_class, NamesTheRule):
        return form_class
    return type(form_class.__name__, (NamesTheRule, form_class), {})


def forms_shown(context) -> list:
    """The forms an admin page shows, for `page_status`: its form (bound on a POST) and its inline
    formsets (the change form's; the history revert form has none), whose errors the page lists
    together (admin.helpers.AdminErrorList). The history list shows no form."""
    adminform = context.get("adminform")
    inlines = context.get("inline_admin_formsets") or ()
    return [adminform.form if adminform else None, *(inline.formset for inline in inlines)]


class OrgScopedAdmin(RefusalStatusMixin, StockWordsNamedMixin, OrgScopedFormMixin, SimpleHistoryAdmin):
    """Visible to gaming managers (change) and auditors (view), only within their organization."""

    fixed_on_change: tuple[str, ...] = ()  # fields a non-superuser sees but never changes

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and not request.user.is_superuser:
            fields += [name for name in self.fixed_on_change if name not in fields]
        return fields

    def org_filter(self, request) -> dict:
        return {ORG_PATHS[self.model]: access_for(request.user).organization_id}

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(**self.org_filter(request))

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
        saved = services.save_master_data(obj, acting_user=request.user)
        for warning in getattr(saved, "warnings", ()):  # a table's (cardroom.table_limits)
            self.message_user(request, warning, level=messages.WARNING)

    # --- history (django-simple-history) --------------------------------------------------

    def get_history_queryset(self, request, history_manager, pk_name, object_id):
        """The history of a row of the user's organization, also after the row is gone."""
        qs = super().get_history_queryset(request, history_manager, pk_name, object_id)
        return qs if request.user.is_superuser else qs.filter(**self.org_filter(request))

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        """One past version (and its revert form): only of a row of the user's organization."""
        if not (digits(str(object_id)) and digits(str(version_id))):
            raise Http404("No such version.")
        history = self.model.history.filter(id=object_id, history_id=version_id)
        if not request.user.is_superuser:
            history = history.filter(**self.org_filter(request))
        if not history.exists():
            raise Http404("No such version among your organization's records.")
        return super().history_form_view(request, object_id, version_id, extra_context)


class ViewOnlyMixin:
    """Nobody adds, changes or deletes here, a superuser included: the rows are written only
    through their services (pages and API), which check and audit them."""

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AppendOnlyAdmin(ViewOnlyMixin, OrgScopedFormMixin, admin.ModelAdmin):
    """Signed, append-only records (core.appendonly: slips, slip books): read by the
    organization's gaming managers and auditors, scoped as `OrgScopedAdmin`; a correction is a
    new row made through the service, never an edit here."""

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{ORG_PATHS[self.model]: access_for(request.user).organization_id})

    def has_module_permission(self, request):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)


class ViewOnlyInline(ViewOnlyMixin, admin.TabularInline):
    """The lines of a record shown on its page (their parent's scope), never edited."""

    extra = 0

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)


class SharedReferenceAdmin(RefusalStatusMixin, StockWordsNamedMixin, SimpleHistoryAdmin):
    """Data of no organization that every organization's rules read (the thresholds of the
    regulations): viewed by gaming managers and auditors, added by a superuser as a new
    effective-dated row, never changed or deleted."""

    def has_module_permission(self, request):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Organization)
class OrganizationAdmin(OrgScopedAdmin):
    list_display = ["name", "licence_number"]
    search_fields = ["name"]

    def has_add_permission(self, request):
        return request.user.is_superuser


@admin.register(Site)
class SiteAdmin(OrgScopedAdmin):
    form = SiteAdminForm
    list_display = [
        "name",
        "organization",
        "jurisdiction",
        "time_zone",
        "business_day_start_hour",
        "late_entry_minutes",
        "seasonal",
        "active",
    ]
    list_filter = ["jurisdiction", "active"]
    search_fields = ["name"]


class GameFilter(admin.SimpleListFilter):
    """By game, each code named as the packs of the listed tables' sites name it ("Blackjack";
    "Twenty-one / Blackjack" across a North Dakota and a Washington site), never the model's label."""

    title = "game"
    parameter_name = "game"

    def lookups(self, request, model_admin):
        listed = model_admin.get_queryset(request)
        jurisdictions = sorted(set(listed.values_list("site__jurisdiction", flat=True)))
        out = []
        for code in Game.values:
            named = (game_label(j, code) for j in jurisdictions)
            names = list(dict.fromkeys(name for name in named if name)) or [Game(code).label]
            out.append((code, " / ".join(names)))
        return out

    def queryset(self, request, queryset):
        return queryset.filter(game=self.value()) if self.value() else queryset


@admin.register(Table)
class TableAdmin(OrgScopedAdmin):
    list_display = [
        "site",
        "number",
        "game_name",
        "min_wager_cents",
        "max_wager_cents",
        "location",
        "decks",
        "blackjack_payout",
        "tie_option",
        "banker",
        "active",
    ]
    list_filter = [GameFilter, "active", "location", "site__jurisdiction", "banker"]
    search_fields = ["site__name", "number"]
    autocomplete_fields = ["site"]
    fixed_on_change = ("site",)  # a table never moves to another site (`services.refuse_renaming_the_records`)
    form = TableAdminForm

    @admin.display(description="Game", ordering="game")
    def game_name(self, obj) -> str:
        """The game as the table's site's pack names it (`Table.game_label`)."""
        return obj.game_label

    def get_list_display(self, request):
        """A column of one pack's option (New York's tie option, Washington blackjack's banker) only
        where the pack of a listed table's site has that option: a North Dakota organization's list
        shows no tie option."""
        shown = self._listed_options(request)
        return [name for name in self.list_display if name in shown]

    def get_list_filter(self, request):
        shown = self._listed_options(request)
        return [name for name in self.list_filter if not isinstance(name, str) or name in shown]

    def _listed_options(self, request) -> set[str]:
        """The names of the list's columns and filters to show: every one that is no pack's option,
        and the options of the packs of the listed tables' sites."""
        codes = self.get_queryset(request).order_by().values_list("site__jurisdiction", flat=True).distinct()
        options = {field.name for field in Table._meta.concrete_fields} - set(common_fields())
        named = {name for name in (*self.list_display, *self.list_filter) if isinstance(name, str)}
        return (named - options) | {name for code in codes for name in table_fields(code)}

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The games the site's pack deals, each by its pack's name."""
        form = super().get_form(request, obj, change, **kwargs)
        site = obj.site if obj is not None else self._new_table_site(request)
        game = form.base_fields.get("game")
        if game is not None and site is not None:
            game.choices = table_games(site.jurisdiction)
        form.licence_site = site  # the options its law puts on the licence: the licence's, read-only
        return form

    def get_fields(self, request, obj=None):
        """The fields of the table's site's pack (a new table: of the site posted, asked by
        `?site=`, or the current site); with no site yet, those of every pack."""
        site = obj.site if obj is not None else self._new_table_site(request)
        return list(table_fields(site.jurisdiction) if site is not None else common_fields())

    def _new_table_site(self, request):
        site_id = request.POST.get("site") or request.GET.get("site")
        sites = Site.objects.all() if request.user.is_superuser else org_choices(Site, request)
        if site_id and digits(str(site_id)) and sites is not None:
            found = sites.filter(pk=int(site_id)).first()
            if found is not None:
                return found
        return getattr(request, "site", None)


@admin.register(ChipDenomination)
class ChipDenominationAdmin(OrgScopedAdmin):
    fixed_on_change = ("organization",)
    form = ChipDenominationAdminForm
    list_display = ["value_cents", "marking", "primary_colour", "edge_spots", "edge_colour", "organization", "active"]


class ScopedInlineFormSet(BaseInlineFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        # Each row's own id is one of this parent's rows (Django's default accepts any row's id).
        form.fields[self._pk_field.name].queryset = self.get_queryset()


class MembershipInline(OrgScopedFormMixin, admin.TabularInline):
    model = Membership
    formset = ScopedInlineFormSet
    extra = 0

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser or access_for(request.user).is_gaming_manager

    has_add_permission = has_delete_permission = has_change_permission


@admin.register(Employee)
class EmployeeAdmin(OrgScopedAdmin):
    fixed_on_change = ("organization", "user")  # a login never moves to another employee here
    list_display = ["__str__", "initials", "employment_type", "supervisor", "active"]
    list_filter = ["employment_type", "active"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "initials"]
    autocomplete_fields = ["supervisor"]
    inlines = [MembershipInline]

    def has_add_permission(self, request):
        # An employee is added on the setup page, which creates their login with them; the
        # admin never hands an existing login to another employee.
        return request.user.is_superuser

    def save_formset(self, request, form, formset, change):
        """Roles added, changed or removed here go through the services (audited, checked)."""
        instances = formset.save(commit=False)
        for membership in formset.deleted_objects:
            services.remove_membership(acting_user=request.user, membership=membership)
        for membership in instances:
            services.save_master_data(membership, acting_user=request.user)
        formset.save_m2m()


@admin.register(Membership)
class MembershipAdmin(OrgScopedAdmin):
    list_display = ["employee", "role_name", "site"]
    autocomplete_fields = ["employee", "site"]

    @admin.display(description="Role", ordering="role")
    def role_name(self, obj) -> str:
        """The role as its site names it (`Membership.role_label`: "Cashier" at a fees room)."""
        return obj.role_label


@admin.register(EmployeeRelation)
class EmployeeRelationAdmin(OrgScopedAdmin):
    list_display = ["employee", "kind", "relative"]
    autocomplete_fields = ["employee", "relative"]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["chain", "seq", "occurred_at", "actor_label", "action", "object_type", "object_id"]
    list_filter = ["chain", "action"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(organization_id=access_for(request.user).organization_id)

    def has_module_permission(self, request):
        return request.user.is_superuser or bool(access_for(request.user).org_roles)

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SuperuserOnly(RefusalStatusMixin, StockWordsNamedMixin):
    """For the platform's tables, which belong to no organization: logins, groups, lockouts,
    tokens, sequences. Model permissions granted to a gaming manager do not open them; a refused
    form answers 400 as the product's own admins do."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request, *args):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_delete_permission(self, request, obj=None):
        return self.has_module_permission(request)


class LoginAdmin(SuperuserOnly, UserAdmin):
    """The logins (superuser-only, as every platform table): a password set here, on the add page
    or the change password page, is refused in the product's words (`AdminPasswordForm`), and a
    refused one answers 400 as the rest of the admin does; Django's change password page answers 200."""

    add_form = AdminLoginCreationForm
    change_password_form = AdminPasswordForm

    def user_change_password(self, request, id, form_url=""):
        return answered_as_refused(request, super().user_change_password(request, id, form_url))


admin.site.unregister(get_user_model())  # django.contrib.auth's own UserAdmin, registered before this app's
admin.site.register(get_user_model(), LoginAdmin)
admin.site.login_form = AdminSignInForm  # its refusals answer 400 (config.urls: core.forms.refusing_with_400)


def own_password_change(request):
    """The admin's "Change password" of one's own login (AdminSite.password_change, which takes no
    other form) with the product's password form: a refused password answers 400 naming its rule,
    nothing changed; a kept one goes on to the admin's "done" page."""
    request.current_app = admin.site.name
    view = PasswordChangeView.as_view(
        form_class=OwnPasswordForm,
        success_url=reverse("admin:password_change_done"),
        extra_context=admin.site.each_context(request),
    )
    return answered_as_refused(request, view(request))


def restrict_platform_admins(site: admin.AdminSite = admin.site) -> None:
    """Make every admin registered by another app (auth, axes, knox, sequences...) superuser-only.
    Called from `CardroomConfig.ready()`, after the admin has discovered every app's admin."""
    for model, model_admin in list(site._registry.items()):
        scoped = OrgScopedAdmin | AppendOnlyAdmin | SharedReferenceAdmin | AuditEventAdmin | SuperuserOnly
        if isinstance(model_admin, scoped):
            continue
        restricted = type(f"SuperuserOnly{type(model_admin).__name__}", (SuperuserOnly, type(model_admin)), {})
        site.unregister(model)
        site.register(model, restricted)


def common_fields() -> tuple[str, ...]:
    """The Table fields of every pack (a form whose site is not yet known)."""
    codes = [code for code, _ in jurisdiction_choices()]
    every = [set(table_fields(code)) for code in codes]
    return tuple(name for name in table_fields(codes[0]) if all(name in f for f in every))
