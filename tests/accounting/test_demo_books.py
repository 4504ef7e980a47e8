"""The books' demo builder: the previous quarter filed at every demo site, one amendment, idempotent."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone


def test_the_demo_files_the_previous_quarter_at_every_site_with_one_amendment(db):
    from accounting import books, summaries
    from accounting.demo_books import AMENDMENT_REASON
    from accounting.demo_books import extend_demo as file_books
    from accounting.models import Adjustment, QuarterFiling
    from accounting.services import close_books
    from cardroom.demo import load_demo
    from core.periods import Quarter
    from floor.demo import mark_built
    from floor.models import GamingDay
    from tests.accounting.scenario import Scenario

    demo = load_demo()
    busy, people = demo["sites"]["busy"], demo["people"]
    previous = Quarter.containing(timezone.localdate()).previous()
    day = previous.start + timedelta(days=10)
    scenario = Scenario(busy, {key: people[key] for key in ("shift", "cashier", "count1", "count2")})
    table = busy.tables.order_by("number").first()
    scenario.tray(table, day, "opener", 200_000)
    scenario.tray(table, day, "closer", 190_000)
    scenario.drop(table, day, 60_000)
    scenario.bank(day, "start", 500_000, 300_000)
    scenario.bank(day, "end", 560_000, 290_000)
    close_books(acting_user=people["gm"].user, site=busy, gaming_date=day)
    # A day of the floor's demo (marked as its own): the demo files no quarter holding a person's day.
    mark_built(GamingDay.objects.get(site=busy, gaming_date=day))
    # The demo's last night, in this quarter, its books still open (the cage's demo leaves them to
    # the books'): the amendment is entered on it, never on today's gaming date (a person's).
    last_night = Quarter.containing(timezone.localdate()).start
    opened = datetime.combine(last_night, time(18), tzinfo=ZoneInfo(busy.time_zone))
    mark_built(GamingDay.objects.create(site=busy, gaming_date=last_night, opened_by=people["shift"], opened_at=opened))

    file_books(demo)
    file_books(demo)

    assert QuarterFiling.objects.filter(quarter=str(previous)).count() == len(demo["sites"])
    amendment = Adjustment.objects.get()
    assert (amendment.reason, amendment.books_close.gaming_date) == (AMENDMENT_REASON, day)
    assert amendment.recorded_on == last_night and Quarter.containing(amendment.recorded_on) == previous.next()
    summary = summaries.quarter_summary(busy, previous)
    state = books.quarter_books(summary, QuarterFiling.objects.get(site=busy), busy.time_zone)
    assert state.state == "equal" and [a.line.adjustment_id for a in state.amendments] == [amendment.pk]


def test_without_a_demo_night_in_this_quarter_the_demo_enters_no_amendment_on_today(db):
    """The demo never writes into today's gaming date: with no night of its own open in the current
    quarter, it files the previous quarter and enters no amendment at all."""
    from accounting.demo_books import extend_demo as file_books
    from accounting.models import Adjustment
    from cardroom.demo import load_demo

    file_books(load_demo())
    assert not Adjustment.objects.exists()
