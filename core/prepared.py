"""Statements PostgreSQL plans once per connection (psycopg's protocol-level prepared statements).

The project binds parameters client-side (Django's default with psycopg 3), so every statement
is planned afresh; the service messages that send several statements at once need that. A hot
statement whose planning costs more than running it (the slip's context: a query of several
subqueries, bench_slips), and every shape of `core.rows.shaped_rows` (SQL compiled once per
process: the daily page's 25 reads, issue 37), runs instead on `prepared_cursor()`: a cursor of
the same connection and transaction that binds server-side and has psycopg prepare the statement
the first time it is sent on the connection (one round trip more, once), then reuse it. psycopg
records a statement only once PostgreSQL has prepared it, and deallocates every statement of the
connection after a ROLLBACK (a savepoint's too), a DROP or an ALTER (`_should_discard` in
psycopg's `_preparing.py`): a refused write prepares the connection's statements again, once,
and a migration never meets a plan of a table it changed. A new connection starts afresh;
pgbouncer 1.21+ keeps protocol-level prepared statements in transaction mode too. The cursor is
wrapped as Django wraps its own, so query logging, execute wrappers and error translation are
the same.
"""

import sys
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connection, connections


@cache
def _classes():
    import psycopg  # the PostgreSQL driver: not imported on SQLite
    from django.db.backends.postgresql.base import CursorDebugWrapper
    from django.db.backends.utils import CursorWrapper

    class PreparedCursor(psycopg.Cursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    class PreparedDebugWrapper(CursorDebugWrapper):
        """Logs the statement with its values, as Django logs its own (it reads them from
        psycopg's last query, which psycopg does not keep for a prepared statement): merged
        by a client-side cursor kept for the connection, the text `compose_sql` gives, where
        `compose_sql` opens a cursor of each kind for every statement (bench_slips, DEBUG)."""

        def execute(self, sql, params=None):
            with self.debug_sql(_merging_cursor(self.db).mogrify(sql, params)):
                return CursorWrapper.execute(self, sql, params)

    return PreparedCursor, PreparedDebugWrapper


def _session(database):
    """What `database` keeps for its current psycopg connection (a new connection, afresh)."""
    session = database.connection
    kept = getattr(database, "_client_side_kept", None)
    if kept is None or kept[0] is not session:
        kept = database._client_side_kept = (session, {})
    return kept[1]


def _merging_cursor(database):
    kept = _session(database)
    if "cursor" not in kept:
        import psycopg

        kept["cursor"] = psycopg.ClientCursor(database.connection)
    return kept["cursor"]


def bound_sql(database, sql: str, params) -> str:
    """`sql` (only `%s` placeholders, `%%` for a percent sign) with `params` merged in, the text
    psycopg's client-side cursor sends for `execute(sql, params)` (each value by
    `Transformer.as_literal`, None as NULL; `ClientCursor.mogrify` gives the same), from one
    Transformer kept for the connection: a cursor makes a new one for every statement and
    looks up each value's dumper in it afresh (a slip's INSERTs bind about 120 values,
    bench_slips). Executed with no parameters, the text goes as it is (PostgreSQL only)."""
    kept = _session(database)
    if "literal" not in kept:
        from psycopg.adapt import Transformer

        transformer = Transformer(database.connection)
        kept["literal"], kept["encoding"] = transformer.as_literal, transformer.encoding
    literal, encoding = kept["literal"], kept["encoding"]
    return sql % tuple("NULL" if value is None else literal(value).decode(encoding) for value in params)


# Django turns psycopg's preparing off (`prepare_threshold` None: nothing is prepared, even
# when asked); this threshold, never reached, prepares only what a cursor asks for. Django's
# own cursors bind client-side and never prepare, whatever the threshold.
ONLY_WHEN_ASKED = sys.maxsize


def prepared_cursor(database=None):
    """A cursor (use it in `with`) whose statements are prepared on the connection (PostgreSQL
    only; `database` a connection, the default one if None): one statement per `execute`, `%s`
    or `%(name)s` placeholders. A prepared statement keeps its result columns: select named
    columns, never `*` of a table."""
    # The connection itself, not the `connection` proxy: the cursor's wrapper asks it for its
    # settings on every statement, and each ask through the proxy looks the connection up again.
    database = connections[DEFAULT_DB_ALIAS] if database is None or database is connection else database
    database.ensure_connection()
    database.validate_thread_sharing()
    session = database.connection
    if session.prepare_threshold is None:
        session.prepare_threshold = ONLY_WHEN_ASKED
    cursor_class, debug_wrapper = _classes()
    raw = cursor_class(session)
    return debug_wrapper(raw, database) if database.queries_logged else database.make_cursor(raw)
