"""Adjusting entries to closed books as the reports list them, in one table: the quarterly
report's amendments (with the quarter each corrects) and the daily report's entries recorded on
a day and those correcting it later (as the daily page lists them)."""

from django.utils.text import capfirst

from accounting.published import adjustment_custody
from accounting.rules import SITE_FIGURES
from core.pdf import data_table
from packs import RevenueWords, revenue_words


def adjustment_header(words: RevenueWords, *, quarter: bool = True) -> list[str]:
    """The columns, the effect on the win named in the site's pack's words; the quarter corrected
    where `quarter` (the quarterly report's amendments)."""
    return [
        "Corrects",
        "Counted on",  # the gaming day whose totals it counts in, as the pages say it: not when it was keyed
        *(["Quarter"] if quarter else []),
        "Figure",
        "Amount",
        f"{capfirst(words.net_short)} effect",
        "Reason",
    ]


def adjustment_row(line, quarter: str | None = None) -> list:
    """An adjustment's cells (accounting's AdjustmentLine), with the quarter it corrects when given.
    A correction of the site's own figures (`SITE_FIGURES`: the cash, a fees or session site's own
    revenue) moves no table's win: its effect is a dash (None), its amount the change to the figure
    it names."""
    table = f" table {line.table_number}" if line.table_number else ""
    return [
        str(line.corrected_date),
        str(line.recorded_on),
        *([quarter] if quarter is not None else []),
        f"{line.figure}{table}",
        line.amount_cents,
        None if line.field in SITE_FIGURES else adjustment_custody([line]).agp_cents,
        f"{line.reason} ({line.approved_by_initials})",
    ]


def adjustment_table(rows: list[list], where: str, *, quarter: bool = True) -> object:
    """The table of `rows` (adjustment_row's), money right-aligned."""
    widths = [62, 62, 80, 70, 58, 58, 135] if quarter else [70, 70, 90, 65, 65, 165]
    money = [4, 5] if quarter else [3, 4]
    return data_table(adjustment_header(revenue_words(where), quarter=quarter), rows, col_widths=widths,
                      money_columns=money)  # fmt: skip
