from django.urls import path

from .api import StateFilingsView

urlpatterns = [
    path("sites/<int:pk>/state-filings/", StateFilingsView.as_view(), name="api-state-filings"),
]
