"""The dealer's home panel (`/floor/queues/to-receive/live/`, polled every few seconds) reads the
fills of the dealer's own table (floor.queries.fills_to_receive_at), not the site's whole slip
queues: the same slips as the queues' "to receive" of that table, in the same order, in the same
number of queries however many slips the site holds."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from floor import queries, services
from floor.models import SlipKind
from floor.open_items import open_items
from tests.factories import TableFactory, make_person

from .conftest import FILL, TRAY, in_day, today

LIVE = "/floor/queues/to-receive/live/"


def queues_fills_at(site, table) -> list[int]:
    """What the panel listed before: the site's queues to receive, kept to the table's fills."""
    waiting = queries.page_queues(site, queries.open_gaming_day(site)).awaiting_receipt
    return [s.pk for s in waiting if s.kind == SlipKind.FILL and s.table_number == table.number]


def listed(client) -> list[int]:
    """The fills the signed-in dealer's panel links to, in its order."""
    return [int(pk) for pk in re.findall(r'id="to-receive-(\d+)"', client.get(LIVE).content.decode())]


@pytest.fixture
def night(site, chips, table, cast, shift_manager):
    """Yesterday's verified fill at table 1 carried past the close; today tables 1 and 2 dealt,
    with fills prepared, verified, received and voided at both, and a credit verified at table 1."""
    user, cashier, boss = shift_manager.user, cast[Role.CASHIER].user, cast[Role.PIT_BOSS].user
    before = today(site) - timedelta(days=1)
    yesterday = services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before, 1))
    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY, at=in_day(site, before))
    services.start_dealer_shift(
        acting_user=user, table=table, dealer=cast[Role.DEALER], started_at=in_day(site, before, 2.5)
    )
    carried = services.prepare_fill(acting_user=cashier, table=table, chips=FILL, at=in_day(site, before, 3))
    services.verify_slip(acting_user=boss, slip=carried, at=in_day(site, before, 3.1))
    services.record_table_inventory(
        acting_user=user, table=table, kind="closer", chips=TRAY, at=in_day(site, before, 12)
    )
    keys = [item.key for item in open_items(yesterday) if item.carryable]
    services.carry_open_items(acting_user=user, gaming_day=yesterday, keys=keys, reason="Dealer left early.")
    services.close_gaming_day(acting_user=user, gaming_day=yesterday)

    services.open_gaming_day(acting_user=user, site=site, gaming_date=today(site))
    second = TableFactory(site=site, number=2)
    dealers = {table: cast[Role.DEALER], second: make_person(site.organization, Role.DEALER, site)}
    slips = {}
    for at, dealer in dealers.items():
        services.record_table_inventory(acting_user=user, table=at, kind="opener", chips=TRAY)
        services.start_dealer_shift(acting_user=user, table=at, dealer=dealer)
        made = {state: services.prepare_fill(acting_user=cashier, table=at, chips=FILL) for state in STATES}
        for state in ("verified", "received", "voided", "verified again"):
            services.verify_slip(acting_user=boss, slip=made[state])
        services.receive_slip(acting_user=dealer.user, slip=made["received"])
        services.void_slip(acting_user=cashier, slip=made["voided"], reason="Wrong table")
        slips[at] = made
    credit = services.prepare_credit(acting_user=boss, table=table, chips=FILL)
    services.verify_slip(acting_user=user, slip=credit)
    return {"tables": (table, second), "dealers": dealers, "slips": slips, "carried": carried, "credit": credit}


STATES = ("prepared", "verified", "received", "voided", "verified again")


def test_a_dealer_is_offered_the_same_fills_as_the_queues_held_for_their_table(client, night, site):
    """Only verified fills not received nor voided, of the day or carried past a close, at the
    dealer's own table, by number: never a fill only prepared, received, voided, another table's
    or a credit."""
    first, second = night["tables"]
    expected = {
        first: [night["carried"].pk, night["slips"][first]["verified"].pk, night["slips"][first]["verified again"].pk],
        second: [night["slips"][second]["verified"].pk, night["slips"][second]["verified again"].pk],
    }
    for table, dealer in night["dealers"].items():
        assert [s.pk for s in queries.fills_to_receive_at(table)] == queues_fills_at(site, table) == expected[table]
        client.force_login(dealer.user)
        assert listed(client) == expected[table]
    shown = queries.fills_to_receive_at(first)[0]
    before = next(s for s in queries.page_queues(site, None).awaiting_receipt if s.pk == shown.pk)
    assert shown == before  # the row's fields: kind, number, table number, total


def test_the_panel_asks_the_same_queries_however_many_slips_the_site_holds(client, night, site, cast):
    first, second = night["tables"]
    client.force_login(night["dealers"][first].user)
    listed(client)  # the session and the access cache warmed up alike for both

    def poll() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            shown = listed(client)
        return len(captured), len(shown)

    few, shown = poll()
    for at in (first, second, first):
        slip = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=at, chips=FILL)
        services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=slip)
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=at, chips=FILL)
    many, more = poll()
    assert more == shown + 2 and many == few
