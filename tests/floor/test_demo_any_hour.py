"""The demo builds the same way whatever the day and hour it is built: its last nights are
the last ones over (yesterday's session runs past midnight), and a night built after the
surveillance demo leaves closed a table capped by that demo's late-repaired outage (ND
99-01.3-08-04(7): $2 past the deadline) instead of failing on it. Both once broke the page
walkers (tests/core/test_no_n_plus_one.py) on a Thursday: between midnight and 02:30 in
Chicago nothing was built for the busy site, and later that day the Tuesday night, built
after the outage, met its cap."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from benchmarks import pages
from floor.calculations import business_date
from floor.demo import demo_days
from floor.models import DealerShift, GamingDay
from surveillance.models import Outage, OutageRepair

pytestmark = pytest.mark.django_db

THURSDAY_AFTER_MIDNIGHT = datetime(2026, 11, 26, 6, 45, tzinfo=UTC)  # 00:45 in Chicago: Wednesday's night still on
THURSDAY_BEFORE_DAWN = datetime(2026, 11, 26, 9, 6, tzinfo=UTC)  # 03:06: the session over, its business day not
THURSDAY_MORNING = datetime(2026, 11, 26, 16, 0, tzinfo=UTC)  # Tuesday's and Wednesday's nights over


@pytest.mark.parametrize(
    "now",
    [THURSDAY_AFTER_MIDNIGHT, THURSDAY_BEFORE_DAWN, THURSDAY_MORNING],
    ids=["after-midnight", "before-dawn", "morning"],
)
def test_the_demo_builds_its_last_nights_and_then_earlier_ones_at_any_hour(now):
    with time_machine.travel(now, tick=False):
        demo = pages.load_nights(pages.SMALL_NIGHTS)
        busy = demo["sites"]["busy"]
        today = timezone.localdate()
        last = demo_days("busy", busy, today)[-1]
        first_pass = set(GamingDay.objects.filter(site=busy).values_list("gaming_date", flat=True))
        assert first_pass == {last}  # the last night over is built, none still on
        for site in demo["sites"].values():  # today's gaming date is left for tonight's gaming day to open
            today_there = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
            assert not GamingDay.objects.filter(site=site, gaming_date=today_there).exists(), site

        pages.load_nights(4 * pages.SMALL_NIGHTS)  # earlier nights, built after the outage
        built = set(GamingDay.objects.filter(site=busy).values_list("gaming_date", flat=True))
        assert set(demo_days("busy", busy, today)[-4:]) <= built

    late = Outage.objects.get(table__site=busy, description__contains="recorder")
    deadline = late.began_at + timedelta(days=4)  # repaired a day after it (surveillance.demo)
    repaired = OutageRepair.objects.get(outage=late).repaired_at
    later_built = built - first_pass
    overlapping = [s for s in DealerShift.objects.filter(table=late.table, started_at__lt=repaired,
                                                         gaming_day__gaming_date__in=later_built)
                   if (s.ended_at or repaired) > deadline]  # fmt: skip
    assert overlapping == [], "a night built after the outage dealt at its table past the deadline"
    if now == THURSDAY_MORNING:  # Tuesday's night, built after the outage, ran into its deadline (19:00)
        assert date(2026, 11, 24) in later_built
