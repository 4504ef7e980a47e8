"""Menu entries for the counts and the drop boxes, shown to the roles that use them."""

from cardroom.models import Role
from cardroom.navigation import register

READERS = {Role.COUNT_TEAM, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR}

register("Counts", "Count sessions", "counts:sessions", READERS)
register("Counts", "Drop boxes and custody", "counts:boxes", READERS)
register("Administration", "Drop boxes and count settings", "counts:drop_boxes", {Role.GAMING_MANAGER})
