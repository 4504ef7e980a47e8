from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"

    def ready(self):
        from core import closing
        from tournaments.services import register_void_amendment

        from . import day_figures, menu  # noqa: F401  (menu registers the day sheet's menu entry)
        from .amendments import amend_with_tournament_void
        from .queries import closed_dates, closed_days, closed_on, closed_reason, collecting_days, expected_deposit
        from .rules import books_closers
        from .summaries import is_books_day

        closing.register_books_closed(closed_reason)
        closing.register_closed_dates(closed_dates)
        closing.register_closed_days(closed_days)
        closing.register_collecting_days(collecting_days)
        closing.register_closed_on(closed_on)
        closing.register_books_day(is_books_day)
        register_void_amendment(amend_with_tournament_void)  # a void of a fee or prize on a filed return
        closing.register_expected_deposit(expected_deposit)
        closing.register_books_closers(books_closers)
        day_figures.connect()
