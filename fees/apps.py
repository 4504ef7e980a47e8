from django.apps import AppConfig


class FeesConfig(AppConfig):
    name = "fees"
    verbose_name = "Table fees (WA-BJ) and games-of-chance sessions (NY)"

    def ready(self):
        from . import menu  # noqa: F401  (registers the Table fees menu entry)
