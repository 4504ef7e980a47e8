"""Menu entry for the Washington game approvals and internal controls."""

from cardroom.navigation import register

from . import rules

register("Setup", "Game approvals (WA)", "approvals:list", rules.RECORDS.roles)
