"""Per-dealer percent-of-hold (SFN 18862 / 18863)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from accounting import dealer_hold
from cardroom.models import Role
from tests.accounting.scenario import Scenario, change_count, shift
from tests.factories import TableFactory, make_person

DAY = date(2026, 8, 14)


@pytest.fixture
def scenario(site, people):
    return Scenario(site, people)


@pytest.fixture
def dealers(org, site, cast):
    return cast[Role.DEALER], make_person(org, Role.DEALER, site)


def test_each_shift_has_its_own_figures_when_boxes_and_trays_change_with_the_dealer(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000, dealer_shift_id=first.pk)
    scenario.drop(table, DAY, 30_000, dealer_shift_id=second.pk)
    scenario.slip(table, DAY, "fill", 10_000, number=1)  # prepared at 21:00, during the first shift
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    # first: drop 60,000 - fills 10,000 + closer 180,000 - opener 200,000 = 30,000
    assert rows[first.pk].custody.agp_cents == 30_000
    assert rows[first.pk].hold_ratio == Decimal("0.5")
    # second: 30,000 + 190,000 - 180,000 = 40,000
    assert rows[second.pk].custody.agp_cents == 40_000
    total = sum(r.custody.agp_cents for r in rows.values())
    from accounting.summaries import daily_summary

    assert total == daily_summary(site, DAY).total.agp_cents  # the shifts add up to the table-day


def test_a_shift_without_its_own_box_says_so_instead_of_guessing(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 90_000)  # one box for the whole day
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    assert rows[first.pk].custody is None
    assert rows[first.pk].not_separable_because == dealer_hold.NO_BOX_EXCHANGE


def test_a_dealer_change_without_a_tray_count_is_not_separable(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000, dealer_shift_id=first.pk)
    scenario.drop(table, DAY, 30_000, dealer_shift_id=second.pk)
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    assert rows[first.pk].not_separable_because == dealer_hold.NO_TRAY_COUNT


def test_a_dealer_with_the_table_all_day_uses_the_days_box(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    only = shift(scenario, table, dealers[0], DAY, 20, 26)
    scenario.tray(table, DAY, "opener", 100_000)
    scenario.tray(table, DAY, "closer", 100_000)
    scenario.drop(table, DAY, 25_000)
    row = dealer_hold.shift_figures([site.pk], DAY, DAY)[0]
    assert (row.shift_id, row.custody.agp_cents) == (only.pk, 25_000)


def test_the_dealer_summary_sums_shifts_and_shows_the_site_beside_it(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    for offset in range(5):
        day = DAY + timedelta(days=offset)
        shift(scenario, table, dealers[offset % 2], day, 20, 26)
        scenario.tray(table, day, "opener", 100_000)
        scenario.tray(table, day, "closer", 100_000 + offset * 1_000)
        scenario.drop(table, day, 50_000)
    summaries = {s.dealer_id: s for s in dealer_hold.dealer_summaries([site.pk], DAY, DAY + timedelta(days=4))}
    first = summaries[dealers[0].pk]
    assert first.separable_shifts == 3
    assert first.total.agp_cents == 3 * 50_000 + (0 + 2_000 + 4_000)
    assert first.site_total.agp_cents == 5 * 50_000 + 10_000
    assert first.z_score is not None


def test_shift_figures_take_bounded_queries(scenario, site, dealers, django_assert_max_num_queries):
    tables = [TableFactory(site=site, number=n) for n in range(1, 4)]
    for offset in range(6):
        day = DAY + timedelta(days=offset)
        for table in tables:
            if table.number == 1:
                shift(scenario, table, dealers[0], day, 18, 21)
                shift(scenario, table, dealers[1], day, 21, 24)
            scenario.tray(table, day, "opener", 100_000)
            scenario.tray(table, day, "closer", 100_000)
            scenario.drop(table, day, 10_000)
    # Gaming days, shifts, drops, tray counts, slips, tables and dealers' names: 7 whatever the period.
    with django_assert_max_num_queries(7):
        rows = dealer_hold.shift_figures([site.pk], DAY, DAY + timedelta(days=5))
    assert len(rows) == 12
