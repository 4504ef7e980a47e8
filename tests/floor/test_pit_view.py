"""The live pit view (issue 15): one page per site with every table's state, its dealer and
its waiting slips, and the queue counts; a fragment that the page polls (htmx). Scoped by
role and site: 404 for a site that is not the user's, 403 naming the rule for a role that
may not watch the pit."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom import pins
from cardroom.models import Role
from floor import services
from tests.conftest import ALL_ROLES
from tests.factories import TableFactory

from .conftest import FILL, TRAY

WATCHERS = {Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.GAMING_MANAGER, Role.AUDITOR}
ORG_WIDE = {Role.GAMING_MANAGER, Role.AUDITOR}


def pit_urls(site):
    return [f"/floor/sites/{site.pk}/pit/", f"/floor/sites/{site.pk}/pit/live/"]


@pytest.mark.parametrize("role", ALL_ROLES)
def test_the_pit_of_ones_own_site_is_shown_to_the_roles_that_watch_it(client, cast, site, table, role):
    client.force_login(cast[role].user)
    for url in [*pit_urls(site), "/floor/pit/"]:
        response = client.get(url)
        if role in WATCHERS:
            assert response.status_code == 200, url
            assert "Table 1" in response.content.decode()
        else:
            assert response.status_code == 403, url
            assert "House control: only" in response.content.decode()
            assert "may see the live pit view" in response.content.decode()


@pytest.mark.parametrize("role", ALL_ROLES)
def test_another_site_of_the_organization_is_not_found_unless_the_role_is_organization_wide(
    client, cast, other_site, role
):
    client.force_login(cast[role].user)
    for url in pit_urls(other_site):
        assert client.get(url).status_code == (200 if role in ORG_WIDE else 404), url


@pytest.mark.parametrize("role", ALL_ROLES)
def test_another_organizations_site_is_not_found_for_anyone(client, cast, stranger_site, role):
    client.force_login(cast[role].user)
    for url in pit_urls(stranger_site):
        assert client.get(url).status_code == 404, url


def test_a_pit_terminal_watches_its_own_site_only(client, cast, site, other_site, table):
    station = pins.create_station(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=site,
        username="pit-terminal-1",
        password="Ochre-Lantern-Drift-58",
        name="Pit 1 terminal",
    )
    client.force_login(station.user)
    for url in pit_urls(site):
        assert client.get(url).status_code == 200, url
    for url in pit_urls(other_site):
        assert client.get(url).status_code == 404, url


def board(client, site):
    return client.get(f"/floor/sites/{site.pk}/pit/live/").content.decode()


def test_the_board_follows_a_fill_from_issued_to_received(client, cast, dealer_shift, shift_manager):
    site, table = dealer_shift.table.site, dealer_shift.table
    TableFactory(site=site, number=2)
    client.force_login(shift_manager.user)
    page = board(client, site)
    assert "Gaming day" in page and "1 of 2 tables in play" in page
    assert str(cast[Role.DEALER]) in page and "No dealer seated" in page
    assert "0 to verify" in page and "No slip waiting." in page

    fill = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)
    page = board(client, site)
    assert "1 to verify" in page and f"Fill slip {fill.number}" in page and "$600.00" in page
    assert f"/floor/slips/{fill.pk}/" in page

    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    page = board(client, site)
    assert "0 to verify" in page and "1 to receive" in page

    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    page = board(client, site)
    assert "0 to receive" in page and "No slip waiting." in page


def test_the_board_shows_each_table_state(client, cast, site, chips, gaming_day, shift_manager):
    opened, closed, idle = (TableFactory(site=site, number=n) for n in (1, 2, 3))
    seated = TableFactory(site=site, number=4)
    for table in (opened, closed):
        services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    services.record_table_inventory(acting_user=shift_manager.user, table=closed, kind="closer", chips=TRAY)
    services.start_dealer_shift(acting_user=shift_manager.user, table=seated, dealer=cast[Role.DEALER])
    client.force_login(shift_manager.user)
    rows = client.get(f"/floor/sites/{site.pk}/pit/").context["board"].rows
    assert [(r.table.number, r.state) for r in rows] == [
        (1, "open"),
        (2, "closed"),
        (3, "not opened"),
        (4, "open without opener"),
    ]
    assert [r.table.number for r in rows if r.shift] == [4]


def test_fill_and_credit_are_offered_only_at_tables_in_play_to_those_who_prepare_them(
    client, cast, dealer_shift, other_site
):
    site = dealer_shift.table.site
    TableFactory(site=site, number=2)
    client.force_login(cast[Role.CASHIER].user)  # prepares fills, not credits (08-05(3))
    page = board(client, site)
    assert page.count("/floor/slips/new/fill/") == 1 and "/floor/slips/new/credit/" not in page
    client.force_login(cast[Role.AUDITOR].user)
    assert "/floor/slips/new/" not in board(client, site)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    assert "/floor/slips/new/" not in board(client, other_site)


def test_the_page_polls_its_fragment(client, shift_manager, site, table):
    client.force_login(shift_manager.user)
    page = client.get("/floor/pit/").content.decode()
    assert f'hx-get="/floor/sites/{site.pk}/pit/live/"' in page and 'hx-trigger="every 5s, pit-refresh"' in page


def test_the_pit_page_and_the_home_pages_panel_poll_as_often_as_the_setting_says(client, shift_manager, settings):
    settings.PIT_REFRESH_SECONDS = 2
    client.force_login(shift_manager.user)
    assert 'hx-trigger="every 2s, pit-refresh"' in client.get("/floor/pit/").content.decode()
    assert 'hx-trigger="load, every 2s"' in client.get("/").content.decode()
    assert 'hx-trigger="every 2s"' in client.get("/floor/queues/").content.decode()


def test_the_board_asks_the_same_number_of_queries_for_more_tables_and_slips(client, cast, dealer_shift):
    site = dealer_shift.table.site
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    board(client, site)  # the session and the access cache warm up alike for both

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert "Table" in board(client, site)
        return len(captured)

    few = queries()
    for number in range(2, 7):
        table = TableFactory(site=site, number=number)
        services.record_table_inventory(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=TRAY
        )
        services.start_dealer_shift(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, dealer=make_dealer(site))
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)
    assert queries() == few


def make_dealer(site):
    from tests.factories import make_person

    return make_person(site.organization, Role.DEALER, site)


def test_a_poll_after_the_session_ended_sends_the_browser_to_the_login_form(client, site):
    response = client.get(f"/floor/sites/{site.pk}/pit/live/", headers={"HX-Request": "true"})
    assert response.status_code == 200 and response["HX-Redirect"] == "/login/"
    assert client.get(f"/floor/sites/{site.pk}/pit/live/").status_code == 302


@pytest.mark.parametrize("role", ALL_ROLES)
def test_the_home_page_opens_on_the_pit_for_those_who_watch_it(client, cast, site, role):
    client.force_login(cast[role].user)
    page = client.get("/").content.decode()
    assert ('id="home-pit"' in page) == (role in WATCHERS)
    assert ("/floor/pit/" in page) == (role in WATCHERS)  # the menu's entry


def test_the_queues_refresh_themselves_from_their_fragment(client, cast, fill):
    client.force_login(cast[Role.PIT_BOSS].user)
    page = client.get("/floor/queues/").content.decode()
    assert 'hx-get="/floor/queues/live/"' in page and 'hx-trigger="every 5s"' in page
    fragment = client.get("/floor/queues/live/").content.decode()
    assert f"/floor/slips/{fill.pk}/" in fragment and "<html" not in fragment
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    fragment = client.get("/floor/queues/live/").content.decode()
    assert 'id="awaiting-receipt"' in fragment and f"/floor/slips/{fill.pk}/" in fragment


def test_one_table_not_yet_in_play_is_counted_as_one(client, gaming_day, table, shift_manager):
    client.force_login(shift_manager.user)
    assert "0 of 1 table in play" in board(client, table.site)  # not "0 of 1 tables"
