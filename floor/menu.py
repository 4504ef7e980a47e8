"""Menu entries for table chip custody, shown to the roles that use them (floor.rules)."""

from cardroom.models import Role
from cardroom.navigation import register, register_home_panel

from . import rules

# The floor's pages: its gaming day, tables, dealers and, where the house has chips at its tables,
# their slips (it was "Chips", which named the slips' pages alone, to a count team member too).
SECTION = "Floor"
EVERYONE_AT_A_SITE = frozenset(Role)
OVERSIGHT = {Role.GAMING_MANAGER, Role.AUDITOR}

register(SECTION, "Pit: live view", "floor:pit_here", rules.PIT_VIEW.roles)
register(SECTION, "Floor: gaming day and tables", "floor:floor", EVERYONE_AT_A_SITE)
# Fill and credit slips (and their books) only where the site's pack has house chips moving
# between its bank and the tables (`rules.house_chips`: not where its revenue is fees only).
SLIPS = rules.house_chips
register(SECTION, "Prepare a fill slip", "floor:prepare_slip", rules.FILL_PREPARERS, offered=SLIPS, kind="fill")
register(SECTION, "Prepare a credit slip", "floor:prepare_slip", rules.CREDIT_PREPARERS, offered=SLIPS, kind="credit")
register(
    SECTION,
    "Slips waiting",
    "floor:queues",
    rules.VERIFIERS | rules.RECEIVERS["fill"] | rules.RECEIVERS["credit"] | rules.FLOOR_SUPERVISORS | OVERSIGHT,
    offered=SLIPS,
)
register(
    SECTION,
    "Slip register",
    "floor:register",
    rules.SLIP_REGISTER.roles,
    offered=SLIPS,
)

# What a shift manager lands on: the home page opens on the live pit view of the current site.
register_home_panel("floor/_pit_home_panel.html", rules.PIT_VIEW.roles)
# What a dealer lands on: the fills waiting for them to receive at the table where they deal.
register_home_panel("floor/_receive_home_panel.html", rules.RECEIVERS["fill"])
register("Administration", "Slip books", "floor:slip_books", rules.SLIP_BOOK_REGISTRARS, offered=SLIPS)
