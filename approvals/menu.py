"""Menu entry for the game approvals, internal controls and licences."""

from cardroom.navigation import register

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
# The organization's written procedures, where its sites' pack states them (ND 99-01.3-08-06(2), 08-08(1), 08-12).
register(
    "Setup",
    "Written procedures",
    "approvals:procedures",
    rules.RECORDS.roles,
    offered=lambda jurisdiction: any(rule.applies(jurisdiction) for rule in rules.PROCEDURES.values()),
)
