"""This app's API endpoints on /api/v1/ (config.api_urls)."""


def register(routes) -> None:
    from . import api

    routes.register("tournaments", api.TournamentViewSet, basename="tournament")
