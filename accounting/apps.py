from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from cardroom import closing

        from .queries import books_closed_on

        closing.register_books_closed(books_closed_on)
