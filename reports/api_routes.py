from . import api


def register(routes) -> None:
    routes.register("reports", api.ReportViewSet, basename="report")
