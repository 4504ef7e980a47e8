"""A Washington blackjack (player-banked) site as the cast's site, with its table 1, and a New
York site of the same organization."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from tests.factories import SiteFactory, fees_site, make_person, player_banked_table


@pytest.fixture
def site(org):
    return fees_site(org)


@pytest.fixture
def bj_table(site):
    return player_banked_table(site)


@pytest.fixture
def ny_site(org):
    return SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")


@pytest.fixture
def ny_shift(org, ny_site):
    return make_person(org, Role.SHIFT_MANAGER, ny_site)


@pytest.fixture
def fee_payload(bj_table):
    return {
        "table": bj_table.pk,
        "basis": "per_seat",
        "period_minutes": 30,
        "rate_cents": 300,
        "count": 5,
        "amount_cents": 1500,
    }


def one_days_start(site, span: timedelta, before: timedelta = timedelta(hours=5)):
    """A moment `before` now (to the minute), or earlier where the `span` after it would cross the
    site's gaming-day start: a session (fees.services.record_session: one gaming day's record)
    recorded in that span lies on one gaming day at any hour the test runs."""
    from floor.calculations import business_date

    def day(moment):
        return business_date(moment, site.time_zone, site.business_day_start_hour)

    moment = (timezone.now() - before).replace(second=0, microsecond=0)
    while day(moment) != day(moment + span):
        moment -= timedelta(minutes=80)
    return moment
