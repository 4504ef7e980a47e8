from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from cardroom import closing

        from . import menu  # noqa: F401  (registers the day sheet's menu entry)
        from .queries import closed_reason

        closing.register_books_closed(closed_reason)
