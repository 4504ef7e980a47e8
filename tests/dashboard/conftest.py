"""Days of play at `site` built from signed records (tests/accounting/scenario.py), and a
clock set inside them so "the last 12/13 weeks" cover the data."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from cardroom.models import Role
from floor.models import Slip
from tests.accounting.scenario import Scenario, change_count, shift
from tests.factories import TableFactory, make_person

FIRST_DAY = date(2026, 8, 3)
TODAY = date(2026, 8, 20)


@pytest.fixture(autouse=True)
def _clock(request):
    if request.node.get_closest_marker("browser"):  # a live server, a worker and a browser keep real time
        yield
        return
    with time_machine.travel(datetime(2026, 8, 20, 18, 0, tzinfo=UTC), tick=False):
        yield


@pytest.fixture
def people(org, site, cast):
    return {
        "shift": cast[Role.SHIFT_MANAGER],
        "cashier": cast[Role.CASHIER],
        "count1": make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
        "count2": cast[Role.COUNT_TEAM],
    }


@pytest.fixture
def dealers(org, site, cast):
    return [cast[Role.DEALER], make_person(org, Role.DEALER, site), make_person(org, Role.DEALER, site)]


class Play:
    """`days` of play on `tables` tables: two dealer shifts per table-day with a box exchange
    and a tray count at the change, a fill on every table-day, a credit on even days, the bank
    counted at start and end. The last table's first day has one box for the whole day, so its
    shifts cannot be separated."""

    def __init__(self, site, people, dealers, tables: int, first_number: int = 1):
        self.scenario = Scenario(site, people)
        self.site, self.dealers = site, dealers
        self.tables = [TableFactory(site=site, number=first_number + n) for n in range(tables)]
        taken = Slip.objects.filter(site=site).count()  # slip numbers are unique per site
        self.numbers = {"fill": taken, "credit": taken}

    def _number(self, kind):
        self.numbers[kind] += 1
        return self.numbers[kind]

    def days(self, first: date, count: int):
        for i in range(count):
            self.day(first + timedelta(days=i), i)
        return self

    def day(self, day: date, i: int):
        s = self.scenario
        for j, table in enumerate(self.tables):
            first = shift(s, table, self.dealers[(i + j) % len(self.dealers)], day, 20, 23)
            second = shift(s, table, self.dealers[(i + j + 1) % len(self.dealers)], day, 23, 26)
            s.tray(table, day, "opener", 200_000)
            change_count(s, table, day, second, 190_000 + 1_000 * j)
            s.tray(table, day, "closer", 180_000 + 500 * i)
            if i == 0 and j == len(self.tables) - 1:
                s.drop(table, day, 95_000 + 2_000 * j)
            else:
                s.drop(table, day, 50_000 + 1_000 * i + 700 * j, dealer_shift_id=first.pk)
                s.drop(table, day, 40_000 + 300 * j + 900 * (i % 3), dealer_shift_id=second.pk)
            s.slip(table, day, "fill", 20_000, number=self._number("fill"))  # 21:00, the first shift
            if i % 2 == 0:
                s.slip(table, day, "credit", 5_000, number=self._number("credit"))
        s.bank(day, "start", 500_000, 300_000)
        s.bank(day, "end", 500_000 + 60_000 * len(self.tables) + 1_000 * i, 290_000)


@pytest.fixture
def play(site, people, dealers):
    """A small data set: 2 tables, 3 days."""
    return Play(site, people, dealers, 2).days(FIRST_DAY, 3)


@pytest.fixture
def make_play(site, people, dealers):
    def make(tables, days, *, first=FIRST_DAY, first_number=1):
        return Play(site, people, dealers, tables, first_number).days(first, days)

    return make
