from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "compliance"

    def ready(self):
        from accounting.published import register_amendment_flag, register_hold_thresholds
        from core import hooks
        from counts.rules import register_settings_warnings
        from floor import tips
        from tournaments.services import register_fee_flag

        from . import menu, providers  # noqa: F401  (providers: each registers its rules with the engine)
        from .services import (
            flag_filed_return_amended,
            flag_tips_at_leaving,
            flag_tournament_fee_before_announcement,
        )
        from .thresholds import hold_threshold_schedule, refuse_backdating

        register_hold_thresholds(hold_threshold_schedule)
        tips.register_tips_flag(flag_tips_at_leaving)  # ND 99-01.3-08-06(3), checked at the last shift's end
        register_amendment_flag(flag_filed_return_amended)  # a filed quarter's return amended
        register_fee_flag(flag_tournament_fee_before_announcement)  # house control: a fee before the announcement
        register_settings_warnings(providers.count_settings_warnings)  # ND 99-01.3-08-04(8), said on saving
        hooks.THRESHOLD_DATED.register(refuse_backdating)  # house control: no threshold dated in a filed quarter
