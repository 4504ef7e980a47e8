from django.apps import AppConfig


class SurveillanceConfig(AppConfig):
    name = "surveillance"

    def ready(self):
        from cardroom import navigation

        from .rules import DAILY_LOG_ROLES, READ_ROLES, STAFF_ROLES

        section = "Surveillance"
        navigation.register(section, "Overview", "surveillance:overview", READ_ROLES)
        navigation.register(section, "Daily review log", "surveillance:review_log", READ_ROLES | DAILY_LOG_ROLES)
        navigation.register(section, "Outages", "surveillance:outages", READ_ROLES)
        navigation.register(section, "Equipment and samples", "surveillance:equipment", READ_ROLES | STAFF_ROLES)
        navigation.register(section, "Recordings and access", "surveillance:recordings", READ_ROLES)
        navigation.register(section, "Video review programs", "surveillance:programs", READ_ROLES)
