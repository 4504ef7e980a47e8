"""The base of the management commands that read or write the configured database."""

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor

from core.plurals import plural


def unapplied_migrations(using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """The migrations the database still needs ("app.name", in the order they would apply)."""
    executor = MigrationExecutor(connections[using])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def describe(using: str = DEFAULT_DB_ALIAS) -> str:
    """The database as a person would find it: its engine, name and host (never its password)."""
    connection = connections[using]
    settings = connection.settings_dict
    host = f" on {settings['HOST']}" if settings.get("HOST") else ""
    return f"{connection.vendor} {settings['NAME']}{host}"


class DatabaseCommand(BaseCommand):
    """A command that works on the configured database. On a database it cannot read, or one
    not migrated (a fresh checkout before `make run`, a new DATABASE_URL), it stops with one
    line saying so and what to run, not a traceback from its first query."""

    def execute(self, *args, **options):
        try:
            pending = unapplied_migrations()
        except DatabaseError as exc:
            raise CommandError(f"The database ({describe()}) cannot be read: {exc}".strip()) from exc
        if pending:
            raise CommandError(
                f"The database ({describe()}) is not migrated: {plural(len(pending), 'migration')} to apply, "
                f"from {pending[0]}. Run `python manage.py migrate` first (`make run` does)."
            )
        return super().execute(*args, **options)
