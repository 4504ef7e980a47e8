"""This app's API endpoints on /api/v1/ (config.api_urls)."""


def register(routes) -> None:
    from . import api

    routes.register("game-approvals", api.GameApprovalViewSet, basename="game-approval")
    routes.register("internal-controls", api.InternalControlsViewSet, basename="internal-controls")
    routes.register("table-games", api.TableGameViewSet, basename="table-game")
    routes.register("licences", api.LicenceViewSet, basename="licence")
    routes.register("written-procedures", api.WrittenProcedureViewSet, basename="written-procedure")
