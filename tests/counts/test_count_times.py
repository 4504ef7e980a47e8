"""A count entered from paper keeps the time it was counted (`counted_at`), and its signature
cannot be dated before it (ND 99-01.3-08-14(4): the count is initialled and dated by both
members once it is done)."""

from datetime import datetime, timedelta

import pytest
import time_machine

from counts.models import CountEntry, CountSignature

from .conftest import COUNT_TIME, cash

FIGURES = cash(b100=2, b20=5)
ENTERED_NEXT_MORNING = COUNT_TIME + timedelta(hours=5)


@pytest.fixture(autouse=True)
def _entered_the_next_morning():
    with time_machine.travel(ENTERED_NEXT_MORNING, tick=False):
        yield


def count_all(client_for, counters, session, boxes, minutes: int):
    """Both members' counts of every box, counted `minutes` after the session opened."""
    for member in counters:
        for box in boxes:
            response = client_for(member).post(
                f"/api/v1/count-sessions/{session.pk}/counts/",
                {
                    "box": box.pk,
                    "currency": FIGURES,
                    "counted_at": (COUNT_TIME + timedelta(minutes=minutes)).isoformat(),
                },
                format="json",
            )
            assert response.status_code == 201, response.json()


def sign(client_for, member, session, minutes: int):
    at = (COUNT_TIME + timedelta(minutes=minutes)).isoformat()
    return client_for(member).post(f"/api/v1/count-sessions/{session.pk}/sign/", {"signed_at": at}, format="json")


def test_a_count_entered_later_keeps_the_time_it_was_counted(client_for, counters, session, boxes):
    count_all(client_for, counters, session, boxes, minutes=40)
    assert set(CountEntry.objects.values_list("entered_at", flat=True)) == {COUNT_TIME + timedelta(minutes=40)}


def test_a_count_cannot_be_dated_before_its_session_opened(client_for, counters, session, boxes):
    at = (COUNT_TIME - timedelta(minutes=1)).isoformat()
    response = client_for(counters[0]).post(
        f"/api/v1/count-sessions/{session.pk}/counts/",
        {"box": boxes[0].pk, "currency": FIGURES, "counted_at": at},
        format="json",
    )
    assert response.status_code == 400
    assert "2026-11-14 02:59 CST is before 2026-11-14 03:00 CST" in " ".join(response.json()["counted_at"])
    assert not CountEntry.objects.exists()


def test_a_signature_dated_before_the_counts_it_signs_is_refused_with_the_rule(client_for, counters, session, boxes):
    count_all(client_for, counters, session, boxes, minutes=40)
    early = sign(client_for, counters[0], session, minutes=10)
    assert early.status_code == 400
    message = " ".join(early.json()["signed_at"])
    assert message.startswith("ND 99-01.3-08-14(4): the count is initialled and dated once it is counted")
    assert "2026-11-14 03:10 CST is before its last count (2026-11-14 03:40 CST)" in message
    assert not CountSignature.objects.exists()
    for member in counters:
        assert sign(client_for, member, session, minutes=50).status_code == 201
    assert CountSignature.objects.count() == 2


def test_a_count_dated_before_its_box_was_removed_is_refused_with_the_rule(
    client_for, counters, session, shift_manager, manager, site
):
    """ND 99-01.3-08-14(1): a box is counted once it is removed from its table and brought to the
    count; a box removed at 03:30 is not counted at 03:20, even inside the session."""
    from counts import services
    from tests.factories import TableFactory

    from .conftest import remove_box

    late_box = services.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=3))
    remove_box(shift_manager, late_box, counters[0], removed_at=COUNT_TIME + timedelta(minutes=30))
    early = client_for(counters[0]).post(
        f"/api/v1/count-sessions/{session.pk}/counts/",
        {"box": late_box.pk, "currency": FIGURES, "counted_at": (COUNT_TIME + timedelta(minutes=20)).isoformat()},
        format="json",
    )
    assert early.status_code == 400
    message = " ".join(early.json()["counted_at"])
    assert message.startswith("ND 99-01.3-08-14(1): ")
    assert "2026-11-14 03:20 CST is before its removal (2026-11-14 03:30 CST)" in message
    assert not CountEntry.objects.exists()
    after = client_for(counters[0]).post(
        f"/api/v1/count-sessions/{session.pk}/counts/",
        {"box": late_box.pk, "currency": FIGURES, "counted_at": (COUNT_TIME + timedelta(minutes=35)).isoformat()},
        format="json",
    )
    assert after.status_code == 201, after.json()


def test_a_count_keeps_the_time_it_was_entered_beside_the_time_it_was_counted(client_for, counters, session, boxes):
    counted = COUNT_TIME + timedelta(minutes=40)
    response = client_for(counters[0]).post(
        f"/api/v1/count-sessions/{session.pk}/counts/",
        {"box": boxes[0].pk, "currency": FIGURES, "counted_at": counted.isoformat()},
        format="json",
    )
    assert response.status_code == 201, response.json()
    entry = CountEntry.objects.get()
    assert (entry.entered_at, entry.recorded_at) == (counted, ENTERED_NEXT_MORNING)  # counted, then entered
    (mine,) = [c for box in response.json()["boxes"] for c in box["counts"]]
    assert datetime.fromisoformat(mine["entered_at"]) == counted
    assert datetime.fromisoformat(mine["recorded_at"]) == ENTERED_NEXT_MORNING


