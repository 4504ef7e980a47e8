"""A run's day ranges that touch are judged as one by the day-by-day rules (compliance.engine)."""

from datetime import date

import pytest

from compliance import engine
from compliance.engine import joined, run_scan
from compliance.rules import DEPOSIT_DEADLINE


def test_ranges_that_touch_or_overlap_are_joined_and_a_gap_keeps_them_apart():
    q1, q2 = (date(2026, 1, 1), date(2026, 3, 31)), (date(2026, 4, 1), date(2026, 6, 30))
    assert joined([q2, q1]) == [(date(2026, 1, 1), date(2026, 6, 30))]
    assert joined([q1, (date(2026, 3, 1), date(2026, 3, 10))]) == [q1]  # inside
    assert joined([q1, (date(2026, 4, 2), date(2026, 4, 30))]) == [q1, (date(2026, 4, 2), date(2026, 4, 30))]
    assert joined([]) == []


@pytest.mark.django_db
def test_a_day_by_day_rule_reads_touching_ranges_once_and_the_others_each_range(site, monkeypatch):
    calls = {"day_by_day": [], "per_range": []}

    def day_by_day(sites, start, end, book):
        calls["day_by_day"].append((start, end))
        return []

    def per_range(sites, start, end, book):
        calls["per_range"].append((start, end, book.on))
        return []

    registry = []
    engine._register(registry, day_by_day, DEPOSIT_DEADLINE, day_by_day=True)
    engine._register(registry, per_range, DEPOSIT_DEADLINE)
    monkeypatch.setattr(engine, "DAY_PROVIDERS", registry)

    quarters = [(date(2026, 1, 1), date(2026, 3, 31)), (date(2026, 4, 1), date(2026, 6, 30))]
    apart = (date(2026, 9, 1), date(2026, 9, 7))
    run_scan(site_ids=[site.pk], day_ranges=[apart, *quarters])
    assert calls["day_by_day"] == [(date(2026, 1, 1), date(2026, 6, 30)), apart]
    # each range on its own, with the thresholds in force at its own end
    assert calls["per_range"] == [
        (*quarters[0], date(2026, 3, 31)),
        (*quarters[1], date(2026, 6, 30)),
        (*apart, date(2026, 9, 7)),
    ]

    calls["day_by_day"].clear()
    calls["per_range"].clear()
    run_scan(site_ids=[site.pk], day_ranges=[apart])  # one range: every rule once
    assert calls == {"day_by_day": [apart], "per_range": [(*apart, date(2026, 9, 7))]}
