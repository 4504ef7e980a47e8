"""A month as the calendar page draws it: weeks of days (Sunday first, as US calendars are),
each day with the items due on it. Pure: no database."""

import calendar
import re
from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError

from core import limits
from core.rules import HOUSE_CONTROL

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


@dataclass
class Day:
    date: date
    in_month: bool
    is_today: bool
    items: list = field(default_factory=list)  # (alert, status)
    obligations: list = field(default_factory=list)  # compliance.obligations.Obligation


@dataclass(frozen=True)
class Month:
    first: date

    @classmethod
    def parse(cls, text: str | None, *, default: date, field: str = "month") -> "Month":
        """'2026-11' -> November 2026; nothing -> the month of `default`; anything else is a
        ValidationError naming `field` (the caller says so and shows the month of `default`)."""
        if not text:
            return cls(default.replace(day=1))
        match = _MONTH.match(text.strip())
        if not match:
            raise ValidationError({field: limits.format_message(field, "YYYY-MM", text, "2026-11")})
        if not 1 <= int(match[2]) <= 12:
            raise ValidationError(
                {field: f"{HOUSE_CONTROL}: {field} names no month ({text.strip()} is not a month; write YYYY-MM)."}
            )
        first = date(int(match[1]), int(match[2]), 1)
        if not limits.date_in_range(first):
            raise ValidationError({field: limits.date_message(f"The month ({text.strip()})")})
        return cls(first)

    @property
    def key(self) -> str:
        return f"{self.first:%Y-%m}"

    @property
    def title(self) -> str:
        return f"{self.first:%B %Y}"

    @property
    def previous(self) -> "Month":
        year, month = (self.first.year, self.first.month - 1) if self.first.month > 1 else (self.first.year - 1, 12)
        return Month(date(year, month, 1))

    @property
    def next(self) -> "Month":
        year, month = (self.first.year, self.first.month + 1) if self.first.month < 12 else (self.first.year + 1, 1)
        return Month(date(year, month, 1))

    def weeks(self) -> list[list[date]]:
        return calendar.Calendar(firstweekday=calendar.SUNDAY).monthdatescalendar(self.first.year, self.first.month)

    def grid_range(self) -> tuple[date, date]:
        weeks = self.weeks()
        return weeks[0][0], weeks[-1][-1]


WEEKDAYS = [(calendar.day_abbr[i], calendar.day_name[i]) for i in (6, 0, 1, 2, 3, 4, 5)]


def month_grid(
    month: Month, items_by_day: dict[date, list], today: date, obligations_by_day: dict[date, list] | None = None
) -> list[list[Day]]:
    obligations_by_day = obligations_by_day or {}
    return [
        [
            Day(day, day.month == month.first.month, day == today, items_by_day.get(day, []),
                obligations_by_day.get(day, []))
            for day in week
        ]
        for week in month.weeks()
    ]  # fmt: skip
