"""A change of dealer on the pit terminal (a station's /floor/pit/): where the site exchanges its
drop boxes at each dealer change (house control: one drop per dealer shift), the change removes
the table's box by the same act, before the new dealer's shift begins, so the box is credited to
the outgoing dealer's shift (it only said so and linked to the drop boxes' page, where a box
removed after the change was credited to the next dealer); a refused removal changes nothing; a
site exchanging once a day removes nothing; and the tray is counted at the change as on the
dealer page; with no other dealer to seat, the board offers no Seat or Change dealer and says why."""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom import pins
from cardroom.models import Role
from core.models import AuditEvent
from counts import services as count_services
from counts.models import BoxExchange, Drop, DropRemoval
from floor import services
from floor.models import DealerShift, TableInventory
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


def _newcomer(org, site):
    newcomer = make_person(org, Role.DEALER, site)
    pins.set_pin(acting_user=newcomer.user, employee=newcomer, pin="731905")
    return newcomer


def _change(station, table, dealer, manager, **fields):
    """The terminal's Change dealer, as static/floor/pit_terminal.js sends it."""
    body = {"table": table.pk, "dealer": dealer.pk, "signer_badge": manager.initials, "signer_pin": PIN, **fields}
    return station.post("/api/v1/dealer-shifts/", body, content_type="application/json")


def _removal(cast, **fields):
    """The removal's custody as the terminal sends it; a field given None is left out (not tapped)."""
    custody = {
        "remove_box": True,
        "box_escorted_by": cast[Role.PIT_BOSS].pk,
        "box_key_holder": cast[Role.COUNT_TEAM].pk,
        "box_storage_place": "Office safe",
        **fields,
    }
    return {name: value for name, value in custody.items() if value is not None}


def _state():
    """What a change of dealer may write: shifts (and their ends), drops, removals, tray counts and
    their audit events (a wrong PIN's own event, the PIN's, is not the change's)."""
    return (
        list(DealerShift.objects.order_by("pk").values_list("pk", "ended_at")),
        Drop.objects.count(),
        DropRemoval.objects.count(),
        TableInventory.objects.count(),
        AuditEvent.objects.filter(action__regex=r"^(drop|dealer_shift|table_inventory)\.").count(),
    )


def test_a_change_of_dealer_where_boxes_go_at_each_change_removes_the_box_credited_to_the_outgoing_shift(
    station, site, org, cast, chips, dealer_shift, exchanged_at_changes
):
    manager = cast[Role.SHIFT_MANAGER]
    table = dealer_shift.table
    other = TableFactory(site=site, number=2, min_wager_cents=100, max_wager_cents=2500)
    services.record_table_inventory(acting_user=manager.user, table=other, kind="opener", chips=TRAY)
    box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
    spare = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table, label="B")
    other_box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=other)

    # The terminal's change of dealer asks for the removal's custody, citing its rules.
    data = _pit_data(station)
    assert data["tray_at_change"] is True
    removal = data["box_at_change"]
    assert removal["note"].startswith("House control: ")
    assert "exchanges the drop box at each dealer change" in removal["note"]
    assert "ND 99-01.3-08-14" in removal["note"]
    assert removal["tables"][str(table.pk)] == {"boxes": [str(box)], "two_locks": False}
    assert removal["storage_place"] == "Office safe"
    assert [p["id"] for p in removal["key_holders"]] == [cast[Role.COUNT_TEAM].pk]
    assert cast[Role.PIT_BOSS].pk in [p["id"] for p in removal["escorts"]]

    # One act: the box removed at the change's moment, credited to the outgoing dealer's shift,
    # then the new dealer seated, the tray counted at the change.
    newcomer = _newcomer(org, site)
    seated = _change(
        station, table, newcomer, manager, chips=[{"denomination": 2500, "quantity": 38}], **_removal(cast)
    )
    assert seated.status_code == 201, seated.json()
    new_shift = DealerShift.objects.get(pk=seated.json()["id"])
    drop = Drop.objects.get(drop_box=box)
    assert drop.dealer_shift_id == dealer_shift.pk
    assert drop.removal.removed_at == new_shift.started_at
    assert drop.removal.transported_by == manager and drop.removal.escorted_by == cast[Role.PIT_BOSS]
    assert drop.removal.key_holder == cast[Role.COUNT_TEAM] and drop.removal.storage_place == "Office safe"
    dealer_shift.refresh_from_db()
    assert dealer_shift.ended_at == new_shift.started_at and new_shift.dealer == newcomer
    change = TableInventory.objects.get(table=table, kind=TableInventory.Kind.CHANGE)
    assert (change.total_cents, change.dealer_shift_id) == (95000, new_shift.pk)
    # The other table's box and the table's spare stay where they were.
    assert not Drop.objects.filter(drop_box__in=[spare, other_box]).exists()
    # The next change takes the spare, credited to the shift just begun.
    assert _pit_data(station)["box_at_change"]["tables"][str(table.pk)]["boxes"] == [str(spare)]


