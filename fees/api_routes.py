"""This app's API endpoints on /api/v1/ (config.api_urls)."""


def register(routes) -> None:
    from . import api

    routes.register("fee-collections", api.FeeCollectionViewSet, basename="fee-collection")
    routes.register("fee-counts", api.FeeCountViewSet, basename="fee-count")
    routes.register("game-sessions", api.GameSessionViewSet, basename="game-session")
