"""The alerts' e-mail tasks, queued when alerts open (compliance.services) below every task of
the rules. Their names stay `compliance.tasks.*` (queued messages and routes name them so);
`compliance.tasks` imports this module so that the worker registers them."""

from celery import shared_task
from django.db import OperationalError

from .models import Alert
from .notifications import send_notification, send_notifications

RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}
# The priority of the alerts' e-mails in the broker's queue: after every task of the rules (which
# go at the default, 0). With Redis, 0 is taken first and 9 last (kombu's priority steps 0, 3, 6,
# 9); so a fanned-out run's chord gathers, and the run is finished, when its last chunk ends,
# not after the e-mails its earlier chunks queued meanwhile, and the next run's chunks do not
# wait behind the last run's e-mails either. A worker reserves one task at a time (late acks,
# CELERY_WORKER_PREFETCH_MULTIPLIER 1), so it takes them in the broker's order. The embedded
# filesystem broker takes them in the same order (core.broker): a report asked for meanwhile
# (sent at 0) goes before the e-mails there too.
MAIL_PRIORITY = 9


@shared_task(name="compliance.tasks.notify_alert", **RETRY)
def notify_alert(alert_id: int, kind: str) -> bool:
    alert = Alert.objects.select_related("site").filter(pk=alert_id).first()
    return alert is not None and send_notification(alert, kind) is not None


@shared_task(name="compliance.tasks.notify_alerts", **RETRY)
def notify_alerts(alert_ids: list[int], kind: str) -> int:
    """`notify_alert` for a batch of alerts opened together (compliance.services.open_alerts,
    compliance.notifications.send_notifications: a bounded number of queries); each e-mail goes once (the notification's
    unique constraint), so a retry resends none."""
    return len(
        send_notifications(list(Alert.objects.select_related("site").filter(pk__in=alert_ids).order_by("pk")), kind)
    )
