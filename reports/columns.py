"""The columns of a report's data (its CSV and XLSX): a name and a type. A kind's `table` gives
its columns and rows of raw values (cents, Decimal ratios, dates, aware datetimes, ints, text);
`reports.exports` stores them as JSON and writes the files, formatting each cell by its type.
The PDF keeps its own human formatting (core.pdf)."""

from dataclasses import dataclass
from enum import StrEnum


class CellType(StrEnum):
    MONEY = "money"  # integer cents -> a Decimal amount of dollars (1387.00)
    RATIO = "ratio"  # Decimal ratio (hold 0.0548) -> a percentage in XLSX, the fraction in CSV
    NUMBER = "number"  # any other Decimal (a z-score)
    DATE = "date"  # a date, or its ISO text
    DATETIME = "datetime"  # an aware datetime, in the site's time zone
    INT = "int"  # a count, a table or slip number
    TEXT = "text"


MONEY, RATIO, NUMBER, DATE, DATETIME, INT, TEXT = CellType


@dataclass(frozen=True)
class Column:
    name: str
    type: CellType = CellType.TEXT


def names(columns: list[Column]) -> list[str]:
    return [column.name for column in columns]
