from django.urls import path

from . import threshold_views, views

app_name = "compliance"
urlpatterns = [
    path("alerts/", views.alert_list, name="alerts"),
    path("alerts/<int:pk>/", views.alert_detail, name="alert"),
    path("calendar/", views.calendar, name="calendar"),
    path("run/", views.run_checks, name="run"),
    path("thresholds/", threshold_views.thresholds, name="thresholds"),
]
