from datetime import timedelta

from django.utils import timezone

from cardroom.models import Role
from floor.models import DealerShift, GamingDay
from floor.queries import current_dealer, employee_dealt_at


def test_employee_dealt_at_sees_a_shift_overlapping_the_interval_only_at_its_site(cast, table, site, other_site):
    dealer = cast[Role.DEALER]
    now = timezone.now()
    day = GamingDay.objects.create(site=site, gaming_date=now.date(), opened_at=now, opened_by=cast[Role.SHIFT_MANAGER])
    DealerShift.objects.create(
        table=table,
        dealer=dealer,
        gaming_day=day,
        started_at=now - timedelta(hours=3),
        ended_at=now - timedelta(hours=1),
        started_by=cast[Role.SHIFT_MANAGER],
    )
    assert employee_dealt_at(dealer, site, now - timedelta(hours=2), now)
    assert not employee_dealt_at(dealer, site, now - timedelta(hours=1), now)
    assert not employee_dealt_at(dealer, other_site, now - timedelta(hours=5), now)
    assert current_dealer(table, now - timedelta(hours=2)) == dealer
    assert current_dealer(table, now) is None
