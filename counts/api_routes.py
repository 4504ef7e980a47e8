"""This app's API endpoints, registered on the shared /api/v1/ router."""


def register(router) -> None:
    from . import api

    router.register("drop-boxes", api.DropBoxViewSet, basename="drop-box")
    router.register("count-sessions", api.CountSessionViewSet, basename="count-session")
    router.register("count-settings", api.CountSettingsViewSet, basename="count-settings")
