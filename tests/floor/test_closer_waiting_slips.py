"""The closer's page lets a table close with slips still waiting for their receipt (by design:
the gaming day's close lists and carries them, floor.open_items) and says so: it names each such
slip of the table (number, kind, amount), in a bounded number of queries."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from floor import services
from tests.factories import TableFactory

from .conftest import FILL, TRAY


def closer_page(client, user, table) -> str:
    client.force_login(user)
    response = client.get(f"/floor/tables/{table.pk}/closer/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_closer_page_lists_the_tables_slips_awaiting_receipt_and_says_they_are_carried(
    client, cast, site, open_table, dealer_shift, shift_manager
):
    cashier, boss, dealer = cast[Role.CASHIER], cast[Role.PIT_BOSS], cast[Role.DEALER]
    issued = services.prepare_fill(acting_user=cashier.user, table=open_table, chips=FILL)
    verified = services.prepare_fill(acting_user=cashier.user, table=open_table, chips=FILL[:1])
    services.verify_slip(acting_user=boss.user, slip=verified)
    received = services.prepare_fill(acting_user=cashier.user, table=open_table, chips=FILL[1:])
    services.verify_slip(acting_user=boss.user, slip=received)
    services.receive_slip(acting_user=dealer.user, slip=received)
    other = TableFactory(site=site, number=2)
    services.record_table_inventory(acting_user=shift_manager.user, table=other, kind="opener", chips=TRAY)
    elsewhere = services.prepare_fill(acting_user=cashier.user, table=other, chips=FILL)

    text = closer_page(client, shift_manager.user, open_table)
    assert 'id="slips-awaiting-receipt"' in text
    assert "2 slips of table 1 not received yet: the table may close with them." in text
    assert "The gaming day&#x27;s close lists each as an open item and carries it past the close" in text
    assert "(House control)" in text
    assert f'<li data-slip="{issued.pk}">Fill slip No. {issued.number} · $600.00 · not verified yet</li>' in text
    assert f'<li data-slip="{verified.pk}">Fill slip No. {verified.number} · $500.00</li>' in text
    assert f'data-slip="{received.pk}"' not in text and f'data-slip="{elsewhere.pk}"' not in text


def test_the_closer_page_reads_the_waiting_slips_in_the_same_queries_however_many(
    client, cast, open_table, shift_manager
):
    cashier = cast[Role.CASHIER]
    services.prepare_fill(acting_user=cashier.user, table=open_table, chips=FILL)
    closer_page(client, shift_manager.user, open_table)  # the session and caches warmed
    with CaptureQueriesContext(connection) as one:
        assert "1 slip of table 1 not received yet: the table may close with it." in closer_page(
            client, shift_manager.user, open_table
        )
    for _ in range(3):
        services.prepare_fill(acting_user=cashier.user, table=open_table, chips=FILL)
    with CaptureQueriesContext(connection) as four:
        assert "4 slips of table 1 not received yet" in closer_page(client, shift_manager.user, open_table)
    assert len(four) == len(one)


def test_a_table_with_no_slip_waiting_shows_no_such_list(client, open_table, shift_manager):
    text = closer_page(client, shift_manager.user, open_table)
    assert 'id="slips-awaiting-receipt"' not in text and "not received yet" not in text
