"""The count session form's gaming date (/counts/): the latest gaming date with drop boxes
removed and not yet counted, else the latest gaming day the site opened, never a calendar guess
(the day before today, which at the Elks Lodge was a date with no gaming day while tonight's
boxes waited for their count)."""

import re
from datetime import datetime, timedelta

import pytest
import time_machine

from floor import services as floor_services

from .conftest import AFTER_CLOSE, CHICAGO, GAMING_DATE, day_after, remove_box

pytestmark = pytest.mark.django_db


def proposed_date(client, member) -> str:
    client.force_login(member.user)
    html = client.get("/counts/").content.decode()
    field = re.search(r'<input[^>]*name="gaming_date"[^>]*>', html).group(0)
    return re.search(r'value="([^"]*)"', field).group(1)


def test_the_latest_date_with_boxes_removed_and_not_counted_is_proposed(client, shift_manager, boxes, counters):
    later = day_after(GAMING_DATE)
    remove_box(shift_manager, boxes[0], counters[0])
    remove_box(shift_manager, boxes[1], counters[0], gaming_date=later, removed_at=AFTER_CLOSE + timedelta(days=1))
    with time_machine.travel(AFTER_CLOSE + timedelta(days=1, hours=1), tick=False):
        assert proposed_date(client, counters[0]) == later.isoformat()


def test_with_no_box_waiting_the_latest_gaming_day_opened_is_proposed_not_yesterday(
    client, site, shift_manager, counters
):
    floor_services.open_gaming_day(
        acting_user=shift_manager.user,
        site=site,
        gaming_date=GAMING_DATE,
        at=datetime(2026, 11, 13, 18, tzinfo=CHICAGO),
    )
    with time_machine.travel(datetime(2026, 11, 18, 12, tzinfo=CHICAGO), tick=False):
        assert proposed_date(client, counters[0]) == GAMING_DATE.isoformat()
