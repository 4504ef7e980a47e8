from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "compliance"

    def ready(self):
        from accounting.games import register_hold_thresholds

        from . import menu  # noqa: F401
        from .thresholds import hold_threshold_schedule

        register_hold_thresholds(hold_threshold_schedule)
