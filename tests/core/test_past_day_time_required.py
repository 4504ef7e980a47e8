"""A record of a gaming day already over gives the time on its paper (core.moments.occurred_at).

With no time given a record happened now; entered for a gaming day whose business hours are over
(or not begun), now is no moment of that day: the record would be stamped outside its own day (a
slip's time decides which dealer shift it counts toward). The API answers 400 naming the time
field and writes nothing; the same record with a time inside its day is accepted, and on the
current gaming day a blank time is now. The records that may come after their day's last hour
(`after_day_end`: a bank count, a drop placed, a close) or that follow it (`books_date`: the count)
still take now."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from cage.models import BankCount
from cardroom.models import Role
from core import moments
from counts import services as counts
from counts.models import Drop
from floor import services
from floor.models import DealerShift, Slip, TableInventory

CHICAGO = ZoneInfo("America/Chicago")
DAY = date(2026, 7, 10)  # the factory's site: America/Chicago, its gaming day from 06:00
DURING = datetime(2026, 7, 10, 9, 0, tzinfo=CHICAGO)
NEXT_DAY = datetime(2026, 7, 11, 10, 0, tzinfo=CHICAGO)  # gaming date 2026-07-11: DAY is over
TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}]
FILL = [{"denomination": 2500, "quantity": 20}]
BANK = {"cash": [{"value_cents": 2000, "quantity": 5}], "chips": [{"value_cents": 500, "quantity": 10}]}


def post(client, url, data):
    return client.post(url, data, format="json")


@pytest.fixture
def shift_manager(cast):
    return cast[Role.SHIFT_MANAGER]


@pytest.fixture
def day_in_play(time_machine, site, chips, table, cast, shift_manager):
    """DAY opened, `table` opened and a dealer seated, each at its paper time; then the clock
    moves to the next gaming day, DAY still open (its slips and closers are entered from paper)."""
    time_machine.move_to(DURING, tick=False)
    user = shift_manager.user
    services.open_gaming_day(acting_user=user, site=site, gaming_date=DAY, at=DURING.replace(hour=8))
    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY, at=DURING)
    services.start_dealer_shift(acting_user=user, table=table, dealer=cast[Role.DEALER], started_at=DURING)
    time_machine.move_to(NEXT_DAY, tick=False)
    assert moments.gaming_date_of(site, NEXT_DAY) > DAY
    return table


def refused_on(response, field: str) -> str:
    assert response.status_code == 400, response.json()
    message = response.json()[field][0]
    # The rule given is cited (the floor's record time: a house control), with the business day's
    # text, the gaming date named and the paper's time asked for.
    assert message.startswith("House control") and "ND 99-01.3-02-01" in message, message
    assert str(DAY) in message and "give the time on the paper" in message, message
    return message


def test_a_fill_slip_of_a_day_over_without_its_time_is_refused_and_nothing_written(day_in_play, client_for, cast):
    api = client_for(cast[Role.CASHIER])
    refused = post(api, "/api/v1/fill-slips/", {"table": day_in_play.pk, "chips": FILL})
    refused_on(refused, "prepared_at")
    assert not Slip.objects.exists()
    accepted = post(
        api, "/api/v1/fill-slips/", {"table": day_in_play.pk, "chips": FILL, "prepared_at": "2026-07-10T12:15:00"}
    )
    assert accepted.status_code == 201, accepted.json()
    assert Slip.objects.get().prepared_at == datetime(2026, 7, 10, 12, 15, tzinfo=CHICAGO)


def test_a_closer_of_a_day_over_without_its_time_is_refused_and_nothing_written(day_in_play, client_for, shift_manager):
    api = client_for(shift_manager)
    body = {"table": day_in_play.pk, "kind": "closer", "chips": TRAY}
    refused_on(post(api, "/api/v1/table-inventories/", body), "counted_at")
    assert not TableInventory.objects.filter(kind="closer").exists()
    assert DealerShift.objects.get().ended_at is None  # the closer did not end the shift either
    accepted = post(api, "/api/v1/table-inventories/", {**body, "counted_at": "2026-07-11T02:30:00-05:00"})
    assert accepted.status_code == 201, accepted.json()
    assert TableInventory.objects.get(kind="closer").counted_at == datetime(2026, 7, 11, 2, 30, tzinfo=CHICAGO)


def test_a_dealer_shift_of_a_day_over_without_its_time_is_refused_and_nothing_written(
    day_in_play, client_for, shift_manager, cast
):
    api = client_for(shift_manager)
    body = {"table": day_in_play.pk, "dealer": cast[Role.DEALER].pk}
    refused_on(post(api, "/api/v1/dealer-shifts/", body), "started_at")
    assert DealerShift.objects.count() == 1
    accepted = post(api, "/api/v1/dealer-shifts/", {**body, "started_at": "2026-07-10T14:00:00"})
    assert accepted.status_code == 201, accepted.json()
    assert DealerShift.objects.count() == 2


def test_the_service_refuses_too_naming_its_field(day_in_play, cast):
    with pytest.raises(ValidationError) as refused:
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=day_in_play, chips=FILL)
    assert list(refused.value.message_dict) == ["prepared_at"]


def test_on_the_current_gaming_day_a_blank_time_is_now(time_machine, site, chips, table, cast, client_for):
    time_machine.move_to(DURING, tick=False)
    shift_manager = cast[Role.SHIFT_MANAGER]
    api = client_for(shift_manager)
    opened = post(api, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(DAY)})
    assert opened.status_code == 201, opened.json()
    counted = post(api, "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": TRAY})
    assert counted.status_code == 201, counted.json()
    seated = post(api, "/api/v1/dealer-shifts/", {"table": table.pk, "dealer": cast[Role.DEALER].pk})
    assert seated.status_code == 201, seated.json()
    slip = post(client_for(cast[Role.CASHIER]), "/api/v1/fill-slips/", {"table": table.pk, "chips": FILL})
    assert slip.status_code == 201, slip.json()
    assert Slip.objects.get().prepared_at == DURING
    assert TableInventory.objects.get().counted_at == DURING and DealerShift.objects.get().started_at == DURING


def test_a_day_over_is_not_opened_without_its_time(time_machine, site, client_for, shift_manager):
    time_machine.move_to(NEXT_DAY, tick=False)
    api = client_for(shift_manager)
    refused_on(post(api, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(DAY)}), "opened_at")
    opened = post(
        api, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(DAY), "opened_at": "2026-07-10T08:00"}
    )
    assert opened.status_code == 201, opened.json()


def test_a_drop_box_for_a_day_not_begun_is_not_placed_now(time_machine, site, manager, shift_manager, client_for):
    """A counts record: placed for a gaming day not yet begun, now is before its business hours."""
    from tests.factories import TableFactory

    time_machine.move_to(DURING, tick=False)
    box = counts.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=7))
    api = client_for(shift_manager)
    refused = post(api, f"/api/v1/drop-boxes/{box.pk}/placements/", {"gaming_date": "2026-07-11"})
    assert refused.status_code == 400, refused.json()
    message = refused.json()["placed_at"][0]
    assert "2026-07-11" in message and "has not begun" in message and "give the time on the paper" in message
    assert not Drop.objects.exists()
    placed = post(api, f"/api/v1/drop-boxes/{box.pk}/placements/", {"gaming_date": str(DAY)})
    assert placed.status_code == 201, placed.json()
    assert Drop.objects.get().placed_at == DURING


def test_records_that_may_follow_their_day_still_take_now(time_machine, site, chips, cast, client_for, manager):
    """A bank count may come after its day's last hour (`after_day_end`), as may a drop box
    placement; entered the next day without a time they are now, marked late."""
    from tests.factories import TableFactory

    time_machine.move_to(NEXT_DAY, tick=False)
    cashier = cast[Role.CASHIER]
    counted = post(
        client_for(cashier),
        "/api/v1/cage/bank-counts/",
        {"site": site.pk, "gaming_date": str(DAY), "kind": "end", **BANK},
    )
    assert counted.status_code == 201, counted.json()
    count = BankCount.objects.get()
    assert count.counted_at == NEXT_DAY and count.entered_late
    box = counts.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=8))
    placed = post(
        client_for(cast[Role.SHIFT_MANAGER]), f"/api/v1/drop-boxes/{box.pk}/placements/", {"gaming_date": str(DAY)}
    )
    assert placed.status_code == 201, placed.json()


def test_the_fill_page_shows_the_refusal_at_its_time_field(day_in_play, client, cast):
    """The pages answer as the API: the message inline, nothing written, no error page."""
    client.force_login(cast[Role.CASHIER].user)
    grid = {"table": day_in_play.pk, "purpose": "regular", "qty_2500": "20"}
    response = client.post("/floor/slips/new/fill/", grid)
    assert response.status_code == 400
    text = response.content.decode().replace("&#x27;", "'")
    assert f"the gaming day {DAY} is over; give the time on the paper" in text
    assert not Slip.objects.exists()
    accepted = client.post("/floor/slips/new/fill/", {**grid, "prepared_at": "2026-07-10T12:15"})
    assert accepted.status_code == 302
    assert Slip.objects.get().prepared_at == datetime(2026, 7, 10, 12, 15, tzinfo=CHICAGO)
