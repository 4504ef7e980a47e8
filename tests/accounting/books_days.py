"""Days of an ND site's books driven through the services, for the tests of days with no gaming
day opened: an empty gaming day opened, its bank counted, closed and its books closed; an
adjustment recorded on a later day no gaming day was opened on; a tournament's fee."""

from contextlib import contextmanager
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import time_machine

from accounting import services as books
from cage import services as cage
from cardroom.models import Role
from floor import services as floor
from tests.tournaments.conftest import announce
from tournaments import services as tournaments
from tournaments.models import FeeKind


@contextmanager
def on(site, day: date, hour: int = 14):
    """The clock at `hour` local time of `day` at `site` (inside its gaming day)."""
    with time_machine.travel(datetime.combine(day, time(hour), tzinfo=ZoneInfo(site.time_zone)), tick=True):
        yield


def count_bank(cast, site, day: date, start_cents: int = 100_000, end_cents: int = 100_000) -> None:
    for kind, cents in (("start", start_cents), ("end", end_cents)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=day, kind=kind, cash={100: cents // 100},
            chips={},
        )  # fmt: skip


def closed_day(cast, site, day: date):
    """An empty gaming day `day` opened, its bank counted, closed, and its books closed."""
    with on(site, day):
        opened = floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=day)
        count_bank(cast, site, day)
        floor.close_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, gaming_day=opened)
        return books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=day)


def adjusted(cast, closed, table, day: date, cents: int = 2_000):
    """An adjustment of `closed`'s drop at `table`, recorded on `day` (no gaming day opened on it)."""
    with on(closed.site, day):
        return books.record_adjustment(
            acting_user=cast[Role.GAMING_MANAGER].user, books_close=closed, table=table, field="drop",
            amount_cents=cents, reason="Drop box recounted: a $20 bill stuck in the slot.", recorded_on=day,
        )  # fmt: skip


def tournament_day(cast, site, day: date):
    """A tournament on `day` with one $100 entry fee collected, no gaming day opened."""
    with on(site, day):
        tournament = announce(cast[Role.SHIFT_MANAGER], site, gaming_date=day)
        tournaments.collect_fee(
            acting_user=cast[Role.CASHIER].user, tournament=tournament, kind=FeeKind.ENTRY, player_name="Ann Lee"
        )
    return tournament
