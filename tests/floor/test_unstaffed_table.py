"""ND 99-01.3-08-03(4): "If a table has been opened and no employee is stationed at it, an employee
shall remove or secure the chip tray with a locking cover"; 08-07(1), (2): the dealer removes the
cards or covers them in the discard holder or shoe, and covers or removes the shoe. The pit board
says which open tables have no dealer stationed, while it stands, from the rows it already reads;
nothing at a site whose pack does not state it. Driven through the API: tray counts and dealer
shifts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from floor.models import DealerShift
from tests.compliance.test_no_nd_rule_at_other_packs import TABLES
from tests.factories import TableFactory

from .test_active_table import open_with_chips, post, relieve, seat

SAID = "ND 99-01.3-08-03(4), 08-07(1), (2): "


@pytest.fixture
def api(client_for, shift_manager):
    return client_for(shift_manager)


def standing(client, site) -> str | None:
    board = client.get(f"/floor/sites/{site.pk}/pit/live/").content.decode()
    if 'id="pit-unstaffed"' not in board:
        return None
    return board.split('id="pit-unstaffed"')[1].split(">", 1)[1].split("</div>")[0]


def test_an_open_table_without_a_dealer_is_said_until_one_is_seated_or_it_closes(
    client, shift_manager, api, site, table, chips, gaming_day, cast
):
    second = TableFactory(site=site, number=2, min_wager_cents=100, max_wager_cents=2500)
    client.force_login(shift_manager.user)
    assert standing(client, site) is None  # nothing opened yet
    open_with_chips(api, table)
    assert standing(client, site) == (
        f"{SAID}Table 1 is open with no dealer stationed: remove the chip tray or secure it with a locking cover, and "
        "remove the cards and the shoe or securely cover them (the cards in the discard holder or the shoe), until a "
        "dealer is seated or the closer is counted."
    )
    open_with_chips(api, second)
    assert standing(client, site).startswith(
        f"{SAID}Tables 1, 2 are open with no dealer stationed: remove the chip trays"
    )
    assert seat(api, table, cast[Role.DEALER]).status_code == 201
    assert standing(client, site).startswith(f"{SAID}Table 2 is open")
    relieve(api, DealerShift.objects.get(table=table).pk)  # the dealer leaves table 1, nobody seated after
    assert standing(client, site).startswith(f"{SAID}Tables 1, 2 are open")
    for each in (table, second):
        closer = {"table": each.pk, "kind": "closer", "chips": [{"denomination": 500, "quantity": 4}]}
        assert post(api, "/api/v1/table-inventories/", closer).status_code == 201
    assert standing(client, site) is None  # closed: nothing to secure at an open table


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_nothing_is_said_where_the_pack_does_not_state_it(
    client, shift_manager, api, site, table, chips, gaming_day, jurisdiction
):
    site.jurisdiction = jurisdiction
    site.save()
    open_with_chips(api, TableFactory(site=site, number=5, min_wager_cents=100, **TABLES[jurisdiction]))
    client.force_login(shift_manager.user)
    board = client.get(f"/floor/sites/{site.pk}/pit/live/").content.decode()
    assert 'id="pit-table-5"' in board and 'id="pit-unstaffed"' not in board


def test_saying_it_asks_no_query_more_for_more_unstaffed_tables(
    client, shift_manager, api, site, table, chips, gaming_day
):
    """From the rows the board already reads: one unstaffed table or three, the same queries."""
    client.force_login(shift_manager.user)
    open_with_chips(api, table)
    standing(client, site)  # the session and the access cache warm up alike for both

    def queries():
        with CaptureQueriesContext(connection) as captured:
            said = standing(client, site)
        return len(captured), said

    few, said = queries()
    assert said.startswith(f"{SAID}Table 1 is")
    for number in (2, 3):
        open_with_chips(api, TableFactory(site=site, number=number, min_wager_cents=100, max_wager_cents=2500))
    more, said = queries()
    assert said.startswith(f"{SAID}Tables 1, 2, 3 are") and more == few
