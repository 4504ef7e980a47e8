"""Daily and quarterly summaries from real records: the formulas of domain.md to the cent."""

from datetime import date
from decimal import Decimal

import pytest

from accounting import summaries
from core.periods import Quarter
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory

DAY = date(2026, 8, 14)


@pytest.fixture
def two_tables(site):
    return TableFactory(site=site, number=1), TableFactory(site=site, number=2, game="PW")


def test_a_days_table_figures_follow_the_formulas(scenario, two_tables):
    t1, t2 = two_tables
    scenario.tray(t1, DAY, "opener", 200_000)
    scenario.tray(t1, DAY, "closer", 185_000)
    scenario.slip(t1, DAY, "fill", 20_000, number=1)
    scenario.slip(t1, DAY, "fill", 99_900, number=2, void=True)  # voided: not counted
    scenario.slip(t1, DAY, "credit", 5_000, number=1)
    scenario.drop(t1, DAY, 100_000)
    scenario.tray(t2, DAY, "opener", 50_000)
    scenario.tray(t2, DAY, "closer", 50_000)
    scenario.drop(t2, DAY, 10_000)
    summary = summaries.daily_summary(scenario.site, DAY)
    first = summary.tables[0]
    assert (first.custody.drop_cents, first.custody.fills_cents, first.custody.credits_cents) == (
        100_000,
        20_000,
        5_000,
    )
    # prizes = 20,000 - 5,000 + 200,000 - 185,000 = 30,000; AGP = 100,000 - 30,000
    assert (first.custody.prizes_cents, first.custody.agp_cents) == (30_000, 70_000)
    assert first.custody.hold_ratio == Decimal("0.7")
    assert summary.total.agp_cents == 80_000 and summary.total.gross_proceeds_cents == 110_000
    assert summary.twenty_one.agp_cents == 70_000 and summary.paddlewheel.agp_cents == 10_000
    assert summary.hold_ratio == Decimal(80_000) / Decimal(110_000)


def test_an_unsigned_count_is_not_gross_proceeds(scenario, two_tables):
    t1, _ = two_tables
    scenario.tray(t1, DAY, "opener", 100_000)
    scenario.tray(t1, DAY, "closer", 100_000)
    scenario.drop(t1, DAY, 50_000, signed=False)
    row = summaries.daily_summary(scenario.site, DAY).tables[0]
    assert row.custody.drop_cents == 0 and not row.counted and not row.complete


def test_a_day_with_zero_drop_has_no_hold(scenario, two_tables):
    t1, _ = two_tables
    scenario.tray(t1, DAY, "opener", 100_000)
    scenario.tray(t1, DAY, "closer", 90_000)
    summary = summaries.daily_summary(scenario.site, DAY)
    assert summary.total.agp_cents == -10_000 and summary.hold_ratio is None


def test_cash_profit_long_short_and_the_chips_line(scenario, two_tables):
    t1, _ = two_tables
    scenario.tray(t1, DAY, "opener", 200_000)
    scenario.tray(t1, DAY, "closer", 150_000)  # $500 of chips left the tray
    scenario.drop(t1, DAY, 80_000)  # $800 cash in the box: AGP = 800 - 500 = $300
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 500_000, 300_000)
    cash = summaries.daily_summary(scenario.site, DAY).cash
    assert cash.cash_profit_cents == 80_000
    assert cash.long_short_cents == 80_000 - 30_000
    assert cash.chips_outside_change_cents == 50_000  # the players hold $500 more in chips
    assert cash.unexplained_cents == 0
    assert cash.deposit_expected_cents == 80_000 and cash.deposit_due == date(2026, 8, 19)


def test_without_a_bank_count_the_cash_figures_are_absent_not_zero(scenario, two_tables):
    t1, _ = two_tables
    scenario.drop(t1, DAY, 1_000)
    cash = summaries.daily_summary(scenario.site, DAY).cash
    assert cash.cash_profit_cents is None and cash.long_short_cents is None


def test_a_quarter_is_the_sum_of_its_days_with_hold_as_ratio_of_sums(scenario, two_tables):
    t1, _ = two_tables
    for offset, (drop, closer) in enumerate([(100_000, 100_000), (50_000, 40_000), (300_000, 100_000)]):
        day = date(2026, 7, 1 + offset)
        scenario.tray(t1, day, "opener", 100_000)
        scenario.tray(t1, day, "closer", closer)
        scenario.drop(t1, day, drop)
    quarter = summaries.quarter_summary(scenario.site, Quarter(2026, 3))
    assert quarter.total.gross_proceeds_cents == 450_000
    assert quarter.total.agp_cents == 100_000 + (50_000 - 60_000) + (300_000 + 0)  # per day: drop + closer - opener
    assert quarter.hold_ratio == Decimal(390_000) / Decimal(450_000)
    assert len(quarter.days) == 3


def test_a_quarter_where_prizes_exceed_gross_proceeds(scenario, two_tables):
    t1, _ = two_tables
    scenario.tray(t1, DAY, "opener", 100_000)
    scenario.tray(t1, DAY, "closer", 100_000)
    scenario.slip(t1, DAY, "fill", 60_000, number=1)
    scenario.drop(t1, DAY, 40_000)
    quarter = summaries.quarter_summary(scenario.site, Quarter(2026, 3))
    assert quarter.twenty_one.prizes_cents > quarter.twenty_one.gross_proceeds_cents
    assert quarter.twenty_one.agp_cents == -20_000


def test_the_organizations_tax_is_on_the_sum_of_its_sites_agp(scenario, two_tables, other_site, people):
    t1, _ = two_tables
    scenario.tray(t1, DAY, "opener", 0)
    scenario.tray(t1, DAY, "closer", 0)
    scenario.drop(t1, DAY, 4_000_000)
    other = Scenario(other_site, people)
    t9 = TableFactory(site=other_site, number=9)
    other.tray(t9, DAY, "opener", 0)
    other.tray(t9, DAY, "closer", 0)
    other.drop(t9, DAY, 2_000_000)
    tax = summaries.organization_tax(scenario.site.organization, Quarter(2026, 3))
    assert tax.agp_cents == 6_000_000
    assert tax.tax_cents == 50_000 + 120_000  # $500 + 12% of $10,000


def test_summaries_take_bounded_queries_whatever_the_size(
    scenario, site, other_site, people, django_assert_max_num_queries
):
    tables = [TableFactory(site=site, number=n) for n in range(1, 5)]
    for d in range(1, 11):
        day = date(2026, 7, d)
        for n, table in enumerate(tables):
            scenario.tray(table, day, "opener", 100_000)
            scenario.tray(table, day, "closer", 90_000)
            scenario.slip(table, day, "fill", 1_000, number=d * 10 + n)
            scenario.drop(table, day, 50_000)
        scenario.bank(day, "start", 100_000, 50_000)
    with django_assert_max_num_queries(16):  # 13 + the tournaments' fees and prizes + those found late
        result = summaries.quarter_summaries([site, other_site], Quarter(2026, 3))
    assert len(result[0].days) == 10
