"""Append-only records, guarded in the database itself.

Signed financial records (audit events, slips, counts, closeouts) are never updated or
deleted: a correction is a new row that points back. Python refuses it in `save()` and
`delete()`, but `QuerySet.update()`, raw SQL and other programs bypass Python, so every
append-only table also gets database triggers that refuse UPDATE and DELETE (and TRUNCATE
on PostgreSQL).

Deleting is possible only while the single row of `appendonly_guard` has `lifted = 1`. That
table has no model, so Django's flush never touches it; only the test teardown lifts it,
because a transactional test must empty the database afterwards. Nothing in the application
lifts it. Updates are refused unconditionally.

Use: subclass `AppendOnlyModel`, and add `AppendOnly("modelname")` to the migration that
creates the table. `tests/test_appendonly.py` checks every subclass has its triggers.
"""

from django.db import IntegrityError, models
from django.db.migrations.operations.base import Operation

GUARD_TABLE = "appendonly_guard"


class ImmutableRecordError(IntegrityError):
    """Raised when application code tries to change or delete an append-only row."""


class AppendOnlyModel(models.Model):
    """A row that, once saved, is never updated or deleted (see the module docstring)."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableRecordError(
                f"{self._meta.verbose_name} is an append-only record: record a correction instead"
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableRecordError(f"{self._meta.verbose_name} is an append-only record and cannot be deleted")


def _guard_sql(vendor: str) -> list[str]:
    statements = [
        f"CREATE TABLE IF NOT EXISTS {GUARD_TABLE} (id INTEGER PRIMARY KEY, lifted INTEGER NOT NULL)",
    ]
    if vendor == "postgresql":
        statements.append(
            f"INSERT INTO {GUARD_TABLE} (id, lifted) VALUES (1, 0) ON CONFLICT (id) DO NOTHING"
        )
        statements.append(
            f"""
            CREATE OR REPLACE FUNCTION appendonly_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'UPDATE'
                   AND COALESCE((SELECT lifted FROM {GUARD_TABLE} WHERE id = 1), 0) = 1 THEN
                    IF TG_LEVEL = 'STATEMENT' THEN RETURN NULL; END IF;
                    RETURN OLD;
                END IF;
                RAISE EXCEPTION 'append-only: %% of %% is refused', TG_OP, TG_TABLE_NAME
                    USING ERRCODE = 'restrict_violation';
            END $$
            """
        )
    else:
        statements.append(f"INSERT OR IGNORE INTO {GUARD_TABLE} (id, lifted) VALUES (1, 0)")
    return statements


def trigger_sql(vendor: str, table: str) -> list[str]:
    """SQL that installs the refusing triggers on `table` (and the guard they consult)."""
    if vendor == "postgresql":
        return _guard_sql(vendor) + [
            f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}",
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION appendonly_refuse()",
            f"DROP TRIGGER IF EXISTS {table}_append_only_truncate ON {table}",
            f"CREATE TRIGGER {table}_append_only_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION appendonly_refuse()",
        ]
    if vendor == "sqlite":
        return _guard_sql(vendor) + [
            f"DROP TRIGGER IF EXISTS {table}_no_update",
            f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} BEGIN "
            f"SELECT RAISE(ABORT, 'append-only: UPDATE of {table} is refused'); END",
            f"DROP TRIGGER IF EXISTS {table}_no_delete",
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
            f"WHEN COALESCE((SELECT lifted FROM {GUARD_TABLE} WHERE id = 1), 0) <> 1 BEGIN "
            f"SELECT RAISE(ABORT, 'append-only: DELETE of {table} is refused'); END",
        ]
    raise NotImplementedError(f"append-only triggers are not written for {vendor}")


def drop_trigger_sql(vendor: str, table: str) -> list[str]:
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}",
            f"DROP TRIGGER IF EXISTS {table}_append_only_truncate ON {table}",
        ]
    return [f"DROP TRIGGER IF EXISTS {table}_no_update", f"DROP TRIGGER IF EXISTS {table}_no_delete"]


def installed_trigger_names(connection, table: str) -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal", [table]
            )
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table])
        return {row[0] for row in cursor.fetchall()}


def set_guard_lifted(connection, lifted: bool) -> None:
    """Only for test teardown: allow the flush that empties a transactional test database."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {GUARD_TABLE} SET lifted = %s WHERE id = 1", [1 if lifted else 0])


class AppendOnly(Operation):
    """Migration operation: make a model's table append-only in the database."""

    reversible = True
    reduces_to_sql = True

    def __init__(self, model_name: str):
        self.model_name = model_name

    def deconstruct(self):
        return (self.__class__.__name__, [self.model_name], {})

    def state_forwards(self, app_label, state):
        pass

    def _table(self, app_label, state):
        return state.apps.get_model(app_label, self.model_name)._meta.db_table

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        for sql in trigger_sql(schema_editor.connection.vendor, self._table(app_label, to_state)):
            schema_editor.execute(sql)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        for sql in drop_trigger_sql(schema_editor.connection.vendor, self._table(app_label, from_state)):
            schema_editor.execute(sql)

    def describe(self):
        return f"Make {self.model_name} append-only in the database"

    @property
    def migration_name_fragment(self):
        return f"{self.model_name}_append_only"
