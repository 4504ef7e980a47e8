"""The Django admin, as a gaming manager of one organization while another organization has the
same kinds of records: a matrix over every registered ModelAdmin."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.forms import ModelChoiceField

from cardroom import services
from cardroom.admin import AppendOnlyAdmin, OrgScopedAdmin, SharedReferenceAdmin, SuperuserOnly
from cardroom.models import ChipDenomination, Employee, EmployeeRelation, Membership, Organization, Role, Site, Table
from compliance.models import Threshold
from core.models import AuditEvent
from counts import services as count_services
from counts.models import CountSettings, DropBox
from floor import services as floor_services
from floor.calculations import business_date
from floor.models import Slip, SlipBook
from tests.factories import (
    TABLE_OPTION_DEFAULTS,
    OrganizationFactory,
    SiteFactory,
    UserFactory,
    admin_role_added,
    make_chips,
    make_person,
)
from tests.shared_world import built_once

ORG_MODELS = [
    Organization,
    Site,
    Table,
    ChipDenomination,
    Employee,
    Membership,
    EmployeeRelation,
    CountSettings,
    DropBox,
    Slip,
    SlipBook,
    AuditEvent,
]
# Signed, append-only records: viewed in the admin, never added, changed or deleted there.
APPEND_ONLY_MODELS = [Slip, SlipBook]
# Registers written only through their pages' services: viewed (with history), never edited.
VIEW_ONLY_MODELS = [*APPEND_ONLY_MODELS, DropBox]
# Shared by every organization: read by their managers, a new row added by a superuser only.
SHARED_MODELS = [Threshold]


def build_org(name: str) -> dict:
    """An organization with one of each record, written through the services (so each has
    history and audit events), its gaming manager, a dealer under a supervisor and a relation."""
    org = OrganizationFactory(name=name)
    site = SiteFactory(organization=org, name=f"{name} Lodge")
    gm = make_person(org, Role.GAMING_MANAGER)
    table = services.create_table(acting_user=gm.user, site=site, number=1, min_wager_cents=100, max_wager_cents=2500)
    chip = make_chips(org)[500]
    shift = make_person(org, Role.SHIFT_MANAGER, site)
    dealer = make_person(org, Role.DEALER, site, supervisor=shift)
    services.update_employee(acting_user=gm.user, employee=dealer, initials=dealer.initials)
    services.update_site(acting_user=gm.user, site=site, business_day_start_hour=7)
    membership = services.add_membership(acting_user=gm.user, employee=dealer, role=Role.PIT_BOSS, site=site)
    relation = services.add_relation(acting_user=gm.user, employee=dealer, relative=shift, kind="sibling")
    count_settings = count_services.update_count_settings(acting_user=gm.user, site=site, box_exchange="dealer_shift")
    drop_box = count_services.register_drop_box(acting_user=gm.user, table=table)
    book = floor_services.register_slip_book(
        acting_user=gm.user, site=site, kind="credit", first_number=1, last_number=50
    )
    slip = _a_fill(site, table, shift, dealer)
    event = AuditEvent.objects.filter(organization=org).order_by("-seq").first()
    return {
        "gm": gm,
        Organization: org,
        Site: site,
        Table: table,
        ChipDenomination: chip,
        Employee: dealer,
        Membership: membership,
        EmployeeRelation: relation,
        CountSettings: count_settings,
        DropBox: drop_box,
        Slip: slip,
        SlipBook: book,
        AuditEvent: event,
    }


def _a_fill(site, table, shift, dealer):
    """A fill slip at `table` (opened with a tray), prepared by the shift manager with the chips
    issued by a dealer acting as cashier (ND 99-01.3-08-05(3)(c))."""
    from django.utils import timezone

    today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    floor_services.open_gaming_day(acting_user=shift.user, site=site, gaming_date=today)
    tray = [{"denomination": 500, "quantity": 100}]
    floor_services.record_table_inventory(acting_user=shift.user, table=table, kind="opener", chips=tray)
    chips = [{"denomination": 500, "quantity": 20}]
    return floor_services.prepare_fill(acting_user=shift.user, table=table, chips=chips, cashier=dealer)


@built_once
def world():
    """Two organizations with a record of every kind (built once for the module: tests/shared_world.py)."""
    return {"own": build_org("Prairie Charities"), "other": build_org("Badlands Boosters")}


@pytest.fixture
def gm_client(client, world):
    client.force_login(world["own"]["gm"].user)
    return client


def url(model, view, *args):
    from django.urls import reverse

    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_registered_admin_is_org_scoped_or_for_superusers_only():
    for model, model_admin in admin.site._registry.items():
        if model is AuditEvent:
            continue  # read-only, its queryset scoped (tested with the others below)
        if model in APPEND_ONLY_MODELS:
            expected = AppendOnlyAdmin
        elif model in SHARED_MODELS:
            expected = SharedReferenceAdmin
        else:
            expected = OrgScopedAdmin if model in ORG_MODELS else SuperuserOnly
        assert isinstance(model_admin, expected), f"{model._meta.label} is neither scoped nor superuser-only"


@pytest.mark.parametrize("model", ORG_MODELS, ids=lambda m: m.__name__)
def test_the_changelist_lists_only_the_own_organizations_rows(gm_client, world, model):
    response = gm_client.get(url(model, "changelist"))
    assert response.status_code == 200
    page = response.content.decode()
    assert url(model, "change", world["own"][model].pk) in page
    assert url(model, "change", world["other"][model].pk) not in page
    assert "Badlands" not in page


@pytest.mark.parametrize("model", ORG_MODELS, ids=lambda m: m.__name__)
def test_another_organizations_row_is_not_found(gm_client, world, model):
    own = gm_client.get(url(model, "change", world["own"][model].pk))
    assert own.status_code == 200
    other = gm_client.get(url(model, "change", world["other"][model].pk), follow=True)
    assert other.redirect_chain and other.redirect_chain[0][1] == 302
    assert "doesn’t exist" in other.content.decode() and "Badlands" not in other.content.decode()


@pytest.mark.parametrize("model", ORG_MODELS, ids=lambda m: m.__name__)
def test_history_pages_show_only_the_own_organizations_rows(gm_client, world, model):
    own = gm_client.get(url(model, "history", world["own"][model].pk))
    assert own.status_code == 200
    other = gm_client.get(url(model, "history", world["other"][model].pk))
    assert other.status_code in (302, 404)
    assert "Badlands" not in other.content.decode()


@pytest.mark.parametrize(
    "model", [m for m in ORG_MODELS if m is not AuditEvent and m not in APPEND_ONLY_MODELS], ids=lambda m: m.__name__
)
def test_a_past_version_of_another_organizations_row_is_not_found(gm_client, world, model):
    other = world["other"][model]
    version = other.history.latest("history_date").history_id
    response = gm_client.get(url(model, "simple_history", other.pk, version))
    assert response.status_code == 404
    mine = world["own"][model]
    own_version = mine.history.latest("history_date").history_id
    assert gm_client.get(url(model, "simple_history", mine.pk, own_version)).status_code == 200
    # A version number of another row does not open it under one's own row's id either.
    assert gm_client.get(url(model, "simple_history", mine.pk, version)).status_code == 404


def test_the_history_of_a_deleted_row_of_another_organization_is_not_found(gm_client, world):
    other = world["other"]
    membership_id = other[Membership].pk
    services.remove_membership(acting_user=other["gm"].user, membership=other[Membership])
    assert gm_client.get(url(Membership, "history", membership_id)).status_code == 404
    mine = world["own"]
    own_id = mine[Membership].pk
    services.remove_membership(acting_user=mine["gm"].user, membership=mine[Membership])
    assert gm_client.get(url(Membership, "history", own_id)).status_code == 200


@pytest.mark.parametrize("model", ORG_MODELS, ids=lambda m: m.__name__)
def test_delete_pages_are_refused(gm_client, world, model):
    for side in ("own", "other"):
        response = gm_client.get(url(model, "delete", world[side][model].pk))
        assert response.status_code == 403
    assert Membership.objects.filter(pk=world["other"][Membership].pk).exists()


def choice_fields(response):
    """Every model choice field of the page's form and of its inline forms."""
    forms = [response.context["adminform"].form]
    for inline in response.context.get("inline_admin_formsets") or []:
        forms.extend(inline.formset.forms)
        forms.append(inline.formset.empty_form)
    return [
        (form, name, field)
        for form in forms
        for name, field in form.fields.items()
        if isinstance(field, ModelChoiceField)
    ]


