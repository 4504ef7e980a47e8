"""The audit log: append-only, hash-chained events, one chain per organization, each event
written in the caller's transaction (so a rolled-back change leaves no event and an event
never lacks its change).

Chains (a house control; chapter 99-01.3-08 asks for records, not for how they are sealed):

- Each organization has its own chain, `org-<id>`; events with no organization (the nightly
  check) have the chain `system`. An event stores its chain, its number in the chain (`seq`,
  1, 2, 3 ... with no gap) and `hash = SHA-256(prev_hash + canonical content)`, where
  `prev_hash` is the hash of the chain's previous event. Appending takes a PostgreSQL
  advisory lock keyed by the chain, so organizations never wait for each other; on SQLite
  the database's single writer serialises appends anyway. The lock is held to the commit,
  so a busy service takes it as late as it can: `appended_at_end` queues its events and
  writes them in one INSERT at the end of its transaction, and the lock and the chain's
  head are read in one round trip (or in the service's own last message, `chain_lock_sql`).
- Events written before chains were per organization keep their place in one global chain,
  `legacy`, frozen exactly as it was (same seq, same content, same hashes, verified the same
  way). Every per-organization chain starts from the legacy chain's last hash (or 64 zeros
  when there was none), so cutting events off the end of the legacy chain breaks every chain
  that follows it. Nothing is ever appended to the legacy chain.
- Row events (`row.created`, core.audit_rows) carry the table, id and SHA-256 digest of
  the append-only row they record; their canonical content includes those three fields and
  the chain, so an event cannot be moved to another row or chain without breaking its hash.

Verification is `core.audit_verify` (`manage.py verify_audit_log`); anchors outside the
database are `core.audit_anchors` (`manage.py audit_anchor`).
"""

import hashlib
import json
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from json.encoder import c_make_encoder, encode_basestring_ascii

from django.db import transaction
from django.db.models import JSONField, Max, Model
from django.utils import timezone

from .appendonly import COPY_ROWS, take_ids
from .insert_values import insert_plan, insert_values
from .models import AuditEvent
from .prepared import bound_sql

GENESIS_HASH = "0" * 64
LEGACY_CHAIN = "legacy"
SYSTEM_CHAIN = "system"
# PostgreSQL advisory locks that serialise appends, one per chain: pg_advisory_xact_lock(namespace, key).
_CHAIN_LOCK_NAMESPACE = 7_310_021


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


# One encoder for every canonical text: `json.dumps` with these options builds a new encoder a
# call (about 3 of 21-25 µs for a row of ten values; the verification encodes two texts a row).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
# And its C part made once: `JSONEncoder.encode` makes it again on every call (a third of the
# time of a row's text). The same arguments as `_CANONICAL.iterencode` gives it, so the same
# text; no check for circular references (what is hashed comes from JSON or from `to_json`,
# which checks): None where the interpreter has no C accelerator.
_CANONICAL_C = (
    c_make_encoder(None, _CANONICAL.default, encode_basestring_ascii, None, ":", ",", True, False, True)
    if c_make_encoder is not None
    else None
)


def canonical_json(value) -> str:
    if _CANONICAL_C is None:
        return _CANONICAL.encode(value)
    return "".join(_CANONICAL_C(value, 0))


