"""A floor in play: an open gaming day at `site`, `table` opened with a $2,000 tray, a dealer seated."""

from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from floor import services
from floor.calculations import business_date
from tests.factories import make_person

TRAY = [
    {"denomination": 2500, "quantity": 40},
    {"denomination": 500, "quantity": 160},
    {"denomination": 100, "quantity": 200},
]
FILL = [{"denomination": 2500, "quantity": 20}, {"denomination": 500, "quantity": 20}]


def today(site):
    return business_date(timezone.now(), site.time_zone, site.business_day_start_hour)


def in_day(site, gaming_date: date, hours: float = 2) -> datetime:
    """A moment `hours` into the site's gaming day `gaming_date`. A day already over is entered
    with the time on its paper: a record of it without a time is refused (core.moments), since
    now lies outside its business hours."""
    from core.moments import gaming_day_bounds

    return gaming_day_bounds(site, gaming_date)[0] + timedelta(hours=hours)


def closed_last_night(site, user, tables, *, days_ago: int = 1):
    """`days_ago` days ago each of `tables` opened and closed with TRAY and the day closed (a day
    over: its records give their times); the next gaming day open, returned (today's by default)."""
    before = today(site) - timedelta(days=days_ago)
    last = services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before, 1))
    for table in tables:
        for kind, hours in (("opener", 2), ("closer", 12)):
            services.record_table_inventory(
                acting_user=user, table=table, kind=kind, chips=TRAY, at=in_day(site, before, hours)
            )
    services.close_gaming_day(acting_user=user, gaming_day=last)
    following = before + timedelta(days=1)
    at = None if following == today(site) else in_day(site, following, 1)
    return services.open_gaming_day(acting_user=user, site=site, gaming_date=following, at=at)


@pytest.fixture
def shift_manager(cast):
    return cast[Role.SHIFT_MANAGER]


@pytest.fixture
def gaming_day(site, shift_manager):
    return services.open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=today(site))


@pytest.fixture
def open_table(table, chips, gaming_day, shift_manager):
    services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    return table


@pytest.fixture
def dealer_shift(open_table, cast, shift_manager):
    return services.start_dealer_shift(acting_user=shift_manager.user, table=open_table, dealer=cast[Role.DEALER])


@pytest.fixture
def fill(open_table, cast):
    return services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)


@pytest.fixture
def credit(dealer_shift, open_table, cast):
    return services.prepare_credit(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL)


@pytest.fixture
def second_shift_manager(org, site):
    return make_person(org, Role.SHIFT_MANAGER, site)


EVERY_PACK = ("ND", "WA-HB", "WA-BJ", "NY")


@pytest.fixture(params=EVERY_PACK)
def code(request):
    """Each pack's code in turn, for a module whose tests run at a site of every pack (`pack_site`);
    a test parametrizing `code` itself picks its own packs."""
    return request.param


def pack_site(org, code: str):
    """A site of the pack `code` as the cast's site (a test module's `site` fixture, parametrized
    by pack, builds the floor's fixtures on it)."""
    from tests.factories import SiteFactory

    return SiteFactory(organization=org, name=f"{code} Card Room", jurisdiction=code)


def pack_table(site, code: str):
    """Table 1 within the pack's wager limits (a New York game's maximum is $5)."""
    from tests.factories import TableFactory

    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=500 if code == "NY" else 2500)
