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


def test_a_placement_implied_by_a_removal_entered_on_time_is_not_entered_late(
    time_machine, shift_manager, boxes, counters, site
):
    """A box removed at 02:00 and entered at 02:05 had no placement recorded: the system writes it,
    dated at the day's start (06:00), with the removal. It is not "entered late" for being 20 hours
    after that inferred moment (the daily report listed every such box); a late removal still is."""
    from counts.models import Drop
    from counts.queries import late_entries

    from .conftest import remove_box

    time_machine.move_to(datetime(2026, 11, 14, 2, 5, tzinfo=CHICAGO), tick=False)
    remove_box(shift_manager, boxes[0], counters[0])
    drop = Drop.objects.get()
    assert drop.placed_at == datetime(2026, 11, 13, 6, 0, tzinfo=CHICAGO) and not drop.entered_late
    assert late_entries(site, GAMING_DATE, GAMING_DATE) == []
    time_machine.move_to(NEXT_MORNING, tick=False)  # nine hours after its removal: both late
    remove_box(shift_manager, boxes[1], counters[0])
    late = [entry.what for entry in late_entries(site, GAMING_DATE, GAMING_DATE)]
    assert any("placed" in what for what in late) and any("removed" in what for what in late)
