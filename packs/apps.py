from django.apps import AppConfig


class PacksConfig(AppConfig):
    name = "packs"
    verbose_name = "Jurisdiction packs"

    def ready(self):
        from cardroom.table_rules import register_table_rules

        from . import validate_table

        register_table_rules(validate_table)
