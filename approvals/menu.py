"""Menu entry for the Washington game approvals and internal controls."""

from cardroom.navigation import register

from . import rules

# Only at the sites of the packs whose game approvals the app records (approvals.rules).
register("Setup", "Game approvals (WA)", "approvals:list", rules.RECORDS.roles,
         offered=lambda jurisdiction: jurisdiction in rules.APPROVAL_JURISDICTIONS)
