from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "Regulator's registry"

    def ready(self):
        from . import menu  # noqa: F401  (the regulator's menu entries)
