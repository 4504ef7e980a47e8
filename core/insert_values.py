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

import json
from collections.abc import Sequence
from datetime import date, datetime
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


# PostgreSQL: rows sent as one JSON array, bound as one value and read into the table's row
# type in the array's order (`json_populate_recordset`): psycopg writes each value of a
# client-side bound statement as its literal in Python, a few microseconds a value, where one
# JSON text of the rows is written by the json module's C encoder (a slip's four events: 68
# values; its lines and itself: 28). What is stored is what the ORM stores: a value the field
# binds as it is, as it is; a moment or a date as its ISO text once the field prepared it; a
# JSON field's value as it is (the ORM binds `json.dumps` of it); anything else as the field
# prepares it (an int or a str, which JSON writes as their own text; anything else is refused
# by the encoder, not written another way).


def json_converter(field: models.Field):
    """How `json_rows` writes `field`'s value (of a row `obj`, on `connection`)."""
    name, plain = field.attname, plain_types(field)
    if isinstance(field, models.JSONField):
        if field.encoder is not None:
            raise TypeError(f"{field}: a JSON field with its own encoder is not written by json_rows")
        return lambda obj, connection: getattr(obj, name)
    if isinstance(field, models.DateField):  # and DateTimeField
        stamped = field.auto_now or field.auto_now_add
        kind = datetime if isinstance(field, models.DateTimeField) else date

        def moment(obj, connection):
            value = getattr(obj, name)
            if stamped or type(value) is not kind or (kind is datetime and value.tzinfo is None):
                value = field.get_db_prep_save(field.pre_save(obj, True), connection)
            return None if value is None else value.isoformat()

        return moment

    def convert(obj, connection):
        value = getattr(obj, name)
        return value if type(value) in plain else field.get_db_prep_save(field.pre_save(obj, True), connection)

    return convert


@cache
def json_plan(fields: tuple[models.Field, ...]) -> tuple[tuple, ...]:
    """Per field: its column and its `json_converter`."""
    return tuple((field.column, json_converter(field)) for field in fields)


def json_rows(plan: Sequence[tuple], objs: Sequence[models.Model], connection) -> str:
    """The JSON array of `objs`' rows for `plan`'s fields (`json_plan`), each an object by column."""
    return json.dumps([{column: convert(obj, connection) for column, convert in plan} for obj in objs])


def json_source(model, fields: Sequence[models.Field], *more: str) -> str:
    """A SELECT of `fields`' columns (and the expressions `more`) from the JSON array of
    `model`'s rows bound at its one `%s`, in the array's order."""
    table = model._meta.db_table
    columns = ", ".join([*(f'"{field.column}"' for field in fields), *more])
    return (
        f'SELECT {columns} FROM json_populate_recordset(NULL::"{table}", %s) WITH ORDINALITY AS r ORDER BY r.ordinality'
    )
