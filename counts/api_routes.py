"""This app's API endpoints on /api/v1/ (config.api_urls)."""


def register(routes) -> None:
    from . import api

    routes.register("drop-boxes", api.DropBoxViewSet, basename="drop-box")
    routes.register("count-sessions", api.CountSessionViewSet, basename="count-session")
    routes.register("count-settings", api.CountSettingsViewSet, basename="count-settings")
