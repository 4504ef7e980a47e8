from django.urls import path

from . import views

app_name = "fees"
urlpatterns = [path("", views.fee_page, name="page")]
