"""The audit log: one append-only, hash-chained event per change, written in the caller's
transaction (so a rolled-back change leaves no event and an event never lacks its change)."""

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from .models import AuditEvent

GENESIS_HASH = "0" * 64
_CHAIN_LOCK_KEY = 7_310_021  # PostgreSQL advisory lock that serialises appends to the chain


def _json_default(value):
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date | Decimal):
        return str(value)
    if isinstance(value, Model):
        return value.pk
    return str(value)


def to_json(value):
    """A JSON-safe copy: what is stored is exactly what is hashed."""
    if value is None:
        return None
    return json.loads(json.dumps(value, default=_json_default))


def snapshot(instance: Model) -> dict:
    """The concrete field values of a row, foreign keys as ids."""
    return to_json({f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields})


def canonical_content(event: AuditEvent) -> str:
    return json.dumps(
        {
            "seq": event.seq,
            "occurred_at": event.occurred_at.astimezone(UTC).isoformat(),
            "actor_id": event.actor_id,
            "actor_label": event.actor_label,
            "organization_id": event.organization_id,
            "site_id": event.site_id,
            "action": event.action,
            "object_type": event.object_type,
            "object_id": event.object_id,
            "before": event.before,
            "after": event.after,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )


def chain_hash(prev_hash: str, event: AuditEvent) -> str:
    return hashlib.sha256((prev_hash + canonical_content(event)).encode()).hexdigest()


def record_event(
    *,
    actor,
    action: str,
    obj: Model | None = None,
    object_type: str = "",
    object_id: str = "",
    organization_id: int | None = None,
    site_id: int | None = None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEvent:
    """Append one event to the chain. Must run inside the transaction of the change."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_event must run inside the transaction that makes the change")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_CHAIN_LOCK_KEY])
    last = AuditEvent.objects.order_by("-seq").values_list("seq", "hash").first()
    seq, prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS_HASH)
    event = AuditEvent(
        seq=seq,
        occurred_at=timezone.now(),
        actor=actor if actor is not None and actor.is_authenticated else None,
        actor_label=actor.get_username() if actor is not None and actor.is_authenticated else "system",
        organization_id=organization_id,
        site_id=site_id,
        action=action,
        object_type=object_type or (obj._meta.label_lower if obj is not None else ""),
        object_id=object_id or (str(obj.pk) if obj is not None else ""),
        before=to_json(before),
        after=to_json(after),
        prev_hash=prev_hash,
    )
    event.hash = chain_hash(prev_hash, event)
    event.save()
    return event


def record_site_event(acting_user, action: str, obj: Model, site, *, before=None, after=None) -> AuditEvent:
    """An event about `obj` at `site` (and its organization); `after` defaults to the row as saved."""
    return record_event(
        actor=acting_user,
        action=action,
        obj=obj,
        organization_id=site.organization_id,
        site_id=site.pk,
        before=before,
        after=after if after is not None else snapshot(obj),
    )


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    checked: int
    broken_seq: int | None = None
    reason: str = ""


def verify_chain(batch_size: int = 2000) -> ChainCheck:
    """Walk the chain in order; report the first event whose link or content is wrong."""
    prev_hash, expected_seq, checked = GENESIS_HASH, 1, 0
    for event in AuditEvent.objects.order_by("seq").iterator(chunk_size=batch_size):
        if event.seq != expected_seq:
            return ChainCheck(False, checked, expected_seq, f"event #{expected_seq} is missing")
        if event.prev_hash != prev_hash:
            return ChainCheck(False, checked, event.seq, "its link to the previous event is broken")
        if chain_hash(prev_hash, event) != event.hash:
            return ChainCheck(False, checked, event.seq, "its content does not match its hash")
        prev_hash, expected_seq, checked = event.hash, expected_seq + 1, checked + 1
    return ChainCheck(True, checked)
