from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.announce, name="announce"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/entries/", views.enter_player, name="enter"),
    path("<int:pk>/prizes/", views.record_prize, name="prize"),
    path("<int:pk>/entries/<int:fee_pk>/void/", views.void_fee, name="void_fee"),
    path("<int:pk>/prizes/<int:prize_pk>/void/", views.void_prize, name="void_prize"),
    path("<int:pk>/disclosure/", views.disclosure, name="disclosure"),
]
