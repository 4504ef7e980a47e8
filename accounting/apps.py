from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from core import closing

        from . import day_figures, menu  # noqa: F401  (menu registers the day sheet's menu entry)
        from .queries import closed_dates, closed_days, closed_reason, expected_deposit, quarter_filed
        from .summaries import is_books_day

        closing.register_books_closed(closed_reason)
        closing.register_closed_dates(closed_dates)
        closing.register_closed_days(closed_days)
        closing.register_books_day(is_books_day)
        closing.register_quarter_filed(quarter_filed)
        closing.register_expected_deposit(expected_deposit)
        day_figures.connect()
