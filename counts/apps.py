from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = "Drop boxes and counts"

    def ready(self):
        from cardroom.models import Role
        from cardroom.navigation import register
        from floor.open_items import register_open_items

        from .open_items import box_items
        from .rules import keeps_drop_boxes

        readers = {Role.COUNT_TEAM, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR}
        # Only where the site's pack keeps a drop box (not where its revenue is fees only).
        register("Counts", "Count sessions", "counts:sessions", readers, offered=keeps_drop_boxes)
        register("Counts", "Drop boxes and custody", "counts:boxes", readers, offered=keeps_drop_boxes)
        register_open_items(box_items)  # drop boxes still open at a gaming day's close (08-14)
        register(
            "Administration", "Drop boxes and count settings", "counts:drop_boxes", {Role.GAMING_MANAGER},
            offered=keeps_drop_boxes,
        )
