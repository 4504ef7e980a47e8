from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Card room"

    def ready(self):
        from . import (
            checks,  # noqa: F401  (registers the deploy checks)
            citations,
            tokens,
        )
        from .admin import restrict_platform_admins

        restrict_platform_admins()
        tokens.connect()
        citations.connect()
