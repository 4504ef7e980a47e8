"""A change of dealer on the pit terminal (a station's /floor/pit/): where the site exchanges its
drop boxes at each dealer change (house control: one drop per dealer shift), the change leads to
the box's removal first, on the drop boxes' page with only that table's box ticked, so the box
is credited to the outgoing dealer's shift, and the tray is counted at the change as on the
dealer page; with no other dealer to seat, the board offers no Seat or Change dealer and says why."""

import json
import re

import pytest

from cardroom import pins
from cardroom.models import Role
from counts import services as count_services
from counts.models import BoxExchange, Drop
from floor import services
from floor.models import TableInventory
from tests.factories import TableFactory, make_person

from .conftest import TRAY

PIN = "731904"


@pytest.fixture
def station(client, site, cast):
    for role in (Role.SHIFT_MANAGER, Role.DEALER, Role.PIT_BOSS, Role.COUNT_TEAM):
        pins.set_pin(acting_user=cast[role].user, employee=cast[role], pin=PIN)
    made = pins.create_station(acting_user=None, site=site, username="pit-c", password="terminal-password-1", name="C")
    client.force_login(made.user)
    return client


@pytest.fixture
def exchanged_at_changes(site, cast):
    count_services.update_count_settings(
        acting_user=cast[Role.GAMING_MANAGER].user, site=site, box_exchange=BoxExchange.DEALER_SHIFT
    )


def _pit_data(client) -> dict:
    page = client.get("/floor/pit/").content.decode()
    return json.loads(re.search(r'<script id="pit-data" type="application/json">(.*?)</script>', page, re.S).group(1))


def test_a_change_of_dealer_where_boxes_go_at_each_change_removes_the_box_first_and_counts_the_tray(
    station, site, org, cast, chips, dealer_shift, exchanged_at_changes
):
    manager = cast[Role.SHIFT_MANAGER]
    table = dealer_shift.table
    other = TableFactory(site=site, number=2, min_wager_cents=100, max_wager_cents=2500)
    services.record_table_inventory(acting_user=manager.user, table=other, kind="opener", chips=TRAY)
    box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
    count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table, label="B")
    other_box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=other)

    # The terminal's change of dealer says the box goes first, citing its rule, and where.
    data = _pit_data(station)
    assert data["tray_at_change"] is True
    assert data["box_at_change"]["note"].startswith("House control: ")
    assert "exchanges the drop box at each dealer change" in data["box_at_change"]["note"]
    assert data["box_at_change"]["url"] == "/counts/boxes/remove-all/"

    # There, only this table's box is ticked (the other table's box stays on it).
    page = station.get(f"/counts/boxes/remove-all/?table={table.pk}").content.decode()
    assert re.search(rf'value="{box.pk}" id="box_{box.pk}" checked', page)
    assert re.search(rf'value="{other_box.pk}" id="box_{other_box.pk}">', page)
    removal = {
        "gaming_date": str(dealer_shift.gaming_day.gaming_date),
        "boxes": [box.pk],
        "storage_place": "Office safe",
        "escorted_by": cast[Role.PIT_BOSS].pk,
        "key_holder": cast[Role.COUNT_TEAM].pk,
        "signer_badge": manager.initials,
        "signer_pin": PIN,
    }
    done = station.post("/counts/boxes/remove-all/", {**removal, "step": "confirm"})
    assert done.status_code == 302, done.content.decode()[-3000:]

    # Then the new dealer is seated as the terminal sends it, the tray counted at the change.
    newcomer = make_person(org, Role.DEALER, site)
    pins.set_pin(acting_user=newcomer.user, employee=newcomer, pin="731905")
    seated = station.post(
        "/api/v1/dealer-shifts/",
        {
            "table": table.pk,
            "dealer": newcomer.pk,
            "chips": [{"denomination": 2500, "quantity": 38}],
            "signer_badge": manager.initials,
            "signer_pin": PIN,
        },
        content_type="application/json",
    )
    assert seated.status_code == 201, seated.json()
    change = TableInventory.objects.get(table=table, kind=TableInventory.Kind.CHANGE)
    assert (change.total_cents, change.dealer_shift_id) == (95000, seated.json()["id"])
    # The box removed holds the outgoing dealer's shift, not the new one.
    assert Drop.objects.get(drop_box=box).dealer_shift_id == dealer_shift.pk


def test_the_dealer_page_says_the_box_goes_first_too_and_a_site_exchanging_once_a_day_says_nothing(
    client, station, site, cast, dealer_shift
):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    address = f"/floor/tables/{dealer_shift.table.pk}/dealer/"
    assert 'id="box-at-change"' not in client.get(address).content.decode()
    count_services.update_count_settings(
        acting_user=cast[Role.GAMING_MANAGER].user, site=site, box_exchange=BoxExchange.DEALER_SHIFT
    )
    page = client.get(address).content.decode()
    assert 'id="box-at-change"' in page and f"/counts/boxes/remove-all/?table={dealer_shift.table.pk}" in page
    assert "Tray count at the change (optional)" in page


def test_the_terminal_offers_no_box_exchange_where_boxes_go_once_a_day(station, dealer_shift):
    assert _pit_data(station)["box_at_change"] is None


def test_with_no_other_dealer_to_seat_the_board_offers_no_seat_and_says_why(station, org, site, dealer_shift):
    """Kingston's one dealer: the panel said "Nobody here may take this step" and still offered
    "Seat the dealer", which was refused as "House control: dealer is required"."""
    page = station.get("/floor/pit/").content.decode()
    assert "pit-seat" not in page
    assert "House control: no other dealer to seat (every dealer with a PIN here is dealing)." in page
    assert 'class="btn btn-outline-secondary flex-fill pit-relieve"' in page  # relieving still is offered
    second = make_person(org, Role.DEALER, site)
    pins.set_pin(acting_user=second.user, employee=second, pin="731906")
    page = station.get("/floor/pit/").content.decode()
    assert "pit-seat" in page and "no other dealer to seat" not in page