def other_org_rows(world) -> set:
    other = world["other"]
    return {other[m] for m in ORG_MODELS} | {
        other["gm"],
        other["gm"].user,
        other[Employee].user,
        *Employee.objects.filter(organization=other[Organization]),
        *[e.user for e in Employee.objects.filter(organization=other[Organization])],
    }


@pytest.mark.parametrize("view", ["add", "change"])
@pytest.mark.parametrize("model", [m for m in ORG_MODELS if m is not AuditEvent], ids=lambda m: m.__name__)
def test_form_choices_list_only_the_own_organizations_rows(gm_client, world, model, view):
    target = url(model, "add") if view == "add" else url(model, "change", world["own"][model].pk)
    response = gm_client.get(target)
    if response.status_code == 403:  # organizations, employees and view-only records are not added here
        assert view == "add" and model in (Organization, Employee, *VIEW_ONLY_MODELS)
        return
    assert response.status_code == 200
    foreign = other_org_rows(world)
    fields = choice_fields(response)
    for _form, name, field in fields:
        listed = set(field.queryset)
        assert not listed & foreign, f"{model.__name__}.{name} lists another organization's rows"
    page = response.content.decode()
    assert "Badlands" not in page


def test_the_employee_form_offers_only_the_own_organizations_sites_supervisors_and_logins(gm_client, world):
    response = gm_client.get(url(Employee, "change", world["own"][Employee].pk))
    fields = {name: field for _form, name, field in choice_fields(response)}
    own_org = world["own"][Organization]
    assert set(fields["supervisor"].queryset) == set(Employee.objects.filter(organization=own_org))
    assert set(fields["site"].queryset) == set(Site.objects.filter(organization=own_org))
    assert "user" not in fields  # a login never moves to another employee in the admin


