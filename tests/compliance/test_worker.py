"""The nightly compliance job on a real Celery worker (filesystem broker; Redis in CI)."""

import time
from datetime import date

import pytest
from celery.contrib.testing.worker import start_worker

from cardroom.models import Role
from compliance.models import Alert
from compliance.tasks import run_daily_checks
from config.celery import app
from tests.compliance.test_providers import make_day, make_slip


@pytest.mark.django_db(transaction=True)
def test_the_daily_checks_open_alerts_on_a_real_worker_and_a_rerun_opens_none(site, table, cast):
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    make_slip(day, table, 1, cast[Role.PIT_BOSS], steps=("verify",))
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        for _ in range(2):  # the second run must open nothing more
            run_daily_checks.delay("2026-11-12")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not Alert.objects.filter(rule__startswith="slip_").exists():
            time.sleep(0.2)
        time.sleep(2)  # let the second message be consumed as well
    assert list(Alert.objects.filter(rule__startswith="slip_").values_list("rule", "subject")) == [
        ("slip_unreceived", "fill:1")
    ]
