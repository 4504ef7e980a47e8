from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor: table chip custody"

    def ready(self):
        from cardroom.retention import retain
        from cardroom.role_grants import register_role_check
        from cardroom.site_keeps import register_house_chips
        from packs import register_table_check

        from . import menu  # noqa: F401  (registers the Chips menu entries)
        from .active_tables import low_minimum_errors
        from .models import DealerShift, GamingDay, Slip, TableInventory
        from .role_grants import no_dealer_where_players_deal
        from .rules import house_chips

        # ND 99-01.3-08-16: the floor's daily records, kept three years from the quarter's end.
        retain(GamingDay, lambda r: r.gaming_date)
        retain(Slip, lambda r: r.gaming_day.gaming_date)
        retain(TableInventory, lambda r: r.gaming_day.gaming_date)
        retain(DealerShift, lambda r: r.gaming_day.gaming_date)
        # The pack's low-minimum rule for a table in play (ND 99-01.3-08-09(1) "active table").
        register_table_check(low_minimum_errors)
        # No dealer's role where the player deals and banks (WAC 230-40-125(2), floor.player_dealer).
        register_role_check(no_dealer_where_players_deal)
        # Where the house's revenue is its fees (a fees room, WAC 230-40-125(1)) no chip of its goes to a
        # table: its cashier keeps no chip bank (`cardroom.models.role_label`).
        register_house_chips(house_chips)
