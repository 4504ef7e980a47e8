from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor: table chip custody"

    def ready(self):
        from . import menu  # noqa: F401  (registers the Chips menu entries)