TABLE_FORM = {
    "number": 5,
    "game": "21",
    "min_wager_cents": 100,
    "max_wager_cents": 2500,
    "location": "regular",
    "active": "on",
    "decks": 6,
    **TABLE_OPTION_DEFAULTS,
    "double_down": "equal",
    "tip_double_down": "not_permitted",
    "dealing_method": "no_peek",
}


def choice_refused(response, label: str) -> bool:
    """A 400 naming the field and House control before Django's words (cardroom.admin.StockWordsNamedMixin)."""
    said = f"House control: {label}: select a valid choice; that choice is not one of the available choices."
    return response.status_code == 400 and said in response.content.decode()


def test_another_organizations_site_is_not_accepted_for_a_table(gm_client, world):
    response = gm_client.post(url(Table, "add"), {**TABLE_FORM, "site": world["other"][Site].pk})
    assert choice_refused(response, "Site")
    assert not Table.objects.filter(number=5).exists()
    assert gm_client.post(url(Table, "add"), {**TABLE_FORM, "site": world["own"][Site].pk}).status_code == 302
    assert Table.objects.get(number=5).site == world["own"][Site]


def test_another_organizations_employee_or_site_is_not_accepted_for_a_role(gm_client, world):
    own, other = world["own"], world["other"]
    for employee, site, label in ((other[Employee], own[Site], "Employee"), (own[Employee], other[Site], "Site")):
        response = gm_client.post(url(Membership, "add"), {"employee": employee.pk, "site": site.pk, "role": "cashier"})
        assert choice_refused(response, label)
    assert not Membership.objects.filter(role="cashier").exists()


def test_another_organizations_employee_is_not_accepted_as_a_supervisor(gm_client, world):
    own, other = world["own"], world["other"]
    dealer = own[Employee]
    data = {
        "initials": dealer.initials,
        "employment_type": "gaming",
        "supervisor": other["gm"].pk,
        "active": "on",
        "memberships-TOTAL_FORMS": 0,
        "memberships-INITIAL_FORMS": 0,
    }
    response = gm_client.post(url(Employee, "change", dealer.pk), data)
    assert choice_refused(response, "Supervisor")
    dealer.refresh_from_db()
    assert dealer.supervisor == own[Employee].supervisor


def test_a_role_added_in_the_employee_page_goes_through_the_services(gm_client, world):
    own = world["own"]
    dealer = own[Employee]
    data = admin_role_added(dealer, own[Site], "cashier", supervisor=dealer.supervisor_id or "")
    n = dealer.memberships.count()
    assert gm_client.post(url(Employee, "change", dealer.pk), data).status_code == 302
    added = dealer.memberships.get(role="cashier")
    assert AuditEvent.objects.filter(action="membership.created", object_id=str(added.pk)).exists()
    data[f"memberships-{n}-site"] = world["other"][Site].pk
    data[f"memberships-{n}-role"] = "pit_boss"
    response = gm_client.post(url(Employee, "change", dealer.pk), data)
    assert choice_refused(response, "Site")  # the inline row's
    assert dealer.memberships.count() == n + 1 and not dealer.memberships.filter(site=world["other"][Site]).exists()


AUTOCOMPLETES = [
    (Table, "site", Site),
    (Employee, "supervisor", Employee),
    (Membership, "employee", Employee),
    (Membership, "site", Site),
    (EmployeeRelation, "relative", Employee),
]


@pytest.mark.parametrize("source,field,target", AUTOCOMPLETES, ids=lambda v: getattr(v, "__name__", v))
def test_autocomplete_finds_only_the_own_organizations_rows(gm_client, world, source, field, target):
    response = gm_client.get(
        "/admin/autocomplete/",
        {"app_label": "cardroom", "model_name": source._meta.model_name, "field_name": field, "term": ""},
    )
    assert response.status_code == 200
    found = {int(r["id"]) for r in response.json()["results"]}
    rows = target.objects.filter(organization=world["own"][Organization])
    assert found == {r.pk for r in rows}
    assert world["other"][target].pk not in found


