from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Twenty-one tournaments"

    def ready(self):
        from . import menu  # noqa: F401  (registers the Tournaments menu entries)
