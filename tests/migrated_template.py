"""The test database migrated once, then copied: applying the 85 migrations on SQLite (every
altered column rebuilds its table) took about a minute of CPU in each pytest-xdist process on
every run. The first process to need a database migrates it as before and keeps a copy, the
template, under VAR_DIR; every later process (the other worker, the next run) copies the
template instead. The template is named after a digest of everything that shapes the migrated
database (the migration files, the project modules they import, Django's and SQLite's versions,
requirements.txt): any change to them makes a new one. Zulip keeps its test template the same way
(`zerver/lib/test_fixtures.py`, a digest of the migrations).

Only for SQLite and a plain run: `--create-db`, `--reuse-db` and `--nomigrations` keep
pytest-django's own behaviour (the PostgreSQL run in .ci/run passes `--create-db`).

PostgreSQL keeps its template on the server, `test_<NAME>_template`, with the digest in the
database's comment: each process's test database is `CREATE DATABASE ... TEMPLATE` of it (0.3-0.5 s).
With `--create-db` it is migrated again from empty once a run (the pytest-xdist run's id joins the
digest), so that .ci/run still proves the migrations on PostgreSQL every time."""

import ast
import fcntl
import hashlib
import os
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path

import django
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_PREFIX = "test-template-"


def _module_file(name: str) -> Path | None:
    parts = name.split(".")
    for candidate in (ROOT.joinpath(*parts).with_suffix(".py"), ROOT.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


def _imported_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def shaping_files() -> list[Path]:
    """The migration files of the project's apps and, transitively, the project modules they
    import (a data migration's seeds, the append-only triggers' SQL)."""
    todo = sorted(ROOT.glob("*/migrations/*.py"))
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imported_names(path):
            module = _module_file(name)
            if module and module not in seen:
                todo.append(module)
    return sorted(seen)


def template_digest() -> str:
    digest = hashlib.sha256()
    digest.update(f"{django.__version__} {sqlite3.sqlite_version} {sys.version}".encode())
    for path in [ROOT / "requirements.txt", *shaping_files()]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@contextmanager
def _locked(directory: Path):
    with open(directory / f"{TEMPLATE_PREFIX}lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def copy_database(source: str | Path, target: str | Path) -> None:
    """A consistent copy through SQLite's backup API (the source may be in WAL mode)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def applies(connection, *, use_migrations: bool, keepdb: bool, createdb: bool, aliases) -> bool:
    return (
        connection.vendor == "sqlite"
        and use_migrations
        and not keepdb
        and not createdb
        and set(aliases) <= {connection.alias}
        and not connection.creation.is_in_memory_db(connection.creation._get_test_db_name())
        and os.environ.get("TEST_DB_TEMPLATE", "1") != "0"
    )


def migrated_database(connection, setup):
    """Run `setup(keepdb)` (Django's setup_databases) on a database copied from the template
    (keepdb=True: the migrations already applied are only checked), or, without a template,
    migrate as usual and keep the result as the template."""
    directory = Path(settings.VAR_DIR)
    template = directory / f"{TEMPLATE_PREFIX}{template_digest()}.sqlite3"
    test_name = connection.creation._get_test_db_name()
    with _locked(directory):
        if template.exists():
            copy_database(template, test_name)
            config = setup(True)
        else:
            config = setup(False)
            for old in directory.glob(f"{TEMPLATE_PREFIX}*.sqlite3"):
                old.unlink()
            building = template.with_suffix(".building")
            copy_database(settings.DATABASES[connection.alias]["NAME"], building)
            os.replace(building, template)
    return config


def migrated_copy_name(settings_dict: dict) -> str:
    """PostgreSQL: the name of a copy of the test database taken just after its migrations, while
    nothing else is connected to it (a database cannot be a template while it is in use)."""
    return f"{settings_dict['NAME']}_migrated"[:63]


def _postgres(connection, statement: str) -> None:
    with connection._nodb_cursor() as cursor:
        cursor.execute(statement)


def keep_migrated_copy(connection) -> None:
    """A second server of this codebase (tests/statefiling/registry_server.py) starts from this
    copy instead of applying every migration again (minutes on a loaded machine)."""
    name = connection.ops.quote_name(migrated_copy_name(connection.settings_dict))
    source = connection.ops.quote_name(connection.settings_dict["NAME"])
    connection.close()
    _postgres(connection, f"DROP DATABASE IF EXISTS {name}")
    _postgres(connection, f"CREATE DATABASE {name} TEMPLATE {source}")


def drop_migrated_copy(connection) -> None:
    _postgres(
        connection, f"DROP DATABASE IF EXISTS {connection.ops.quote_name(migrated_copy_name(connection.settings_dict))}"
    )


def postgres_template_name(settings_dict: dict) -> str:
    """PostgreSQL: the template of the run's test databases, one for every pytest-xdist process
    (`test_<NAME>_gw0`, `_gw1` ...), named after the database of the settings."""
    return f"test_{settings_dict['NAME']}_template"[:63]


def applies_on_postgres(connection, *, use_migrations: bool, keepdb: bool, aliases) -> bool:
    """Without --reuse-db (its database is kept as it is) and --nomigrations. With --create-db (the
    run of .ci/run) the template is migrated again from empty, once for the run."""
    return (
        connection.vendor == "postgresql"
        and use_migrations
        and not keepdb
        and set(aliases) <= {connection.alias}
        and os.environ.get("TEST_DB_TEMPLATE", "1") != "0"
    )


def postgres_migrated_database(connection, setup, *, createdb: bool, run_id: str):
    """PostgreSQL: `setup(keepdb)` on a database made by `CREATE DATABASE ... TEMPLATE` from a
    database migrated before, with the digest of the migrations (and, with --create-db, this run's
    id) in its comment; or, without one, migrate the test database and keep a copy of it as the
    template. The processes of a run take turns under an advisory lock of the server."""
    import psycopg
    from psycopg import sql

    template = postgres_template_name(connection.settings_dict)
    test_name = connection.creation._get_test_db_name()
    stamp = f"{template_digest()} {run_id}" if createdb else template_digest()
    params = {key.lower(): connection.settings_dict[key] for key in ("HOST", "PORT", "USER", "PASSWORD")
              if connection.settings_dict.get(key)}  # fmt: skip
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute("SELECT pg_advisory_lock(hashtext(%s))", [template])
        found = admin.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [template]
        ).fetchone()
        if found and (found[0] == stamp or not createdb and (found[0] or "").split(" ")[0] == stamp):
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(test_name)))
            admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(*map(sql.Identifier, (test_name, template))))
            return setup(True)
        config = setup(False)
        connection.close()
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(template)))
        admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(*map(sql.Identifier, (template, test_name))))
        admin.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(template), sql.Literal(stamp)))
        return config
