"""A registry deployment of this codebase in its own process, on its own database and port
(gunicorn), for the tests that file across real HTTP. Its database is of the same kind as the
test run's: a SQLite file, or, when the suite runs on PostgreSQL, a database of its own on the
same server (`<test database>_registry`, made here and dropped when the server is done)."""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AGENCY = "North Dakota Attorney General - Gaming Division"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresDatabase:
    """A database of the registry's own beside the test run's, on the same PostgreSQL server."""

    def __init__(self, settings_dict: dict):
        from tests.migrated_template import migrated_copy_name

        self.template = migrated_copy_name(settings_dict)
        self.params = {
            key: settings_dict[name]
            for key, name in (("host", "HOST"), ("port", "PORT"), ("user", "USER"), ("password", "PASSWORD"))
            if settings_dict.get(name)
        }
        self.name = f"{settings_dict['NAME']}_registry"[:63]

    @property
    def url(self) -> str:
        user = self.params.get("user", "")
        password = f":{self.params['password']}" if self.params.get("password") else ""
        host = f"{self.params.get('host', '127.0.0.1')}:{self.params.get('port', 5432)}"
        return f"postgres://{user}{password}@{host}/{self.name}"

    def _run(self, statement: str, *names: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(dbname="postgres", autocommit=True, **self.params) as conn:
            conn.execute(sql.SQL(statement).format(sql.Identifier(self.name), *map(sql.Identifier, names)))

    def create(self) -> None:
        """A copy of the run's test database as it was just migrated (tests/conftest.py keeps it):
        `migrate` then only checks that every migration is applied."""
        self._run("DROP DATABASE IF EXISTS {}")
        self._run("CREATE DATABASE {} TEMPLATE {}", self.template)

    def drop(self) -> None:
        self._run("DROP DATABASE IF EXISTS {}")


class RegistryServer:
    def __init__(self, folder: Path, postgres: PostgresDatabase | None = None):
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.postgres = postgres
        if postgres is not None:
            postgres.create()
        self.env = {
            **os.environ,
            "DEBUG": "true",
            "VAR_DIR": str(folder / "var"),
            "DATABASE_URL": postgres.url if postgres else f"sqlite:///{folder / 'registry.sqlite3'}",
            "CELERY_BROKER_URL": "filesystem://",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        self.process: subprocess.Popen | None = None

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def migrate(self) -> None:
        """Migrated as every test database is: a SQLite registry starts from the run's migrated
        template where there is one (tests/migrated_template.py: a copy, then only the check
        that every migration is applied), PostgreSQL from nothing."""
        if self.postgres is None:
            from django.conf import settings

            from tests.migrated_template import TEMPLATE_PREFIX, copy_database, template_digest

            template = Path(settings.VAR_DIR) / f"{TEMPLATE_PREFIX}{template_digest()}.sqlite3"
            if template.exists():
                copy_database(template, self.folder / "registry.sqlite3")
        self.manage("migrate", "-v0")

    def licensee(self, name: str, licence: str) -> str:
        """A new licensee of the agency and its credential's secret."""
        out = self.manage(
            "registry_licensee",
            "--agency",
            AGENCY,
            "--licensee",
            name,
            "--licence",
            licence,
            "--expected-from",
            "2026-01-01",
        )
        return out.strip().splitlines()[-1]

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", "1"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.url}/registry/api/v1/filings/", timeout=2)  # noqa: S310
            except urllib.error.HTTPError:
                return  # it answers (401: no credential)
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("the registry did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None

    def remove(self) -> None:
        """Stopped for good: its PostgreSQL database dropped (a SQLite file goes with its folder)."""
        self.stop()
        if self.postgres is not None:
            self.postgres.drop()
