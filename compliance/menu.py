from cardroom.models import Role
from cardroom.navigation import register

from .queries import ALERTS

register("Compliance", "Alerts", "compliance:alerts", ALERTS.roles)
register("Compliance", "Obligations calendar", "compliance:calendar", ALERTS.roles)
register("Administration", "Thresholds of the rules", "compliance:thresholds", {Role.GAMING_MANAGER, Role.AUDITOR})
