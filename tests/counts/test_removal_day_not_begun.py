"""A drop box removal is never for a gaming day after the site's current one (ND 99-01.3-08-14(1),
the removal rule of the site's pack): saved, its drop held the box for a day not begun, so the box
could be neither removed for the current day nor counted. Refused on `gaming_date` through the API
(400) and the boxes page (inline), writing nothing; the page proposes the open gaming day."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.moments import gaming_date_of
from counts.models import Drop, DropRemoval
from floor.services import open_gaming_day
from tests.floor.conftest import in_day
from tests.page_support import page

pytestmark = pytest.mark.django_db


def _payload(key_holder, day):
    return {
        "gaming_date": day.isoformat(),
        "storage_place": "safe",
        "key_holder": key_holder.pk,
        "sole_employee_on_duty": True,
    }


def test_the_api_refuses_a_removal_for_a_day_not_begun_and_the_box_stays_free(
    client_for, site, shift_manager, boxes, counters
):
    current = gaming_date_of(site, timezone.now())
    ahead = current + timedelta(days=5)
    url = f"/api/v1/drop-boxes/{boxes[0].pk}/removals/"
    refused = client_for(shift_manager).post(url, _payload(counters[0], ahead), format="json")
    assert refused.status_code == 400, refused.content
    (message,) = refused.json()["gaming_date"]
    assert message.startswith(f"ND 99-01.3-08-14(1): the gaming day {ahead} has not begun yet")
    assert f"its current gaming day is {current}" in message
    assert not Drop.objects.exists() and not DropRemoval.objects.exists()
    done = client_for(shift_manager).post(url, _payload(counters[0], current), format="json")
    assert done.status_code == 201, done.content
    assert Drop.objects.get().gaming_date == current


def test_the_page_refuses_a_removal_for_a_day_not_begun_inline(client, site, shift_manager, boxes, counters):
    ahead = gaming_date_of(site, timezone.now()) + timedelta(days=5)
    client.force_login(shift_manager.user)
    form = {**_payload(counters[0], ahead), "action": "remove", "box": boxes[0].pk, "sole_employee_on_duty": "on"}
    refused = client.post("/counts/boxes/", form)
    assert refused.status_code == 400
    assert f"ND 99-01.3-08-14(1): the gaming day {ahead} has not begun yet" in page(refused)
    assert not Drop.objects.exists() and not DropRemoval.objects.exists()


def _proposed(client):
    return client.get("/counts/boxes/").context["removal_form"]["gaming_date"].value()


def test_the_removal_form_proposes_the_open_gaming_day_else_the_current_one(client, site, shift_manager, boxes):
    current = gaming_date_of(site, timezone.now())
    client.force_login(shift_manager.user)
    assert _proposed(client) == current
    yesterday = current - timedelta(days=1)  # over: opened from its paper, at a time inside it
    open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=yesterday, at=in_day(site, yesterday))
    assert _proposed(client) == current - timedelta(days=1)  # the day still open, not the next one
