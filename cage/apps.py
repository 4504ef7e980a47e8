from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"
    verbose_name = "Cashier's cage"

    def ready(self):
        from cardroom.retention import retain
        from floor import tips

        from . import menu  # noqa: F401  (registers the menu entries)
        from .models import BankCount, BankDeposit, ChipRedemption, Iou

        # ND 99-01.3-08-16(1)(a), (5): bank counts, IOUs, redemptions and deposits, three years.
        retain(BankCount, lambda r: r.gaming_date)
        retain(Iou, lambda r: r.gaming_date)
        retain(ChipRedemption, lambda r: r.gaming_date)
        retain(BankDeposit, lambda r: r.gaming_date)
        from .queries import tip_status

        tips.register_tip_status(tip_status)  # ND 99-01.3-08-06(3): tips redeemed before leaving
