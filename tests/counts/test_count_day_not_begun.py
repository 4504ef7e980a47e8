"""A count session is never opened for a gaming day not begun, nor at a moment (from paper) before
its day began: a count follows the day's activity (the count rule of the site's pack, ND
99-01.3-08-14(4); "House control" where the pack's law has no such rule). Refused on the field at
fault through the API (400), writing nothing."""

from datetime import datetime, timedelta

import pytest
import time_machine

from counts.models import CountSession

from .conftest import CHICAGO, COUNT_TIME, GAMING_DATE, day_after
from .test_counts_per_pack import speaks_no_nd

SESSIONS = "/api/v1/count-sessions/"


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):  # the gaming day 2026-11-13's night
        yield


def _open(client_for, counters, site, gaming_date, **extra):
    payload = {"site": site.pk, "gaming_date": str(gaming_date), "members": [c.pk for c in counters], **extra}
    return client_for(counters[0]).post(SESSIONS, payload, format="json")


def test_a_count_of_the_next_gaming_day_is_refused_citing_the_count_rule(client_for, counters, site):
    ahead = day_after(GAMING_DATE)
    response = _open(client_for, counters, site, ahead)
    assert response.status_code == 400, response.content
    assert response.json()["gaming_date"] == [
        f"ND 99-01.3-08-14(4): the gaming day {ahead} has not begun yet at {site} (its current gaming day is "
        f"{GAMING_DATE}); a count follows the day's activity."
    ]
    assert not CountSession.objects.exists()


def test_a_count_dated_before_its_day_began_is_refused_on_its_time(client_for, counters, site):
    before = datetime(2026, 11, 13, 5, 30, tzinfo=CHICAGO)  # the day before's last half hour
    response = _open(client_for, counters, site, GAMING_DATE, opened_at=before.isoformat())
    assert response.status_code == 400, response.content
    (message,) = response.json()["opened_at"]
    assert message.startswith("ND 99-01.3-08-14(4): a count follows the day's activity; 2026-11-13 05:30 CST")
    assert "the gaming day 2026-11-13 began (2026-11-13 06:00 CST)" in message
    assert not CountSession.objects.exists()


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_elsewhere_the_refusal_cites_the_packs_count_rule(client_for, counters, site, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    response = _open(client_for, counters, site, day_after(GAMING_DATE))
    assert response.status_code == 400, response.content
    (message,) = response.json()["gaming_date"]
    assert message.startswith(f"House control: the gaming day {day_after(GAMING_DATE)} has not begun yet")
    assert speaks_no_nd(message)
    assert not CountSession.objects.exists()


def test_the_current_gaming_day_is_counted(client_for, counters, site):
    assert _open(client_for, counters, site, GAMING_DATE).status_code == 201
    assert CountSession.objects.get().gaming_date == GAMING_DATE
    assert timedelta(0) <= COUNT_TIME - CountSession.objects.get().opened_at <= timedelta(seconds=1)
