from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"  # every pack's sites: each names game 21 its own way (`packs.game_names`)

    def ready(self):
        from . import menu  # noqa: F401  (registers the Tournaments menu entries)
