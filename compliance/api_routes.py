from django.urls import path

from . import api


def register(router) -> None:
    router.register("alerts", api.AlertViewSet, basename="alert")


urlpatterns = [
    path("obligations/", api.ObligationsView.as_view(), name="api-obligations"),
    path("compliance-runs/", api.ComplianceRunView.as_view(), name="api-compliance-runs"),
]
