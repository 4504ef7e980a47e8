"""Periods the regulations count in: quarters, the July-June fiscal year, banking days."""

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

import holidays
from django.core.exceptions import ValidationError

from . import limits

_QUARTER = re.compile(r"^(\d{4})Q([1-4])$")


@dataclass(frozen=True, order=True)
class Quarter:
    year: int
    number: int

    @classmethod
    def parse(cls, text: str, *, field: str = "quarter") -> "Quarter":
        match = _QUARTER.match((text or "").strip().upper())
        if not match:
            raise ValidationError({field: limits.format_message(field, "YYYYQn", text, "2026Q3")})
        if not limits.FIRST_DATE.year <= int(match[1]) <= limits.LAST_DATE.year:
            raise ValidationError(
                {
                    field: f"The quarter must be in {limits.FIRST_DATE.year}-{limits.LAST_DATE.year} ({limits.HOUSE_CONTROL})."
                }
            )
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def containing(cls, day: date) -> "Quarter":
        return cls(day.year, (day.month - 1) // 3 + 1)

    @classmethod
    def first_from(cls, day: date) -> "Quarter":
        """The first quarter that begins on or after `day` (the one containing it when it begins
        that day, else the next)."""
        quarter = cls.containing(day)
        return quarter if quarter.start >= day else quarter.next()

    @property
    def start(self) -> date:
        return date(self.year, 3 * self.number - 2, 1)

    @property
    def end(self) -> date:
        return self.next().start - timedelta(days=1)

    def month_end_after(self, months: int) -> date:
        """The last day of the `months`-th month after the quarter's last month (1: the last day
        of the month after the quarter, 2026Q3 -> 2026-10-31)."""
        index = self.year * 12 + 3 * self.number - 1 + months  # months since year 0, January = 0
        return date(index // 12, index % 12 + 1, calendar.monthrange(index // 12, index % 12 + 1)[1])

    def next(self) -> "Quarter":
        return Quarter(self.year + 1, 1) if self.number == 4 else Quarter(self.year, self.number + 1)

    def previous(self) -> "Quarter":
        return Quarter(self.year - 1, 4) if self.number == 1 else Quarter(self.year, self.number - 1)

    @property
    def fiscal_year(self) -> int:
        """The July 1 - June 30 fiscal year, named by the year in which it ends (ND 99-01.3-08-04)."""
        return self.year + 1 if self.number >= 3 else self.year

    def fiscal_year_quarters(self) -> list["Quarter"]:
        first = Quarter(self.fiscal_year - 1, 3)
        return [first, first.next(), first.next().next(), first.next().next().next()]

    def __str__(self) -> str:
        return f"{self.year}Q{self.number}"


@lru_cache(maxsize=64)
def _bank_holidays(year: int) -> frozenset[date]:
    # The Federal Reserve's calendar: federal holidays, with a Sunday holiday observed on
    # Monday and a Saturday holiday not moved (banks open the Friday before).
    return frozenset(holidays.financial_holidays("FED", years=year).keys())


def is_banking_day(day: date) -> bool:
    """Weekdays that are not Federal Reserve holidays."""
    return day.weekday() < 5 and day not in _bank_holidays(day.year)


@lru_cache(maxsize=4096)  # pure; the figures of a quarter ask it for every day
def add_banking_days(day: date, count: int) -> date:
    """The `count`-th banking day after `day` (ND 99-01.3-03-10: deposit by the third)."""
    current = day
    while count > 0:
        current += timedelta(days=1)
        if is_banking_day(current):
            count -= 1
    return current
