from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from cardroom import closing

        from . import menu  # noqa: F401  (registers the Chips menu entries)
        from .queries import closed_reason

        closing.register_books_closed(closed_reason)
