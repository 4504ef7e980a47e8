"""A registry deployment of this codebase in its own process, on its own SQLite database and
port (gunicorn), for the tests that file across real HTTP."""

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


class RegistryServer:
    def __init__(self, folder: Path):
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DEBUG": "true",
            "VAR_DIR": str(folder / "var"),
            "DATABASE_URL": f"sqlite:///{folder / 'registry.sqlite3'}",
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
