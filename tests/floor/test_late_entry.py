"""Paper-first and late entry on the floor: every moment record accepts when it happened
(with an offset or in the site's local time), within the rules of core.moments; and
relief (seating the dealer on shift at the same table ends their previous shift)."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from core import hooks
from floor import services
from floor.models import DealerShift, Slip, TableInventory
from tests.factories import TableFactory

from .conftest import FILL, TRAY

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 7, 10, 21, 0, tzinfo=CHICAGO)  # gaming date 2026-07-10 (from 06:00 local)


def post(client, url, data=None):
    return client.post(url, data or {}, format="json")


@pytest.fixture
def now(time_machine):
    time_machine.move_to(NOW, tick=False)
    return NOW


@pytest.fixture
def day(now, site, shift_manager, chips):
    return services.open_gaming_day(
        acting_user=shift_manager.user, site=site, gaming_date=NOW.date(), at=NOW.replace(hour=8)
    )


def test_a_tray_count_keeps_the_time_it_was_counted(now, day, client_for, shift_manager, table):
    response = post(
        client_for(shift_manager),
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "chips": TRAY, "counted_at": "2026-07-10T19:00:00-05:00"},
    )
    assert response.status_code == 201, response.json()
    count = TableInventory.objects.get(pk=response.json()["id"])
    assert count.counted_at == datetime(2026, 7, 10, 19, 0, tzinfo=CHICAGO)
    assert count.entered_at == NOW
    assert response.json()["entered_late"] is True  # two hours after, past the 60-minute default


def test_a_time_without_offset_is_the_sites_local_time(now, day, client_for, shift_manager, table):
    response = post(
        client_for(shift_manager),
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "chips": TRAY, "counted_at": "2026-07-10T20:30:00"},
    )
    assert response.status_code == 201, response.json()
    count = TableInventory.objects.get(pk=response.json()["id"])
    assert count.counted_at == datetime(2026, 7, 10, 20, 30, tzinfo=CHICAGO)
    assert response.json()["entered_late"] is False  # 30 minutes: within the threshold


def test_a_slip_keeps_its_prepared_at_and_steps_their_times(now, day, client_for, shift_manager, cast, table):
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9)
    )
    services.start_dealer_shift(
        acting_user=shift_manager.user, table=table, dealer=cast[Role.DEALER], started_at=NOW.replace(hour=9)
    )
    response = post(
        client_for(cast[Role.CASHIER]),
        "/api/v1/fill-slips/",
        {"table": table.pk, "chips": FILL, "prepared_at": "2026-07-10T12:15:00-05:00"},
    )
    assert response.status_code == 201, response.json()
    slip_id = response.json()["id"]
    assert Slip.objects.get(pk=slip_id).prepared_at == datetime(2026, 7, 10, 12, 15, tzinfo=CHICAGO)
    verified = post(
        client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{slip_id}/verify/", {"verified_at": "2026-07-10T12:20:00"}
    )
    assert verified.status_code == 200, verified.json()
    assert verified.json()["verified_at"] == "2026-07-10T17:20:00Z"
    received = post(
        client_for(cast[Role.DEALER]), f"/api/v1/fill-slips/{slip_id}/receive/", {"received_at": "2026-07-10T12:25:00"}
    )
    assert received.status_code == 200, received.json()
    assert received.json()["received_at"] == "2026-07-10T17:25:00Z"


def test_a_slip_from_paper_is_not_dated_before_its_table_opened(now, day, client_for, shift_manager, cast, table):
    """Chips sent before the opener was counted would be counted twice (in the opener and on the
    slip): a slip is dated once its table opened, by its opener or its first dealer seated."""
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=19)
    )
    cashier = client_for(cast[Role.CASHIER])
    early = post(
        cashier, "/api/v1/fill-slips/", {"table": table.pk, "chips": FILL, "prepared_at": "2026-07-10T18:55:00"}
    )
    assert early.status_code == 400, early.json()
    assert early.json()["prepared_at"][0] == (
        f"House control: {table} was not open yet at 2026-07-10 18:55 CDT; it opened at 2026-07-10 19:00 CDT "
        "(its opener or its first dealer seated)."
    )
    assert not Slip.objects.exists()
    # A dealer seated before the opener was counted opened the table then.
    services.start_dealer_shift(
        acting_user=shift_manager.user,
        table=table,
        dealer=cast[Role.DEALER],
        started_at=NOW.replace(hour=18, minute=50),
    )
    seated = post(
        cashier, "/api/v1/fill-slips/", {"table": table.pk, "chips": FILL, "prepared_at": "2026-07-10T18:55:00"}
    )
    assert seated.status_code == 201, seated.json()


def test_a_step_cannot_precede_its_slip(now, day, client_for, shift_manager, cast, table):
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9)
    )
    slip = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL, at=NOW.replace(hour=12))
    refused = post(
        client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{slip.pk}/verify/", {"verified_at": "2026-07-10T11:59:00"}
    )
    assert refused.status_code == 400
    assert "verified_at" in refused.json()


@pytest.mark.parametrize(
    ("counted_at", "accepted"),
    [
        ("2026-07-10T21:05:00-05:00", True),  # at the clock tolerance
        ("2026-07-10T21:05:01-05:00", False),  # the future
        ("2026-07-10T06:00:00-05:00", True),  # the first moment of the gaming day
        ("2026-07-10T05:59:59-05:00", False),  # the previous gaming day's business hours
    ],
)
def test_a_written_time_is_not_in_the_future_and_inside_its_gaming_day(
    now, day, client_for, shift_manager, table, counted_at, accepted
):
    response = post(
        client_for(shift_manager),
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "chips": TRAY, "counted_at": counted_at},
    )
    if accepted:
        assert response.status_code == 201, response.json()
    else:
        assert response.status_code == 400, response.json()
        message = response.json()["counted_at"][0]
        # The rule is named: the regulation's business day, or the house control for the clock.
        assert message.startswith(("ND 99-01.3-", "House control:")), message
        assert ("future" in message) == counted_at.startswith("2026-07-10T21"), message


def test_a_moment_in_closed_books_is_refused_and_points_at_adjustments(now, site, shift_manager, chips, monkeypatch):
    monkeypatch.setattr(
        hooks.BOOKS_CLOSED,
        "_answers",
        [lambda site_id, gaming_date: "the books of 2026-07-09 are closed" if gaming_date.day == 9 else None],
    )
    with pytest.raises(ValidationError) as refused:
        services.open_gaming_day(
            acting_user=shift_manager.user,
            site=site,
            gaming_date=NOW.date() - timedelta(days=1),
            at=NOW.replace(hour=8) - timedelta(days=1),
        )
    message = refused.value.message_dict["opened_at"][0]
    assert "closed books" in message and "adjustment" in message


def test_the_late_entry_threshold_is_the_sites(now, day, site, client_for, shift_manager, table, manager):
    response = client_for(manager).patch(f"/api/v1/sites/{site.pk}/", {"late_entry_minutes": 180}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["late_entry_minutes"] == 180
    counted = post(
        client_for(shift_manager),
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "chips": TRAY, "counted_at": "2026-07-10T18:00:00-05:00"},
    )
    assert counted.json()["entered_late"] is False  # exactly three hours: not past 180 minutes
    refused = client_for(manager).patch(f"/api/v1/sites/{site.pk}/", {"late_entry_minutes": 0}, format="json")
    assert refused.status_code == 400
    assert "late_entry_minutes" in refused.json()


# --- Relief ---------------------------------------------------------------------------------------


def test_seating_the_dealer_on_shift_at_the_same_table_relieves_them(now, day, client_for, shift_manager, cast, table):
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9)
    )
    dealer = cast[Role.DEALER]
    client = client_for(shift_manager)
    first = post(
        client, "/api/v1/dealer-shifts/", {"table": table.pk, "dealer": dealer.pk, "started_at": "2026-07-10T09:00:00"}
    )
    assert first.status_code == 201, first.json()
    second = post(
        client, "/api/v1/dealer-shifts/", {"table": table.pk, "dealer": dealer.pk, "started_at": "2026-07-10T13:00:00"}
    )
    assert second.status_code == 201, second.json()
    previous = DealerShift.objects.get(pk=first.json()["id"])
    assert previous.ended_at == datetime(2026, 7, 10, 13, 0, tzinfo=CHICAGO)
    assert DealerShift.objects.filter(dealer=dealer, ended_at__isnull=True).count() == 1


def test_a_dealer_on_shift_is_still_not_seated_at_another_table(now, day, client_for, shift_manager, cast, table, site):
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9)
    )
    dealer = cast[Role.DEALER]
    services.start_dealer_shift(
        acting_user=shift_manager.user, table=table, dealer=dealer, started_at=NOW.replace(hour=9)
    )
    other = TableFactory(site=site, number=2)
    refused = post(client_for(shift_manager), "/api/v1/dealer-shifts/", {"table": other.pk, "dealer": dealer.pk})
    assert refused.status_code == 400
    assert "already on shift at" in refused.json()["dealer"][0]
    assert DealerShift.objects.get(dealer=dealer).ended_at is None


# --- Browser forms --------------------------------------------------------------------------------

TRAY_POST = {"qty_2500": "40", "qty_500": "160", "qty_100": "200"}


def test_the_opener_page_takes_the_time_from_the_paper_in_local_time(now, day, client, shift_manager, table):
    client.force_login(shift_manager.user)
    response = client.post(f"/floor/tables/{table.pk}/opener/", {**TRAY_POST, "counted_at": "2026-07-10T19:00"})
    assert response.status_code == 302
    assert TableInventory.objects.get(table=table).counted_at == datetime(2026, 7, 10, 19, 0, tzinfo=CHICAGO)


def test_the_opener_page_shows_the_rule_for_a_time_outside_the_gaming_day(now, day, client, shift_manager, table):
    client.force_login(shift_manager.user)
    response = client.post(f"/floor/tables/{table.pk}/opener/", {**TRAY_POST, "counted_at": "2026-07-10T05:30"})
    assert response.status_code == 400
    assert "ND 99-01.3-02-01" in response.content.decode() and not TableInventory.objects.exists()


@pytest.mark.parametrize("counted_at", ["0001-01-01T00:00:00", "1999-12-31T23:59:00", "9999-12-31T23:59:59"])
def test_a_local_time_outside_the_books_range_is_a_400_not_a_500(
    now, day, client_for, shift_manager, table, counted_at
):
    response = post(
        client_for(shift_manager),
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "chips": TRAY, "counted_at": counted_at},
    )
    assert response.status_code == 400
    assert "counted_at" in response.json()


def _prepared_fill(shift_manager, cast, table):
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9)
    )
    services.start_dealer_shift(
        acting_user=shift_manager.user, table=table, dealer=cast[Role.DEALER], started_at=NOW.replace(hour=9)
    )
    return services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL, at=NOW.replace(hour=12))


def test_a_verification_before_the_slips_preparation_is_refused_with_the_rule(
    now, day, client_for, shift_manager, cast, table
):
    slip = _prepared_fill(shift_manager, cast, table)
    refused = post(
        client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{slip.pk}/verify/", {"verified_at": "2026-07-10T11:59:00"}
    )
    assert refused.status_code == 400
    message = refused.json()["verified_at"][0]
    assert message.startswith("ND 99-01.3-08-05(5): ")
    assert (
        "is verified after its preparation; 2026-07-10 11:59 CDT is before its preparation (2026-07-10 12:00 CDT)"
        in message
    )
    assert not slip.steps.exists()


def test_a_receipt_before_the_slips_verification_is_refused_with_the_rule(
    now, day, client_for, shift_manager, cast, table
):
    slip = _prepared_fill(shift_manager, cast, table)
    verified = post(
        client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{slip.pk}/verify/", {"verified_at": "2026-07-10T12:20:00"}
    )
    assert verified.status_code == 200, verified.json()
    dealer = client_for(cast[Role.DEALER])
    early = post(dealer, f"/api/v1/fill-slips/{slip.pk}/receive/", {"received_at": "2026-07-10T12:10:00"})
    assert early.status_code == 400
    message = early.json()["received_at"][0]
    assert message.startswith("ND 99-01.3-08-05(6): ")
    assert "2026-07-10 12:10 CDT is before its verification (2026-07-10 12:20 CDT)" in message
    assert list(slip.steps.values_list("kind", flat=True)) == ["verify"]
    assert (
        post(dealer, f"/api/v1/fill-slips/{slip.pk}/receive/", {"received_at": "2026-07-10T12:25:00"}).status_code
        == 200
    )


def test_paper_slips_of_one_minute_entered_table_by_table_raise_no_false_out_of_order_alert(
    now, day, client_for, shift_manager, cast, site
):
    """ND 99-01.3-08-05(2): slips are used in sequential order. Paper slips of the same minute
    entered table by table (103 before 101) are judged by their printed numbers, not by the
    order they were entered; a number genuinely used after a higher one is still flagged."""
    from compliance.engine import run_day_checks
    from compliance.models import Alert
    from floor.services.slip_books import register_slip_book

    register_slip_book(acting_user=shift_manager.user, site=site, kind="fill", first_number=101, last_number=150)
    tables = {number: TableFactory(site=site, number=number) for number in (1, 2, 3)}
    for table in tables.values():
        services.record_table_inventory(
            acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=NOW.replace(hour=9)
        )
    cashier = client_for(cast[Role.CASHIER])

    def paper_fill(table_number, number, at):
        body = {"table": tables[table_number].pk, "chips": FILL, "number": number, "prepared_at": at}
        response = post(cashier, "/api/v1/fill-slips/", body)
        assert response.status_code == 201, response.json()

    for table_number, number in ((3, 103), (1, 101), (2, 102)):  # one minute, entered table by table
        paper_fill(table_number, number, "2026-07-10T12:15:00")
    paper_fill(1, 104, "2026-07-10T12:30:00")
    run_day_checks(site_ids=[site.pk], start=NOW.date(), end=NOW.date())
    assert not Alert.objects.filter(rule="slip_out_of_order").exists()

    paper_fill(2, 106, "2026-07-10T12:40:00")
    paper_fill(3, 105, "2026-07-10T12:50:00")  # printed 105, used after 106
    run_day_checks(site_ids=[site.pk], start=NOW.date(), end=NOW.date())
    flagged = Alert.objects.get(rule="slip_out_of_order")
    assert (flagged.subject, flagged.citation) == ("fill:105", "ND 99-01.3-08-05(2)")


def test_a_closer_dated_before_its_tables_opener_is_refused_with_the_rule(now, day, client_for, shift_manager, table):
    api = client_for(shift_manager)
    opener = {"table": table.pk, "kind": "opener", "chips": TRAY, "counted_at": "2026-07-10T19:00:00"}
    assert post(api, "/api/v1/table-inventories/", opener).status_code == 201
    early = post(api, "/api/v1/table-inventories/", {**opener, "kind": "closer", "counted_at": "2026-07-10T18:30:00"})
    assert early.status_code == 400
    message = early.json()["counted_at"][0]
    assert message.startswith("House control: the closer is counted after the table opened")
    assert "2026-07-10 18:30 CDT is before its opener (2026-07-10 19:00 CDT)" in message
    assert not TableInventory.objects.filter(kind="closer").exists()


def test_a_gaming_day_of_long_ago_opened_from_paper_is_late_and_the_floor_says_when(
    now, site, client_for, client, shift_manager
):
    # The second walk of the demo: a day of 2001 opened through the API read "entered_late": false
    # (opened "now", and now was its moment) and the floor said "open since 20:03" as if tonight.
    # Opened "now" it is refused since: now is no moment of that day; its paper's time is asked for.
    api, asked = client_for(shift_manager), {"site": site.pk, "gaming_date": "2001-01-01"}
    refused = post(api, "/api/v1/gaming-days/", asked)
    assert refused.status_code == 400 and "give the time on the paper" in refused.json()["opened_at"][0]
    opened = post(api, "/api/v1/gaming-days/", {**asked, "opened_at": "2001-01-01T20:03:00"})
    assert opened.status_code == 201, opened.json()
    assert opened.json()["entered_late"] is True
    client.force_login(shift_manager.user)
    status = client.get("/floor/").content.decode()
    assert "Gaming day Mon 2001-01-01 open since 20:03<" in status  # its own time, not tonight's


def test_tonights_gaming_day_opened_now_is_not_late_and_shows_its_hour(now, site, client_for, client, shift_manager):
    opened = post(client_for(shift_manager), "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": "2026-07-10"})
    assert opened.status_code == 201 and opened.json()["entered_late"] is False
    client.force_login(shift_manager.user)
    assert "Gaming day Fri 2026-07-10 open since 21:00<" in client.get("/floor/").content.decode()
