"""Celery tasks of the filings with the state: thin wrappers that call one service."""

from celery import shared_task

from . import client, delivery
from .models import RegistryLink

# Backoff between attempts: 30 s, 1, 2, 4 ... minutes, at most an hour; never given up (the
# sweep also re-queues anything pending, should a retry be lost with a broker).
MAX_WAIT_SECONDS = 3600


def _wait(retries: int) -> int:
    return min(30 * 2**retries, MAX_WAIT_SECONDS)


@shared_task(bind=True, max_retries=None, acks_late=True)
def deliver_filing(self, submission_id: int) -> str:
    """Deliver one filing package; retried until the registry answers."""
    try:
        return delivery.deliver(submission_id)
    except client.Unreachable as exc:
        raise self.retry(exc=exc, countdown=_wait(self.request.retries)) from exc


@shared_task
def deliver_pending() -> int:
    """Every 15 minutes: try each package still pending once (its task's retry may have been lost)."""
    sent = 0
    for submission_id in delivery.pending_submissions().values_list("pk", flat=True)[:500]:
        try:
            sent += delivery.deliver(submission_id) == "delivered"
        except client.Unreachable:
            continue
    return sent


@shared_task(bind=True, max_retries=None)
def push_anchor(self, link_id: int, anchor: dict) -> dict:
    """Send one chain head to a registry; retried until it answers (a 409 is not retried: the
    registry holds another hash at that place, which verification reports)."""
    link = RegistryLink.objects.get(pk=link_id)
    try:
        return delivery.push_anchors(link, [anchor])
    except client.Refused as exc:
        return {"refused": str(exc)}
    except client.Unreachable as exc:
        raise self.retry(exc=exc, countdown=_wait(self.request.retries)) from exc


@shared_task(bind=True, max_retries=None)
def push_alerts(self, link_id: int, alerts: list) -> dict:
    """Send the organization's compliance alerts to a registry with the nightly anchors; retried
    until it answers (a refusal is kept in the task's result for a person)."""
    link = RegistryLink.objects.get(pk=link_id)
    try:
        return delivery.push_alerts(link, alerts)
    except client.Refused as exc:
        return {"refused": str(exc)}
    except client.Unreachable as exc:
        raise self.retry(exc=exc, countdown=_wait(self.request.retries)) from exc
