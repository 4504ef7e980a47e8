from django.apps import AppConfig


class PacksConfig(AppConfig):
    name = "packs"
    verbose_name = "Jurisdiction packs"

    def ready(self):
        from cardroom.chip_rules import register_chip_law
        from cardroom.models import register_jurisdictions
        from cardroom.site_keeps import register_employee_identifier, register_employee_identifier_absent
        from cardroom.table_rules import (
            register_fixed_table_options,
            register_table_defaults,
            register_table_games,
            register_table_options,
            register_table_rules,
        )
        from core.citations import register_citations

        from . import all_packs, get_pack, validate_table

        def employee_identifier(jurisdiction):
            named = get_pack(jurisdiction).employee_identifier
            return (named.label, named.citation) if named else None

        register_table_rules(validate_table)
        register_jurisdictions(lambda: [(pack.code, pack.name) for pack in all_packs()])
        register_table_options(lambda jurisdiction: get_pack(jurisdiction).table_fields())
        register_table_defaults(lambda jurisdiction, given: get_pack(jurisdiction).new_table_values(given))
        register_table_games(
            lambda jurisdiction: get_pack(jurisdiction).game_names.choices(get_pack(jurisdiction).games)
        )
        register_fixed_table_options(lambda jurisdiction: dict(get_pack(jurisdiction).fixed_options))
        register_employee_identifier(employee_identifier)
        register_employee_identifier_absent(lambda jurisdiction: get_pack(jurisdiction).identifier_absent_reason())
        register_chip_law(lambda jurisdiction: get_pack(jurisdiction).chips)
        register_citations(lambda key, jurisdiction: get_pack(jurisdiction).citations.get(key))
