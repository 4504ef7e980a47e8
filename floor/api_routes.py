"""This app's API endpoints on /api/v1/ (config.api_urls)."""

from . import api

ROUTES = [
    ("gaming-days", api.GamingDayViewSet, "gaming-day"),
    ("table-inventories", api.TableInventoryViewSet, "table-inventory"),
    ("dealer-shifts", api.DealerShiftViewSet, "dealer-shift"),
    ("fill-slips", api.FillSlipViewSet, "fill-slip"),
    ("credit-slips", api.CreditSlipViewSet, "credit-slip"),
    ("slip-books", api.SlipBookViewSet, "slip-book"),
    ("duty-periods", api.DutyPeriodViewSet, "duty-period"),
    ("card-checks", api.CardCheckViewSet, "card-check"),
    (r"sites/(?P<site_pk>[0-9]+)/slip-register", api.SlipRegisterViewSet, "slip-register"),
    (r"sites/(?P<site_pk>[0-9]+)/custody-queues", api.CustodyQueueViewSet, "custody-queues"),
]


def register(routes) -> None:
    for prefix, viewset, basename in ROUTES:
        routes.register(prefix, viewset, basename=basename)
