"""Menu entries for the counts and the drop boxes, shown to the roles that use them, only where
the site's pack keeps a drop box (not where its revenue is fees only: `rules.keeps_drop_boxes`)."""

from cardroom.models import Role
from cardroom.navigation import register

from .rules import keeps_drop_boxes

READERS = {Role.COUNT_TEAM, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR}

register("Counts", "Count sessions", "counts:sessions", READERS, offered=keeps_drop_boxes)
register("Counts", "Drop boxes and custody", "counts:boxes", READERS, offered=keeps_drop_boxes)
register(
    "Administration", "Drop boxes and count settings", "counts:drop_boxes", {Role.GAMING_MANAGER},
    offered=keeps_drop_boxes,
)  # fmt: skip
