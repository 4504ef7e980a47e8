from . import api


def register(router) -> None:
    router.register("reports", api.ReportViewSet, basename="report")
