"""An empty database for a migration test, in place of the test database for its duration.

A test of a data migration needs a database as it was before that migration. Migrating the
test database back to it unapplies every later migration of every app that depends on it
(66 of them for the audit chain's), then applies them again: on SQLite, where an altered
column rebuilds its table, about 100 s. An empty database migrated forward to the migration's
own dependencies, and on from there, does each step once and only the ones needed; the test
database is left as it is."""

from contextlib import contextmanager
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@contextmanager
def scratch_database(suffix: str = "migration"):
    """The default connection on a new, empty database (a file beside the test database on
    SQLite, a database of its own on PostgreSQL), destroyed afterwards. Use it in a
    `django_db(transaction=True)` test: nothing may hold a transaction open on the connection."""
    settings_dict = connection.settings_dict
    name, test_name = settings_dict["NAME"], settings_dict["TEST"].get("NAME")
    test_db = connection.creation._get_test_db_name()
    if connection.vendor == "sqlite":
        settings_dict["TEST"]["NAME"] = str(Path(test_db).with_stem(f"{Path(test_db).stem}-{suffix}"))
    else:
        settings_dict["TEST"]["NAME"] = f"{test_db}_{suffix}"
    try:
        scratch = connection.creation._create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    finally:
        settings_dict["TEST"]["NAME"] = test_name
    connection.close()
    settings_dict["NAME"] = scratch
    ContentType.objects.clear_cache()  # ids of the test database's content types
    try:
        yield
    finally:
        connection.close()
        settings_dict["NAME"] = name
        ContentType.objects.clear_cache()
        connection.creation._destroy_test_db(scratch, verbosity=0)


def migrate(targets) -> MigrationExecutor:
    """Migrate the connection's database to `targets` (only they and what they depend on);
    returns an executor whose loader knows what is applied now."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


def dependencies_of(under_test) -> list[tuple[str, str]]:
    """The migrations the ones `under_test` depend on directly, but not those themselves: the
    state just before them."""
    graph = MigrationExecutor(connection).loader.graph
    return sorted({parent.key for node in under_test for parent in graph.node_map[node].parents} - set(under_test))
