"""Pure cage arithmetic: no ORM, integers in and out (cents, chip counts), dates.

Signs are stated in each docstring; amounts are integer cents throughout.
"""

from collections.abc import Iterable, Mapping
from datetime import date

from core.periods import add_banking_days

from .rules import DEPOSIT_DAYS

BANK = "bank"  # the site's twenty-one cash and chip bank among the IOU funds (models.Fund.BANK)


def lines_total_cents(lines: Iterable[tuple[int, int]]) -> int:
    """total = sum(value_cents x quantity) over (value_cents, quantity) lines."""
    return sum(value_cents * quantity for value_cents, quantity in lines)


def iou_outstanding_cents(amount_cents: int, repaid_cents: int) -> int:
    """outstanding = amount lent - amount repaid (never negative: a repayment above it is refused)."""
    return amount_cents - repaid_cents


def ious_net_cents(loans: Iterable[tuple[str, str, int]], bank: str = BANK) -> int:
    """For one bank, over (source, destination, outstanding_cents) of unrepaid IOUs:

        ious_net = sum(outstanding lent out of the bank) - sum(outstanding borrowed into it)

    Positive: the bank is owed money, so its cash on hand is short by that much;
    negative: it holds borrowed money it owes back. The bank's position is
    cash + chips + ious_net."""
    net = 0
    for source, destination, outstanding in loans:
        if source == bank:
            net += outstanding
        elif destination == bank:
            net -= outstanding
    return net


def bank_position_cents(cash_cents: int, chips_cents: int, ious_net: int) -> int:
    """position = cash on hand + chips in the bank at face value + IOUs owed to it (net)."""
    return cash_cents + chips_cents + ious_net


def imprest_difference_cents(position_cents: int, ideal_cents: int) -> int:
    """difference = bank position - ideal (imprest) amount; positive is over, negative short."""
    return position_cents - ideal_cents


def deposit_due_on(where, gaming_date: date) -> date:
    """due = the n-th banking day after the gaming date, n the deposit limit of `where`'s pack (a site
    or a pack's code) in force on the gaming date (ND 99-01.3-03-10: the third)."""
    return add_banking_days(gaming_date, DEPOSIT_DAYS.on(where, gaming_date).value)


def deposit_is_late(deposited_on: date | None, due_on: date, today: date) -> bool:
    """Late when deposited after the due date, or not deposited and the due date has passed."""
    if deposited_on is None:
        return today > due_on
    return deposited_on > due_on


def book_quantities(movements: Iterable[tuple[str, int, int]]) -> dict[int, int]:
    """Chips owned per value over (kind, value_cents, quantity) movements:

    book[value] = sum(received) - sum(destroyed)"""
    book: dict[int, int] = {}
    for kind, value_cents, quantity in movements:
        sign = 1 if kind == "receipt" else -1
        book[value_cents] = book.get(value_cents, 0) + sign * quantity
    return book


def chips_outstanding(book: Mapping[int, int], counted: Mapping[int, int]) -> dict[int, int]:
    """Per value: outstanding = book - counted in every location. Positive: chips with
    players (or missing); negative: more chips found than the book owns (a book error)."""
    return {value: book.get(value, 0) - counted.get(value, 0) for value in sorted(set(book) | set(counted))}
