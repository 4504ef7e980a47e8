"""Paper-first entry of removals and counts (core.moments): the time from the paper, in
the site's local time, checked in one place, kept beside the time it was entered."""

from datetime import datetime

import pytest

from counts.models import CountSession, DropRemoval

from .conftest import AFTER_CLOSE, CHICAGO, GAMING_DATE

NEXT_MORNING = datetime(2026, 11, 14, 11, 0, tzinfo=CHICAGO)


@pytest.fixture
def later(time_machine):
    time_machine.move_to(NEXT_MORNING, tick=False)


def test_a_removal_written_in_local_time_keeps_both_times(later, client_for, shift_manager, boxes, counters):
    response = client_for(shift_manager).post(
        f"/api/v1/drop-boxes/{boxes[0].pk}/removals/",
        {
            "gaming_date": str(GAMING_DATE),
            "removed_at": "2026-11-14T02:00:00",
            "storage_place": "office safe",
            "key_holder": counters[0].pk,
            "sole_employee_on_duty": True,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    removal = DropRemoval.objects.get()
    assert removal.removed_at == AFTER_CLOSE
    assert removal.entered_at == NEXT_MORNING and removal.entered_late
    assert response.json()["entered_late"] is True


def test_a_count_cannot_be_opened_in_the_future(later, client_for, counters, site, removed):
    response = client_for(counters[0]).post(
        "/api/v1/count-sessions/",
        {
            "site": site.pk,
            "gaming_date": str(GAMING_DATE),
            "members": [c.pk for c in counters],
            "opened_at": "2026-11-14T12:00:00-06:00",
        },
        format="json",
    )
    assert response.status_code == 400
    assert "future" in response.json()["opened_at"][0]
    assert not CountSession.objects.exists()


def test_a_count_opened_from_the_paper_keeps_its_time(later, client_for, counters, site, removed):
    response = client_for(counters[0]).post(
        "/api/v1/count-sessions/",
        {
            "site": site.pk,
            "gaming_date": str(GAMING_DATE),
            "members": [c.pk for c in counters],
            "opened_at": "2026-11-14T03:00:00",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    session = CountSession.objects.get()
    assert session.opened_at == datetime(2026, 11, 14, 3, 0, tzinfo=CHICAGO) and session.entered_late
    assert response.json()["entered_late"] is True
