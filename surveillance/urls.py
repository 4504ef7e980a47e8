from django.urls import path

from . import views

app_name = "surveillance"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("outages/", views.outages, name="outages"),
    path("outages/<int:pk>/repair/", views.outage_repair, name="outage_repair"),
    path("review-log/", views.review_log, name="review_log"),
    path("equipment/", views.equipment, name="equipment"),
    path("recordings/", views.recordings, name="recordings"),
    path("programs/", views.programs, name="programs"),
    path("programs/<int:pk>/", views.program_detail, name="program"),
    path("special-events/", views.special_events, name="special_events"),
]
