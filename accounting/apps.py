from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from cardroom import closing

        from .queries import closed_reason

        closing.register_books_closed(closed_reason)
