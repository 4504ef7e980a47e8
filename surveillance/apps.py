from django.apps import AppConfig


class SurveillanceConfig(AppConfig):
    name = "surveillance"

    def ready(self):
        from cardroom import navigation, wager_caps
        from cardroom.retention import DEALER_HOLD_AND_VIDEO_REVIEW, retain

        from .models import ReviewEntry, ReviewLogEntry, ReviewProgram
        from .rules import DAILY_LOG_ROLES, READ_ROLES, STAFF_ROLES
        from .services import check_wager_under_surveillance_caps

        # ND 99-01.3-08-16(1)(d): the daily review log, three years; (1)(h): video review
        # documentation, one year from the end of the quarter of the activity.
        retain(ReviewLogEntry, lambda r: r.gaming_date)
        retain(ReviewProgram, lambda r: r.end_date, DEALER_HOLD_AND_VIDEO_REVIEW)
        retain(ReviewEntry, lambda r: r.gaming_date, DEALER_HOLD_AND_VIDEO_REVIEW)

        # ND 99-01.3-08-04(7): the $2 cap past an outage's deadline, and ND 99-01.3-08-04: the $2
        # cap past the site's deadline to have a system, bind Table.clean and the floor.
        wager_caps.register_wager_cap(check_wager_under_surveillance_caps)

        section = "Surveillance"
        navigation.register(section, "Overview", "surveillance:overview", READ_ROLES)
        navigation.register(section, "Daily review log", "surveillance:review_log", READ_ROLES | DAILY_LOG_ROLES)
        navigation.register(section, "Outages", "surveillance:outages", READ_ROLES)
        navigation.register(section, "Equipment and samples", "surveillance:equipment", READ_ROLES | STAFF_ROLES)
        navigation.register(section, "Recordings and access", "surveillance:recordings", READ_ROLES)
        navigation.register(section, "Video review programs", "surveillance:programs", READ_ROLES)