def field_values(instance: Model) -> dict:
    """The concrete field values of a row, foreign keys as ids, as they are in Python: for an
    `after` that `record_event` makes JSON-safe itself (once, not twice)."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def snapshot(instance: Model) -> dict:
    """The concrete field values of a row, foreign keys as ids."""
    return to_json(field_values(instance))


def chain_name(organization_id: int | None) -> str:
    return SYSTEM_CHAIN if organization_id is None else f"org-{organization_id}"


# The fields an event's hash covers. Legacy events were hashed over the first eleven only.
CONTENT_FIELDS_V1 = (
    "seq", "occurred_at", "actor_id", "actor_label", "organization_id", "site_id",
    "action", "object_type", "object_id", "before", "after",
)  # fmt: skip
CONTENT_FIELDS = (*CONTENT_FIELDS_V1, "chain", "row_table", "row_pk", "row_digest")
# What verification reads of each event: the content plus the link and the hash.
EVENT_FIELDS = (*CONTENT_FIELDS, "prev_hash", "hash")


def canonical_content(values: dict) -> str:
    """The text an event's hash covers, from its field values (an event, or a row of
    `values(*EVENT_FIELDS)`)."""
    names = CONTENT_FIELDS_V1 if values["chain"] == LEGACY_CHAIN else CONTENT_FIELDS
    content = {name: values[name] for name in names}
    content["occurred_at"] = values["occurred_at"].astimezone(UTC).isoformat()
    return canonical_json(content)


# A row event's `row_digest` is SHA-256 of the canonical text of the values it recorded (its
# `after`), and that text is part of its content's text: `content_and_record` writes the
# content once with a mark in the record's place and puts the record's own text there, so
# verification has both from one encoding of each (core.audit_verify). In the content's text
# the key "after" followed by a quoted string can only be the content's own key: inside a
# quoted string every quote is escaped, and every key before it holds a plain value.
_RECORD_MARK = "\x00"
_MARKED_RECORD = '"after":' + canonical_json(_RECORD_MARK)


def content_and_record(content: dict) -> tuple[str, str]:
    """The canonical text of an event's content (`content`: the hashed fields by name, as
    `canonical_content` takes them, with `occurred_at` already its UTC ISO text; its `after` is
    replaced by a mark) and the canonical text of its `after` within it: `canonical_content` and
    `canonical_json(after)`, the same bytes."""
    record = canonical_json(content["after"])
    content["after"] = _RECORD_MARK
    start, _, end = canonical_json(content).partition(_MARKED_RECORD)
    return f'{start}"after":{record}{end}', record


def event_values(event: AuditEvent) -> dict:
    return {name: getattr(event, name) for name in EVENT_FIELDS}


def chain_hash(prev_hash: str, values: dict) -> str:
    return hashlib.sha256((prev_hash + canonical_content(values)).encode()).hexdigest()


def _lock_key(organization_id: int | None) -> int:
    return 0 if organization_id is None else organization_id % 2_147_483_647 + 1


# The chain's lock and its head in one round trip (PostgreSQL, client-side binding): two
# statements in one simple-protocol message. Each statement of such a message takes its own
# snapshot under READ COMMITTED, so the head is read after the lock is held and sees every
# append committed before it.
_HEAD_SQL = f'SELECT "seq", "hash" FROM "{AuditEvent._meta.db_table}" WHERE "chain" = %s ORDER BY "seq" DESC LIMIT 1'
_LOCK_AND_HEAD_SQL = f"SELECT pg_advisory_xact_lock(%s, %s); {_HEAD_SQL}"


def _one_round_trip(conn) -> bool:
    return conn.vendor == "postgresql" and not conn.settings_dict.get("OPTIONS", {}).get("server_side_binding")


def _lock_and_head(conn, organization_id: int | None, chain: str) -> tuple[int, str]:
    """Take the chain's lock (held to the end of the transaction) and read its head."""
    if _one_round_trip(conn):
        with conn.cursor() as cursor:
            cursor.execute(_LOCK_AND_HEAD_SQL, [_CHAIN_LOCK_NAMESPACE, _lock_key(organization_id), chain])
            cursor.nextset()
            last = cursor.fetchone()
        return tuple(last) if last else (0, legacy_head_hash())
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_CHAIN_LOCK_NAMESPACE, _lock_key(organization_id)])
    return _head(conn, chain)


def legacy_head_hash() -> str:
    """Where every per-organization chain starts: the frozen legacy chain's last hash."""
    last = AuditEvent.objects.filter(chain=LEGACY_CHAIN).order_by("-seq").values_list("hash", flat=True).first()
    return last or GENESIS_HASH


def _head(conn, chain: str) -> tuple[int, str]:
    with conn.cursor() as cursor:  # plain SQL: the ORM's compilation cost more than the read (bench_slips)
        cursor.execute(_HEAD_SQL, [chain])
        last = cursor.fetchone()
    return tuple(last) if last else (0, legacy_head_hash())


def chain_lock_sql(organization_id: int | None) -> tuple[str, list] | None:
    """Statements that take the organization's chain lock and read its head, for a service to
    send after its own last statement in one message (PostgreSQL with client-side binding),
    then hand the head row to `chain_locked`. None when there is nothing to send: another
    database, or the transaction holds the lock already."""
    conn = transaction.get_connection()
    chain = chain_name(organization_id)
    if not _one_round_trip(conn) or _known_head(conn, chain) is not None:
        return None
    return _LOCK_AND_HEAD_SQL, [_CHAIN_LOCK_NAMESPACE, _lock_key(organization_id), chain]


