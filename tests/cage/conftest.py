"""Helpers for cage tests: gaming days (accounting's, made directly) and the cage cast."""

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from cardroom.models import Role

CHICAGO = ZoneInfo("America/Chicago")
DAY = date(2026, 11, 2)  # a Monday; the deposit is due Thursday 2026-11-05


def make_gaming_day(site, gaming_date, opened_by, *, closed=True, books=None):
    """A gaming day made directly; a closed day also has its books closed (a deposit waits for
    that) unless `books=False`: cage records of a day are entered before its books close."""
    from accounting.models import GamingDay, GamingDayClose

    day = GamingDay.objects.create(
        site=site,
        gaming_date=gaming_date,
        opened_by=opened_by,
        opened_at=datetime.combine(gaming_date, time(18), tzinfo=CHICAGO),
    )
    if closed:
        GamingDayClose.objects.create(
            gaming_day=day,
            closed_by=opened_by,
            closed_at=datetime.combine(gaming_date, time(23, 30), tzinfo=CHICAGO),
        )
    if closed if books is None else books:
        close_books_directly(site, gaming_date, opened_by)
    return day


def close_books_directly(site, gaming_date, closed_by):
    from accounting.models import BooksClose

    return BooksClose.objects.create(
        site=site,
        gaming_date=gaming_date,
        closed_by=closed_by,
        closed_at=datetime.combine(gaming_date, time(23, 45), tzinfo=CHICAGO),
        figures={},
        figures_sha256="",
    )


@pytest.fixture
def cashier(cast):
    return cast[Role.CASHIER]


@pytest.fixture
def dealer(cast):
    return cast[Role.DEALER]


@pytest.fixture
def shift_manager(cast):
    return cast[Role.SHIFT_MANAGER]


@pytest.fixture
def closed_day(site, shift_manager):
    return make_gaming_day(site, DAY, shift_manager)


@pytest.fixture
def day_in_play(site, shift_manager):
    """DAY closed on the floor, its books not yet closed: the cage still records it."""
    return make_gaming_day(site, DAY, shift_manager, books=False)


@pytest.fixture
def open_day(site, shift_manager):
    return make_gaming_day(site, date(2026, 11, 3), shift_manager, closed=False)
