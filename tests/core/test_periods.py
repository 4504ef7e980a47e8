from datetime import date

import pytest
from django.core.exceptions import ValidationError

from core.periods import Quarter, add_banking_days, is_banking_day


@pytest.mark.parametrize(
    "text,start,end",
    [
        ("2026Q1", date(2026, 1, 1), date(2026, 3, 31)),
        ("2026Q3", date(2026, 7, 1), date(2026, 9, 30)),
        ("2026q4", date(2026, 10, 1), date(2026, 12, 31)),
    ],
)
def test_quarters_parse_and_span_their_months(text, start, end):
    quarter = Quarter.parse(text)
    assert (quarter.start, quarter.end) == (start, end)


@pytest.mark.parametrize("text", ["2026Q5", "2026-Q3", "Q3 2026", "", "2026Q0"])
def test_a_wrongly_written_quarter_names_the_parameter(text):
    with pytest.raises(ValidationError) as error:
        Quarter.parse(text)
    assert "quarter" in error.value.message_dict


def test_quarter_neighbours_cross_years():
    assert Quarter(2026, 1).previous() == Quarter(2025, 4)
    assert Quarter(2025, 4).next() == Quarter(2026, 1)


def test_the_fiscal_year_runs_july_to_june():
    assert Quarter(2026, 3).fiscal_year == 2027
    assert Quarter(2026, 2).fiscal_year == 2026
    assert [str(q) for q in Quarter(2027, 1).fiscal_year_quarters()] == ["2026Q3", "2026Q4", "2027Q1", "2027Q2"]


@pytest.mark.parametrize(
    "day,expected",
    [
        (date(2026, 11, 25), date(2026, 12, 1)),  # Thanksgiving and a weekend skipped
        (date(2026, 11, 20), date(2026, 11, 25)),  # a weekend skipped
        (date(2026, 12, 23), date(2026, 12, 29)),  # Christmas skipped
        (date(2026, 7, 1), date(2026, 7, 6)),  # July 4 is a Saturday: Friday the 3rd counts
    ],
)
def test_the_third_banking_day(day, expected):
    assert add_banking_days(day, 3) == expected


def test_saturday_holiday_leaves_friday_a_banking_day():
    assert is_banking_day(date(2026, 7, 3))
    assert not is_banking_day(date(2026, 7, 4))


@pytest.mark.parametrize(
    ("day", "first"),
    [
        (date(2018, 7, 1), Quarter(2018, 3)),  # a quarter's first day: that quarter
        (date(2018, 7, 2), Quarter(2018, 4)),  # any later day of it: the next
        (date(2018, 12, 31), Quarter(2019, 1)),  # across the year
        (date(2019, 1, 1), Quarter(2019, 1)),
    ],
)
def test_the_first_quarter_from_a_day_begins_on_or_after_it(day, first):
    assert Quarter.first_from(day) == first
    assert first.start >= day > first.previous().start
