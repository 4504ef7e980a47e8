from django.apps import AppConfig


class FeesConfig(AppConfig):
    name = "fees"
    verbose_name = "Table fees and games-of-chance sessions"

    def ready(self):
        from floor.pit_terminal import register_fee_step

        from . import menu  # noqa: F401  (registers the table fees and sessions menu entries)
        from .pit import pit_fee_step

        register_fee_step(pit_fee_step)  # a table fee on a station's pit terminal (WA-BJ)
