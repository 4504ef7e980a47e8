from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"
    verbose_name = "Cashier's cage"

    def ready(self):
        from . import menu  # noqa: F401  (registers the menu entries)
