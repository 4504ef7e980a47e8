from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from . import menu  # noqa: F401  (registers the Chips menu entries)
