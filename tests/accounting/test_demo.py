"""The demo builder: realistic custody records, idempotent."""

from datetime import timedelta

from django.utils import timezone

from accounting.demo import build_demo_custody
from accounting.models import DealerShift, GamingDay, Slip, TableInventory
from accounting.queries import slip_register
from cardroom.models import Role
from tests.factories import TableFactory, make_person


def test_demo_custody_builds_closed_days_with_gapless_slips_and_is_idempotent(org, site, chips, cast):
    for number in (1, 2, 3):
        TableFactory(site=site, number=number)
    dealers = [cast[Role.DEALER], *(make_person(org, Role.DEALER, site) for _ in range(3))]
    people = {
        "shift_manager": cast[Role.SHIFT_MANAGER],
        "pit_boss": cast[Role.PIT_BOSS],
        "cashier": cast[Role.CASHIER],
        "dealer": dealers,
    }
    today = timezone.localdate()
    days = [today - timedelta(days=n) for n in range(6, 1, -1)]

    assert build_demo_custody(site, days=days, people=people) == 5
    assert build_demo_custody(site, days=days, people=people) == 0

    assert GamingDay.objects.filter(site=site, close__isnull=False).count() == 5
    assert TableInventory.objects.filter(kind="opener").count() == TableInventory.objects.filter(kind="closer").count()
    assert DealerShift.objects.filter(ended_at__isnull=True).count() == 0
    for series in slip_register(site, days[0], days[-1]).series:
        assert series.missing == [] and series.out_of_order == []
    for inventory in TableInventory.objects.filter(kind="opener"):
        assert 0 < inventory.total_cents
    assert Slip.objects.filter(site=site).exists()


def test_the_demo_files_the_previous_quarter_at_every_site_with_one_amendment(db):
    from accounting import books, summaries
    from accounting.demo_books import AMENDMENT_REASON
    from accounting.demo_books import extend_demo as file_books
    from accounting.models import Adjustment, QuarterFiling
    from accounting.services import close_books
    from cardroom.demo import load_demo
    from cardroom.periods import Quarter
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

    file_books(demo)
    file_books(demo)

    assert QuarterFiling.objects.filter(quarter=str(previous)).count() == len(demo["sites"])
    amendment = Adjustment.objects.get()
    assert (amendment.reason, amendment.books_close.gaming_date) == (AMENDMENT_REASON, day)
    assert Quarter.containing(amendment.recorded_on) == previous.next()
    summary = summaries.quarter_summary(busy, previous)
    state = books.quarter_books(summary, QuarterFiling.objects.get(site=busy), busy.time_zone)
    assert state.state == "equal" and [a.line.adjustment_id for a in state.amendments] == [amendment.pk]