def hold_chain(organization_id: int | None) -> None:
    """The organization's chain lock taken now and held to the end of the transaction, as the
    first append would take it (later appends continue from the head read here), for a service
    that reads, under it, what another transaction's audited write may be changing: that write
    holds the lock from its first event (or row event) to its commit, so the reader waits for it
    and then sees it, or the write waits and then sees the reader's. Nothing more when the
    transaction holds it already; on SQLite the head is only read (the writers queue)."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        raise RuntimeError("hold_chain must run inside the transaction that reads under it")
    chain = chain_name(organization_id)
    if _known_head(conn, chain) is None:
        _remember_head(conn, chain, *_lock_and_head(conn, organization_id, chain))


def chain_locked(organization_id: int | None, head: Sequence | None) -> None:
    """The `chain_lock_sql` statements ran in this transaction and read `head` ((seq, hash),
    or None for an empty chain): later appends continue from it without asking again."""
    conn = transaction.get_connection()
    seq, digest = tuple(head) if head else (0, legacy_head_hash())
    _remember_head(conn, chain_name(organization_id), seq, digest)


@dataclass(frozen=True)
class _KnownHead:
    """The head this connection's transaction last appended to a chain, and the transaction's
    list of on-commit hooks when it did. Django replaces that list (with a new object) when
    the transaction commits or rolls back and when any savepoint rolls back, which covers
    every way the remembered head can stop being true; while the same list is in place, the
    head is still true and the chain's lock is still held (the advisory lock lasts the
    transaction; on SQLite the transaction holds the database's write lock)."""

    seq: int
    hash: str
    hooks: list


def _known_head(conn, chain: str) -> _KnownHead | None:
    known = getattr(conn, "_audit_known_heads", {}).get(chain)
    return known if known is not None and known.hooks is conn.run_on_commit else None


def _remember_head(conn, chain: str, seq: int, digest: str) -> None:
    if not hasattr(conn, "_audit_known_heads"):
        conn._audit_known_heads = {}
    conn._audit_known_heads[chain] = _KnownHead(seq, digest, conn.run_on_commit)


class _Queued:
    """Events of one organization queued by `append_events` inside `appended_at_end`. It is
    also an on-commit callback that does nothing: Django drops it from the transaction's
    callbacks when a savepoint active when it was queued rolls back, so whether it is still
    among them at the end of the block says whether its rows are still there."""

    def __init__(self, organization_id: int | None, events: Sequence[AuditEvent]):
        self.organization_id, self.events = organization_id, list(events)

    def __call__(self):
        pass


def _deferred(conn) -> list[_Queued] | None:
    return getattr(conn, "_audit_deferred", None)


@contextmanager
def appended_at_end():
    """Within the block, events are queued and appended when it ends (still inside the
    transaction, which must already be open and must end after the block): a service that
    writes a row, its lines and its event takes each chain's lock once, as late as it can,
    and writes the events in one INSERT (or COPY). The chain lock is the one lock every
    audited write of an organization waits for, so holding it for the last statements of the
    transaction only is what lets writes of one organization overlap (bench_slips), and
    what keeps a night's compliance run from holding it while it reads (compliance.engine).

    Events are `record_event`'s return values as usual, but get their `seq` and hashes at
    the end of the block. The events queued inside a savepoint that rolled back are not
    appended: their rows rolled back with them (`_Queued`)."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        raise RuntimeError("appended_at_end must run inside the transaction that makes the change")
    if _deferred(conn) is not None:  # already deferring: the outer block appends
        yield
        return
    queue = conn._audit_deferred = []
    try:
        yield
    finally:
        conn._audit_deferred = None
    standing = {id(hook) for _, hook, _ in conn.run_on_commit}
    events: dict[int | None, list[AuditEvent]] = {}
    for queued in queue:
        if id(queued) in standing:
            events.setdefault(queued.organization_id, []).extend(queued.events)
    for organization_id in sorted(events, key=lambda o: (o is not None, o or 0)):  # fixed order: no deadlock
        _append_now(conn, organization_id, events[organization_id])


def append_events(organization_id: int | None, events: Sequence[AuditEvent]) -> None:
    """Give `events` (unsaved, all of one organization) their places at the end of the
    organization's chain and save them. Must run inside the transaction of the change.

    The first append to a chain in a transaction takes the chain's lock and reads its head
    (one round trip on PostgreSQL); later appends in the same transaction continue from the
    head it remembers (see `_known_head`). Inside `appended_at_end` the events are queued
    and appended when the block ends."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        raise RuntimeError("record_event must run inside the transaction that makes the change")
    deferred = _deferred(conn)
    if deferred is not None:
        for event in events:
            event.chain, event.organization_id = chain_name(organization_id), organization_id
        queued = _Queued(organization_id, events)
        transaction.on_commit(queued)
        deferred.append(queued)
        return
    _append_now(conn, organization_id, events)


