"""On the demo's own data (its sites, play nights, counts and cage, benchmarks.pages.load_nights),
every figure read through the per-day snapshots equals the live computation: the table-days,
the dealer shifts, the daily and quarterly summaries, cold (filling) and warm (stored)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounting import day_figures, dealer_hold, summaries
from accounting.models import DayFigures
from benchmarks.pages import load_nights
from cardroom.models import Site
from core.periods import Quarter

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demos_figures_read_from_snapshots_equal_the_live_figures():
    load_nights(3)
    sites = list(Site.objects.order_by("pk"))
    ids = [s.pk for s in sites]
    end = timezone.localdate()
    start = end - timedelta(weeks=13)
    live_days = summaries.table_days(ids, start, end)
    live_shifts = sorted(dealer_hold.shift_figures(ids, start, end), key=lambda s: (s.table_id, s.started_at))
    assert live_days and live_shifts
    for _ in ("cold", "warm"):
        assert day_figures.table_days(ids, start, end) == live_days
        assert day_figures.shift_figures(ids, start, end) == live_shifts
        for game in ("21", "PW"):
            summaries_now = dealer_hold.summarize_dealers(live_shifts, live_days, game)
            assert day_figures.dealer_summaries(ids, start, end, game=game) == summaries_now
            # The live summaries sum the shifts as read (`DealerTotals`), as the snapshots' sums.
            totals = dealer_hold.dealer_summaries(ids, start, end, game=game)
            assert day_figures.dealer_totals(ids, start, end, (game,))[game].dealers == totals
            assert [(d.dealer_id, d.shifts, d.separable_shifts, d.total, d.site_total, d.z_score) for d in totals] == [
                (d.dealer_id, len(d.shifts), d.separable_shifts, d.total, d.site_total, d.z_score)
                for d in summaries_now
            ]
        assert DayFigures.objects.filter(table_days__isnull=False).exists()
        assert summaries.daily_summaries(sites, start, end, snapshots=True) == summaries.daily_summaries(
            sites, start, end
        )
        for quarter in (Quarter.containing(end), Quarter.containing(end).previous()):
            assert summaries.quarter_summaries(sites, quarter, snapshots=True) == summaries.quarter_summaries(
                sites, quarter
            )
