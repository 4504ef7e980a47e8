from django.urls import path

from . import views

app_name = "fees"
urlpatterns = [
    path("", views.fee_page, name="page"),
    path("count/", views.count_fee_cash, name="count"),
    path("<int:pk>/void/", views.void_fee, name="void"),
    path("sessions/", views.sessions_page, name="sessions"),
    path("sessions/<int:pk>/void/", views.void_session, name="void_session"),
]
