from cardroom.models import Role
from cardroom.navigation import register

REPORT_ROLES = {Role.GAMING_MANAGER, Role.AUDITOR}
register("Reports", "Reports", "reports:index", REPORT_ROLES)
