"""Menu entry for the game approvals, internal controls and licences."""

from cardroom.navigation import register
from floor.menu import SECTION as FLOOR_SECTION

from . import rules

# Only at the sites of the packs whose law states what the app records (approvals.rules).
register(
    "Setup",
    "Approvals and licences",
    "approvals:list",
    rules.RECORDS.roles,
    offered=lambda jurisdiction: any(
        rule.applies(jurisdiction) for rule in (rules.INTERNAL_CONTROLS, rules.GAME_APPROVAL, rules.LICENCE)
    ),
)


def _procedures_stated(jurisdiction) -> bool:
    return any(rule.applies(jurisdiction) for rule in rules.PROCEDURES.values())


# The organization's written procedures, where its sites' pack states them (ND 99-01.3-08-06(2),
# 08-08(1), 08-12): set up by the gaming manager, read on the floor by the people who follow them.
register("Setup", "Written procedures", "approvals:procedures", rules.RECORDS.roles, offered=_procedures_stated)
register(
    FLOOR_SECTION,
    "Written procedures",
    "approvals:procedures",
    rules.PROCEDURE_READERS.roles - rules.RECORDS.roles,
    offered=_procedures_stated,
)
