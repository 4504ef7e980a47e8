from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cardroom import pins
from cardroom.models import Role
from counts import services
from tests.factories import TableFactory, make_person

CHICAGO = ZoneInfo("America/Chicago")
GAMING_DATE = date(2026, 11, 13)
# The evening of the gaming day, and the morning after (still before the 06:00 day start).
EVENING = datetime(2026, 11, 13, 21, 0, tzinfo=ZoneInfo("America/Chicago"))
AFTER_CLOSE = datetime(2026, 11, 14, 2, 0, tzinfo=ZoneInfo("America/Chicago"))
COUNT_TIME = datetime(2026, 11, 14, 3, 0, tzinfo=ZoneInfo("America/Chicago"))
PINS = ("482913", "630571")  # the counters' signing PINs (`with_pins`)


@pytest.fixture
def counters(org, site):
    """Two count team members who may count together: an independent person and a gaming
    employee (the first team ND 99-01.3-08-14(2) lists)."""
    return (
        make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
        make_person(org, Role.COUNT_TEAM, site, employment_type="gaming"),
    )


@pytest.fixture
def tablet(site, manager):
    """A count tablet at the site: a station login, each step on it initialled with a member's PIN."""
    return pins.create_station(
        acting_user=manager.user,
        site=site,
        username="count-tablet-1",
        password="Ochre-Lantern-Drift-58",
        name="Count room",
    )


@pytest.fixture
def with_pins(counters):
    for member, pin in zip(counters, PINS, strict=True):
        pins.set_pin(acting_user=member.user, employee=member, pin=pin)
    return counters


@pytest.fixture
def shift_manager(cast):
    return cast[Role.SHIFT_MANAGER]


@pytest.fixture
def tables(site):
    return [TableFactory(site=site, number=n) for n in (1, 2)]


@pytest.fixture
def boxes(manager, tables):
    return [services.register_drop_box(acting_user=manager.user, table=t) for t in tables]


def remove_box(shift_manager, box, key_holder, *, gaming_date=GAMING_DATE, removed_at=AFTER_CLOSE, **extra):
    values = dict(
        acting_user=shift_manager.user,
        drop_box=box,
        gaming_date=gaming_date,
        removed_at=removed_at,
        storage_place="office safe",
        key_holder=key_holder,
        sole_employee_on_duty=True,
    )
    values.update(extra)
    return services.remove_drop_box(**values)


@pytest.fixture
def removed(shift_manager, boxes, counters):
    return [remove_box(shift_manager, box, counters[0]) for box in boxes]


@pytest.fixture
def session(counters, site, removed):
    return services.open_count_session(
        acting_user=counters[0].user, site=site, gaming_date=GAMING_DATE, members=counters, at=COUNT_TIME
    )


def cash(**by_label):
    """cash(b100=3, b20=5, c25=4) -> API currency lines: bills in dollars, coins in cents."""
    lines = []
    for key, quantity in by_label.items():
        form = "bill" if key[0] == "b" else "coin"
        cents = int(key[1:]) * (100 if form == "bill" else 1)
        lines.append({"denomination_cents": cents, "form": form, "quantity": quantity})
    return lines


def day_after(day: date) -> date:
    return day + timedelta(days=1)
