"""PostgreSQL as the test run uses it: test-only settings, never production's.

A transactional test (`transactional_db`, `live_server`, a real Celery worker) ends with Django's
flush, which on PostgreSQL is one `TRUNCATE` of every table (134). TRUNCATE gives each table and
each of its indexes (565) new files and drops the old ones at commit: 3.7-4.4 s a flush on the
2-core machine, against 0.03 s for a `DELETE FROM` of each table, nearly all of them empty, in one
statement (0.28 s for the whole teardown on SQLite). Here the flush deletes instead. The foreign
keys Django makes on PostgreSQL are DEFERRABLE INITIALLY DEFERRED, so the order of the tables does
not matter: they are checked at commit, when every table is empty. The append-only triggers refuse
a DELETE as they refuse a TRUNCATE unless the guard is lifted (tests/conftest.py lifts it for the
flush, core/appendonly.py).

Every session the run opens (the test process's, its live servers' and Celery workers' threads,
the registry server and workers it starts) commits without waiting for the WAL to reach the disk
(`synchronous_commit = off`, through libpq's PGOPTIONS): a commit took 2.7-3.2 ms on the machine's
disk and 0.07-0.15 ms so. Only a crash of the server could lose the last commits, which a test
database does not outlive; what other sessions see, and when, is the same.
"""

import os

from django.db.backends.postgresql.operations import DatabaseOperations

_truncate = DatabaseOperations.sql_flush


def delete_from_each(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    """Django's `sql_flush` for the test run: one DELETE per table, sent as one statement. A flush
    that resets sequences or cascades to tables outside the list (a TransactionTestCase with
    `available_apps`) keeps Django's TRUNCATE."""
    if reset_sequences or allow_cascade or not tables:
        return _truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    return [" ".join(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(t))};" for t in tables)]


def flush_by_delete(monkeypatch) -> None:
    monkeypatch.setattr(DatabaseOperations, "sql_flush", delete_from_each)


def commits_without_waiting_for_the_disk() -> None:
    options = os.environ.get("PGOPTIONS", "")
    if "synchronous_commit" not in options:
        os.environ["PGOPTIONS"] = f"{options} -c synchronous_commit=off".strip()
