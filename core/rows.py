"""Reading many rows of a `values_list()` queryset quickly.

`value_rows(qs)` returns exactly `list(qs)`: the same SQL, the same values. Django applies its
converters row by row, a few Python calls per value; on SQLite, making each datetime aware
looks up settings and calls three helpers (about 3 microseconds a value), which over the
thousands of shift and slip times of a quarter is most of the time a report spends in Python.
Here the conversion runs a column at a time, and the two converters that dominate are done
inline where the driver already returned typed values (what Django's converter does to them):

- a DateTimeField on SQLite: the driver's declared-type converter returns a naive datetime in
  the connection's time zone; Django's converter attaches that time zone, and so does this.
- a DateField on SQLite: the driver returns a date; Django's converter leaves it as it is.
- a JSONField with the standard decoder: the text decoded as `json.loads` decodes it (and kept
  as it is when it is not JSON, as Django keeps it), by the decoder's scanner directly.

Every other column goes through Django's own converters. On PostgreSQL the driver returns
aware datetimes and dates, and Django registers no converter for them.
"""

import json
import threading
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import islice
from json import JSONDecodeError, JSONDecoder

from django.conf import settings
from django.db import connections
from django.db.models import JSONField
from django.db.models.expressions import ColPairs
from django.db.models.fields.json import KeyTransform
from django.db.models.sql.constants import MULTI

from .prepared import prepared_cursor


def _convert(column, functions, expression, connection) -> list:
    ops = connection.ops
    if len(functions) == 1 and _plain_json(functions[0], expression):
        return [value if value is None else json_value(value) for value in column]
    if connection.vendor == "sqlite" and len(functions) == 1:
        function = functions[0]
        kinds = {type(v) for v in column}
        kinds.discard(type(None))
        if function == ops.convert_datetimefield_value and kinds <= {datetime}:
            if not settings.USE_TZ:
                return list(column)
            zone, combine = connection.timezone, datetime.combine  # combine: 4x quicker than replace(tzinfo=)
            return [v if v is None or v.tzinfo is not None else combine(v.date(), v.time(), zone) for v in column]
        if function == ops.convert_datefield_value and kinds <= {date}:
            return list(column)
    converted = []
    for value in column:
        for function in functions:
            value = function(value, expression, connection)
        converted.append(value)
    return converted


def _plain_json(function, expression) -> bool:
    """Is `function` the converter of a JSONField with the standard decoder, reading a column?"""
    field = getattr(function, "__self__", None)
    return (
        getattr(function, "__func__", None) is JSONField.from_db_value
        and field.decoder is None
        and not isinstance(expression, KeyTransform)
    )


_scan_json = JSONDecoder().scan_once  # the standard decoder's scanner (in C where there is one)


def json_value(value):
    """`JSONField.from_db_value` of a column's value with the standard decoder (`json.loads`, the
    text as it is when it is not JSON), without `json.loads`' layers for a text that is one JSON
    value from its first character to its last (every text the field writes)."""
    if type(value) is str:
        try:
            found, end = _scan_json(value, 0)
        except (StopIteration, JSONDecodeError):
            pass
        else:
            if end == len(value):
                return found
    try:
        return json.loads(value)
    except JSONDecodeError:
        return value


def _converted(rows, converters, connection) -> list[tuple]:
    if not rows:
        return []
    if not converters or _unchanged(rows, converters, connection):
        return [tuple(row) for row in rows]
    return list(zip(*_converted_columns(rows, converters, connection), strict=True))


def _unchanged(rows, converters, connection) -> bool:
    """Would every converter return its column's values as they are? An integer expression's
    (an annotated Subquery, a Count: None or int(value)) on integers; a DateField's on SQLite
    on dates. Then the rows are kept as the driver made them, not taken apart into columns and
    put together again (a third of the Python a quarter's drops took to read)."""
    ops = connection.ops
    for index, (functions, expression) in converters.items():
        if len(functions) != 1:
            return False
        if _integer_expression(functions[0], expression):
            kind = int
        elif connection.vendor == "sqlite" and functions[0] == ops.convert_datefield_value:
            kind = date
        else:
            return False
        if not all(type(row[index]) is kind or row[index] is None for row in rows):
            return False
    return True


def _integer_expression(function, expression) -> bool:
    """Is `function` the converter Django gives an expression with an integer output field?"""
    if function != getattr(expression, "convert_value", None):
        return False
    return expression.output_field.get_internal_type().endswith("IntegerField")


