"""Menu entries of the books' pages that are not figures (those are the dashboard's)."""

from cardroom.navigation import register
from floor.rules import house_chips

from . import day_sheets

# A day sheet holds openers, slips, closers and the drop count: not where the pack's revenue is
# fees only (`house_chips`).
register("Floor", "Enter a day sheet (CSV)", "accounting:day_sheet", day_sheets.ENTERERS, offered=house_chips)
