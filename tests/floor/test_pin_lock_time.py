"""A locked PIN's refusal says until when in the terminal's own site's time, named: the pit
terminal and the count tablet send every step through the API, where no site's zone is active, so
a Washington terminal was told a Chicago hour (two hours late) with nothing to say so."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from cardroom import pins
from cardroom.models import Role
from core.pins import PIN_FAILURE_LIMIT, PIN_LOCKOUT
from floor.models import GamingDay
from tests.factories import SiteFactory, make_person

PIN = "482913"
PACIFIC = ZoneInfo("America/Los_Angeles")
NOW = datetime(2026, 11, 28, 17, 0, tzinfo=PACIFIC)  # 5 p.m. in Spokane, 7 p.m. in Chicago


@pytest.fixture
def spokane(org):
    return SiteFactory(organization=org, name="Spokane Card Room", jurisdiction="WA-HB", time_zone=PACIFIC.key)


def test_a_locked_pin_at_a_pacific_terminal_says_until_when_in_the_sites_own_time(api_client, org, spokane):
    manager = make_person(org, Role.GAMING_MANAGER)
    shift_manager = make_person(org, Role.SHIFT_MANAGER, spokane)
    pins.set_pin(acting_user=shift_manager.user, employee=shift_manager, pin=PIN)
    terminal = pins.create_station(
        acting_user=manager.user, site=spokane, username="spokane-pit", password="Ochre-Lantern-Drift-58", name="Pit"
    )
    api_client.force_authenticate(terminal.user)
    day = {"site": spokane.pk, "gaming_date": "2026-11-28", "signer_badge": shift_manager.initials}
    with time_machine.travel(NOW, tick=False):
        for _ in range(PIN_FAILURE_LIMIT):
            api_client.post("/api/v1/gaming-days/", {**day, "signer_pin": "000001"}, format="json")
        response = api_client.post("/api/v1/gaming-days/", {**day, "signer_pin": PIN}, format="json")
    until = (NOW + PIN_LOCKOUT).astimezone(PACIFIC)
    assert response.status_code == 403
    detail = response.json()["detail"]
    assert f"until {until:%H:%M} {until:%Z}" in detail, detail
    assert not GamingDay.objects.filter(site=spokane).exists()
