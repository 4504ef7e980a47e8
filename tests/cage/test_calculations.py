"""Cage arithmetic, as tables of cases (no database)."""

from datetime import date

import pytest

from cage import calculations as calc


@pytest.mark.parametrize(
    "lines,total",
    [
        ([], 0),
        ([(500, 3)], 1500),
        ([(10000, 2), (2000, 5), (1, 7)], 30007),
        ([(50, 3), (2500, 0)], 150),
    ],
)
def test_a_count_totals_value_times_quantity(lines, total):
    assert calc.lines_total_cents(lines) == total


@pytest.mark.parametrize(
    "loans,net",
    [
        ([], 0),
        ([("bank", "reserve", 50000)], 50000),  # lent out: the bank is owed, cash on hand short
        ([("reserve", "bank", 20000)], -20000),  # borrowed in: the bank owes it back
        ([("bank", "pull_tabs", 10000), ("reserve", "bank", 4000)], 6000),
        ([("reserve", "pull_tabs", 9999)], 0),  # between two other funds: not this bank's
        ([("bank", "reserve", 0)], 0),  # repaid in full
    ],
)
def test_ious_net_is_lent_out_minus_borrowed_in(loans, net):
    assert calc.ious_net_cents(loans) == net


@pytest.mark.parametrize("amount,repaid,outstanding", [(10000, 0, 10000), (10000, 2500, 7500), (10000, 10000, 0)])
def test_an_ious_outstanding_amount_is_lent_minus_repaid(amount, repaid, outstanding):
    assert calc.iou_outstanding_cents(amount, repaid) == outstanding


@pytest.mark.parametrize(
    "cash,chips,net,ideal,difference",
    [
        (300000, 200000, 0, 500000, 0),
        (250000, 200000, 50000, 500000, 0),  # an IOU out explains the missing cash
        (299000, 200000, 0, 500000, -1000),  # short
        (300500, 200000, 0, 500000, 500),  # over
    ],
)
def test_the_bank_is_compared_with_its_imprest_amount_net_of_ious(cash, chips, net, ideal, difference):
    assert calc.imprest_difference_cents(calc.bank_position_cents(cash, chips, net), ideal) == difference


@pytest.mark.parametrize(
    "gaming_date,due",
    [
        (date(2026, 11, 2), date(2026, 11, 5)),  # Monday -> Thursday
        (date(2026, 11, 6), date(2026, 11, 12)),  # Friday -> Thursday (Veterans Day, Wed 11th, skipped)
        (date(2026, 11, 7), date(2026, 11, 12)),  # Saturday -> Thursday
        (date(2026, 12, 23), date(2026, 12, 29)),  # over Christmas
    ],
)
def test_a_deposit_is_due_by_the_third_banking_day(gaming_date, due):
    assert calc.deposit_due_on("ND", gaming_date) == due


@pytest.mark.parametrize(
    "deposited_on,due_on,today,late",
    [
        (date(2026, 11, 5), date(2026, 11, 5), date(2026, 11, 20), False),
        (date(2026, 11, 6), date(2026, 11, 5), date(2026, 11, 20), True),
        (None, date(2026, 11, 5), date(2026, 11, 5), False),
        (None, date(2026, 11, 5), date(2026, 11, 6), True),
    ],
)
def test_a_deposit_is_late_after_its_due_date(deposited_on, due_on, today, late):
    assert calc.deposit_is_late(deposited_on, due_on, today) is late


@pytest.mark.parametrize(
    "movements,book",
    [
        ([], {}),
        ([("receipt", 500, 1000)], {500: 1000}),
        ([("receipt", 500, 1000), ("destruction", 500, 40), ("receipt", 2500, 200)], {500: 960, 2500: 200}),
    ],
)
def test_the_inventory_book_is_received_minus_destroyed(movements, book):
    assert calc.book_quantities(movements) == book


@pytest.mark.parametrize(
    "book,counted,outstanding",
    [
        ({500: 1000}, {500: 1000}, {500: 0}),
        ({500: 1000, 2500: 200}, {500: 950}, {500: 50, 2500: 200}),
        ({500: 100}, {500: 110}, {500: -10}),
        ({}, {100: 5}, {100: -5}),
    ],
)
def test_chips_outstanding_are_book_minus_counted(book, counted, outstanding):
    assert calc.chips_outstanding(book, counted) == outstanding