def _converted_columns(rows, converters, connection) -> list:
    columns = list(zip(*rows, strict=True))
    for index, (functions, expression) in converters.items():
        columns[index] = _convert(columns[index], functions, expression, connection)
    return columns


def value_rows(queryset) -> list[tuple]:
    """`list(queryset)` for a (non-flat, unnamed) `values_list()` queryset, converted a column
    at a time."""
    compiler = queryset.query.get_compiler(queryset.db)
    results = compiler.execute_sql(MULTI)  # chunks of rows (an empty iterator for an empty result)
    rows = [row for chunk in results for row in chunk]
    if not rows:
        return []
    converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
    return _converted(rows, converters, connections[queryset.db])


# Compiled once per shape ------------------------------------------------------------------
#
# Building and compiling a queryset costs about a millisecond in Python, as much as running it
# on a quarter of one site's rows; a report runs a dozen. `shaped_rows(build, site_ids=[...],
# start=..., end=...)` builds the queryset once per process for each shape of its arguments
# (how many ids each list holds) with stand-in values, compiles it, notes where each stand-in
# lands among the SQL parameters, and from then on runs that SQL with the real values put in
# their places. If a stand-in does not come out as a parameter of its own (the ORM folded it
# into the SQL, or dropped it), the shape is not cached and the queryset runs as usual.

_INT_STAND_IN = 2_000_000_000  # within every integer column's range, so no lookup is folded away
_DATE_STAND_IN = date(1, 1, 1)
_STR_STAND_IN = "\x1fshaped stand-in "  # a text no query holds, numbered


@dataclass(frozen=True)
class _Compiled:
    db: str
    sql: str
    params: tuple
    slots: tuple  # (parameter index, argument name, index in the list or None)
    expressions: tuple  # the selected columns' expressions, for their converters
    converters: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary, compare=False)


_compiled: dict = {}
_compiled_lock = threading.Lock()


def _stand_ins(arguments: dict) -> dict:
    counter, result = 0, {}
    for name, value in sorted(arguments.items()):
        if isinstance(value, list | tuple):
            result[name] = [_INT_STAND_IN + counter + n for n in range(len(value))]
            counter += len(value)
        elif isinstance(value, date):
            result[name] = _DATE_STAND_IN + timedelta(days=counter)
            counter += 1
        elif isinstance(value, str):
            result[name] = f"{_STR_STAND_IN}{counter}"
            counter += 1
        else:
            result[name] = _INT_STAND_IN + counter
            counter += 1
    return result


def _adapt(value, connection):
    if isinstance(value, date) and not isinstance(value, datetime):
        return connection.ops.adapt_datefield_value(value)
    return value


def _compile(build, shape: dict, arguments: dict) -> _Compiled | None:
    stand_ins = _stand_ins(arguments)
    queryset = build(**shape, **stand_ins)
    connection = connections[queryset.db]
    compiler = queryset.query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    expressions = tuple(s[0] for s in compiler.select[: compiler.col_count])
    if any(isinstance(e, ColPairs) for e in expressions):
        return None
    wanted = {}
    for name, value in stand_ins.items():
        for index, item in enumerate(value) if isinstance(value, list) else [(None, value)]:
            wanted[_adapt(item, connection)] = (name, index)
    slots = tuple((position, *wanted[p]) for position, p in enumerate(params) if p in wanted)
    if {(name, index) for _, name, index in slots} != set(wanted.values()):
        return None
    if any(str(_adapt(item, connection)) in sql for item in wanted):
        return None
    return _Compiled(queryset.db, sql, tuple(params), slots, expressions)


def _checked(build, arguments: dict) -> dict:
    if "<" in build.__qualname__:  # a lambda or a function defined in a function: no stable name
        raise ValueError("shaped_rows needs a module-level function to build the queryset")
    arguments = {k: list(dict.fromkeys(v)) if isinstance(v, list | tuple | set) else v for k, v in arguments.items()}
    for name, value in arguments.items():
        items = value if isinstance(value, list) else [value]
        if not all(type(item) is int for item in items) and type(value) not in (date, str):
            raise TypeError(f"shaped_rows: {name} must be an int, a list of ints, a date or a text")
    return arguments


