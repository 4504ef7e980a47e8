"""Menu entries for the figures pages, the auditor dashboard and the audit log."""

from cardroom.navigation import register
from packs import RevenueModel, pack_for, revenue_words

from .access import AUDIT_LOG, DASHBOARD_ROLES, FIGURE_ROLES, QUARTER_ROLES


def _drop_pack(jurisdiction: str) -> bool:
    """Percent-of-hold is a drop-based pack's figure (a fees or session pack has none)."""
    return pack_for(jurisdiction).revenue_model == RevenueModel.DROP


SECTION = "Figures"

register(SECTION, "Daily summary", "dashboard:daily", FIGURE_ROLES)
register(SECTION, "Quarterly summary", "dashboard:quarter", QUARTER_ROLES)
# "Dealer hold" in the trade's word; "Dealer percent-of-hold" in North Dakota's (08-01(3)).
register(
    SECTION,
    "Dealer hold",
    "dashboard:dealers",
    FIGURE_ROLES,
    offered=_drop_pack,
    label_at=lambda jurisdiction: f"Dealer {revenue_words(jurisdiction).hold_name}",
)
register(SECTION, "Dashboard", "dashboard:overview", DASHBOARD_ROLES)
register("Compliance", "Audit log", "dashboard:audit", AUDIT_LOG.roles)
