"""A Washington blackjack (player-banked) site as the cast's site, with its table 1, and a New
York site of the same organization; a session recorded there, and one two days ago whose books
a test closes."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from fees import services
from fees.models import GameSession
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


def record_session(user, site, started, **changes):
    """A session through fees.services.record_session: licence NY-GC-4620, three hours from
    `started`, $1,000 receipts and $400 prizes, but for `changes`."""
    values = {
        "licence_number": "NY-GC-4620",
        "started_at": started,
        "ended_at": started + timedelta(hours=3),
        "receipts_cents": 100_000,
        "prizes_cents": 40_000,
    }
    return services.record_session(acting_user=user, site=site, **{**values, **changes})


def session_two_days_ago(org, ny_site, ny_shift) -> tuple[GameSession, Callable[[], object]]:
    """A session two days ago with the day's bank counted, and the closing of its books (called
    when the test has looked at the day open)."""
    from accounting import services as books
    from cage import services as cage

    # The bank counted half an hour before the session and after it, all in one gaming day at any
    # hour the test runs (a count before the day's first hour is another day's).
    counted = one_days_start(ny_site, timedelta(hours=4), before=timedelta(days=2))
    started = counted + timedelta(minutes=30)
    session = record_session(ny_shift.user, ny_site, started)
    cashier = make_person(org, Role.CASHIER, ny_site)
    for kind, moment in (("start", counted), ("end", counted + timedelta(hours=4))):
        cage.record_bank_count(
            acting_user=cashier.user, site=ny_site, gaming_date=session.gaming_date, kind=kind, cash={100: 10},
            chips={}, at=moment,
        )  # fmt: skip
    manager = make_person(org, Role.GAMING_MANAGER, ny_site)
    return session, lambda: books.close_books(acting_user=manager.user, site=ny_site, gaming_date=session.gaming_date)
