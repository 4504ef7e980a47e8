from django.apps import AppConfig


class FeesConfig(AppConfig):
    name = "fees"
    verbose_name = "Table fees and games-of-chance sessions"

    def ready(self):
        from . import menu  # noqa: F401  (registers the table fees and sessions menu entries)
