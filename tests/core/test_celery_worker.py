"""A real Celery worker consumes a real message from the configured broker (the filesystem
broker by default, Redis in CI's second run) and writes to the real database."""

import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from core.models import AuditEvent
from core.tasks import anchor_audit_log, verify_audit_log


@pytest.mark.django_db(transaction=True)
def test_the_nightly_audit_check_runs_on_a_real_worker(manager, site):
    from cardroom import services

    services.create_table(
        acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100, max_wager_cents=2500
    )
    event = _verified_on_a_worker()
    assert event.after == {"ok": True, "full": False, "events": 1, "rows": 0, "problem": None}
    assert event.actor_label == "system"


@pytest.mark.django_db(transaction=True)
def test_the_nightly_audit_check_split_over_two_workers_joins_into_one_outcome(manager, site, settings):
    """Two slices, each its own task, and the chord's callback records one outcome and appends
    the checkpoints once."""
    from cardroom import services
    from core.models import AuditCheckpoint

    settings.AUDIT_VERIFY_WORKERS = 2
    services.create_table(
        acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100, max_wager_cents=2500
    )
    event = _verified_on_a_worker()
    assert event.after == {"ok": True, "full": False, "events": 1, "rows": 0, "problem": None}
    assert AuditCheckpoint.objects.filter(scope="chain").count() == 1


def _verified_on_a_worker() -> AuditEvent:
    """The nightly check sent through the broker and run by a real worker: its outcome event."""
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        verify_audit_log.delay()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not AuditEvent.objects.filter(action="audit_log.verified").exists():
            time.sleep(0.2)
    return AuditEvent.objects.get(action="audit_log.verified")


def test_the_beat_schedule_runs_the_audit_check_nightly():
    entry = app.conf.beat_schedule["verify-audit-log-nightly"]
    assert entry["task"] == verify_audit_log.name


def test_the_beat_schedule_verifies_everything_weekly_beside_the_nightly_incremental_check():
    entry = app.conf.beat_schedule["verify-audit-log-weekly-full"]
    assert entry["task"] == verify_audit_log.name and entry["kwargs"] == {"full": True}
    assert "kwargs" not in app.conf.beat_schedule["verify-audit-log-nightly"]


def test_the_beat_schedule_anchors_the_chains_nightly_after_the_check():
    check = app.conf.beat_schedule["verify-audit-log-nightly"]["schedule"]
    entry = app.conf.beat_schedule["anchor-audit-log-nightly"]
    assert entry["task"] == anchor_audit_log.name
    assert (entry["schedule"].hour, entry["schedule"].minute) == (check.hour, {m + 5 for m in check.minute})
