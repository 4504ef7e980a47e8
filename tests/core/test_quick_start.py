"""The quick start's `make run` honours PORT and keeps everything it generates under VAR_DIR
(issue 15). Checked on the commands make would run (`make -n`), which is what the recipe is."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _dry_run(*arguments: str) -> str:
    return subprocess.run(
        ["make", "-n", "run", *arguments], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def test_make_run_serves_on_the_port_given():
    commands = _dry_run("PORT=8123", "VAR_DIR=/tmp/cardroom-quick-start")
    assert "runserver 127.0.0.1:8123" in commands
    assert "127.0.0.1:8000" not in commands


def test_make_run_writes_only_under_var_dir():
    commands = _dry_run("VAR_DIR=/tmp/cardroom-quick-start")
    for generated in ("celerybeat-schedule", "celery.log", "celery.pid"):
        assert f"/tmp/cardroom-quick-start/{generated}" in commands
    assert " var/" not in commands and "mkdir -p var" not in commands
    assert "runserver 127.0.0.1:8000" in commands  # the default port
