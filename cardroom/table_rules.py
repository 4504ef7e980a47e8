"""A table's jurisdiction rules, asked from below.

The law a table must follow (wager limits, decks, options) is its site's pack's (`packs`, the
layer above): `Table.clean` asks here and the packs register the answer when their app loads.
Until they do, every table is refused: no table is saved unjudged.
"""

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

_validate: Callable[[object], None] | None = None


def register_table_rules(validate: Callable[[object], None]) -> None:
    global _validate
    _validate = validate


def validate_table(table) -> None:
    """Raise ValidationError naming each field the table's pack refuses."""
    if _validate is None:
        raise ImproperlyConfigured("No jurisdiction rules are registered (the packs app is not installed).")
    _validate(table)
