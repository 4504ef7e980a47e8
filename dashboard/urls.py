"""The figures pages and the auditor dashboard, under /dashboard/ (namespace `dashboard`).
Until issue 34 they were under /figures/: `MOVED` answers each old address with a permanent
redirect to the new one (query string kept), mounted at /figures/ by the project's URLs."""

from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "dashboard"
urlpatterns = [
    path("", views.overview, name="overview"),
    path("data.json", views.overview_data, name="overview_data"),
    path("daily/", views.daily, name="daily"),
    path("daily/books/<str:what>/", views.books, name="books"),
    path("quarter/", views.quarter, name="quarter"),
    path("quarter/file/", views.file_quarter, name="file_quarter"),
    path("quarter/other-games/", views.other_games, name="other_games"),
    path("dealers/", views.dealers, name="dealers"),
    path("dealers/<int:pk>/", views.dealer, name="dealer"),
]


def moved(old: str, name: str):
    """A permanent (301) redirect from an old address to the page `name` (its parameters kept)."""
    return path(old, RedirectView.as_view(pattern_name=f"dashboard:{name}", permanent=True, query_string=True))


# The old addresses under /figures/, each to its page under /dashboard/.
MOVED = [moved("dashboard/", "overview"), moved("dashboard/data.json", "overview_data")]
MOVED += [moved(str(p.pattern), p.name) for p in urlpatterns[2:]]

# Pages added since the move, with no old address.
urlpatterns += [path("audit/", views.audit_log, name="audit")]
