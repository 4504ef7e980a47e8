"""A row's values as an INSERT binds them, without the ORM's calls for the plain ones.

`f.get_db_prep_save(f.pre_save(obj, True), connection)` for each field of a row is what
`Model.save` and `bulk_create` bind, and the services that write their own INSERTs (a slip, its
lines and its events: core.audit, floor.services.slips) did the same: five to seven Python calls
a value, about 83 values a slip (bench_slips). For the values those calls return unchanged, the
attribute is taken as it is: a string of a CharField or TextField, an int of an integer field or
of a foreign key to one, a bool of a BooleanField, and None of any of these and of a JSONField
(each of them binds None as None). The type is matched exactly (a str enum, a bool in an
integer field, a Decimal go through the field as before), and only for those field classes
themselves, not their subclasses, and only where `pre_save` is the plain attribute read. On
PostgreSQL the ORM wraps an integer in psycopg's Int2/Int4/Int8, which binds to the same
literal as the int. Everything else (moments, JSON, any other field) goes through the field,
so what is bound is what the ORM binds (`tests/core/test_insert_values.py`)."""

from collections.abc import Sequence
from functools import cache

from django.db import models

_NONE = type(None)
_TEXT = (models.CharField, models.TextField)
_INTEGER = (
    models.AutoField,
    models.BigAutoField,
    models.SmallAutoField,
    models.IntegerField,
    models.BigIntegerField,
    models.SmallIntegerField,
    models.PositiveIntegerField,
    models.PositiveBigIntegerField,
    models.PositiveSmallIntegerField,
)


def plain_types(field: models.Field) -> frozenset:
    """The types whose values `field` binds unchanged (empty: every value goes through it)."""
    kind = type(field)
    if kind is models.ForeignKey:
        target = plain_types(field.target_field)
        return target if int in target else frozenset()
    if kind in _TEXT:
        return frozenset({_NONE, str})
    if kind in _INTEGER:
        return frozenset({_NONE, int})
    if kind is models.BooleanField:
        return frozenset({_NONE, bool})
    if kind is models.JSONField:
        return frozenset({_NONE})
    return frozenset()


@cache
def insert_plan(fields: tuple[models.Field, ...]) -> tuple[tuple, ...]:
    """Per field: its attname, the types it binds unchanged, and the field (for the rest)."""
    return tuple((field.attname, plain_types(field), field) for field in fields)


def insert_values(plan: Sequence[tuple], obj: models.Model, connection) -> list:
    """`obj`'s values for `plan`'s fields (`insert_plan`), as `get_db_prep_save(pre_save(obj, True))`."""
    values = []
    for attname, plain, field in plan:
        if plain:
            value = getattr(obj, attname)
            if type(value) in plain:
                values.append(value)
                continue
            values.append(field.get_db_prep_save(value, connection))
        else:
            values.append(field.get_db_prep_save(field.pre_save(obj, True), connection))
    return values