def _append_now(conn, organization_id: int | None, events: Sequence[AuditEvent]) -> None:
    chain = chain_name(organization_id)
    known = _known_head(conn, chain)
    if known is not None:
        seq, prev_hash = known.seq, known.hash
    else:
        seq, prev_hash = _lock_and_head(conn, organization_id, chain)
    for event in events:
        seq += 1
        event.chain, event.seq, event.prev_hash, event.organization_id = chain, seq, prev_hash, organization_id
        event.hash = prev_hash = chain_hash(event.prev_hash, event_values(event))
    if _one_round_trip(conn):
        _insert_events(conn, events)
    elif conn.vendor == "sqlite" and len(events) < COPY_EVENTS:
        _insert_events_sqlite(conn, events)
    elif len(events) == 1:
        events[0].save()
    else:
        AuditEvent.objects.bulk_create(events)
    _remember_head(conn, chain, seq, prev_hash)


_EVENT_INSERT_FIELDS = [f for f in AuditEvent._meta.concrete_fields if not f.primary_key]
_EVENT_INSERT_SQL = 'INSERT INTO "{table}" ({columns}) VALUES {{rows}} RETURNING "{pk}"'.format(
    table=AuditEvent._meta.db_table,
    columns=", ".join(f'"{f.column}"' for f in _EVENT_INSERT_FIELDS),
    pk=AuditEvent._meta.pk.column,
)
_EVENT_ROW = "(" + ", ".join(["%s"] * len(_EVENT_INSERT_FIELDS)) + ")"
_EVENT_PLAN = insert_plan(tuple(_EVENT_INSERT_FIELDS))


def _insert_events(conn, events: Sequence[AuditEvent]) -> None:
    """PostgreSQL with client-side binding: the rows `bulk_create` would write (each field's
    value as the ORM prepares it) in one plain multi-row INSERT, its values merged into its text
    as psycopg merges them (`core.prepared.bound_sql`, one Transformer kept for the connection):
    the ORM's statement compilation and UNNEST arrays, psycopg parsing one statement of more than
    50 parameters afresh, or a cursor binding each row with a Transformer of its own, cost more
    than the insert itself on every slip (bench_slips). Many events at once (a night's alerts)
    go by COPY (`_copy_events`)."""
    if len(events) >= COPY_EVENTS:
        _copy_events(conn, events)
        return
    params = [value for event in events for value in insert_values(_EVENT_PLAN, event, conn)]
    sql = bound_sql(conn, _EVENT_INSERT_SQL.format(rows=", ".join([_EVENT_ROW] * len(events))), params)
    with conn.cursor() as cursor:
        cursor.execute(sql)
        ids = cursor.fetchall()
    for event, (pk,) in zip(events, ids, strict=True):
        event.pk, event._state.adding, event._state.db = pk, False, conn.alias


def _insert_events_sqlite(conn, events: Sequence[AuditEvent]) -> None:
    """`_insert_events` on SQLite (3.35 or later, for RETURNING): the same multi-row INSERT
    with its parameters bound by the driver, a few events at a time (a slip's three)."""
    params = [value for event in events for value in insert_values(_EVENT_PLAN, event, conn)]
    with conn.cursor() as cursor:
        cursor.execute(_EVENT_INSERT_SQL.format(rows=", ".join([_EVENT_ROW] * len(events))), params)
        ids = cursor.fetchall()
    for event, (pk,) in zip(events, ids, strict=True):
        event.pk, event._state.adding, event._state.db = pk, False, conn.alias


# Events appended at once from which COPY is cheaper than a multi-row INSERT (as for any
# append-only rows, core.appendonly.COPY_ROWS): psycopg adapts a COPY row's values in C,
# where binding an INSERT row's parameters into its text runs in Python (a night's alerts'
# events: 33 us of an event's Python to about 10).
COPY_EVENTS = COPY_ROWS
# A COPY row: each field's value as hashed (`event_values`), the JSON ones adapted as the ORM
# adapts them; the others are already what their fields store (str, int, an aware datetime).
_EVENT_COPY_VALUES = [(f.attname, f if isinstance(f, JSONField) else None) for f in _EVENT_INSERT_FIELDS]
_EVENT_COPY_SQL = 'COPY "{table}" ("{pk}", {columns}) FROM STDIN'.format(
    table=AuditEvent._meta.db_table,
    pk=AuditEvent._meta.pk.column,
    columns=", ".join(f'"{f.column}"' for f in _EVENT_INSERT_FIELDS),
)


