from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = "Drop boxes and counts"

    def ready(self):
        from floor.open_items import register_open_items

        from . import menu  # noqa: F401
        from .open_items import box_items

        register_open_items(box_items)  # drop boxes still open at a gaming day's close (08-14)
