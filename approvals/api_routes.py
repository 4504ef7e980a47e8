"""This app's API endpoints, registered on the shared /api/v1/ router."""


def register(router) -> None:
    from . import api

    router.register("game-approvals", api.GameApprovalViewSet, basename="game-approval")
    router.register("internal-controls", api.InternalControlsViewSet, basename="internal-controls")
    router.register("table-games", api.TableGameViewSet, basename="table-game")
    router.register("licences", api.LicenceViewSet, basename="licence")
