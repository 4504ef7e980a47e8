"""The demo builder: realistic custody records, idempotent."""

from datetime import UTC, datetime, timedelta

from django.utils import timezone

from cardroom.models import Role
from floor.demo import build_demo_custody
from floor.models import DealerShift, GamingDay, Slip, TableInventory
from floor.queries import slip_register
from tests.factories import TableFactory, card_checks_kept_from, make_person


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


def test_demo_nights_check_each_twenty_one_tables_cards_so_the_scan_opens_no_such_alert(org, site, chips, cast):
    """ND 99-01.3-08-07(1), (2): each demo night's twenty-one tables have their shoe inspected and
    their decks approved (by the first dealer seated), through the service; the nightly scan then
    opens no alert of a check not recorded."""
    from compliance import tasks
    from compliance.models import Alert
    from compliance.thresholds import ensure_seeded
    from floor.models import CardCheck

    ensure_seeded()
    card_checks_kept_from(datetime(2000, 1, 1, tzinfo=UTC))  # so the scan judges the demo's nights
    for number in (1, 2):
        TableFactory(site=site, number=number)
    dealers = [cast[Role.DEALER], make_person(org, Role.DEALER, site)]
    people = {"shift_manager": cast[Role.SHIFT_MANAGER], "cashier": cast[Role.CASHIER], "dealer": dealers}
    today = timezone.localdate()
    days = [today - timedelta(days=n) for n in range(4, 1, -1)]
    assert build_demo_custody(site, days=days, people=people) == 3
    opened = set(TableInventory.objects.filter(kind="opener").values_list("gaming_day_id", "table_id"))
    for kind in ("shoe_inspected", "decks_approved"):
        assert set(CardCheck.objects.filter(kind=kind).values_list("gaming_day_id", "table_id")) == opened
    assert set(CardCheck.objects.filter(kind="decks_approved").values_list("checked_by", flat=True)) <= {
        d.pk for d in dealers
    }
    tasks.run_daily_checks(str(days[-1]))
    assert not Alert.objects.filter(rule__in=["decks_not_approved", "shoe_not_inspected"]).exists()
