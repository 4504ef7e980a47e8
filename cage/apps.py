from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"
    verbose_name = "Cashier's cage"

    def ready(self):
        from floor import tips

        from . import menu  # noqa: F401  (registers the menu entries)
        from .queries import tip_status

        tips.register_tip_status(tip_status)  # ND 99-01.3-08-06(3): tips redeemed before leaving
