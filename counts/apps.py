from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = "Drop boxes and counts"

    def ready(self):
        from cardroom.role_grants import register_role_check
        from cardroom.site_keeps import register_drop_boxes
        from floor.open_items import register_carried_now, register_open_items
        from floor.seating import (
            register_dealer_change_box,
            register_duty_end_check,
            register_seating_check,
            register_shift_end_check,
        )
        from packs import register_table_check

        from . import menu  # noqa: F401
        from .open_items import box_items, carried_boxes_now
        from .pit import box_at_dealer_change
        from .role_grants import auditor_kept_off_count_team
        from .rules import keeps_drop_boxes
        from .services.boxes import renumbered_table_errors
        from .services.counting import seating_breaks_a_count_team
        from .services.custody import on_duty_through_an_unescorted_removal

        register_open_items(box_items)  # drop boxes still open at a gaming day's close (08-14)
        register_carried_now(carried_boxes_now)  # a carried box counted since, as the carried lists say it
        register_role_check(auditor_kept_off_count_team)  # AUDITOR_BAR, where the role is given
        register_seating_check(seating_breaks_a_count_team)  # a dealer shift after the count (08-14(2))
        # A dealer shift or a duty period recorded after a box's unescorted removal, running at it (08-14(1)).
        register_shift_end_check(on_duty_through_an_unescorted_removal)
        register_duty_end_check(on_duty_through_an_unescorted_removal)
        register_table_check(renumbered_table_errors)  # a table keeps its drop boxes' number (08-02(2))
        register_drop_boxes(keeps_drop_boxes)  # no count tablet offered where no drop is counted (a fees room)
        register_dealer_change_box(box_at_dealer_change)  # a change of dealer removes the box (one drop a shift)
