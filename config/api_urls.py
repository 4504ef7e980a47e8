"""/api/v1/: one way to add to it. Each app's `api_routes.register(routes)` calls
`routes.register(prefix, viewset, basename=...)` for a viewset (on the shared DRF router, so it
shows on the API root) and `routes.path(route, view, name=...)` for a view at its own path."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from accounting import api_routes as accounting_api
from approvals import api_routes as approvals_api
from cage import api_routes as cage_api
from cardroom import api
from compliance import api_routes as compliance_api
from counts import api_routes as counts_api
from fees import api_routes as fees_api
from floor import api_routes as floor_api
from reports import api_routes as reports_api
from statefiling import api_routes as statefiling_api
from surveillance import api_routes as surveillance_api
from tournaments import api_routes as tournaments_api


class ApiRoutes:
    def __init__(self) -> None:
        self.router = DefaultRouter()
        self.paths = []

    def register(self, prefix: str, viewset, *, basename: str) -> None:
        self.router.register(prefix, viewset, basename=basename)

    def path(self, route: str, view, *, name: str) -> None:
        self.paths.append(path(route, view.as_view(), name=name))

    @property
    def urls(self) -> list:
        return [*self.paths, *self.router.urls]


routes = ApiRoutes()
routes.register("organizations", api.OrganizationViewSet, basename="organization")
routes.register("sites", api.SiteViewSet, basename="site")
routes.register("tables", api.TableViewSet, basename="table")
routes.register("chip-denominations", api.ChipDenominationViewSet, basename="chip-denomination")
routes.register("employees", api.EmployeeViewSet, basename="employee")
routes.register("memberships", api.MembershipViewSet, basename="membership")
routes.register("employee-relations", api.RelationViewSet, basename="employee-relation")

for app in (
    compliance_api,
    accounting_api,
    floor_api,
    cage_api,
    surveillance_api,
    counts_api,
    tournaments_api,
    approvals_api,
    fees_api,
    reports_api,
    statefiling_api,
):
    app.register(routes)
