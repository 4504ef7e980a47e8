"""This app's API endpoints on /api/v1/ (config.api_urls): the organization's own deliveries of
its filed quarters to the state's registry, with their receipts."""

from .api import StateFilingsView


def register(routes) -> None:
    routes.path("sites/<int:pk>/state-filings/", StateFilingsView, name="api-state-filings")
