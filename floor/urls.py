"""The floor's pages, under /floor/ (namespace `floor`). Until issue 34 they were under
/accounting/ with names `accounting_*`: `MOVED` answers each old address with a permanent
redirect to the new one (query string kept), mounted at /accounting/ by the project's URLs."""

from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "floor"
urlpatterns = [
    path("", views.floor, name="floor"),
    path("open-day/", views.open_day, name="open_day"),
    path("close-day/", views.close_day, name="close_day"),
    path("close-day/carry/", views.carry_items, name="carry_items"),
    path("tables/<int:pk>/dealer/", views.dealer_shift, name="dealer_shift"),
    path("tables/<int:pk>/<str:kind>/", views.tray_count, name="tray_count"),
    path("dealer-shifts/<int:pk>/end/", views.end_shift, name="end_shift"),
    path("slips/new/<str:kind>/", views.prepare_slip, name="prepare_slip"),
    path("slips/<int:pk>/", views.slip_detail, name="slip"),
    path("slips/<int:pk>/pdf/", views.slip_pdf, name="slip_pdf"),
    path("slips/<int:pk>/<str:step>/", views.slip_step, name="slip_step"),
    path("queues/", views.slip_queues, name="queues"),
    path("queues/live/", views.slip_queues_live, name="queues_live"),
    path("pit/", views.pit, name="pit_here"),
    path("sites/<int:site_id>/pit/", views.pit, name="pit"),
    path("sites/<int:site_id>/pit/live/", views.pit_live, name="pit_live"),
    path("register/", views.slip_register, name="register"),
    path("slip-books/", views.slip_books, name="slip_books"),
]


def moved(old: str, name: str):
    """A permanent (301) redirect from an old address to the page `name` (its parameters kept)."""
    return path(old, RedirectView.as_view(pattern_name=f"floor:{name}", permanent=True, query_string=True))


# The old addresses under /accounting/, each to its page under /floor/.
MOVED = [moved("floor/", "floor"), moved("floor/open-day/", "open_day"), moved("floor/close-day/", "close_day")]
MOVED += [moved("floor/close-day/carry/", "carry_items")]
MOVED += [moved(str(p.pattern), p.name) for p in urlpatterns[4:]]

# Pages added since the move: no old address to answer.
ADDED = [path("tables/<int:pk>/card-check/<str:kind>/", views.card_check, name="card_check")]
ADDED += [path("queues/to-receive/live/", views.to_receive_live, name="to_receive_live")]
urlpatterns += ADDED
