"""Menu entries of the books' pages that are not figures (those are the dashboard's)."""

from cardroom.navigation import register

from . import day_sheets

register("Chips", "Enter a day sheet (CSV)", "accounting:day_sheet", day_sheets.ENTERERS)
