"""Menu entries for the figures pages and the auditor dashboard."""

from cardroom.navigation import register

from .access import DASHBOARD_ROLES, FIGURE_ROLES, QUARTER_ROLES

SECTION = "Figures"

register(SECTION, "Daily summary", "dashboard:daily", FIGURE_ROLES)
register(SECTION, "Quarterly summary", "dashboard:quarter", QUARTER_ROLES)
register(SECTION, "Dealer percent-of-hold", "dashboard:dealers", FIGURE_ROLES)
register(SECTION, "Auditor dashboard", "dashboard:overview", DASHBOARD_ROLES)
