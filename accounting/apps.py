from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from cardroom import closing

        from . import menu  # noqa: F401  (registers the Chips menu entries)
        from .queries import books_closed_on

        closing.register_books_closed(books_closed_on)
