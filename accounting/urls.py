from django.urls import path

from . import views

urlpatterns = [
    path("", views.day_sheet, name="accounting_day_sheet"),
    path("template.csv", views.day_sheet_template, name="accounting_day_sheet_template"),
]
