"""ND 99-01.3-08-09(1) "active table" read as the text defines it (issue 32): "a table in which a
dealer and chips are present and available for play or has one or more players participating".
A table above the $3 ceiling may be active only while another active table of the site has a
minimum of $3 or less; the configuration flag (`Table.active`, in service) is not what makes a
table active. Driven through the API: tables, tray counts and dealer shifts."""

import pytest

from cardroom.models import Role, Table
from floor.models import DealerShift
from tests.factories import TableFactory, make_person

from .conftest import TRAY

RULE = "ND 99-01.3-08-09(1)"


def post(client, url, data):
    return client.post(url, data, format="json")


@pytest.fixture
def api(client_for, shift_manager):
    return client_for(shift_manager)


@pytest.fixture
def high(site):
    return TableFactory(site=site, number=2, min_wager_cents=500, max_wager_cents=2500)


def seat(api, table, dealer):
    return post(api, "/api/v1/dealer-shifts/", {"table": table.pk, "dealer": dealer.pk})


def open_with_chips(api, table):
    assert (
        post(api, "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": TRAY}).status_code == 201
    )


def test_a_table_in_service_above_three_dollars_is_configured_without_a_low_table(client_for, manager, site):
    """In service is not active: the rule applies at play, so configuring the table is accepted."""
    body = {"site": site.pk, "number": 7, "game": "21", "min_wager_cents": 500, "max_wager_cents": 2500}
    response = client_for(manager).post("/api/v1/tables/", body, format="json")
    assert response.status_code == 201, response.json()


def test_a_dealer_is_seated_above_three_dollars_only_beside_an_active_low_table(
    api, org, site, table, high, chips, gaming_day, cast
):
    open_with_chips(api, high)
    refused = seat(api, high, cast[Role.DEALER])
    assert refused.status_code == 400
    message = refused.json()["table"][0]
    assert message.startswith(f"{RULE}: ") and "a dealer and chips present and available for play" in message
    assert "$5.00 is above $3.00" in message and not DealerShift.objects.exists()

    # Table 1 ($1 minimum) in service but without chips counted or a dealer is not active either.
    other_dealer = make_person(org, Role.DEALER, site)
    assert seat(api, table, other_dealer).status_code == 201  # a dealer, but no chips yet
    assert seat(api, high, cast[Role.DEALER]).status_code == 400
    open_with_chips(api, table)  # now a dealer and chips: active
    seated = seat(api, high, cast[Role.DEALER])
    assert seated.status_code == 201, seated.json()


def test_the_minimum_of_the_only_active_table_is_not_raised_above_three_dollars(
    client_for, manager, api, table, chips, gaming_day, cast
):
    open_with_chips(api, table)
    assert seat(api, table, cast[Role.DEALER]).status_code == 201
    response = client_for(manager).patch(f"/api/v1/tables/{table.pk}/", {"min_wager_cents": 500}, format="json")
    assert response.status_code == 400
    assert response.json()["min_wager_cents"][0].startswith(f"{RULE}: ")
    table.refresh_from_db()
    assert table.min_wager_cents == 100


