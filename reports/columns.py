"""The columns of a report's data (its CSV and XLSX): a name and a type. A kind's `table` gives
its columns and rows of raw values (cents, Decimal ratios, dates, aware datetimes, ints, text);
`reports.exports` stores them as JSON and writes the files, formatting each cell by its type.
The PDF keeps its own human formatting (core.pdf)."""

from dataclasses import dataclass, replace
from enum import StrEnum

from django.utils.text import capfirst


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


def in_words(columns: list[Column], rows: list[list], words) -> tuple[list[Column], list[list]]:
    """The columns of a table's figures headed in the words of the site's pack (`words`, a
    `packs.RevenueWords`): North Dakota's gross proceeds, prizes and AGP, another pack's own or the
    trade's (paid out, win). Where the pack calls the drop the drop and a drop column is
    there already, the gross proceeds column (the same figure) is left out, and its cells."""
    labels = {"gross_proceeds": capfirst(words.gross), "prizes": words.paid_label, "agp": capfirst(words.net_short)}
    named = [replace(c, label=labels[c.name]) if c.name in labels and not c.label else c for c in columns]
    keys = names(columns)
    if not words.gross_column and "drop" in keys and "gross_proceeds" in keys:
        gone = keys.index("gross_proceeds")
        return named[:gone] + named[gone + 1 :], [row[:gone] + row[gone + 1 :] for row in rows]
    return named, rows


def without(columns: list[Column], rows: list[list], gone: set[str]) -> tuple[list[Column], list[list]]:
    """The table without the columns named in `gone` and their cells: a column of a figure the
    site's pack has none of (a tax, a low-hold threshold) is left out, not left empty."""
    kept = [n for n, column in enumerate(columns) if column.name not in gone]
    return [columns[n] for n in kept], [[row[n] for n in kept] for row in rows]


def headings(columns: list[Column]) -> list[str]:
    """The header row of the CSV and XLSX files."""
    return [column.heading for column in columns]
