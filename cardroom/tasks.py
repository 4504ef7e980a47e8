"""Celery tasks of the core: thin wrappers that call one service."""

from celery import shared_task
from django.db import transaction

from .audit import record_event, verify_chain


@shared_task
def verify_audit_log() -> dict:
    """Nightly: walk the audit chain and record the outcome as an event of its own."""
    result = verify_chain()
    with transaction.atomic():
        record_event(
            actor=None,
            action="audit_log.verified",
            object_type="audit_log",
            object_id="chain",
            after={"ok": result.ok, "checked": result.checked, "broken_seq": result.broken_seq},
        )
    return {"ok": result.ok, "checked": result.checked}
