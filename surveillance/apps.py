from django.apps import AppConfig


class SurveillanceConfig(AppConfig):
    name = "surveillance"

    def ready(self):
        from cardroom import wager_caps
        from cardroom.retention import DEALER_HOLD_AND_VIDEO_REVIEW, retain
        from floor.seating import register_seating_check, register_shift_end_check, register_table_shift_check

        from . import menu  # noqa: F401
        from .models import ReviewEntry, ReviewLogEntry, ReviewProgram
        from .services import check_wager_under_surveillance_caps
        from .services.review_programs import (
            seating_deals_a_reviewed_shift,
            shift_end_deals_a_reviewed_shift,
            table_shift_widens_a_review,
        )

        # ND 99-01.3-08-16(1)(d): the daily review log, three years; (1)(h): video review
        # documentation, one year from the end of the quarter of the activity.
        retain(ReviewLogEntry, lambda r: r.gaming_date)
        retain(ReviewProgram, lambda r: r.end_date, DEALER_HOLD_AND_VIDEO_REVIEW)
        retain(ReviewEntry, lambda r: r.gaming_date, DEALER_HOLD_AND_VIDEO_REVIEW)

        # ND 99-01.3-08-04(7): the $2 cap past an outage's deadline, and ND 99-01.3-08-04: the $2
        # cap past the site's deadline to have a system, bind Table.clean and the floor.
        wager_caps.register_wager_cap(check_wager_under_surveillance_caps)

        # ND 99-01.3-08-04(9): a dealer shift recorded after a video review, by its reviewer, on the
        # shift reviewed (entered later from paper) is refused where it starts or ends.
        register_seating_check(seating_deals_a_reviewed_shift)
        register_shift_end_check(shift_end_deals_a_reviewed_shift)
        # ... and another dealer's shift at a reviewed table, recorded afterwards, that widens the shift
        # reviewed onto one the reviewer dealt (where the site's pack states the rule).
        register_table_shift_check(table_shift_widens_a_review)