def test_a_table_out_of_play_may_be_raised_and_the_low_table_taken_out_of_service(
    client_for, manager, site, table, high
):
    """Neither table has a dealer and chips: the configuration changes are the house's."""
    api = client_for(manager)
    assert api.patch(f"/api/v1/tables/{table.pk}/", {"active": False}, format="json").status_code == 200
    assert api.patch(f"/api/v1/tables/{high.pk}/", {"min_wager_cents": 1000}, format="json").status_code == 200
    assert Table.objects.get(pk=high.pk).min_wager_cents == 1000


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_no_low_minimum_rule_where_the_pack_has_none(api, site, chips, gaming_day, cast, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    table = TableFactory(site=site, number=3, min_wager_cents=500, max_wager_cents=500)
    open_with_chips(api, table)
    assert seat(api, table, cast[Role.DEALER]).status_code == 201


# --- The low table's closer, said at once (the night's checks flag it after their grace) ---------


def close(api, table):
    response = post(api, "/api/v1/table-inventories/", {"table": table.pk, "kind": "closer", "chips": TRAY})
    assert response.status_code == 201, response.json()
    return response.json()["warnings"]


def both_in_play(api, org, site, table, high, cast):
    """Table 1 ($1) and table 2 ($5), each with chips and a dealer: both active."""
    open_with_chips(api, table)
    assert seat(api, table, make_person(org, Role.DEALER, site)).status_code == 201
    open_with_chips(api, high)
    assert seat(api, high, cast[Role.DEALER]).status_code == 201


def test_closing_the_low_table_while_a_higher_one_plays_is_said_at_once_in_the_api(
    api, org, site, table, high, chips, gaming_day, cast
):
    both_in_play(api, org, site, table, high, cast)
    (warning,) = close(api, table)
    assert warning.startswith(f"{RULE}: table 1 (minimum $1.00) is closed while table 2 (minimum $5.00) stays active")
    assert "Close it or seat a dealer at a table of $3.00 or less now" in warning
    assert close(api, high) == []  # the higher table closed after it: nothing left above the ceiling
    listed = api.get("/api/v1/table-inventories/", {"kind": "closer"}).json()["results"]
    assert listed and all("warnings" not in row for row in listed)  # the answer to the write, not the row


def test_no_warning_while_another_low_table_stays_in_play(api, org, site, table, high, chips, gaming_day, cast):
    both_in_play(api, org, site, table, high, cast)
    low_too = TableFactory(site=site, number=3, min_wager_cents=300, max_wager_cents=2500)
    open_with_chips(api, low_too)
    assert seat(api, low_too, make_person(org, Role.DEALER, site)).status_code == 201
    assert close(api, table) == []  # table 3 ($3) is still a low table in play
    (warning,) = close(api, low_too)  # the last low table
    assert "table 3 (minimum $3.00) is closed while table 2 (minimum $5.00) stays active" in warning


def test_the_closer_page_says_it_beside_the_closer_recorded(
    client, shift_manager, api, org, site, table, high, chips, gaming_day, cast
):
    both_in_play(api, org, site, table, high, cast)
    client.force_login(shift_manager.user)
    response = client.post(f"/floor/tables/{table.pk}/closer/", {"qty_2500": "40", "qty_500": "160", "qty_100": "200"})
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(response["Location"]).content.decode()
    assert "Closer of table 1 recorded." in page
    assert f"{RULE}: table 1 (minimum $1.00) is closed while table 2 (minimum $5.00) stays active" in page


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_no_closing_warning_where_the_pack_has_no_low_minimum_rule(api, site, chips, gaming_day, cast, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    low = TableFactory(site=site, number=3, min_wager_cents=100, max_wager_cents=500)
    higher = TableFactory(site=site, number=4, min_wager_cents=500, max_wager_cents=500)
    for each, dealer in ((low, make_person(site.organization, Role.DEALER, site)), (higher, cast[Role.DEALER])):
        open_with_chips(api, each)
        assert seat(api, each, dealer).status_code == 201
    assert close(api, low) == []


# --- The low table's dealer relieved with no one after: the table is no longer active --------------


def relieve(api, shift_id):
    response = post(api, f"/api/v1/dealer-shifts/{shift_id}/end/", {})
    assert response.status_code == 200, response.json()
    return response.json()["warnings"]


def test_relieving_the_low_tables_dealer_while_a_higher_one_plays_is_said_at_once(
    api, org, site, table, high, chips, gaming_day, cast
):
    both_in_play(api, org, site, table, high, cast)
    low_shift, high_shift = (DealerShift.objects.get(table=t) for t in (table, high))
    (warning,) = relieve(api, low_shift.pk)
    assert warning.startswith(f"{RULE}: table 1 (minimum $1.00) has no dealer now while table 2 (minimum $5.00)")
    assert "Seat a dealer at a table of $3.00 or less, or close it, now; the night's checks flag it" in warning
    assert relieve(api, high_shift.pk) == []  # the higher table: nothing left above the ceiling


def test_a_dealer_change_at_the_low_table_and_a_relief_beside_another_low_table_say_nothing(
    api, org, site, table, high, chips, gaming_day, cast
):
    both_in_play(api, org, site, table, high, cast)
    low_too = TableFactory(site=site, number=3, min_wager_cents=300, max_wager_cents=2500)
    open_with_chips(api, low_too)
    assert seat(api, low_too, make_person(org, Role.DEALER, site)).status_code == 201
    assert relieve(api, DealerShift.objects.get(table=table).pk) == []  # table 3 ($3) still in play
    seated = seat(api, table, make_person(org, Role.DEALER, site))  # back in play
    assert seated.status_code == 201
    assert relieve(api, DealerShift.objects.get(table=low_too, ended_at__isnull=True).pk) == []  # table 1 is


def test_the_relief_page_says_it_beside_the_dealer_leaving(
    client, shift_manager, api, org, site, table, high, chips, gaming_day, cast
):
    both_in_play(api, org, site, table, high, cast)
    client.force_login(shift_manager.user)
    shift = DealerShift.objects.get(table=table)
    response = client.post(f"/floor/dealer-shifts/{shift.pk}/end/", {})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert f"{shift.dealer} left table 1." in page
    assert f"{RULE}: table 1 (minimum $1.00) has no dealer now while table 2 (minimum $5.00) stays active" in page


# --- The pit board says it while it stands, whoever's step left it so ------------------------------


def test_the_pit_board_says_while_a_higher_minimum_plays_alone(
    client, shift_manager, api, org, site, table, high, chips, gaming_day, cast
):
    both_in_play(api, org, site, table, high, cast)
    client.force_login(shift_manager.user)

    def board():
        return client.get(f"/floor/sites/{site.pk}/pit/live/").content.decode()

    assert 'id="pit-low-minimum"' not in board()
    assert relieve(api, DealerShift.objects.get(table=table).pk)  # table 1 ($1) without a dealer
    standing = board().split('id="pit-low-minimum"')[1].split("</div>")[0]
    assert f"{RULE}: table 2 (minimum $5.00) is active with no active table at $3.00 or less beside it" in standing
    assert seat(api, table, make_person(org, Role.DEALER, site)).status_code == 201  # table 1 back in play
    assert 'id="pit-low-minimum"' not in board()


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_the_pit_board_says_nothing_of_it_where_the_pack_has_no_ceiling(
    client, shift_manager, api, site, chips, gaming_day, cast, jurisdiction
):
    site.jurisdiction = jurisdiction
    site.save()
    higher = TableFactory(site=site, number=4, min_wager_cents=500, max_wager_cents=500)
    open_with_chips(api, higher)
    assert seat(api, higher, cast[Role.DEALER]).status_code == 201
    client.force_login(shift_manager.user)
    board = client.get(f"/floor/sites/{site.pk}/pit/live/").content.decode()
    assert 'id="pit-table-4"' in board and 'id="pit-low-minimum"' not in board
