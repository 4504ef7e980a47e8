import pytest

from cardroom.models import Role, Table
from tests.conftest import ALL_ROLES, SITE_ROLES
from tests.factories import TABLE_OPTION_DEFAULTS


@pytest.mark.parametrize("role", ALL_ROLES)
def test_home_shows_the_users_site_and_roles(client, cast, site, role):
    client.force_login(cast[role].user)
    page = client.get("/").content.decode()
    assert site.name in page
    assert Role(role).label in page


@pytest.mark.parametrize("role,sees_setup", [(r, r in (Role.GAMING_MANAGER, Role.AUDITOR)) for r in ALL_ROLES])
def test_navigation_fits_the_role(client, cast, role, sees_setup):
    client.force_login(cast[role].user)
    page = client.get("/").content.decode()
    assert ("/setup/tables/" in page) == sees_setup


@pytest.mark.parametrize("role", SITE_ROLES + [Role.AUDITOR])
def test_only_the_gaming_manager_opens_a_setup_form(client, cast, role):
    client.force_login(cast[role].user)
    response = client.get("/setup/tables/new/")
    assert response.status_code == 403
    assert "House control: only a gaming manager may change the setup." in response.content.decode()


def test_the_auditor_reads_setup_lists_without_edit_links(client, cast, table):
    client.force_login(cast[Role.AUDITOR].user)
    page = client.get("/setup/tables/").content.decode()
    assert "Add" not in page and f"/setup/tables/{table.pk}/" not in page
    assert "$25.00" in page


def test_site_switcher_changes_the_current_site(client, manager, site, other_site):
    client.force_login(manager.user)
    response = client.post("/switch-site/", {"site": other_site.pk, "next": "/"}, follow=True)
    assert response.context["current_site"] == other_site


def test_site_switcher_returns_to_a_page_of_this_site(client, manager, site, other_site):
    client.force_login(manager.user)
    response = client.post("/switch-site/", {"site": other_site.pk, "next": "/dashboard/daily/?date=2026-11-01"})
    assert response.status_code == 302 and response["Location"] == "/dashboard/daily/?date=2026-11-01"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/phish",
        "//evil.example/",
        "http://testserver.evil.example/",
        "javascript:alert(1)",
        "/\\evil.example/",
        "https:///evil.example",
    ],
)
def test_site_switcher_never_redirects_off_site(client, manager, site, other_site, target):
    client.force_login(manager.user)
    response = client.post("/switch-site/", {"site": other_site.pk, "next": target})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session["current_site_id"] == other_site.pk


def test_switching_to_a_site_out_of_scope_is_not_found(client, cast, other_site, stranger_site):
    client.force_login(cast[Role.DEALER].user)
    assert client.post("/switch-site/", {"site": other_site.pk}).status_code == 404
    assert client.post("/switch-site/", {"site": stranger_site.pk}).status_code == 404


def test_gaming_manager_sets_up_a_table_in_the_browser(client, manager, site):
    client.force_login(manager.user)
    response = client.post(
        "/setup/tables/new/",
        {
            "site": site.pk,
            "number": 2,
            "game": "21",
            "min_wager_cents": "2.00",
            "max_wager_cents": "25",
            "location": "special_event",
            "active": "on",
            "decks": 6,
            "double_down": "equal",
            "tip_double_down": "not_permitted",
            "dealing_method": "no_peek",
            **TABLE_OPTION_DEFAULTS,
        },
    )
    assert response.status_code == 302
    table = Table.objects.get(site=site, number=2)
    assert (table.min_wager_cents, table.max_wager_cents, table.location) == (200, 2500, "special_event")


def test_gaming_manager_adds_an_employee_with_a_role_in_the_browser(client, manager, site):
    client.force_login(manager.user)
    response = client.post(
        "/setup/employees/new/",
        {
            "username": "newdealer",
            "password": "a-long-good-password-1",
            "first_name": "New",
            "last_name": "Dealer",
            "initials": "ND",
            "employment_type": "gaming",
            "active": "on",
        },
    )
    assert response.status_code == 302
    employee_url = response["Location"]
    pk = int(employee_url.rstrip("/").split("/")[-1])
    added = client.post(f"/setup/employees/{pk}/membership/add/", {"role": "dealer", "site": site.pk})
    assert added.status_code == 302
    refused = client.post(f"/setup/employees/{pk}/membership/add/", {"role": "dealer", "site": ""})
    assert refused.status_code == 400
    assert "House control: only gaming managers and auditors" in refused.content.decode()


def test_editing_another_organizations_object_is_not_found(client, manager, stranger_site):
    from tests.factories import TableFactory

    foreign = TableFactory(site=stranger_site, number=1)
    client.force_login(manager.user)
    assert client.get(f"/setup/tables/{foreign.pk}/").status_code == 404


def test_an_unknown_setup_page_is_not_found(client, manager):
    client.force_login(manager.user)
    assert client.get("/setup/nothing/").status_code == 404


def test_admin_shows_a_gaming_manager_only_their_organization(client, manager, table, stranger_site):
    from tests.factories import TableFactory

    foreign = TableFactory(site=stranger_site, number=9)
    client.force_login(manager.user)
    page = client.get("/admin/cardroom/table/").content.decode()
    assert f"/admin/cardroom/table/{table.pk}/change/" in page
    assert f"/admin/cardroom/table/{foreign.pk}/change/" not in page


def test_admin_edit_goes_through_the_rules_and_the_audit_log(client, manager, table):
    from core.models import AuditEvent
    from tests.factories import TABLE_OPTION_DEFAULTS

    client.force_login(manager.user)
    data = {
        **TABLE_OPTION_DEFAULTS,
        "site": table.site_id,
        "number": table.number,
        "game": "21",
        "min_wager_cents": 100,
        "max_wager_cents": 3000,
        "location": "regular",
        "active": "on",
        "decks": 6,
        "double_down": "equal",
        "tip_double_down": "not_permitted",
        "dealing_method": "no_peek",
    }
    response = client.post(f"/admin/cardroom/table/{table.pk}/change/", data)
    assert response.status_code == 400 and "ND 99-01.3-08-09(1)" in response.content.decode()
    data["max_wager_cents"] = 2000
    assert client.post(f"/admin/cardroom/table/{table.pk}/change/", data).status_code == 302
    table.refresh_from_db()
    assert table.max_wager_cents == 2000
    assert AuditEvent.objects.filter(action="table.updated", object_id=str(table.pk)).count() == 1


def test_a_dealer_cannot_enter_the_admin(client, cast):
    client.force_login(cast[Role.DEALER].user)
    assert client.get("/admin/").status_code == 302


@pytest.mark.unshared  # the demo on a database holding only its own rows
def test_demo_loader_is_idempotent(db):
    from cardroom.demo import load_demo
    from cardroom.models import Employee
    from core.audit_verify import verify_chain
    from core.models import AuditEvent

    load_demo()
    counts = (Employee.objects.count(), Table.objects.count(), AuditEvent.objects.count())
    load_demo()
    assert (Employee.objects.count(), Table.objects.count(), AuditEvent.objects.count()) == counts
    assert counts[0] == 18 and counts[1] == 11
    assert verify_chain().ok
