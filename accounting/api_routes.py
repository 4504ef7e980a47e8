"""This app's API endpoints, registered on the shared /api/v1/ router."""


def register(router) -> None:
    pass
