"""No table opener, closer, fill or credit slip holds more chips of a value than the organization's
chip inventory log says exist (ND 99-01.3-03-09(6); House control where the pack states none):
refused when entered, naming the chips and the rule, nothing written; a quantity equal to what
exists is recorded; an organization keeping no log yet is refused nothing. A slip reads the
figure in its one context statement: the same number of queries with a log as without."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage import services as cage
from cardroom.models import Role
from floor import services
from floor.models import Slip, TableInventory

from .conftest import FILL, TRAY, today
from .test_slips import SQLITE_QUERIES

ND_INVENTORY = "ND 99-01.3-03-09(6)"
# The chips the log says exist: 100 $100 chips, 40 $25 chips (the tray's), plenty of $5 and $1.
LOG = {10000: 100, 2500: 40, 500: 1000, 100: 1000}


def receive(org, manager, site, chips=None):
    return cage.receive_chips(
        acting_user=manager.user,
        organization=org,
        chips=chips or LOG,
        received_on=today(site) - timedelta(days=1),
        reference="Invoice 7",
    )


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def refused(record: str, exist: int, quantity: int, money: str = "$100.00", at: str = ND_INVENTORY) -> str:
    return (
        f"{at}: the chip inventory log says {exist} {money} chips exist; {quantity} cannot be in one {record}. "
        "Recount, or record the chips received in the inventory log first."
    )


def slip_chips(quantity: int) -> list[dict]:
    return [{"denomination": 10000, "quantity": quantity}]


# --- Openers and closers ------------------------------------------------------------------------


def test_an_opener_holding_more_chips_than_exist_is_refused_and_not_recorded(org, site, table, chips, gaming_day, cast):
    receive(org, cast[Role.GAMING_MANAGER], site, {**LOG, 2500: 39})
    with pytest.raises(ValidationError) as error:
        services.record_table_inventory(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=TRAY
        )
    assert error.value.message_dict == {"chips": [refused("table opener", 39, 40, "$25.00")]}
    assert not TableInventory.objects.exists()


def test_an_opener_holding_exactly_the_chips_that_exist_is_recorded(org, site, table, chips, gaming_day, cast):
    receive(org, cast[Role.GAMING_MANAGER], site)  # 40 $25 chips: the tray's 40
    opener = services.record_table_inventory(
        acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=TRAY
    )
    assert opener.lines.get(value_cents=2500).quantity == 40


def test_a_closer_of_more_chips_than_exist_is_refused_by_the_api_and_the_page(
    org, site, open_table, cast, client, client_for
):
    receive(org, cast[Role.GAMING_MANAGER], site)
    shift = cast[Role.SHIFT_MANAGER]
    body = {"table": open_table.pk, "kind": "closer", "chips": slip_chips(500)}
    response = client_for(shift).post("/api/v1/table-inventories/", body, format="json")
    assert response.status_code == 400 and response.json() == {"chips": [refused("table closer", 100, 500)]}
    client.force_login(shift.user)
    response = client.post(f"/floor/tables/{open_table.pk}/closer/", {"qty_10000": "500"})
    assert response.status_code == 400 and refused("table closer", 100, 500) in page(response)
    assert not TableInventory.objects.filter(kind="closer").exists()
    response = client.post(f"/floor/tables/{open_table.pk}/closer/", {"qty_10000": "100"})
    assert response.status_code == 302
    assert TableInventory.objects.get(kind="closer").lines.get().quantity == 100


def test_a_value_the_log_never_received_has_no_chips_that_exist(org, site, table, chips, gaming_day, cast):
    receive(org, cast[Role.GAMING_MANAGER], site, {10000: 100})
    with pytest.raises(ValidationError) as error:
        services.record_table_inventory(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=TRAY
        )
    assert error.value.message_dict == {"chips": [refused("table opener", 0, 40, "$25.00")]}


def test_an_organization_keeping_no_inventory_log_is_refused_nothing(site, table, chips, gaming_day, cast):
    opener = services.record_table_inventory(
        acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=slip_chips(500)
    )
    assert opener.lines.get().quantity == 500


def test_chips_destroyed_no_longer_exist(org, site, table, chips, gaming_day, cast):
    manager = cast[Role.GAMING_MANAGER]
    receive(org, manager, site)
    cage.destroy_chips(acting_user=manager.user, organization=org, chips={10000: 30},
                       destroyed_on=today(site) - timedelta(days=1), reference="Witness: J. Doe")  # fmt: skip
    with pytest.raises(ValidationError) as error:
        services.record_table_inventory(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=slip_chips(71)
        )
    assert error.value.message_dict == {"chips": [refused("table opener", 70, 71)]}


# --- Fill and credit slips -------------------------------------------------------------------------


@pytest.mark.parametrize("kind, role", [("fill", Role.CASHIER), ("credit", Role.PIT_BOSS)])
def test_a_slip_of_more_chips_than_exist_is_refused_by_the_service(
    org, site, open_table, dealer_shift, cast, kind, role
):
    receive(org, cast[Role.GAMING_MANAGER], site)
    prepare = services.prepare_fill if kind == "fill" else services.prepare_credit
    with pytest.raises(ValidationError) as error:
        prepare(acting_user=cast[role].user, table=open_table, chips=slip_chips(500))
    assert error.value.message_dict == {"chips": [refused(f"{kind} slip", 100, 500)]}
    assert not Slip.objects.exists()
    slip = prepare(acting_user=cast[role].user, table=open_table, chips=slip_chips(100))
    assert slip.total_cents == 100 * 10000


def test_a_fill_of_more_chips_than_exist_is_refused_by_the_api_and_the_page(
    org, site, open_table, cast, client, client_for
):
    receive(org, cast[Role.GAMING_MANAGER], site)
    cashier = cast[Role.CASHIER]
    body = {"table": open_table.pk, "chips": slip_chips(500)}
    response = client_for(cashier).post("/api/v1/fill-slips/", body, format="json")
    assert response.status_code == 400 and response.json() == {"chips": [refused("fill slip", 100, 500)]}
    client.force_login(cashier.user)
    response = client.post("/floor/slips/new/fill/", {"qty_10000": "500", "purpose": "regular", "table": open_table.pk})
    assert response.status_code == 400 and refused("fill slip", 100, 500) in page(response)
    assert not Slip.objects.exists()


def test_a_slip_of_an_organization_keeping_no_log_is_refused_nothing(open_table, cast):
    slip = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=slip_chips(500))
    assert slip.total_cents == 500 * 10000


def test_a_slip_at_a_site_of_a_pack_stating_no_inventory_rule_cites_house_control(org, site, open_table, cast):
    site.jurisdiction = "WA-HB"
    site.save()
    receive(org, cast[Role.GAMING_MANAGER], site)
    with pytest.raises(ValidationError) as error:
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=slip_chips(500))
    assert error.value.message_dict == {"chips": [refused("fill slip", 100, 500, at="House control")]}


@pytest.mark.django_db(transaction=True)
def test_a_slip_reads_the_chips_that_exist_in_its_context_adding_no_query(org, site, open_table, dealer_shift, cast):
    receive(org, cast[Role.GAMING_MANAGER], site)
    for counted in (False, True):
        for prepare, role in ((services.prepare_fill, Role.CASHIER), (services.prepare_credit, Role.PIT_BOSS)):
            with CaptureQueriesContext(connection) as queries:
                prepare(acting_user=cast[role].user, table=open_table, chips=FILL)
            expected = 5 if connection.vendor == "postgresql" else SQLITE_QUERIES
            assert not counted or len(queries.captured_queries) == expected
    with pytest.raises(ValidationError):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=slip_chips(101))
