"""`manage.py bench_compliance` end to end: it builds its scratch database, starts real Celery
workers, scans through the broker, prints its lines and drops what it made."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.migrated_template import TEMPLATE_PREFIX, migrated_copy_name, template_digest


@pytest.mark.django_db  # the run's migrated database, copied for the scratch one (no migrations again)
def test_bench_compliance_scans_through_real_workers_and_opens_the_alerts(tmp_path):
    env = {
        **os.environ,
        "VAR_DIR": str(tmp_path),
        "CELERY_FS_ROOT": str(tmp_path / "celery"),
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    }
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        # The scratch databases are named after the test database, never the developer's.
        env["DATABASE_URL"] = re.sub(r"/[^/]*$", f"/{settings.DATABASES['default']['NAME']}", settings.DATABASE_URL)
    out = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_compliance",
            "--sites",
            "3",
            "--quarters",
            "1",
            "--workers",
            "1",
            "--chunk-sites",
            "1",
            *_migrated_schema(),
        ],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    text = out.stdout
    cold = re.search(
        r"full scan with 1 worker: [\d.]+ s \(cold: alerts opened (\d+)\); warm [\d.]+ s "
        r"\(rerun: (\d+) already open, 0 opened\)",
        text,
    )
    assert cold and int(cold[1]) > 0 and cold[1] == cold[2], text
    # The e-mails come after the run (the rules' tasks first): their time is printed, and the whole.
    mails = re.search(
        r"full scan with 1 worker: ([\d.]+) s .*e-mails .*all sent ([\d.]+) s after the cold scan, "
        r"([\d.]+) s after its start",
        text,
    )
    assert mails and abs(float(mails[1]) + float(mails[2]) - float(mails[3])) < 0.02, text
    assert re.search(r"per site-quarter [\d.]+ cold", text), text
    # The machine's speed read beside the figures (benchmarks.machine), before and after the scans.
    speed = re.search(
        r"machine: a fixed Python loop of 20,000,000 additions took ([\d.]+) s before the scans "
        r"and ([\d.]+) s after",
        text,
    )
    assert speed and 0 < float(speed[1]) < 60 and 0 < float(speed[2]) < 60, text
    # Its floor on the same copy with the same number of workers, and the ratio last (issue 37).
    floor = re.search(r"floor with 1 worker: ([\d.]+) s to read and aggregate every row of the (\d+) tables", text)
    assert floor and float(floor[1]) > 0 and int(floor[2]) >= 10, text
    assert re.search(r"\nratio to floor: [\d.]+ \(target 3\)", text), text
    assert "Scratch databases dropped." in text
    assert not list(Path(tmp_path).glob("bench-compliance*.sqlite3"))


def _migrated_schema() -> list[str]:
    """`--schema-from` the database this run migrated (tests/migrated_template.py): the SQLite
    template where there is one, PostgreSQL's copy of the test database taken after migrating."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        return ["--schema-from", migrated_copy_name(settings.DATABASES["default"])]
    template = Path(settings.VAR_DIR) / f"{TEMPLATE_PREFIX}{template_digest()}.sqlite3"
    return ["--schema-from", str(template)] if template.exists() else []


@pytest.mark.django_db(transaction=True)
def test_bench_compliance_refuses_a_schema_copied_with_sites(tmp_path, site):
    """`--schema-from` copies the data with the schema: a database holding sites is refused before
    anything is built, or its sites would be scanned (and chunked, and floored) with the bench's."""
    env = {**os.environ, "VAR_DIR": str(tmp_path), "CELERY_FS_ROOT": str(tmp_path / "celery")}
    source = settings.DATABASES["default"]["NAME"]  # this test's database, holding its site
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        env["DATABASE_URL"] = re.sub(r"/[^/]*$", f"/{source}", settings.DATABASE_URL)
    if connection.vendor == "postgresql":  # PostgreSQL copies a database no one is connected to
        with connection.cursor() as cursor:  # (a connection an earlier test's thread left open, say)
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
    connection.close()
    out = subprocess.run(
        [sys.executable, "manage.py", "bench_compliance", "--sites", "1", "--quarters", "1", "--schema-from", source],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"--schema-from: {source} holds 1 site, which would be scanned with the bench's" in out.stderr
    assert "built in" not in out.stdout
