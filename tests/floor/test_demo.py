"""The demo builder: realistic custody records, idempotent."""

from datetime import timedelta

from django.utils import timezone

from cardroom.models import Role
from floor.demo import build_demo_custody
from floor.models import DealerShift, GamingDay, Slip, TableInventory
from floor.queries import slip_register
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