def _prepared(build, shape: dict, arguments: dict):
    """The compiled SQL of the shape (compiled on first use) and its parameters with the real
    values in their places: (compiled, connection, params), or None when the shape cannot be compiled
    once (an empty id list, a value the ORM folds into the SQL)."""
    if any(isinstance(v, list) and not v for v in arguments.values()):
        return None
    key = (
        build.__module__,
        build.__qualname__,
        tuple(sorted((k, len(v) if isinstance(v, list) else type(v).__name__) for k, v in arguments.items())),
        tuple(sorted(shape.items())),
    )
    compiled = _compiled.get(key)
    if compiled is None:
        compiled = _compile(build, shape, arguments)
        if compiled is None:
            return None
        with _compiled_lock:
            _compiled[key] = compiled
    connection = connections[compiled.db]
    params = list(compiled.params)
    for position, name, index in compiled.slots:
        value = arguments[name] if index is None else arguments[name][index]
        params[position] = _adapt(value, connection)
    return compiled, connection, params


def shaped_rows(build, /, *, shape: dict | None = None, **arguments) -> list[tuple]:
    """`value_rows(build(**shape, **arguments))`, compiled once per shape. `build` takes
    keyword arguments that are lists of ints, ints, dates or texts, and returns a `values_list()`
    queryset whose shape depends only on how many ids each list holds and on `shape`: what
    changes the SQL itself (the columns read, an order, a limit), given to `build` as it is and
    part of the cache key, so it must be hashable (tuples, strings, ints, None)."""
    shape = shape or {}
    arguments = _checked(build, arguments)
    prepared = _prepared(build, shape, arguments)
    if prepared is None:
        return value_rows(build(**shape, **arguments))
    compiled, connection, params = prepared
    # On PostgreSQL planned once per connection (core.prepared): planning a shape's SQL took longer
    # than running it (the daily page's 25 shapes, issue 37).
    with prepared_cursor(connection) if connection.vendor == "postgresql" else connection.cursor() as cursor:
        cursor.execute(compiled.sql, params)
        rows = cursor.fetchall()
    return _converted(rows, _converters(compiled, connection), connection)


def shaped_columns(build, /, *, chunk_size: int, shape: dict | None = None, **arguments) -> Iterator[list]:
    """`shaped_rows` streamed, a chunk of at most `chunk_size` rows at a time, each chunk as its
    columns (sequences of equal length, in the order of the selected values: a reader that
    works a column at a time saves turning them back into rows). Read as `QuerySet.iterator`
    reads (a server-side cursor on PostgreSQL unless DISABLE_SERVER_SIDE_CURSORS), so memory
    holds one chunk."""
    shape = shape or {}
    arguments = _checked(build, arguments)
    prepared = _prepared(build, shape, arguments)
    if prepared is None:
        rows = iter(build(**shape, **arguments).iterator(chunk_size=chunk_size))
        while chunk := list(islice(rows, chunk_size)):
            yield list(zip(*chunk, strict=True))
        return
    compiled, connection, params = prepared
    converters = _converters(compiled, connection)
    chunked = not connection.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS")
    with connection.chunked_cursor() if chunked else connection.cursor() as cursor:
        cursor.execute(compiled.sql, params)
        while rows := cursor.fetchmany(chunk_size):
            yield _converted_columns(rows, converters, connection)


def shaped_chunks(build, /, *, chunk_size: int, shape: dict | None = None, **arguments) -> Iterator[list]:
    """`shaped_columns`' rows as the driver returns them, a chunk at a time, unconverted: for a
    reader that converts the few values it needs itself (the driver's own conversions apply: on
    SQLite a moment comes naive, in the connection's time zone; a JSON value is its text)."""
    shape = shape or {}
    arguments = _checked(build, arguments)
    prepared = _prepared(build, shape, arguments)
    if prepared is None:
        queryset = build(**shape, **arguments)
        connection = connections[queryset.db]
        sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    else:
        compiled, connection, params = prepared
        sql = compiled.sql
    chunked = not connection.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS")
    with connection.chunked_cursor() if chunked else connection.cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(chunk_size):
            yield rows


def _converters(compiled: _Compiled, connection) -> dict:
    """The columns' converters on `connection`: found once a shape and connection (they are the
    connection's own operations' methods, so each connection, one a thread, has its own)."""
    converters = compiled.converters.get(connection)
    if converters is None:
        converters = {}
        for index, expression in enumerate(compiled.expressions):
            functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
            if functions:
                converters[index] = (functions, expression)
        compiled.converters[connection] = converters
    return converters
