"""This app's API endpoints, registered on the shared /api/v1/ router."""


def register(router) -> None:
    from . import api

    router.register("fee-collections", api.FeeCollectionViewSet, basename="fee-collection")
    router.register("fee-counts", api.FeeCountViewSet, basename="fee-count")
    router.register("game-sessions", api.GameSessionViewSet, basename="game-session")
