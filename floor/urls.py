"""The floor's pages. They keep their addresses under /accounting/ and their URL names from
before the custody records moved to this app (issue 19), so links and bookmarks still work."""

from django.urls import path

from . import views

urlpatterns = [
    path("floor/", views.floor, name="accounting_floor"),
    path("floor/open-day/", views.open_day, name="accounting_open_day"),
    path("floor/close-day/", views.close_day, name="accounting_close_day"),
    path("floor/close-day/carry/", views.carry_items, name="accounting_carry_items"),
    path("tables/<int:pk>/dealer/", views.dealer_shift, name="accounting_dealer_shift"),
    path("tables/<int:pk>/<str:kind>/", views.tray_count, name="accounting_tray_count"),
    path("dealer-shifts/<int:pk>/end/", views.end_shift, name="accounting_end_shift"),
    path("slips/new/<str:kind>/", views.prepare_slip, name="accounting_prepare_slip"),
    path("slips/<int:pk>/", views.slip_detail, name="accounting_slip"),
    path("slips/<int:pk>/pdf/", views.slip_pdf, name="accounting_slip_pdf"),
    path("slips/<int:pk>/<str:step>/", views.slip_step, name="accounting_slip_step"),
    path("queues/", views.slip_queues, name="accounting_queues"),
    path("queues/live/", views.slip_queues_live, name="accounting_queues_live"),
    path("pit/", views.pit, name="floor_pit_here"),
    path("sites/<int:site_id>/pit/", views.pit, name="floor_pit"),
    path("sites/<int:site_id>/pit/live/", views.pit_live, name="floor_pit_live"),
    path("register/", views.slip_register, name="accounting_register"),
    path("slip-books/", views.slip_books, name="accounting_slip_books"),
]
