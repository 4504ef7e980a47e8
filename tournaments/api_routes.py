"""This app's API endpoints, registered on the shared /api/v1/ router."""


def register(router) -> None:
    from . import api

    router.register("tournaments", api.TournamentViewSet, basename="tournament")
