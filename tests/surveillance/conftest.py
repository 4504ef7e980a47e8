"""Helpers for surveillance tests: dealer shifts (accounting's rotations) and site times."""

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from cardroom.models import Role
from tests.factories import make_person

CHICAGO = ZoneInfo("America/Chicago")


def local(year, month, day, hour=0, minute=0) -> datetime:
    """A moment on the wall clock of the test sites (America/Chicago)."""
    return datetime(year, month, day, hour, minute, tzinfo=CHICAGO)


def add_shift(table, dealer, started_at, ended_at=None, *, opened_by=None):
    """A dealer on shift at `table` (and the gaming day it belongs to)."""
    from floor.models import DealerShift, GamingDay

    site = table.site
    gaming_date = (started_at.astimezone(CHICAGO) - _day_start(site)).date()
    gaming_day = GamingDay.objects.filter(site=site, gaming_date=gaming_date).first() or GamingDay.objects.create(
        site=site,
        gaming_date=gaming_date,
        opened_by=opened_by or dealer,
        opened_at=datetime.combine(gaming_date, time(site.business_day_start_hour), tzinfo=CHICAGO),
    )
    return DealerShift.objects.create(
        table=table,
        dealer=dealer,
        gaming_day=gaming_day,
        started_at=started_at,
        ended_at=ended_at,
        started_by=opened_by or dealer,
    )


def _day_start(site):
    from datetime import timedelta

    return timedelta(hours=site.business_day_start_hour)


@pytest.fixture
def dealer(cast):
    return cast[Role.DEALER]


@pytest.fixture
def shift_manager(cast):
    return cast[Role.SHIFT_MANAGER]


@pytest.fixture
def independent_person(org, site):
    """An independent person (count team member, not a gaming employee) at `site`."""
    return make_person(org, Role.COUNT_TEAM, site, employment_type="independent")
