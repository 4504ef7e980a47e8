"""Celery tasks: load by id or period, call one function, idempotent, retried on failure."""

from datetime import date, timedelta

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from cardroom.periods import Quarter

RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}


@shared_task(**RETRY)
def notify_alert(alert_id: int, kind: str) -> bool:
    from .models import Alert
    from .services import send_notification

    alert = Alert.objects.select_related("site").filter(pk=alert_id).first()
    return alert is not None and send_notification(alert, kind) is not None


@shared_task(**RETRY)
def run_daily_checks(day: str | None = None) -> dict:
    """Nightly: the day-level rules for the last week of gaming days at every site."""
    from .engine import run_day_checks

    last = date.fromisoformat(day) if day else timezone.localdate() - timedelta(days=1)
    return run_day_checks(site_ids=None, start=last - timedelta(days=6), end=last).as_dict()


@shared_task(**RETRY)
def run_quarter_checks(quarter: str | None = None) -> dict:
    """After a quarter ends: the quarter rules for that quarter at every site."""
    from .engine import run_quarter_rules

    target = Quarter.parse(quarter) if quarter else Quarter.containing(timezone.localdate()).previous()
    return run_quarter_rules(site_ids=None, quarter=target).as_dict()


@shared_task(**RETRY)
def send_due_reminders() -> int:
    from .engine import send_reminders

    return send_reminders(today=timezone.localdate())