def test_a_recount_is_dated_after_the_counts_it_resolves(client_for, counters, session, boxes):
    for member, b100 in zip(counters, (2, 3), strict=True):
        response = client_for(member).post(
            f"/api/v1/count-sessions/{session.pk}/counts/",
            {
                "box": boxes[0].pk,
                "currency": cash(b100=b100),
                "counted_at": (COUNT_TIME + timedelta(minutes=40)).isoformat(),
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
    resolve = f"/api/v1/count-sessions/{session.pk}/resolve/"
    body = {"box": boxes[0].pk, "currency": cash(b100=2), "note": "recounted: two $100 bills"}
    early = client_for(counters[0]).post(
        resolve, {**body, "counted_at": (COUNT_TIME + timedelta(minutes=30)).isoformat()}, format="json"
    )
    assert early.status_code == 400, early.json()
    assert "before 2026-11-14 03:40 CST" in " ".join(early.json()["counted_at"])
    done = client_for(counters[0]).post(
        resolve, {**body, "counted_at": (COUNT_TIME + timedelta(minutes=45)).isoformat()}, format="json"
    )
    assert done.status_code == 201, done.json()
    assert CountEntry.objects.get(kind="recount").entered_at == COUNT_TIME + timedelta(minutes=45)


def _signed(client_for, counters, session, boxes):
    count_all(client_for, counters, session, boxes, minutes=40)
    for member in counters:
        assert sign(client_for, member, session, minutes=50).status_code == 201


def adjust(client_for, manager, session, box, minutes: int | None):
    body = {"box": box.pk, "currency": cash(b100=3), "reason": "a $100 bill found stuck in the box"}
    if minutes is not None:
        body["adjusted_at"] = (COUNT_TIME + timedelta(minutes=minutes)).isoformat()
    return client_for(manager).post(f"/api/v1/count-sessions/{session.pk}/adjustments/", body, format="json")


def test_an_adjustment_entered_later_keeps_the_time_it_was_made_beside_its_entry_time(
    client_for, counters, session, boxes, manager
):
    _signed(client_for, counters, session, boxes)
    response = adjust(client_for, manager, session, boxes[0], minutes=70)
    assert response.status_code == 201, response.json()
    entry = CountEntry.objects.get(kind="adjustment")
    adjusted = COUNT_TIME + timedelta(minutes=70)
    assert (entry.entered_at, entry.recorded_at) == (adjusted, ENTERED_NEXT_MORNING)
    (box,) = [b for b in response.json()["boxes"] if b["box"] == boxes[0].pk]
    assert box["agreed_drop_cents"] == 30_000
    assert datetime.fromisoformat(box["agreement"]["agreed_at"]) == adjusted
    assert datetime.fromisoformat(box["agreement"]["recorded_at"]) == ENTERED_NEXT_MORNING


def test_an_adjustment_given_no_time_is_dated_when_it_is_entered(client_for, counters, session, boxes, manager):
    _signed(client_for, counters, session, boxes)
    assert adjust(client_for, manager, session, boxes[0], minutes=None).status_code == 201
    entry = CountEntry.objects.get(kind="adjustment")
    assert entry.entered_at == entry.recorded_at == ENTERED_NEXT_MORNING


def test_an_adjustment_dated_before_the_signatures_it_corrects_is_refused_with_the_rule(
    client_for, counters, session, boxes, manager
):
    _signed(client_for, counters, session, boxes)
    early = adjust(client_for, manager, session, boxes[0], minutes=45)
    assert early.status_code == 400
    message = " ".join(early.json()["adjusted_at"])
    assert message.startswith("ND 99-01.3-08-14(4): an adjusting entry corrects the count once both members")
    assert "2026-11-14 03:45 CST is before the count was signed (2026-11-14 03:50 CST)" in message
    assert not CountEntry.objects.filter(kind="adjustment").exists()


def test_a_second_adjustment_is_not_dated_before_the_one_it_supersedes(client_for, counters, session, boxes, manager):
    _signed(client_for, counters, session, boxes)
    assert adjust(client_for, manager, session, boxes[0], minutes=90).status_code == 201
    early = adjust(client_for, manager, session, boxes[0], minutes=80)
    assert early.status_code == 400
    assert "is before the figures it corrects were agreed (2026-11-14 04:30 CST)" in " ".join(
        early.json()["adjusted_at"]
    )
    assert CountEntry.objects.filter(kind="adjustment").count() == 1


def test_an_adjustment_dated_in_the_future_beyond_the_clock_tolerance_is_refused(
    client_for, counters, session, boxes, manager
):
    from core.moments import CLOCK_TOLERANCE

    _signed(client_for, counters, session, boxes)
    ahead = ENTERED_NEXT_MORNING - COUNT_TIME + CLOCK_TOLERANCE + timedelta(minutes=1)
    response = adjust(client_for, manager, session, boxes[0], minutes=int(ahead.total_seconds() // 60))
    assert response.status_code == 400
    assert "cannot be dated in the future" in " ".join(response.json()["adjusted_at"])
    within = adjust(
        client_for, manager, session, boxes[0], minutes=int((ahead - timedelta(minutes=3)).total_seconds() // 60)
    )
    assert within.status_code == 201, within.json()
