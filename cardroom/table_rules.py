"""A table's jurisdiction rules, asked from below.

The law a table must follow (wager limits, decks, options) is its site's pack's (`packs`, the
layer above): `Table.clean` asks here and the packs register the answer when their app loads.
Until they do, every table is refused: no table is saved unjudged (`core.hooks`).
"""

from collections.abc import Callable

from core.hooks import TABLE_RULES


def register_table_rules(validate: Callable[[object], None]) -> None:
    TABLE_RULES.register(validate)


def validate_table(table) -> None:
    """Raise ValidationError naming each field the table's pack refuses."""
    TABLE_RULES(table)
