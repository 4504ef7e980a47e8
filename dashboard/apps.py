from django.apps import AppConfig


class DashboardConfig(AppConfig):
    name = "dashboard"

    def ready(self):
        from . import menu  # noqa: F401  (registers the Figures menu entries)
