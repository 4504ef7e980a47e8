"""Paper-first surveillance logs (core.moments): the review log keeps when the review
happened beside when it was entered; outage times may be written in the site's local time."""

from datetime import datetime

import pytest

from surveillance.models import Outage, ReviewLogEntry
from tests.factories import TableFactory

from .conftest import CHICAGO, add_shift, local

NOW = datetime(2026, 3, 4, 15, 0, tzinfo=CHICAGO)


@pytest.fixture
def now(time_machine):
    time_machine.move_to(NOW, tick=False)


@pytest.fixture
def table(site, dealer):
    table = TableFactory(site=site, number=4)
    add_shift(table, dealer, local(2026, 3, 3, 19), local(2026, 3, 3, 23))
    return table


def review(client, table, **extra):
    body = {
        "table": table.pk,
        "gaming_date": "2026-03-03",
        "camera_recording": True,
        "unobstructed_view": True,
        "clear_picture": True,
        "field_of_view": True,
        **extra,
    }
    return client.post("/api/v1/surveillance/review-log/", body, format="json")


def test_a_review_written_on_paper_keeps_both_times(now, client_for, shift_manager, table):
    response = review(client_for(shift_manager), table, reviewed_at="2026-03-03T23:30:00")
    assert response.status_code == 201, response.json()
    entry = ReviewLogEntry.objects.get()
    assert entry.reviewed_at == local(2026, 3, 3, 23, 30)
    assert entry.entered_at == NOW and response.json()["entered_late"] is True


def test_a_review_entered_at_once_is_not_late(now, client_for, shift_manager, table):
    response = review(client_for(shift_manager), table)
    assert response.status_code == 201, response.json()
    assert response.json()["entered_late"] is False and ReviewLogEntry.objects.get().reviewed_at == NOW


@pytest.mark.parametrize(
    ("reviewed_at", "field_error"), [("2026-03-04T15:06:00", "future"), ("2026-03-03T05:00:00", "before")]
)
def test_a_review_is_not_in_the_future_nor_before_its_day(
    now, client_for, shift_manager, table, reviewed_at, field_error
):
    response = review(client_for(shift_manager), table, reviewed_at=reviewed_at)
    assert response.status_code == 400
    assert field_error in response.json()["reviewed_at"][0]


def test_an_outage_time_without_offset_is_local(now, client_for, shift_manager, table):
    response = client_for(shift_manager).post(
        "/api/v1/surveillance/outages/",
        {"table": table.pk, "kind": "camera", "began_at": "2026-03-04T09:00:00", "description": "Flicker"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Outage.objects.get().began_at == local(2026, 3, 4, 9)
