"""One router for /api/v1/; each app registers its endpoints in its own `api_routes`."""

from rest_framework.routers import DefaultRouter

from cardroom import api

router = DefaultRouter()
router.register("organizations", api.OrganizationViewSet, basename="organization")
router.register("sites", api.SiteViewSet, basename="site")
router.register("tables", api.TableViewSet, basename="table")
router.register("chip-denominations", api.ChipDenominationViewSet, basename="chip-denomination")
router.register("employees", api.EmployeeViewSet, basename="employee")
router.register("memberships", api.MembershipViewSet, basename="membership")
router.register("employee-relations", api.RelationViewSet, basename="employee-relation")

for module in ("floor.api_routes", "cage.api_routes", "surveillance.api_routes", "counts.api_routes", "tournaments.api_routes", "approvals.api_routes", "fees.api_routes", "compliance.api_routes", "reports.api_routes"):
    __import__(module, fromlist=["register"]).register(router)
