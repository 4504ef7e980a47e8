from cardroom.models import Role
from cardroom.navigation import register

ALERT_ROLES = {Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER}
register("Compliance", "Alerts", "compliance:alerts", ALERT_ROLES)
register("Compliance", "Obligations calendar", "compliance:calendar", ALERT_ROLES)
register("Administration", "Thresholds of the rules", "compliance:thresholds", {Role.GAMING_MANAGER, Role.AUDITOR})
