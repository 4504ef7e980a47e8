"""Append-only records, guarded in the database itself, and each covered by the audit chain.

Signed financial records (audit events, slips, counts, closeouts) are never updated or
deleted: a correction is a new row that points back. Python refuses it in `save()` and
`delete()`, but `QuerySet.update()`, raw SQL and other programs bypass Python, so every
append-only table also gets database triggers that refuse UPDATE and DELETE (and TRUNCATE
on PostgreSQL).

Deleting is possible only while the single row of `appendonly_guard` has `lifted = 1`. That
table has no model, so Django's flush never touches it; only the test teardown lifts it,
because a transactional test must empty the database afterwards. Nothing in the application
lifts it. Updates are refused unconditionally.

The guard cannot be lifted in production (house control; the issue is the product's promise
that a signed record never changes, not a rule of chapter 99-01.3-08):

- PostgreSQL: the trigger honours `lifted` only for a superuser or a member of the role
  `cardroom_maintenance` (`MAINTENANCE_ROLE`), and the guard table's privileges are revoked
  from PUBLIC. The application's role is neither and does not own the tables, so it can
  neither lift the guard nor delete while someone else has lifted it (README, "Database
  roles"). The test runner connects as a superuser, so its teardown still empties tables.
- SQLite has no roles: whoever can write the file can lift the guard or drop a trigger.
  There the protection is detection: every covered row's creating event records its digest
  (below), so `verify_audit_log` names a deleted or altered row.

Every row of a concrete subclass (except the audit events themselves, `audit_rows = False`)
is covered by the audit chain: `save()` and `bulk_create()` append, in the same transaction
as the INSERT, one `row.created` event holding the row's canonical values and their SHA-256
(core.audit_rows, which registers itself as the `row_events` hook when core loads: the events
are append-only rows too, so this module below them asks rather than imports). The event goes to the chain of the row's organization, found from an
`organization` or `site` foreign key or a parent append-only row; a model where that fails
declares the path in `audit_organization` (e.g. "table__site__organization").

Use: subclass `AppendOnlyModel`, and add `AppendOnly("modelname")` to the migration that
creates the table (and again after any migration that rebuilds the table on SQLite).
`tests/core/test_appendonly.py` checks every subclass has its triggers and an organization.
"""

from django.db import IntegrityError, connections, models, transaction
from django.db.backends.utils import truncate_name
from django.db.migrations.operations.base import Operation
from django.db.models.fields import AutoFieldMixin

from .hooks import ROW_EVENTS

GUARD_TABLE = "appendonly_guard"
MAINTENANCE_ROLE = "cardroom_maintenance"
# Rows inserted at once from which PostgreSQL takes them by COPY: psycopg adapts a COPY row's
# values in C, where the ORM compiles a multi-row INSERT in Python (a night's alerts, and
# their e-mails' rows; the audit events likewise, core.audit._copy_events).
COPY_ROWS = 16
_IDS_SQL = "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)"


def take_ids(cursor, model, count: int) -> list[int]:
    """`count` ids from the table's identity sequence, for rows written by COPY (which
    returns none): one query."""
    cursor.execute(_IDS_SQL, [model._meta.db_table, model._meta.pk.column, count])
    return [pk for (pk,) in cursor.fetchall()]


class ImmutableRecordError(IntegrityError):
    """Raised when application code tries to change or delete an append-only row."""


class AppendOnlyQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Insert the rows and their audit events in one transaction. Conflict handling is
        refused: a row skipped or merged by the database would have no creating event."""
        if kwargs.get("ignore_conflicts") or kwargs.get("update_conflicts"):
            raise ImmutableRecordError("append-only rows are inserted without conflict handling")
        objs = list(objs)
        with transaction.atomic(using=self.db, savepoint=False):
            created = self._copied(objs) if not args and set(kwargs) <= {"batch_size"} else None
            if created is None:
                created = super().bulk_create(objs, *args, **kwargs)
            if self.model.audit_rows and created:
                ROW_EVENTS(created)
        return created

    def _copied(self, objs: list) -> list | None:
        """PostgreSQL, at least COPY_ROWS new rows of a model with an automatic id: the rows
        by COPY, each field's value as the ORM prepares it for an INSERT, their ids taken
        from the sequence first; None where that does not apply (bulk_create then inserts)."""
        conn, opts = connections[self.db], self.model._meta
        if (
            conn.vendor != "postgresql"
            or len(objs) < COPY_ROWS
            or opts.parents
            or not isinstance(opts.pk, AutoFieldMixin)
            or any(obj.pk is not None for obj in objs)
        ):
            return None
        self._prepare_for_bulk_create(objs)
        fields = [f for f in opts.concrete_fields if not f.primary_key and not f.generated]
        values = [[f.pre_save(obj, True) for f in fields] for obj in objs]
        if any(hasattr(value, "resolve_expression") for row in values for value in row):
            return None  # an expression is the database's to evaluate: bulk_create's INSERT
        columns = ", ".join(conn.ops.quote_name(f.column) for f in [opts.pk, *fields])
        with conn.cursor() as cursor:
            ids = take_ids(cursor, self.model, len(objs))
            with cursor.cursor.copy(f"COPY {conn.ops.quote_name(opts.db_table)} ({columns}) FROM STDIN") as copy:
                for pk, row in zip(ids, values, strict=True):
                    copy.write_row(
                        [pk, *(f.get_db_prep_save(value, conn) for f, value in zip(fields, row, strict=True))]
                    )
        for obj, pk in zip(objs, ids, strict=True):
            obj.pk, obj._state.adding, obj._state.db = pk, False, self.db
        return objs


class AppendOnlyModel(models.Model):
    """A row that, once saved, is never updated or deleted (see the module docstring)."""

    # Whether each row gets a `row.created` event (everything but the audit log itself).
    audit_rows = True
    # The lookup from this model to its organization's id, when the generic path fails.
    audit_organization: str | None = None
    # The action of the row's event when creating the row is itself what happened (an alert
    # opened): that one event records it, with the row's site, instead of a second event
    # beside `row.created`. None: `row.created`.
    audit_created_action: str | None = None

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableRecordError(
                f"{self._meta.verbose_name} is an append-only record: record a correction instead"
            )
        if not self.audit_rows:
            super().save(*args, **kwargs)
            return
        with transaction.atomic(using=kwargs.get("using"), savepoint=False):
            super().save(*args, **kwargs)
            ROW_EVENTS([self])

    def delete(self, *args, **kwargs):
        raise ImmutableRecordError(f"{self._meta.verbose_name} is an append-only record and cannot be deleted")


def _guard_sql(vendor: str) -> list[str]:
    statements = [
        f"CREATE TABLE IF NOT EXISTS {GUARD_TABLE} (id INTEGER PRIMARY KEY, lifted INTEGER NOT NULL)",
    ]
    if vendor == "postgresql":
        statements.append(f"INSERT INTO {GUARD_TABLE} (id, lifted) VALUES (1, 0) ON CONFLICT (id) DO NOTHING")
        # A lifted guard counts only for a superuser or a member of the maintenance role: the
        # application's role is neither, so it cannot delete even if it could lift the guard.
        statements.append(
            f"""
            CREATE OR REPLACE FUNCTION appendonly_may_lift() RETURNS boolean LANGUAGE plpgsql STABLE AS $$
            BEGIN
                IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN RETURN true; END IF;
                RETURN EXISTS (
                    SELECT 1 FROM pg_roles
                    WHERE rolname = '{MAINTENANCE_ROLE}' AND pg_has_role(current_user, oid, 'MEMBER')
                );
            END $$
            """
        )
        # Only the owner (the migration role) may write the guard; everyone may read it (the
        # triggers run as the user whose statement fired them).
        statements.append(f"REVOKE ALL ON {GUARD_TABLE} FROM PUBLIC")
        statements.append(f"GRANT SELECT ON {GUARD_TABLE} TO PUBLIC")
        statements.append(
            f"""
            CREATE OR REPLACE FUNCTION appendonly_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'UPDATE' THEN
                    IF COALESCE((SELECT lifted FROM {GUARD_TABLE} WHERE id = 1), 0) = 1
                       AND appendonly_may_lift() THEN
                        IF TG_LEVEL = 'STATEMENT' THEN RETURN NULL; END IF;
                        RETURN OLD;
                    END IF;
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
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal", [table])
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

    def _table(self, app_label, state, connection):
        """The model's table in the migration state: its `db_table`, else Django's default name."""
        model = self.model_name.lower()
        table = state.models[app_label, model].options.get("db_table")
        return table or truncate_name(f"{app_label}_{model}", connection.ops.max_name_length())

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        connection = schema_editor.connection
        for sql in trigger_sql(connection.vendor, self._table(app_label, to_state, connection)):
            schema_editor.execute(sql)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        connection = schema_editor.connection
        for sql in drop_trigger_sql(connection.vendor, self._table(app_label, from_state, connection)):
            schema_editor.execute(sql)

    def describe(self):
        return f"Make {self.model_name} append-only in the database"

    @property
    def migration_name_fragment(self):
        return f"{self.model_name}_append_only"


class KeepAppendOnly(AppendOnly):
    """Migration operation for a table that is append-only before and after the migration:
    (re)install its triggers in both directions. SQLite rebuilds a table for some schema
    changes (a foreign key added or removed), which drops its triggers; put one of these first
    in the migration's operations (it runs last when the migration is unapplied) and one last
    (it runs last when it is applied), so the table is guarded on either side of the change."""

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self.database_forwards(app_label, schema_editor, to_state, to_state)

    def describe(self):
        return f"Keep {self.model_name} append-only in the database"
