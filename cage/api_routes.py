"""This app's API endpoints on /api/v1/ (config.api_urls)."""

from . import api

ROUTES = [
    ("cage/ideal-banks", api.IdealBankViewSet, "cage-ideal-bank"),
    ("cage/bank-counts", api.BankCountViewSet, "cage-bank-count"),
    ("cage/ious", api.IouViewSet, "cage-iou"),
    ("cage/chip-redemptions", api.ChipRedemptionViewSet, "cage-chip-redemption"),
    ("cage/tip-policies", api.TipPolicyViewSet, "cage-tip-policy"),
    ("cage/tip-declarations", api.TipDeclarationViewSet, "cage-tip-declaration"),
    ("cage/tip-redemptions", api.TipRedemptionViewSet, "cage-tip-redemption"),
    ("cage/deposits", api.BankDepositViewSet, "cage-deposit"),
    ("cage/chip-movements", api.ChipMovementViewSet, "cage-chip-movement"),
    ("cage/chip-inventory-counts", api.ChipInventoryCountViewSet, "cage-chip-inventory-count"),
]


def register(routes) -> None:
    for prefix, viewset, basename in ROUTES:
        routes.register(prefix, viewset, basename=basename)
