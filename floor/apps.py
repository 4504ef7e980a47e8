from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor: table chip custody"

    def ready(self):
        from cardroom.retention import retain

        from . import menu  # noqa: F401  (registers the Chips menu entries)
        from .models import DealerShift, GamingDay, Slip, TableInventory

        # ND 99-01.3-08-16: the floor's daily records, kept three years from the quarter's end.
        retain(GamingDay, lambda r: r.gaming_date)
        retain(Slip, lambda r: r.gaming_day.gaming_date)
        retain(TableInventory, lambda r: r.gaming_day.gaming_date)
        retain(DealerShift, lambda r: r.gaming_day.gaming_date)
