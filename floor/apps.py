from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor: table chip custody"