def test_autocomplete_of_logins_is_for_superusers_only(gm_client, world):
    response = gm_client.get(
        "/admin/autocomplete/", {"app_label": "cardroom", "model_name": "employee", "field_name": "user", "term": ""}
    )
    assert response.status_code == 403


PLATFORM_MODELS = [m for m in admin.site._registry if m not in ORG_MODELS and m not in SHARED_MODELS]


@pytest.mark.parametrize("model", PLATFORM_MODELS, ids=lambda m: m._meta.label)
def test_platform_tables_are_closed_to_a_gaming_manager_even_with_model_permissions(gm_client, world, model):
    user = world["own"]["gm"].user
    user.user_permissions.set(Permission.objects.filter(content_type__app_label=model._meta.app_label))
    assert gm_client.get(url(model, "changelist")).status_code == 403
    assert gm_client.get(url(model, "add")).status_code == 403
    assert model._meta.label not in gm_client.get("/admin/").content.decode()


@pytest.mark.parametrize("model", PLATFORM_MODELS, ids=lambda m: m._meta.label)
def test_a_superuser_still_manages_the_platform_tables(client, world, model):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(url(model, "changelist")).status_code == 200


def test_the_admin_index_names_no_other_organization(gm_client, world):
    page = gm_client.get("/admin/").content.decode()
    assert "Badlands" not in page and "Card room" in page


def test_a_superuser_sees_both_organizations(client, world):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(url(Site, "changelist")).content.decode()
    assert "Prairie Charities Lodge" in page and "Badlands Boosters Lodge" in page


# --- view-only records: signed slips and books, drop boxes; the shared thresholds --------------


@pytest.mark.parametrize("model", VIEW_ONLY_MODELS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("superuser", [False, True], ids=["gaming manager", "superuser"])
def test_view_only_records_are_never_added_changed_or_deleted_in_the_admin(client, world, model, superuser):
    user = UserFactory(is_staff=True, is_superuser=True) if superuser else world["own"]["gm"].user
    client.force_login(user)
    row = world["own"][model]
    assert client.get(url(model, "changelist")).status_code == 200
    change = client.get(url(model, "change", row.pk))
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()
    assert client.get(url(model, "add")).status_code == 403
    assert client.post(url(model, "change", row.pk), {}).status_code == 403
    assert client.get(url(model, "delete", row.pk)).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_a_slips_page_shows_its_lines_and_steps_read_only(gm_client, world):
    slip = world["own"][Slip]
    page = gm_client.get(url(Slip, "change", slip.pk)).content.decode()
    assert "$100.00" in page or "10000" in page
    assert "Badlands" not in page


@pytest.fixture
def thresholds(db):
    from compliance.thresholds import ensure_seeded

    ensure_seeded()
    return Threshold.objects.order_by("pk")


def test_a_gaming_manager_reads_the_thresholds_but_adds_changes_or_deletes_none(gm_client, world, thresholds):
    row = thresholds.first()
    listed = gm_client.get(url(Threshold, "changelist"))
    assert listed.status_code == 200 and row.citation in listed.content.decode()
    assert gm_client.get(url(Threshold, "change", row.pk)).status_code == 200
    assert gm_client.get(url(Threshold, "add")).status_code == 403
    assert gm_client.post(url(Threshold, "change", row.pk), {"value": "1"}).status_code == 403
    assert gm_client.get(url(Threshold, "delete", row.pk)).status_code == 403


def test_a_dealer_does_not_open_the_thresholds_in_the_admin(client, world, thresholds):
    dealer = world["own"][Employee]
    dealer.user.is_staff = True
    dealer.user.save()
    client.force_login(dealer.user)
    assert client.get(url(Threshold, "changelist")).status_code == 403


def test_a_superuser_adds_a_change_of_regulation_as_a_new_row_audited(client, world, thresholds):
    from datetime import date

    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    data = {
        "code": "low_hold.ratio_21",
        "value": "0.12",
        "unit": "ratio",
        "citation": "ND 99-01.3-08-04(9)",
        "summary": "Amended.",
        "effective_from": "2030-01-01",
    }
    assert client.post(url(Threshold, "add"), data).status_code == 302
    added = Threshold.objects.get(code="low_hold.ratio_21", effective_from=date(2030, 1, 1))
    assert AuditEvent.objects.filter(action="threshold.added", object_id=str(added.pk)).exists()
    assert client.post(url(Threshold, "change", added.pk), {**data, "value": "0.5"}).status_code == 403
    assert client.get(url(Threshold, "delete", added.pk)).status_code == 403
