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
    name: str  # the key in code and tests ("gaming_date")
    type: CellType = CellType.TEXT
    label: str = ""  # the header people read, where `heading(name)` does not say it ("$0.50 chips")

    @property
    def heading(self) -> str:
        return self.label or heading(self.name)


ACRONYMS = {"agp": "AGP", "gp": "GP", "pw": "PW", "sfn": "SFN", "id": "ID", "pdf": "PDF"}


def heading(name: str) -> str:
    """A column's header as people read it: "gaming_date" -> "Gaming date", "agp" -> "AGP"."""
    words = [ACRONYMS.get(word, word) for word in name.split("_")]
    first = words[0] if words[0] in ACRONYMS.values() else words[0][:1].upper() + words[0][1:]
    return " ".join([first, *words[1:]])


def names(columns: list[Column]) -> list[str]:
    return [column.name for column in columns]


def headings(columns: list[Column]) -> list[str]:
    """The header row of the CSV and XLSX files."""
    return [column.heading for column in columns]
