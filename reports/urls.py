from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:pk>/", views.run_detail, name="run"),
    path("<int:pk>/download.<str:fmt>", views.download, name="download"),
]
