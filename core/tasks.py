"""Celery tasks of the core: thin wrappers that call one service."""

from celery import chord, shared_task
from django.conf import settings
from django.db import transaction

from .audit import record_event
from .audit_anchors import anchor_chains
from .audit_verify import Verification, join_slices, plan_nightly, verify_chain, verify_slice


@shared_task
def verify_audit_log(full: bool = False) -> dict:
    """Nightly: verify the chains, anchors and rows from the last checkpoint (`full=True`: all
    of them), and record the outcome as an event of its own. With AUDIT_VERIFY_WORKERS above one,
    the nightly pass is split into that many slices, one task each, joined by
    `join_audit_verification` (which records the outcome)."""
    workers = getattr(settings, "AUDIT_VERIFY_WORKERS", 1)
    if full or workers <= 1:
        return _record(verify_chain(full=full), full=full)
    plan = plan_nightly(workers)
    if plan["problem"]:
        return _record(join_slices(plan, []), full=False)
    slices = (verify_audit_slice.s(plan, index) for index in range(len(plan["slices"])))
    return {"split": len(plan["slices"]), "join": chord(slices)(join_audit_verification.s(plan)).id}


@shared_task(ignore_result=False)
def verify_audit_slice(plan: dict, index: int) -> dict:
    """One slice of the split nightly pass (core.audit_verify.verify_slice)."""
    return verify_slice(plan, index)


@shared_task(ignore_result=False)
def join_audit_verification(results: list[dict], plan: dict) -> dict:
    """The split pass's callback: the slices joined into one outcome (checkpoints appended once,
    if every slice succeeded), recorded as the single pass records it."""
    return _record(join_slices(plan, results), full=False)


def _record(result: Verification, *, full: bool) -> dict:
    outcome = {
        "ok": result.ok,
        "full": full,
        "events": result.checked,
        "rows": result.rows_checked,
        "problem": str(result.problem) if result.problem else None,
    }
    if len(result.problems) > 1:
        outcome["problems"] = [str(problem) for problem in result.problems]
    with transaction.atomic():
        record_event(actor=None, action="audit_log.verified", object_type="audit_log", object_id="chain", after=outcome)
    return outcome


@shared_task
def anchor_audit_log() -> int:
    """Nightly: append each chain's head to the anchor files outside the database."""
    return len(anchor_chains())
