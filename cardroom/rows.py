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

Every other column goes through Django's own converters. On PostgreSQL the driver returns
aware datetimes and dates, and Django registers no converter for them.
"""

from datetime import date, datetime

from django.conf import settings
from django.db import connections
from django.db.models.sql.constants import MULTI


def _convert(column, functions, expression, connection) -> list:
    ops = connection.ops
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


def value_rows(queryset) -> list[tuple]:
    """`list(queryset)` for a (non-flat, unnamed) `values_list()` queryset, converted a column
    at a time."""
    compiler = queryset.query.get_compiler(queryset.db)
    results = compiler.execute_sql(MULTI)  # chunks of rows (an empty iterator for an empty result)
    rows = [row for chunk in results for row in chunk]
    if not rows:
        return []
    converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
    if not converters:
        return [tuple(row) for row in rows]
    connection = connections[queryset.db]
    columns = list(zip(*rows, strict=True))
    for index, (functions, expression) in converters.items():
        columns[index] = _convert(columns[index], functions, expression, connection)
    return list(zip(*columns, strict=True))
