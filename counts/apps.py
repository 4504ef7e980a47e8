from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = "Drop boxes and counts"
