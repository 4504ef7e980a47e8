"""The books' pages that are not figures, under /accounting/ (namespace `accounting`): entering
a day sheet. Until issue 34 they were under /day-sheets/: `MOVED` answers each old address
with a permanent redirect (query string kept), mounted at /day-sheets/ by the project's URLs."""

from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "accounting"
urlpatterns = [
    path("day-sheets/", views.day_sheet, name="day_sheet"),
    path("day-sheets/template.csv", views.day_sheet_template, name="day_sheet_template"),
]

MOVED = [
    path(old, RedirectView.as_view(pattern_name=f"accounting:{name}", permanent=True, query_string=True))
    for old, name in (("", "day_sheet"), ("template.csv", "day_sheet_template"))
]
