"""The management commands that work on the configured database say so in one line, with what
to run, when that database is not migrated or cannot be read, instead of a traceback from their
first query (core.management.base.DatabaseCommand)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import get_commands, load_command_class

from core.management.base import DatabaseCommand

ROOT = Path(settings.BASE_DIR)
# Each builds and drops scratch databases of its own (a test database, a cached template).
OWN_DATABASES = {"bench_pages", "bench_compliance"}
NO_DATABASE = {"law_ledger"}  # reads the packs' code and packs/law_ledger.json only


def project_commands() -> dict[str, str]:
    """name -> app of every command defined in this repository (not Django's or a library's)."""
    return {
        name: app for name, app in get_commands().items()
        if (ROOT / app.replace(".", "/") / "management" / "commands" / f"{name}.py").exists()
    }  # fmt: skip


def test_every_command_of_the_project_on_the_configured_database_checks_it_first():
    commands = project_commands()
    assert {"load_demo", "generate_report", "bench_reports", "verify_audit_log"} <= set(commands)
    unchecked = sorted(
        name for name, app in commands.items()
        if name not in OWN_DATABASES | NO_DATABASE and not isinstance(load_command_class(app, name), DatabaseCommand)
    )  # fmt: skip
    assert unchecked == []


def run(tmp_path: Path, database_url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url, "VAR_DIR": str(tmp_path / "var")}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, text=True, capture_output=True,
                          timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    "args",
    [
        ["bench_reports"],
        ["generate_report", "quarterly", "--site", "1", "--quarter", "2026Q3", "--format", "pdf", "--output", "x.pdf"],
        ["verify_audit_log"],
    ],
)
def test_a_command_on_a_database_not_migrated_says_what_to_run(tmp_path, args):
    database = tmp_path / "fresh.sqlite3"
    done = run(tmp_path, f"sqlite:///{database}", *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"The database (sqlite {database}) is not migrated" in done.stderr
    assert "Run `python manage.py migrate` first" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_a_command_on_a_database_it_cannot_open_says_so(tmp_path):
    done = run(tmp_path, f"sqlite:///{tmp_path}/no/such/folder/db.sqlite3", "verify_audit_log")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cannot be read" in done.stderr
    assert "Traceback" not in done.stderr
