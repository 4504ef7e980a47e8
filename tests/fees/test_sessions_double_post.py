"""A games-of-chance session form sent twice (Kingston's walk: NY-GC-4620, 19:00-22:30,
$500/$200 recorded twice) is recorded once, and the page says what was recorded."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from fees.models import GameSession
from tests.page_support import at_site, form_token, page

from .conftest import one_days_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def typed(ny_site):
    started = one_days_start(ny_site, timedelta(hours=3, minutes=30))
    zone = ZoneInfo(ny_site.time_zone)
    return {
        "licence_number": "NY-GC-4620",
        "started_at": started.astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
        "ended_at": (started + timedelta(hours=3, minutes=30)).astimezone(zone).strftime("%Y-%m-%dT%H:%M"),
        "receipts_cents": "500",
        "prizes_cents": "200",
    }


def test_the_same_session_form_sent_twice_is_recorded_once_and_confirmed(client, ny_site, ny_shift, typed):
    client = at_site(client, ny_shift, ny_site)
    token = form_token(page(client.get("/fees/sessions/")), "session-form")
    first = client.post("/fees/sessions/", {**typed, "form_token": token}, follow=True)
    assert first.status_code == 200
    assert "recorded: net $300.00, counted in the day's total below." in page(first)
    again = client.post("/fees/sessions/", {**typed, "form_token": token}, follow=True)
    assert again.status_code == 200 and "Already recorded" in page(again)
    assert GameSession.objects.count() == 1


def test_the_same_session_entered_again_from_a_fresh_form_is_refused_citing_the_house_control(
    client, ny_site, ny_shift, typed
):
    """Without the token (the form drawn again, the sheet typed twice): the service refuses the
    same licence's session with the same start and end as it stands, at its field, 400."""
    client = at_site(client, ny_shift, ny_site)
    assert client.post("/fees/sessions/", typed).status_code == 302
    again = client.post("/fees/sessions/", typed)
    assert again.status_code == 400
    assert "House control: a session is recorded once; NY-GC-4620's session" in page(again)
    assert GameSession.objects.count() == 1
    later = {**typed, "ended_at": typed["ended_at"][:-2] + ("29" if typed["ended_at"][-2:] != "29" else "28")}
    assert client.post("/fees/sessions/", later).status_code == 302  # another session (overlapping) stands
    assert GameSession.objects.count() == 2
