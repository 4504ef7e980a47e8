"""Removing drop boxes from the pages at a site exchanging them at each dealer change (house
control): found walking the Bismarck demo, where neither the single removal form nor remove-all
asked for the dealer shift the service requires, so no box could be removed. Each drop now
names its table's latest dealer shift begun before the removal (as the day sheet reads its
rows); a table with none is refused, none invented. Once a gaming day, nothing changes. And
remove-all ticks only the boxes in use that day, not every spare box of a table in play."""

import html
import re
from datetime import timedelta

import pytest
import time_machine

from cardroom.models import Role
from counts import services
from counts.models import BoxExchange, Drop, DropRemoval
from floor import services as floor
from tests.factories import make_person

from .conftest import AFTER_CLOSE, EVENING, GAMING_DATE

TRAY = [{"denomination": 2500, "quantity": 40}]


@pytest.fixture
def night(org, site, tables, boxes, chips, shift_manager, cast):
    """GAMING_DATE: table 1 opened, dealt by one dealer from 21:00 then another from 23:00 to
    01:00; table 2 never dealt. Spare boxes 1B and 1C registered for table 1."""
    manager = cast[Role.GAMING_MANAGER].user
    spares = [services.register_drop_box(acting_user=manager, table=tables[0], label=x) for x in ("B", "C")]
    first, second = cast[Role.DEALER], make_person(org, Role.DEALER, site)
    with time_machine.travel(EVENING, tick=False):
        floor.open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=GAMING_DATE)
        floor.record_table_inventory(acting_user=shift_manager.user, table=tables[0], kind="opener", chips=TRAY)
        early = floor.start_dealer_shift(acting_user=shift_manager.user, table=tables[0], dealer=first)
    with time_machine.travel(EVENING + timedelta(hours=2), tick=False):
        late = floor.start_dealer_shift(acting_user=shift_manager.user, table=tables[0], dealer=second)
    late = floor.end_dealer_shift(acting_user=shift_manager.user, shift=late, ended_at=AFTER_CLOSE - timedelta(hours=1))
    return {"early": early, "late": late, "spares": spares}


def _exchange_at_dealer_changes(manager, site):
    services.update_count_settings(acting_user=manager.user, site=site, box_exchange=BoxExchange.DEALER_SHIFT)


@pytest.fixture
def custody(cast, counters):
    return {
        "gaming_date": str(GAMING_DATE),
        "storage_place": "Office safe",
        "escorted_by": cast[Role.PIT_BOSS].pk,
        "key_holder": counters[0].pk,
    }


def _page(response) -> str:
    return html.unescape(response.content.decode())


def test_the_single_removal_names_the_tables_latest_shift_begun_before_it(
    client, manager, site, shift_manager, boxes, night, custody
):
    _exchange_at_dealer_changes(manager, site)
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        page = _page(client.get("/counts/boxes/"))
        assert 'name="dealer_shift"' in page
        assert f"{night['late'].dealer} ({night['late'].dealer.initials}) 23:00–01:00" in page
        posted = {**custody, "action": "remove", "box": boxes[0].pk, "dealer_shift": ""}
        response = client.post("/counts/boxes/", posted)
    assert response.status_code == 302, _page(response)[:3000]
    assert Drop.objects.get(drop_box=boxes[0]).dealer_shift_id == night["late"].pk


def test_the_single_removal_takes_the_shift_chosen(client, manager, site, shift_manager, boxes, night, custody):
    _exchange_at_dealer_changes(manager, site)
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        posted = {**custody, "action": "remove", "box": boxes[0].pk, "dealer_shift": night["early"].pk}
        assert client.post("/counts/boxes/", posted).status_code == 302
    assert Drop.objects.get(drop_box=boxes[0]).dealer_shift_id == night["early"].pk


def test_a_table_with_no_dealer_shift_is_refused_at_the_field(
    client, manager, site, shift_manager, boxes, night, custody
):
    _exchange_at_dealer_changes(manager, site)
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        response = client.post("/counts/boxes/", {**custody, "action": "remove", "box": boxes[1].pk})
    assert response.status_code == 400
    [refusal] = response.context["removal_form"].errors["dealer_shift"]
    assert refusal.startswith("House control: this site exchanges drop boxes at each dealer change: name the dealer")
    assert "table 2" in refusal
    assert not DropRemoval.objects.exists() and not Drop.objects.exists()


