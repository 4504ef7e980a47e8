from django.apps import AppConfig


class FeesConfig(AppConfig):
    name = "fees"
    verbose_name = "Table fees (WA-BJ) and games-of-chance sessions (NY)"
