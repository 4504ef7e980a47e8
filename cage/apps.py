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
        from floor import chip_log

        from .queries import chips_exist_at, chips_exist_sql, tip_status

        tips.register_tip_status(tip_status)  # ND 99-01.3-08-06(3): tips redeemed before leaving
        # ND 99-01.3-03-09(6): no record holds more chips than the inventory log says exist.
        chip_log.register_chips_exist(chips_exist_at, chips_exist_sql)