def test_a_refused_removal_changes_nothing_and_says_why_naming_its_rule(
    station, site, org, cast, dealer_shift, exchanged_at_changes
):
    manager = cast[Role.SHIFT_MANAGER]
    table = dealer_shift.table
    newcomer = _newcomer(org, site)

    # No box at the table: refused, the dealer not changed.
    before = _state()
    refused = _change(station, table, newcomer, manager, **_removal(cast))
    assert refused.status_code == 400
    assert refused.json()["remove_box"] == [
        f"House control: {site.name} exchanges the drop box at each dealer change, and table {table.number} has no "
        "drop box registered: register one on Drop boxes. The dealer was not changed."
    ]
    assert "no drop box registered" in _pit_data(station)["box_at_change"]["tables"][str(table.pk)]["refusal"]
    assert _state() == before

    box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
    # No escort, with the outgoing dealer on duty: the removal's rule, at its field; nothing changed.
    before = _state()
    refused = _change(station, table, newcomer, manager, **_removal(cast, box_escorted_by=None))
    assert refused.status_code == 400
    assert refused.json()["box_escorted_by"][0].startswith("ND 99-01.3-08-14(1): with more than one employee")
    assert _state() == before
    # A key holder who is not on the count team (ND 99-01.3-08-14(3) as the pack cites the keys).
    refused = _change(station, table, newcomer, manager, **_removal(cast, box_key_holder=cast[Role.PIT_BOSS].pk))
    assert refused.status_code == 400 and "count team member" in refused.json()["box_key_holder"][0]
    assert _state() == before
    # A wrong PIN: nothing removed, nobody seated.
    refused = _change(station, table, newcomer, manager, **_removal(cast), signer_pin="000000")
    assert refused.status_code == 403
    assert _state() == before
    dealer_shift.refresh_from_db()
    assert dealer_shift.ended_at is None and not Drop.objects.filter(drop_box=box).exists()

    # The box already removed (its cash not yet counted): refused, nothing changed.
    count_services.remove_drop_box(
        acting_user=manager.user,
        drop_box=box,
        gaming_date=dealer_shift.gaming_day.gaming_date,
        dealer_shift_id=dealer_shift.pk,
        storage_place="Office safe",
        key_holder=cast[Role.COUNT_TEAM],
        escorted_by=cast[Role.PIT_BOSS],
    )
    before = _state()
    refused = _change(station, table, newcomer, manager, **_removal(cast))
    assert refused.status_code == 400
    assert refused.json()["remove_box"][0].startswith(f"House control: {site.name} exchanges the drop box")
    assert "ND 99-01.3-08-14(1): its boxes are already removed" in refused.json()["remove_box"][0]
    assert _state() == before


def test_a_site_exchanging_once_a_day_removes_no_box_at_a_change_of_dealer(station, site, org, cast, dealer_shift):
    manager = cast[Role.SHIFT_MANAGER]
    table = dealer_shift.table
    box = count_services.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
    newcomer = _newcomer(org, site)
    # The terminal asks no removal there, and a change sent with one is refused, naming the field.
    assert _pit_data(station)["box_at_change"] is None
    before = _state()
    refused = _change(station, table, newcomer, manager, **_removal(cast))
    assert refused.status_code == 400
    assert refused.json()["remove_box"] == [
        f"House control: {site.name} does not exchange its drop boxes at each dealer change (its count settings): "
        "a change of dealer removes no box there."
    ]
    assert _state() == before
    # The terminal's change there: the dealer changed, no box removed.
    seated = _change(station, table, newcomer, manager)
    assert seated.status_code == 201, seated.json()
    assert not Drop.objects.filter(drop_box=box).exists()
    # Custody given without a removal is refused at its field.
    refused = _change(
        station, table, make_person(org, Role.DEALER, site), manager, box_key_holder=cast[Role.COUNT_TEAM].pk
    )
    assert refused.status_code == 400 and "box_key_holder" in refused.json()


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


def test_the_terminals_poll_at_a_box_exchange_site_asks_the_same_queries_for_more_tables_and_boxes(
    station, site, org, cast, dealer_shift, exchanged_at_changes
):
    """The removal's fields (each table's box or why none, the escorts, the count team) are read in
    a fixed number of queries, however many tables and boxes the site has."""
    manager, gaming_manager = cast[Role.SHIFT_MANAGER].user, cast[Role.GAMING_MANAGER].user
    count_services.register_drop_box(acting_user=gaming_manager, table=dealer_shift.table)
    live = f"/floor/sites/{site.pk}/pit/live/"
    station.get(live)  # the session and the access cache warm up alike for both

    def poll() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            text = station.get(live).content.decode()
        data = json.loads(re.search(r'id="pit-data" type="application/json">(.*?)</script>', text).group(1))
        return len(captured), len(data["box_at_change"]["tables"])

    few, tables = poll()
    for number in range(2, 5):
        table = TableFactory(site=site, number=number, min_wager_cents=100, max_wager_cents=2500)
        services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY)
        services.start_dealer_shift(acting_user=manager, table=table, dealer=make_person(org, Role.DEALER, site))
        for label in ("", "B"):
            count_services.register_drop_box(acting_user=gaming_manager, table=table, label=label)
    many, more = poll()
    assert (tables, more) == (1, 4) and many == few
