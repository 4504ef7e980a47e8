from django.urls import path

from . import views

app_name = "dashboard"
urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path("daily/books/<str:what>/", views.books, name="books"),
    path("quarter/", views.quarter, name="quarter"),
    path("quarter/file/", views.file_quarter, name="file_quarter"),
    path("quarter/other-games/", views.other_games, name="other_games"),
    path("dealers/", views.dealers, name="dealers"),
    path("dealers/<int:pk>/", views.dealer, name="dealer"),
    path("dashboard/", views.overview, name="overview"),
    path("dashboard/data.json", views.overview_data, name="overview_data"),
]
