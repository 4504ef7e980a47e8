"""The daily page's status line says what is true of the date at a site of every pack: a day with
no gaming day (and, at a fees or session site, no record) says so; a session day not yet closed
says its books rest on its session records."""

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from cardroom.models import Role
from fees import services
from fees.models import GameSession
from tests.page_support import at_site, page

QUIET = date(2026, 11, 27)  # a date nothing is recorded on

NOTHING = {
    "ND": "No gaming day was opened on this date.",
    "WA-HB": "No gaming day was opened on this date.",
    "WA-BJ": "No gaming day was opened and no fee was recorded on this date.",
    "NY": "No gaming day was opened and no session was recorded on this date.",
}


def _daily(client, site, day) -> str:
    response = client.get("/dashboard/daily/", {"site": site.pk, "date": day.isoformat()})
    assert response.status_code == 200
    return page(response)


@pytest.mark.parametrize("jurisdiction", sorted(NOTHING))
def test_a_date_with_nothing_recorded_says_so_at_every_pack(site, cast, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    text = _daily(at_site(Client(), cast[Role.GAMING_MANAGER], site), site, QUIET)
    assert f'id="no-gaming-day">{NOTHING[jurisdiction]}</div>' in text
    assert "The gaming day is not closed" not in text and 'id="not-closed"' not in text


def test_a_session_day_not_closed_says_its_books_rest_on_its_session_records(site, cast):
    site.jurisdiction = "NY"
    site.save()
    start = timezone.now() - timedelta(hours=5)
    services.record_session(
        acting_user=cast[Role.SHIFT_MANAGER].user,
        site=site,
        licence_number="NY-1",
        started_at=start,
        ended_at=start + timedelta(hours=2),
        receipts_cents=5000,
        prizes_cents=1500,
    )
    day = GameSession.objects.get().gaming_date
    text = _daily(at_site(Client(), cast[Role.GAMING_MANAGER], site), site, day)
    assert "No gaming day was opened on the floor on this date: its books rest on its session records" in text
    assert "The gaming day is not closed" not in text and 'id="no-gaming-day"' not in text
