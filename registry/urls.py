from django.urls import path, re_path

from core.api import api_not_found

from . import api, api_schema, views

app_name = "registry"

urlpatterns = [
    path("", views.licensees, name="home"),
    path("filings/", views.filings, name="filings"),
    path("quarter/", views.quarter, name="quarter"),
    path("dealers/", views.dealers, name="dealers"),
    path("alerts/", views.alerts, name="alerts"),
    path("licensees/new/", views.register_licensee, name="register_licensee"),
    path("licensees/<int:pk>/", views.licensee, name="licensee"),
    path("licensees/<int:pk>/credentials/", views.issue_credential, name="issue_credential"),
    path("credentials/<int:pk>/revoke/", views.revoke_credential, name="revoke_credential"),
    path("api/v1/schema/", api_schema.RegistrySchemaView.as_view(), name="api-schema"),
    path("api/v1/filings/", api.FilingsView.as_view(), name="api-filings"),
    path("api/v1/filings/<str:receipt_number>/", api.FilingView.as_view(), name="api-filing"),
    path("api/v1/filings/<str:receipt_number>/pdfs/<str:pdf_sha256>/", api.DocumentView.as_view(), name="api-document"),
    path("api/v1/anchors/", api.AnchorsView.as_view(), name="api-anchors"),
    path("api/v1/alerts/", api.AlertsView.as_view(), name="api-alerts"),
    path("api/v1/dealers/", api.DealersView.as_view(), name="api-dealers"),
    path("api/v1/licensees/", api.LicenseesView.as_view(), name="api-licensees"),
    path("api/v1/licensees/<int:pk>/credentials/", api.CredentialsView.as_view(), name="api-credentials"),
    path("api/v1/credentials/<int:pk>/revoke/", api.RevokeView.as_view(), name="api-revoke"),
    re_path(r"^api/", api_not_found),  # an id that is not a number, or no endpoint: JSON, never the HTML 404 page
]
