"""The formulas of domain.md section 3, with tables of cases (no database)."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting import figures
from accounting.figures import Custody
from packs import TaxBracket, get_pack

ND_BRACKETS = get_pack("ND").tax_brackets  # N.D.C.C. 53-06.1-12, the ND pack's effective-dated data

CASES = [
    # drop, fills, credits, opener, closer, GP, prizes, AGP, hold
    (100_000, 20_000, 5_000, 200_000, 200_000, 100_000, 15_000, 85_000, Decimal("0.85")),
    (0, 0, 0, 150_000, 150_000, 0, 0, 0, None),  # zero drop: hold undefined
    (50_000, 80_000, 0, 200_000, 190_000, 50_000, 90_000, -40_000, Decimal("-0.8")),  # negative AGP
    (40_000, 0, 10_000, 200_000, 170_000, 40_000, 20_000, 20_000, Decimal("0.5")),
    (1, 0, 0, 0, 0, 1, 0, 1, Decimal(1)),
]


@pytest.mark.parametrize("drop,fills,credits,opener,closer,gp,prizes,agp,hold", CASES)
def test_table_figures(drop, fills, credits, opener, closer, gp, prizes, agp, hold):
    custody = Custody(drop, fills, credits, opener, closer)
    assert (custody.gross_proceeds_cents, custody.prizes_cents, custody.agp_cents) == (gp, prizes, agp)
    assert custody.hold_ratio == hold
    assert (
        figures.table_win(
            drop_cents=drop, fills_cents=fills, credits_cents=credits, opener_cents=opener, closer_cents=closer
        )
        == agp
    )


def test_hold_of_a_sum_is_the_ratio_of_sums_not_the_mean_of_ratios():
    a, b = Custody(100_000, 0, 0, 0, 10_000), Custody(900_000, 0, 0, 0, 0)  # holds 110% and 100%
    site = figures.total([a, b])
    assert site.hold_ratio == Decimal(1_010_000) / Decimal(1_000_000)
    assert site.hold_ratio != (a.hold_ratio + b.hold_ratio) / 2


def test_a_quarter_where_prizes_exceed_gross_proceeds_has_negative_agp():
    days = [Custody(30_000, 50_000, 0, 100_000, 100_000)] * 10 + [Custody(40_000, 0, 0, 100_000, 100_000)] * 3
    quarter = figures.total(days)
    assert quarter.prizes_cents > quarter.gross_proceeds_cents
    assert quarter.agp_cents == 420_000 - 500_000


@pytest.mark.parametrize(
    "start,end,drop,ious,profit",
    [
        (500_000, 520_000, 100_000, 0, 120_000),
        (500_000, 470_000, 100_000, 50_000, 120_000),  # $500 lent out and not repaid is added back
        (500_000, 500_000, 0, 0, 0),
    ],
)
def test_cash_profit(start, end, drop, ious, profit):
    assert (
        figures.cash_profit(starting_cash_cents=start, ending_cash_cents=end, drop_cents=drop, ious_net_cents=ious)
        == profit
    )


def test_cash_long_short_and_its_reconciling_line():
    profit = figures.cash_profit(
        starting_cash_cents=500_000, ending_cash_cents=560_000, drop_cents=100_000, ious_net_cents=0
    )
    long_short = figures.cash_long_short(cash_profit_cents=profit, agp_cents=150_000)
    assert long_short == 10_000
    assert figures.players_chips_change(outstanding_start_cents=30_000, outstanding_end_cents=40_000) == long_short


@pytest.mark.parametrize(
    "profit,increase,checks,deposit",
    [(120_000, 0, 0, 120_000), (120_000, 20_000, 0, 100_000), (120_000, -10_000, 5_000, 135_000)],
)
def test_bank_deposit(profit, increase, checks, deposit):
    assert (
        figures.bank_deposit(
            cash_profit_cents=profit, next_day_starting_cash_increase_cents=increase, prizes_paid_by_check_cents=checks
        )
        == deposit
    )


@pytest.mark.parametrize(
    "agp,tax",
    [
        (0, 0),
        (-100_000, 0),
        (100, 1),
        (150, 2),  # 1.5 cents rounds half up
        (5_000_000, 50_000),  # exactly $50,000: 1% = $500
        (5_000_100, 50_012),  # $500 + 12% of $1.00
        (10_000_000, 650_000),  # $500 + 12% of $50,000 = $6,500
    ],
)
def test_nd_gaming_tax(agp, tax):
    brackets = figures.brackets_in_force(ND_BRACKETS, date(2026, 9, 30))
    assert figures.gaming_tax(agp, brackets) == tax


def test_an_agp_exactly_at_a_brackets_lower_bound_is_taxed_in_the_bracket_below():
    """N.D.C.C. 53-06.1-12: 1% "up to $50,000", the higher rate only "above" it. With ND's schedule
    both readings give $500 at $50,000; a schedule whose base is not continuous tells them apart."""
    stepped = [
        TaxBracket(date(2021, 7, 1), 0, Decimal("0.01"), 0, "hypothetical"),
        TaxBracket(date(2021, 7, 1), 5_000_000, Decimal("0.12"), 60_000, "hypothetical"),
    ]
    assert figures.gaming_tax(5_000_000, stepped) == 50_000
    assert figures.gaming_tax(5_000_001, stepped) == 60_000  # 12% of one cent rounds to nothing


def test_no_tax_schedule_before_it_took_effect():
    with pytest.raises(ValueError):
        figures.brackets_in_force(ND_BRACKETS, date(2021, 6, 30))


def test_a_later_tax_schedule_replaces_the_earlier_from_its_date():
    later = [*ND_BRACKETS, TaxBracket(date(2027, 7, 1), 0, Decimal("0.02"), 0, "N.D.C.C. 53-06.1-12")]
    assert figures.gaming_tax(100_000, figures.brackets_in_force(later, date(2027, 6, 30))) == 1_000
    assert figures.gaming_tax(100_000, figures.brackets_in_force(later, date(2027, 7, 1))) == 2_000


def test_ratio_strings_keep_six_places():
    assert figures.ratio_string(Decimal(1) / Decimal(3)) == "0.333333"
    assert figures.ratio_string(None) is None


def test_a_dealer_far_below_the_site_gets_a_large_negative_z_score():
    holds = [Decimal("0.10"), Decimal("0.20"), Decimal("0.15"), Decimal("0.12"), Decimal("0.18")]
    z = figures.hold_z_score(
        dealer_agp_cents=-50_000,
        dealer_gp_cents=1_000_000,
        site_agp_cents=750_000,
        site_gp_cents=5_000_000,
        table_day_holds=holds,
    )
    assert z is not None and z < -3
    assert (
        figures.hold_z_score(
            dealer_agp_cents=0, dealer_gp_cents=0, site_agp_cents=1, site_gp_cents=1, table_day_holds=holds
        )
        is None
    )


cents = st.integers(min_value=-(10**12), max_value=10**12)


@given(st.lists(st.builds(Custody, cents, cents, cents, cents, cents), max_size=20))
def test_a_total_is_each_movement_summed_and_zero_for_nothing(custodies):
    found = figures.total(iter(custodies))  # any iterable, read once
    expected = [
        sum(getattr(c, name) for c in custodies)
        for name in ("drop_cents", "fills_cents", "credits_cents", "opener_cents", "closer_cents")
    ]
    assert found == Custody(*expected)
    assert (found is figures.ZERO) == (not custodies)


@given(st.builds(Custody, cents, cents, cents, cents, cents), st.builds(Custody, cents, cents, cents, cents, cents))
def test_adding_an_adjustment_adds_each_movement(day, adjustment):
    """A quarter's game totals plus its approved adjustments (`summaries._game_totals`): every
    movement, the closer's too, is summed, so AGP moves by exactly the adjustment's AGP."""
    found = day + adjustment
    assert found == Custody(
        day.drop_cents + adjustment.drop_cents,
        day.fills_cents + adjustment.fills_cents,
        day.credits_cents + adjustment.credits_cents,
        day.opener_cents + adjustment.opener_cents,
        day.closer_cents + adjustment.closer_cents,
    )
    assert found.agp_cents == day.agp_cents + adjustment.agp_cents
