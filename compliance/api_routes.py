"""This app's API endpoints on /api/v1/ (config.api_urls)."""

from . import api


def register(routes) -> None:
    routes.register("alerts", api.AlertViewSet, basename="alert")
    routes.path("obligations/", api.ObligationsView, name="api-obligations")
    routes.path("obligations/running/", api.RunningObligationsView, name="api-running-obligations")
    routes.path("compliance-runs/", api.ComplianceRunView, name="api-compliance-runs")
