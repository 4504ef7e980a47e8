from django.apps import AppConfig


class ApprovalsConfig(AppConfig):
    name = "approvals"
    verbose_name = "Game approvals and internal controls (Washington)"

    def ready(self):
        from cardroom.table_rules import register_documented_table_values
        from core import hooks
        from packs import register_table_check

        from . import menu  # noqa: F401  (registers the menu entry)
        from .checks import check_table, documented_table_values
        from .queries import licensed_table_values, session_licences

        # WSGC Blackjack Game Rules (rev. April 2018) notes and the game approvals' conditions
        # bind every write of a table (API, pages, admin), through Table.clean.
        register_table_check(check_table)
        # A games-of-chance session names a licence the organization has on file (house control;
        # asked by fees.rules.session_licences, an app of this layer, so answered through core's hook).
        hooks.SESSION_LICENCES.register(session_licences)
        # A new table under a licence takes the options the licence sets (9 NYCRR 4620.5(h): its tie
        # option), asked by cardroom's create_table and table form through core's hook.
        hooks.LICENSED_TABLE_VALUES.register(licensed_table_values)
        # The table forms offer only the settings the internal controls in effect document (the
        # table check refuses another), asked by cardroom's table forms through core's hook.
        register_documented_table_values(documented_table_values)