def test_remove_all_shows_and_records_each_boxs_dealer_shift(
    client, manager, site, shift_manager, boxes, night, custody
):
    _exchange_at_dealer_changes(manager, site)
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        posted = {**custody, "boxes": [boxes[0].pk], "step": "review"}
        review = _page(client.post("/counts/boxes/remove-all/", posted))
        late = night["late"]
        assert f"dealer shift: {late.dealer} ({late.dealer.initials}) 23:00–01:00" in review
        response = client.post("/counts/boxes/remove-all/", {**posted, "step": "confirm"})
    assert response.status_code == 302, _page(response)[:3000]
    assert Drop.objects.get(drop_box=boxes[0]).dealer_shift_id == late.pk


def test_remove_all_says_a_table_has_no_dealer_shift_and_refuses_it(
    client, manager, site, shift_manager, boxes, night, custody
):
    _exchange_at_dealer_changes(manager, site)
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        posted = {**custody, "boxes": [boxes[0].pk, boxes[1].pk], "step": "review"}
        review = _page(client.post("/counts/boxes/remove-all/", posted))
        assert "House control: no dealer shift at table 2 on 2026-11-13 begun before the removal" in review
        response = client.post("/counts/boxes/remove-all/", {**posted, "step": "confirm"})
    assert response.status_code == 400
    assert "House control: this site exchanges drop boxes at each dealer change: name the dealer" in _page(response)
    assert not DropRemoval.objects.exists() and not Drop.objects.exists()


def test_once_a_gaming_day_nothing_is_asked_and_only_the_box_in_use_is_ticked(
    client, shift_manager, boxes, night, custody
):
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        assert 'name="dealer_shift"' not in _page(client.get("/counts/boxes/"))
        page = _page(client.get(f"/counts/boxes/remove-all/?gaming_date={GAMING_DATE}"))
        assert re.search(rf'value="{boxes[0].pk}" id="box_{boxes[0].pk}" checked', page)
        for spare in night["spares"]:
            assert re.search(rf'value="{spare.pk}" id="box_{spare.pk}">', page), spare
        review = _page(client.post("/counts/boxes/remove-all/", {**custody, "boxes": [boxes[0].pk], "step": "review"}))
        assert "dealer shift" not in review
        response = client.post("/counts/boxes/", {**custody, "action": "remove", "box": boxes[0].pk})
    assert response.status_code == 302
    assert Drop.objects.get(drop_box=boxes[0]).dealer_shift_id is None


def test_the_count_session_page_and_its_sheet_name_each_boxs_dealer_shift_not_its_id(
    client, manager, site, shift_manager, boxes, night, custody, counters
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from counts.pdf import build_count_sheet

    from .conftest import COUNT_TIME

    _exchange_at_dealer_changes(manager, site)
    client.force_login(shift_manager.user)
    with time_machine.travel(AFTER_CLOSE, tick=False):
        posted = {**custody, "action": "remove", "box": boxes[0].pk, "dealer_shift": night["early"].pk}
        assert client.post("/counts/boxes/", posted).status_code == 302
    session = services.open_count_session(
        acting_user=counters[0].user, site=site, gaming_date=GAMING_DATE, members=counters, at=COUNT_TIME
    )
    early = night["early"]
    label = f"dealer shift: {early.dealer} ({early.dealer.initials}) 21:00–23:00"
    client.force_login(manager.user)
    with CaptureQueriesContext(connection) as one_box:
        page = _page(client.get(f"/counts/sessions/{session.pk}/"))
    assert label in page and f"dealer shift {early.pk}" not in page
    [box] = build_count_sheet(session).boxes
    assert box.title == f"{boxes[0]} - table 1, {label}"

    with time_machine.travel(AFTER_CLOSE, tick=False):  # a second box, a second shift
        client.force_login(shift_manager.user)
        posted = {**custody, "action": "remove", "box": night["spares"][0].pk, "dealer_shift": night["late"].pk}
        assert client.post("/counts/boxes/", posted).status_code == 302
    client.force_login(manager.user)
    with CaptureQueriesContext(connection) as two_boxes:
        assert "23:00–01:00" in _page(client.get(f"/counts/sessions/{session.pk}/"))
    # The shifts are read in one query whatever the number of boxes (counts.queries.shift_labels).
    shift_reads = [
        [q for q in run.captured_queries if "dealershift" in q["sql"].lower()] for run in (one_box, two_boxes)
    ]
    assert len(shift_reads[0]) == len(shift_reads[1]) == 1
