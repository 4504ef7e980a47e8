"""Menu entries for the surveillance pages, shown to the roles that read or keep them."""

from cardroom.navigation import register

from .rules import DAILY_LOG_ROLES, READ_ROLES, SPECIAL_EVENT, STAFF_ROLES

SECTION = "Surveillance"

register(SECTION, "Overview", "surveillance:overview", READ_ROLES)
register(SECTION, "Daily review log", "surveillance:review_log", READ_ROLES | DAILY_LOG_ROLES)
register(SECTION, "Outages", "surveillance:outages", READ_ROLES)
register(SECTION, "Equipment and samples", "surveillance:equipment", READ_ROLES | STAFF_ROLES)
register(SECTION, "Recordings and access", "surveillance:recordings", READ_ROLES)
register(SECTION, "Video review programs", "surveillance:programs", READ_ROLES)
# Only at the sites whose pack states the special-event exemption (ND 99-01.3-08-04).
register(SECTION, "Special events", "surveillance:special_events", READ_ROLES, offered=SPECIAL_EVENT.applies)
