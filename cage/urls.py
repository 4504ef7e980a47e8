from django.urls import path

from . import views

app_name = "cage"

urlpatterns = [
    path("", views.bank, name="bank"),
    path("ious/", views.ious, name="ious"),
    path("ious/<int:pk>/repay/", views.iou_repay, name="iou_repay"),
    path("redemptions/", views.redemptions, name="redemptions"),
    path("tips/", views.tips, name="tips"),
    path("tips/<int:pk>/redeem/", views.tip_redeem, name="tip_redeem"),
    path("deposits/", views.deposits, name="deposits"),
    path("deposits/day/<int:pk>/", views.deposit_record, name="deposit_record"),
    path("deposits/on/<str:gaming_date>/", views.deposit_record_on, name="deposit_record_on"),
    path("deposits/<int:pk>/verify/", views.deposit_verify, name="deposit_verify"),
    path("deposits/<int:pk>/correct/", views.deposit_correct, name="deposit_correct"),
    path("inventory/", views.inventory, name="inventory"),
]
