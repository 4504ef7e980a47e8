"""The code is as `make lint` wants it: ruff's rules (pyproject.toml's [tool.ruff.lint]) find
nothing and ruff's formatter would change nothing, so a change that breaks either fails the
suite, not only a developer's `make lint`."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing():
    run = ruff("check", ".")
    assert run.returncode == 0, f"`ruff check .`: fix what it names\n{run.stdout}{run.stderr}"


def test_ruff_format_would_change_nothing():
    run = ruff("format", "--check", ".")
    assert run.returncode == 0, f"`ruff format .` would reformat these:\n{run.stdout}{run.stderr}"
