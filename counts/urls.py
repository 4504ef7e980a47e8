from django.urls import path

from . import administration_views, views

app_name = "counts"
urlpatterns = [
    path("", views.sessions, name="sessions"),
    path("boxes/", views.boxes, name="boxes"),
    path("boxes/remove-all/", views.remove_all, name="remove_all"),
    path("drop-boxes/", administration_views.drop_boxes, name="drop_boxes"),
    path("drop-boxes/<int:pk>/retire/", administration_views.retire_box, name="retire_box"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/boxes/<int:box_pk>/count/", views.count_box, name="count_box"),
    path("sessions/<int:pk>/boxes/<int:box_pk>/resolve/", views.resolve_box, name="resolve_box"),
    path("sessions/<int:pk>/boxes/<int:box_pk>/explain/", views.explain, name="explain"),
    path("sessions/<int:pk>/sign/", views.sign, name="sign"),
    path("sessions/<int:pk>/mine/", views.my_counts, name="my_counts"),
    path("sessions/<int:pk>/sheet.pdf", views.sheet_pdf, name="sheet"),
]
