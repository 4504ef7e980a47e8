from django.urls import path

from . import views

app_name = "approvals"
urlpatterns = [
    path("", views.register_page, name="list"),
    path("<int:pk>/", views.approval_page, name="approval"),
    path("tables/<int:pk>/", views.table_game, name="table"),
    path("procedures/", views.procedures_page, name="procedures"),
]