def _copy_events(conn, events: Sequence[AuditEvent]) -> None:
    """`_insert_events` by COPY: the ids are taken from the table's identity sequence first
    (one query; COPY returns none), then the rows."""
    with conn.cursor() as cursor:
        ids = take_ids(cursor, AuditEvent, len(events))
        with cursor.cursor.copy(_EVENT_COPY_SQL) as copy:
            for pk, event in zip(ids, events, strict=True):
                copy.write_row(
                    [
                        pk,
                        *(
                            getattr(event, name)
                            if as_json is None
                            else as_json.get_db_prep_save(getattr(event, name), conn)
                            for name, as_json in _EVENT_COPY_VALUES
                        ),
                    ]
                )
    for event, pk in zip(events, ids, strict=True):
        event.pk, event._state.adding, event._state.db = pk, False, conn.alias


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
    """Append one event to its organization's chain. Must run inside the transaction of the change.
    An actor entering a signed paper for someone else (cardroom.access.Signer) is recorded as
    the actor, and the signer in `after["signed_by"]`. A person initialling a step with their PIN
    on a shared terminal (cardroom.access.PinSigner) is the actor, the terminal in `after["station"]`."""
    entered_by = getattr(actor, "entered_by", None)
    if entered_by is not None:
        signer = actor.signer
        after = {**(after or {}), "signed_by": {"employee": signer.pk, "initials": signer.initials}}
        actor = entered_by
    terminal = getattr(actor, "terminal", None)
    if terminal is not None:  # cardroom.access.PinSigner: the person acted, on a shared terminal
        after = {**(after or {}), "station": terminal.get_username()}
        actor = actor.user
    event = new_event(
        actor=actor,
        action=action,
        obj=obj,
        object_type=object_type,
        object_id=object_id,
        site_id=site_id,
        before=before,
        after=after,
    )
    append_events(organization_id, [event])
    return event


def new_event(
    *,
    actor,
    action: str,
    obj: Model | None = None,
    object_type: str = "",
    object_id: str = "",
    site_id: int | None = None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEvent:
    """The unsaved event `record_event` appends (for an actor that is a user or None); for
    appending many events of one organization at once with `append_events`."""
    authenticated = actor is not None and actor.is_authenticated
    return AuditEvent(
        occurred_at=timezone.now(),
        actor=actor if authenticated else None,
        actor_label=actor.get_username() if authenticated else "system",
        site_id=site_id,
        action=action,
        object_type=object_type or (obj._meta.label_lower if obj is not None else ""),
        object_id=object_id or (str(obj.pk) if obj is not None else ""),
        before=to_json(before),
        after=to_json(after),
    )


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
class ChainHead:
    """The last event of a chain: what an anchor records and a report's footer prints."""

    chain: str
    organization_id: int | None
    seq: int
    hash: str
    occurred_at: datetime

    @property
    def label(self) -> str:
        return f"audit chain {self.chain} #{self.seq} {self.hash}"


def chain_heads() -> list[ChainHead]:
    """The head of every chain (legacy included), in chain order."""
    tops = AuditEvent.objects.values("chain").annotate(top=Max("seq")).values_list("chain", "top")
    heads = []
    for chain, top in sorted(tops):
        heads.append(chain_head_at(chain, top))
    return heads


def chain_head_at(chain: str, seq: int) -> ChainHead:
    org_id, digest, at = (
        AuditEvent.objects.filter(chain=chain, seq=seq).values_list("organization_id", "hash", "occurred_at").get()
    )
    return ChainHead(chain, org_id if chain != LEGACY_CHAIN else None, seq, digest, at)


def chain_head(organization_id: int | None) -> ChainHead | None:
    """The head of an organization's chain now, or None before its first event."""
    chain = chain_name(organization_id)
    last = AuditEvent.objects.filter(chain=chain).order_by("-seq").values_list("seq", "hash", "occurred_at").first()
    return ChainHead(chain, organization_id, *last) if last else None
