"""Verify the audit log end to end, in one streaming pass (`manage.py verify_audit_log`).

What is checked, in this order, stopping at the first broken thing and naming it
(organization and chain, table, id, event number, what differs):

1. Each chain links and hashes: the frozen `legacy` chain first, from 64 zeros, then every
   per-organization chain (and `system`) from the legacy chain's last hash. Every event is
   numbered 1, 2, 3 ... with no gap, its `prev_hash` is the previous event's hash and its
   hash is SHA-256(prev_hash + canonical content) (core.audit). An event's chain must be
   its organization's, and a row event must name a table that is append-only here.
2. Each chain against every anchor found outside the database (core.audit_anchors): the
   anchored event must exist (else the chain's end was cut off) and have the anchored hash
   (else the chain was rewritten and rehashed).
3. Each append-only table against its row events (core.audit_rows): every row matches the
   values and digest its `row.created` (or `row.baseline`) event recorded, every such event
   still has its row, and every row has its event.

One organization alone (`verify_chain(organization_id=...)`, `verify_audit_log --organization`):
the legacy chain (where its chain starts), its own chain with its anchors, and its rows of
every table against its row events; other organizations' chains are not read, so each
organization's record verifies, and is reported broken, on its own.

Incremental (the default of the command and the nightly task, never for one organization alone; `--full` re-verifies everything): each chain resumes from its
checkpoint (core.models.AuditCheckpoint), the newest anchored event the last successful
verification matched (else the head it reached). The stored event there must still have the
checkpoint's hash (and the anchor's, checked as any anchor is), and every event after it is
verified as above, from that hash; anchors before it are not read against the database. Each
append-only table resumes after the highest row id matched (a row whose id was taken before
that row's but committed after the verification is left to the full pass). So a change after the checkpoint
is found at once; a change before it only by `--full`, or by the checkpoint's own event if it
touches that event (an event before it rewritten without rehashing the rest leaves the chain
after the checkpoint intact: that is what the nightly full pass, or `--full`, is for).
The nightly task splits this pass over its workers (`plan_nightly`, `verify_slice`,
`join_slices`, below): the same rows and events, each read by one slice, the checkpoints
appended once when every slice succeeded.

Cost grows linearly: events are read once in chain order and rows once per table in id
order, each as a chunked stream (no query per row). From the checkpoints, each chain is its
own index range from its checkpoint (the chains found by one step through the (chain, seq)
index each), so the incremental pass reads what came after the checkpoints, not all history, with the row events of a table read in
the same order by the index on (row_table, row_pk) and merged. Memory holds one chunk, the
anchors and one head per chain. Rows are read after their events' chain was walked, and
rows before their events: a row inserted while verification runs is matched to its event,
and an event newer than the walked head whose row is not yet visible is not reported.
"""

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, timedelta
from hashlib import sha256
from itertools import groupby

from django.db import connection
from django.db.models import Exists, Max, OuterRef, Subquery, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from core.limits import digits

from .audit import (
    CONTENT_FIELDS,
    CONTENT_FIELDS_V1,
    EVENT_FIELDS,
    GENESIS_HASH,
    LEGACY_CHAIN,
    canonical_json,
    chain_hash,
    chain_name,
    content_and_record,
)
from .audit_anchors import Anchor, AnchorFileError, read_anchors, registry_anchors
from .audit_rows import covered_models, iter_canonical_texts, model_organization_path, row_digest, row_fields
from .models import AuditCheckpoint, AuditEvent
from .rows import json_value, shaped_chunks, shaped_columns

Progress = Callable[[str, int], None]


def chain_organization(chain: str) -> int | None:
    """The organization whose chain this is (`core.audit.chain_name`), None for the
    `system` and `legacy` chains: a problem names its organization the same way whether the
    event at hand carried it (`--full`) or only its chain is known (a checkpoint)."""
    prefix = chain_name(0)[: -len("0")]
    number = chain[len(prefix) :] if chain.startswith(prefix) else ""
    return int(number) if digits(number) else None


@dataclass(frozen=True)
class Problem:
    """The first broken thing found."""

    reason: str
    chain: str = ""
    organization_id: int | None = None
    seq: int | None = None
    table: str = ""
    row_id: int | None = None
    fields: tuple[str, ...] = ()
    also: tuple[tuple[str, int, int], ...] = ()  # further rows (table, id, event): one break after several

    def __str__(self) -> str:
        where = []
        if self.chain:
            organization_id = (
                self.organization_id if self.organization_id is not None else chain_organization(self.chain)
            )
            owner = "no organization" if organization_id is None else f"organization {organization_id}"
            where.append(f"{owner} (chain {self.chain})")
        if self.table:
            where.append(f"table {self.table} id {self.row_id}")
        if self.seq is not None:
            where.append(f"event #{self.seq}")
        where += [f"and table {table} id {row_id}, event #{seq}" for table, row_id, seq in self.also]
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


@dataclass(frozen=True)
class Verification:
    ok: bool
    checked: int  # events whose link and hash were verified
    rows_checked: int = 0
    chains: int = 0
    anchors_checked: int = 0
    problem: Problem | None = None
    problems: tuple[Problem, ...] = ()  # a split pass: the first broken thing of each slice that found one

    @property
    def broken_seq(self) -> int | None:
        return self.problem.seq if self.problem else None

    @property
    def reason(self) -> str:
        return self.problem.reason if self.problem else ""


class _Broken(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem


class _Walk:
    """Running state of the verification: counts, heads walked, anchors, progress."""

    def __init__(self, anchors: dict[str, list[Anchor]], progress: Progress | None, every: int, batch_size: int):
        self.anchors = {chain: sorted(items, key=lambda a: a.seq) for chain, items in anchors.items()}
        self.progress, self.every, self.batch_size = progress, every, batch_size
        self.events = self.rows = self.anchors_checked = 0
        self.heads: dict[str, int] = {}
        self.only: str | None = None  # the one chain verified, when one organization is
        self.organization_id: int | None = None
        self.resume: dict[str, tuple[int, str]] = {}  # chain -> (seq, hash) to start from
        self.resume_rows: dict[str, int] = {}  # table -> highest row id already matched
        self.recheck: dict[str, list[tuple[int, int]]] = {}  # table -> id ranges verified before, read again
        self.reached: dict[str, tuple[int, str]] = {}  # chain -> newest anchored (else last) event matched
        self.rows_reached: dict[str, int] = {}
        self.planned_heads: dict[str, int] = {}  # chain -> its last event when a split pass was planned
        self.walked: dict[str, tuple[int, int]] = {}  # chain -> the first and last events hashed by this pass
        self.unsure: set[tuple[str, int]] = set()  # (chain, seq): row events whose record and digest differ
        self.reread: list[dict] | None = None  # verify_rows: the row events read again, kept for the registries
        self.tables = {model._meta.db_table for model in covered_models()}  # the append-only tables


# What a chain is, for the checkpoints: the events sharing this field's value (core.audit
# numbers and links events per `chain`). The walk groups events by it and the checkpoints are
# kept under it; if chains come to be keyed otherwise, this is the one place to change.
CHAIN_FIELD = "chain"


# An event as the walk reads it: a tuple of `EVENT_FIELDS`, its fields at these places.
(_SEQ, _OCCURRED_AT, _ORGANIZATION, _BEFORE, _AFTER, _CHAIN, _ROW_TABLE, _ROW_PK, _ROW_DIGEST, _PREV_HASH, _HASH) = (
    EVENT_FIELDS.index(name)
    for name in ("seq", "occurred_at", "organization_id", "before", "after", CHAIN_FIELD, "row_table", "row_pk",
                 "row_digest", "prev_hash", "hash")
)  # fmt: skip


def checkpoint_chain(event: tuple) -> str:
    """The key a chain's checkpoint is kept under: the chain the event (a tuple of
    `EVENT_FIELDS`) belongs to."""
    return event[_CHAIN]


def verify_chain(
    *,
    full: bool = True,
    progress: Progress | None = None,
    every: int = 50_000,
    batch_size: int = 2000,
    organization_id: int | None = None,
    now=None,
) -> Verification:
    """Verify chains, anchors and rows (see the module docstring), or with `organization_id`
    that organization's only (always in full, and its checkpoints are left as they are: row ids
    interleave across organizations); never raises for a break. `full=False` resumes from the
    checkpoints; a success of the whole record moves them on. `now`: the night the incremental
    pass takes itself to run (which rows it reads again); the present by default."""
    try:
        anchors = read_anchors()
    except AnchorFileError as exc:
        return Verification(False, 0, problem=Problem(str(exc)))
    only = None if organization_id is None else chain_name(organization_id)
    if only is not None:
        anchors = {chain: items for chain, items in anchors.items() if chain in (only, LEGACY_CHAIN)}
    walk = _Walk(anchors, progress, every, batch_size)
    walk.only, walk.organization_id = only, organization_id
    try:
        if not full and only is None:
            _load_checkpoints(walk, now or timezone.now())
        legacy_head = _walk_chain(walk, LEGACY_CHAIN, _events(walk, chain=LEGACY_CHAIN), GENESIS_HASH)
        if only is None:
            _walk_chains(walk, legacy_head)
        else:
            _walk_chain(walk, only, _events(walk, chain=only), legacy_head)
        _check_anchored_chains_exist(walk)
        _check_rows(walk)
    except _Broken as broken:
        return _result(walk, broken.problem)
    if only is None:
        _save_checkpoints(walk)
    return _result(walk, None)


def _load_checkpoints(walk: _Walk, now) -> None:
    """Where each chain and table resumes: its latest checkpoint (the highest id; checkpoints
    are only ever appended). And, per table, where the nightly re-reading starts
    (`recheck_from`): the rows verified by the nights of `RECHECK_DAYS` are read again."""
    latest = AuditCheckpoint.objects.values("scope", "name").annotate(last=Max("pk")).values("last")
    rows = AuditCheckpoint.objects.filter(pk__in=latest).annotate(matched=_matched_row())
    for scope, name, position, digest, matched in rows.values_list("scope", "name", "position", "hash", "matched"):
        if scope == AuditCheckpoint.Scope.CHAIN:
            walk.resume[name] = (position, digest)
            continue
        if not matched:
            raise _Broken(Problem(
                f"its checkpoint at id {position} names no row matched to a row event: it was not written by "
                "a verification (a checkpoint moved forward)", table=name, row_id=position,
            ))  # fmt: skip
        walk.resume_rows[name] = position
    walk.recheck = recheck_ranges(walk.resume_rows, now)


def _matched_row():
    """Does a table checkpoint name a row that has its row event? A verification only ever
    records the id of a row it matched to its event."""
    return Exists(AuditEvent.objects.filter(row_table=OuterRef("name"), row_pk=OuterRef("position")))


# The nightly (incremental) pass reads again every row verified in the last RECHECK_DAYS (the rows
# after the table's position as it stood that many days ago), so a row changed after it was
# verified is found the next night while it is recent; and one slice of the older rows, a
# different slice each night, so every row is read again within ROLLING_NIGHTS nights.
RECHECK_DAYS = 7
ROLLING_NIGHTS = 7


def recheck_ranges(resume_rows: dict[str, int], now) -> dict[str, list[tuple[int, int]]]:
    """Per table, the (after, up to) id ranges verified before that the nightly pass reads
    again: the rows since the table's position `RECHECK_DAYS` ago, and tonight's slice of the
    rows before it. That position is the latest checkpoint written before then, but never past
    the first one written since: a checkpoint appended with an old date and a high position (to
    hide rows behind it) does not move it. One query."""
    cutoff = now - timedelta(days=RECHECK_DAYS)
    before: dict[str, int] = {}
    since: dict[str, int] = {}
    history = AuditCheckpoint.objects.filter(_matched_row(), scope=AuditCheckpoint.Scope.TABLE).order_by("pk")
    for name, position, verified_at in history.values_list("name", "position", "verified_at").iterator():
        if verified_at <= cutoff:
            before[name] = position
        else:
            since.setdefault(name, position)
    night = now.date().toordinal() % ROLLING_NIGHTS
    ranges = {}
    for table, resumed in resume_rows.items():
        recent = min(before.get(table, 0), since.get(table, resumed), resumed)
        lower, upper = recent * night // ROLLING_NIGHTS, recent * (night + 1) // ROLLING_NIGHTS
        ranges[table] = [r for r in ((lower, upper), (recent, resumed)) if r[0] < r[1]]
    return ranges


def _save_checkpoints(walk: _Walk) -> None:
    """Append the positions that moved (a checkpoint is never rewritten)."""
    now, rows = timezone.now(), []
    for chain, (seq, digest) in walk.reached.items():
        if walk.resume.get(chain) != (seq, digest):
            rows.append(AuditCheckpoint(scope="chain", name=chain, position=seq, hash=digest, verified_at=now))
    for table, pk in walk.rows_reached.items():
        if walk.resume_rows.get(table) != pk:
            rows.append(AuditCheckpoint(scope="table", name=table, position=pk, verified_at=now))
    AuditCheckpoint.objects.bulk_create(rows, batch_size=200)


def _result(walk: _Walk, problem: Problem | None) -> Verification:
    return Verification(problem is None, walk.events, walk.rows, len(walk.heads), walk.anchors_checked, problem)


def _events(walk: _Walk, *, chain: str | None = None, exclude: str | None = None) -> Iterator[tuple]:
    """Events in chain order, each a tuple of `EVENT_FIELDS` as the driver reads them (the walk
    converts what it hashes: `_utc_text`): one chain's from its checkpoint (an index range of
    (chain, seq)), or, with no checkpoint, every chain's but `exclude`'s in one stream. By SQL
    compiled once (core.rows.shaped_chunks)."""
    if chain is not None:
        first = walk.resume.get(chain, (1, ""))[0]
        chunks = shaped_chunks(_chain_events_query, chunk_size=walk.batch_size, chain=chain, first=first)
    else:
        chunks = shaped_chunks(_other_events_query, chunk_size=walk.batch_size, exclude=exclude)
    for rows in chunks:
        yield from rows


def _chain_events_query(*, chain: str, first: int):
    events = AuditEvent.objects.filter(chain=chain, seq__gte=first).order_by("chain", "seq")
    return events.values_list(*EVENT_FIELDS)


def _other_events_query(*, exclude: str):
    return AuditEvent.objects.exclude(chain=exclude).order_by("chain", "seq").values_list(*EVENT_FIELDS)


def _walk_chains(walk: _Walk, legacy_head: str) -> None:
    """Every chain but the legacy one, each starting from the legacy chain's last hash. From
    the checkpoints, each chain is read on its own from where it resumes: the database reads
    the events after the checkpoints, not every event (a chain with no checkpoint, such as a new
    organization's, is read from its first event)."""
    if not walk.resume:
        for chain, events in groupby(_events(walk, exclude=LEGACY_CHAIN), key=checkpoint_chain):
            _walk_chain(walk, chain, events, legacy_head)
        return
    for chain in chains():
        if chain != LEGACY_CHAIN:
            _walk_chain(walk, chain, _events(walk, chain=chain), legacy_head)


def chains() -> list[str]:
    """The chains in the log, in order: one step through the (chain, seq) index per chain (a
    loose index scan), whatever the number of events (`chain_heads`, with each one's last event)."""
    return list(chain_heads())


def _walk_chain(walk: _Walk, chain: str, events: Iterator[tuple], start_hash: str) -> str:
    """Check one chain's numbering, links, hashes and anchors; returns its last hash."""
    anchors = walk.anchors.get(chain, [])
    next_anchor = 0
    prev_hash, expected = start_hash, 1
    events = iter(events)
    if chain in walk.resume:
        prev_hash, expected = _resume(walk, chain, events)
        while next_anchor < len(anchors) and anchors[next_anchor].seq < expected - 1:
            next_anchor += 1  # anchors before the checkpoint were matched by an earlier verification
        if next_anchor < len(anchors) and anchors[next_anchor].seq == expected - 1:
            anchor = anchors[next_anchor]
            if anchor.hash != prev_hash:
                raise _Broken(Problem(_rewritten(prev_hash, anchor), chain, None, anchor.seq))
            walk.anchors_checked += 1
            next_anchor += 1
    seen, owned = object(), True  # the last event's organization (none yet), and whether the chain is its
    names = CONTENT_FIELDS_V1 if chain == LEGACY_CHAIN else CONTENT_FIELDS
    unsure, tables, every = walk.unsure, walk.tables, walk.every if walk.progress else 0
    zone = connection.timezone
    naive_utc = zone == UTC  # SQLite's moments come naive in the connection's time zone
    next_seq = anchors[next_anchor].seq if next_anchor < len(anchors) else None
    first = expected
    for event in events:
        seq, org_id = event[_SEQ], event[_ORGANIZATION]
        if seq != expected:
            raise _Broken(Problem(f"event #{expected} is missing", chain, org_id, expected))
        if org_id != seen and chain != LEGACY_CHAIN:
            seen, owned = org_id, chain == chain_name(org_id)
        if not owned:
            raise _Broken(Problem("it is in another organization's chain", chain, org_id, seq))
        if event[_PREV_HASH] != prev_hash:
            raise _Broken(Problem("its link to the previous event is broken", chain, org_id, seq))
        content = dict(zip(names, event, strict=False))  # the content fields lead EVENT_FIELDS (`_utc_text`)
        at = event[_OCCURRED_AT]
        content["occurred_at"] = f"{at.isoformat()}+00:00" if naive_utc and at.tzinfo is None else _utc_text(at, zone)
        if event[_BEFORE] is not None:
            content["before"] = json_value(event[_BEFORE])
        if event[_AFTER] is not None:
            content["after"] = json_value(event[_AFTER])
        row_table = event[_ROW_TABLE]
        if row_table:
            text, record = content_and_record(content)
            if sha256(record.encode()).hexdigest() != event[_ROW_DIGEST]:
                unsure.add((chain, seq))  # its row is compared field by field (_check_range)
        else:
            text = canonical_json(content)
        if sha256((prev_hash + text).encode()).hexdigest() != event[_HASH] and not _hashed_as_read(chain, seq):
            raise _Broken(Problem("its content does not match its hash", chain, org_id, seq))
        if row_table and row_table not in tables:
            reason = "its row event names a table that is not append-only here"
            raise _Broken(Problem(reason, chain, org_id, seq, table=row_table, row_id=event[_ROW_PK]))
        if next_seq is not None and next_seq <= seq:
            while next_anchor < len(anchors) and anchors[next_anchor].seq <= seq:
                anchor = anchors[next_anchor]
                if anchor.seq == seq and anchor.hash != event[_HASH]:
                    raise _Broken(Problem(_rewritten(event[_HASH], anchor), chain, org_id, seq))
                walk.anchors_checked += 1
                next_anchor += 1
            next_seq = anchors[next_anchor].seq if next_anchor < len(anchors) else None
        prev_hash, expected = event[_HASH], expected + 1
        walk.events += 1
        if every and walk.events % every == 0:
            walk.progress("events verified", walk.events)
    if expected > first:
        walk.walked[chain] = (first, expected - 1)
    last = expected - 1
    anchored = [a for a in anchors[:next_anchor] if a.seq <= last]
    if anchored:
        walk.reached[chain] = (anchored[-1].seq, anchored[-1].hash)
    elif last:
        walk.reached[chain] = (last, prev_hash)
    if next_anchor < len(anchors):
        anchor = anchors[next_anchor]
        raise _Broken(Problem(_cut(anchor, last), chain, anchor.organization_id, anchor.seq))
    if last:
        walk.heads[chain] = last
    return prev_hash


def _rewritten(digest: str, anchor: Anchor) -> str:
    """Why an event whose hash `digest` is not the one `anchor` holds of it is broken."""
    return (
        f"its hash {digest} differs from {anchor.describe()}, {anchor.hash}: "
        "the chain was rewritten after it was anchored"
    )


def _cut(anchor: Anchor, last: int) -> str:
    """Why a chain ending at event `last`, before the event `anchor` holds, is broken."""
    return (
        f"anchored event #{anchor.seq} is missing ({anchor.describe()}); the chain ends at #{last}: "
        "events were removed from its end"
    )


def _utc_text(at, zone) -> str:
    """A moment as the driver read it (naive on SQLite, in the connection's time zone `zone`) as
    its UTC ISO text, as `canonical_content` writes the ORM's aware moment. The walk hashes an
    event's content fields by name from its row as read: the JSON values decoded, the moment
    as this text (`_hashed_as_read` is the ORM's own way, asked before an event is reported)."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=zone)
    return at.astimezone(UTC).isoformat()


def _hashed_as_read(chain: str, seq: int) -> bool:
    """Does the event hash as the ORM reads it? Asked of an event whose content, read the quick
    way, did not match its hash, before it is reported: the quick way never passes what this
    would not."""
    event = AuditEvent.objects.filter(chain=chain, seq=seq).values(*EVENT_FIELDS).first()
    return event is not None and chain_hash(event["prev_hash"], event) == event["hash"]


def _resume(walk: _Walk, chain: str, events: Iterator[tuple]) -> tuple[str, int]:
    """The checkpoint's event must still be there with the hash verified then."""
    seq, digest = walk.resume[chain]
    event = next(events, None)
    if event is None or event[_SEQ] != seq:
        raise _Broken(Problem(f"event #{seq}, where the last verification stopped, is missing", chain, None, seq))
    if event[_HASH] != digest:
        raise _Broken(Problem(
            f"its hash {event[_HASH]} differs from the one verified before, {digest}: the chain was rewritten",
            chain, event[_ORGANIZATION], seq,
        ))  # fmt: skip
    return event[_HASH], seq + 1


def _check_anchored_chains_exist(walk: _Walk) -> None:
    for chain, anchors in sorted(walk.anchors.items()):
        if chain not in walk.heads and chain != LEGACY_CHAIN:
            anchor = anchors[0]
            raise _Broken(Problem(
                f"anchored event #{anchor.seq} is missing ({anchor.describe()}); the chain has no events",
                chain, anchor.organization_id, anchor.seq,
            ))  # fmt: skip


def _check_rows(walk: _Walk) -> None:
    """Each append-only table against its row events (a row event naming a table that is not
    append-only was reported as its chain was walked)."""
    for model in covered_models():
        _check_table(walk, model)


# The nightly pass split over workers (core.tasks.verify_audit_log): `plan_nightly` loads the
# checkpoints once (refusing a forged one) and deals the chains and each table's id ranges into
# slices; `verify_slice` verifies one slice (a Celery task each); `join_slices` joins their
# results into one outcome and appends the checkpoints once, only if every slice succeeded.
# Every row and event the single pass reads is read by exactly one slice, with the same checks.
MIN_SPLIT = 500  # ids below which a range goes whole to one slice (each piece costs two queries)
PIECE_COST = 50  # what a piece's two queries cost, in rows read (bench_nightly: about 3 ms, 0.1 ms a row)


def plan_nightly(workers: int, *, now=None) -> dict:
    """What each of `workers` slices verifies (JSON, to travel to the workers): its chains (in
    turn, the legacy chain in the first) and per table its id ranges, each range (after, upto,
    again) of the rows read again or of the new rows, split in equal id spans. `problem`: a
    checkpoint or anchor file refused, nothing to verify."""
    plan = {"problem": None, "slices": [], "resume": {}, "resume_rows": {}, "heads": {}, "legacy_head": GENESIS_HASH}
    try:
        walk = _Walk(read_anchors(), None, 1, 1)
    except AnchorFileError as exc:
        return {**plan, "problem": asdict(Problem(str(exc)))}
    try:
        _load_checkpoints(walk, now or timezone.now())
        ranges = {model._meta.db_table: _planned_ranges(walk, model) for model in covered_models()}
    except _Broken as broken:
        return {**plan, "problem": asdict(broken.problem)}
    heads = chain_heads()
    present = [chain for chain in heads if chain != LEGACY_CHAIN]
    absent = sorted(set(walk.anchors) - set(heads))
    slices = [{"chains": present[k::workers], "absent": absent if k == 0 else [], "tables": {}} for k in range(workers)]
    for table, table_ranges in ranges.items():
        _deal_ranges(slices, table, table_ranges)
    legacy = AuditEvent.objects.filter(chain=LEGACY_CHAIN).order_by("-seq").values_list("hash", flat=True).first()
    return {
        **plan,
        "slices": slices,
        "resume": walk.resume,
        "resume_rows": walk.resume_rows,
        "heads": heads,
        "legacy_head": legacy or GENESIS_HASH,
    }


def _planned_ranges(walk: _Walk, model) -> list[tuple[int, int | None, bool]]:
    """The table's ranges as the single pass reads them: those read again, then the new rows
    (bounded by the highest id now, the last piece left open for rows inserted since)."""
    resumed = walk.resume_rows.get(model._meta.db_table, 0)
    last = model._base_manager.order_by("-pk").values_list("pk", flat=True).first() or resumed
    return [(after, upto, True) for after, upto in _recheck_ranges(walk, model)] + [
        (resumed, max(last, resumed), False)
    ]


def _deal_ranges(slices: list[dict], table: str, ranges: list[tuple[int, int, bool]]) -> None:
    """Each range split in equal id spans, one a slice (a small one whole to the slice with the
    least work so far: its ids and its pieces' queries); the new rows' last piece is open-ended."""
    workers = len(slices)
    for after, upto, again in ranges:
        if upto - after < MIN_SPLIT * workers:
            pieces = [(after, upto)]
            targets = [min(range(workers), key=lambda k: slices[k].get("load", 0))]
        else:
            bounds = [after + (upto - after) * k // workers for k in range(workers + 1)]
            pieces, targets = list(zip(bounds, bounds[1:], strict=False)), list(range(workers))
        for (low, high), k in zip(pieces, targets, strict=True):
            slices[k]["load"] = slices[k].get("load", 0) + high - low + PIECE_COST
            open_end = not again and high == upto
            slices[k]["tables"].setdefault(table, []).append((low, None if open_end else high, again))


def chain_heads() -> dict[str, int]:
    """Each chain's last event number, in chain order: two index steps a chain."""
    table, column = (connection.ops.quote_name(name) for name in (AuditEvent._meta.db_table, CHAIN_FIELD))
    seq = connection.ops.quote_name("seq")
    sql = (
        f"WITH RECURSIVE found(name) AS ("
        f" SELECT MIN({column}) FROM {table}"
        f" UNION ALL"
        f" SELECT (SELECT MIN({column}) FROM {table} WHERE {column} > found.name) FROM found"
        f" WHERE found.name IS NOT NULL"
        f") SELECT name, (SELECT MAX({seq}) FROM {table} WHERE {column} = found.name) FROM found"
        f" WHERE name IS NOT NULL"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(cursor.fetchall())


def verify_slice(plan: dict, index: int, *, batch_size: int = 2000) -> dict:
    """One slice of a planned nightly pass: its chains walked from their checkpoints (an event
    with no row is reported up to each chain's last event at planning), then its tables' ranges.
    What it reached, for `join_slices` (JSON)."""
    part = plan["slices"][index]
    mine = {*part["chains"], *part["absent"], *([LEGACY_CHAIN] if index == 0 else [])}
    try:
        anchors = read_anchors()
    except AnchorFileError as exc:
        return {"problem": asdict(Problem(str(exc))), "counts": [0, 0, 0, 0], "reached": {}, "rows_reached": {}}
    walk = _Walk({c: a for c, a in anchors.items() if c in mine}, None, 1, batch_size)
    walk.resume = {chain: tuple(at) for chain, at in plan["resume"].items()}
    walk.resume_rows, walk.planned_heads = plan["resume_rows"], plan["heads"]
    problem = None
    try:
        legacy_head = plan["legacy_head"]
        if index == 0:
            legacy_head = _walk_chain(walk, LEGACY_CHAIN, _events(walk, chain=LEGACY_CHAIN), GENESIS_HASH)
        for chain in part["chains"]:
            _walk_chain(walk, chain, _events(walk, chain=chain), legacy_head)
        _check_anchored_chains_exist(walk)
        for model in covered_models():
            for after, upto, again in part["tables"].get(model._meta.db_table, []):
                _check_range(walk, model, after, upto, again)
    except _Broken as broken:
        problem = asdict(broken.problem)
    return {
        "problem": problem,
        "counts": [walk.events, walk.rows, len(walk.heads), walk.anchors_checked],
        "reached": walk.reached,
        "rows_reached": walk.rows_reached,
    }


def join_slices(plan: dict, results: list[dict]) -> Verification:
    """The slices' results as one verification: broken if any slice (or the plan) found a
    problem, each slice's first one kept; else the positions that moved are appended as
    checkpoints, once, as the single pass appends them."""
    found = [plan["problem"]] if plan["problem"] else [r["problem"] for r in results if r["problem"]]
    problems = tuple(
        Problem(**{**p, "fields": tuple(p["fields"]), "also": tuple(map(tuple, p.get("also", ())))}) for p in found
    )
    events, rows, chains_walked, anchors = (sum(r["counts"][i] for r in results) for i in range(4))
    if not problems:
        walk = _Walk({}, None, 1, 1)
        walk.resume = {chain: tuple(at) for chain, at in plan["resume"].items()}
        walk.resume_rows = plan["resume_rows"]
        for result in results:
            walk.reached.update({chain: tuple(at) for chain, at in result["reached"].items()})
            for table, pk in result["rows_reached"].items():
                walk.rows_reached[table] = max(walk.rows_reached.get(table, 0), pk)
        _save_checkpoints(walk)
    first = problems[0] if problems else None
    return Verification(not problems, events, rows, chains_walked, anchors, first, problems)


# What the row check reads of each row event (its record, `after`, as its JSON text, decoded only
# for a row compared field by field); the nightly pass re-reading rows verified before also reads
# the whole event and its successor's link.
ROW_EVENT_FIELDS = ("row_pk", "row_digest", "recorded", "chain", "organization_id", "seq")
_RECHECKED_FIELDS = (*EVENT_FIELDS, "successor_link")
_ROW_EVENT_INDEXES = [_RECHECKED_FIELDS.index("after" if name == "recorded" else name) for name in ROW_EVENT_FIELDS]


def _row_events(walk: _Walk, table: str, after: int, upto: int | None, again: bool) -> Iterator[tuple]:
    """The table's row events with a row id in (after, upto], by row id: (row_pk, row_digest,
    after as its JSON text, chain, organization_id, seq). The nightly pass re-reading rows
    verified before (`again`) also takes each event's values and its successor's link (after
    decoded, and the event's values last): those events were walked by an earlier pass,
    so each is checked again on its own. By SQL compiled once per shape
    (core.rows.shaped_columns)."""
    shape = {"again": again, "bounded": upto is not None, "alone": walk.only is not None}
    bounds = {"upto": upto} if upto is not None else {}
    if walk.only is not None:
        bounds["chain"] = walk.only
    if not again:  # nothing to convert: the driver's rows as they come
        for rows in shaped_chunks(
            _row_events_query, chunk_size=walk.batch_size, shape=shape, table=table, after=after, **bounds
        ):
            yield from rows
        return
    chunks = shaped_columns(
        _row_events_query, chunk_size=walk.batch_size, shape=shape, table=table, after=after, **bounds
    )
    for columns in chunks:
        events = [dict(zip(_RECHECKED_FIELDS, row, strict=True)) for row in zip(*columns, strict=True)]
        yield from zip(*(columns[index] for index in _ROW_EVENT_INDEXES), events, strict=True)


def _row_events_query(*, again: bool, bounded: bool, alone: bool, table: str, after: int, upto=None, chain=None):
    events = AuditEvent.objects.exclude(row_table="").filter(chain=chain) if alone else AuditEvent.objects
    events = events.filter(row_table=table, row_pk__gt=after)
    if bounded:
        events = events.filter(row_pk__lte=upto)
    events = events.order_by("row_pk")
    if not again:
        return events.annotate(recorded=Cast("after", TextField())).values_list(*ROW_EVENT_FIELDS)
    successor = AuditEvent.objects.filter(chain=OuterRef("chain"), seq=OuterRef("seq") + 1).values("prev_hash")[:1]
    return events.annotate(successor_link=Subquery(successor)).values_list(*_RECHECKED_FIELDS)


def _check_table(walk: _Walk, model) -> None:
    """The table's rows against its row events: every row after its checkpoint (all of them in
    full), and in the nightly pass the ranges verified before that it reads again."""
    for after, upto in _recheck_ranges(walk, model):
        _check_range(walk, model, after, upto)
    _check_range(walk, model, walk.resume_rows.get(model._meta.db_table, 0), None)


def _recheck_ranges(walk: _Walk, model) -> list[tuple[int, int]]:
    """The ranges of the table verified before that the nightly pass reads again; all of them
    when the table's rows and its row events do not number the same (a row inserted or deleted
    behind the application's back, wherever its id, whatever the checkpoints say)."""
    table = model._meta.db_table
    ranges = walk.recheck.get(table, [])
    resumed = walk.resume_rows.get(table, 0)
    if resumed and ranges != [(0, resumed)] and _counts_differ(model):
        ranges = [(0, resumed)]
    return ranges


def _counts_differ(model) -> bool:
    """Two counts, the table's rows and its row events (by the (row_table, row_pk) index)."""
    table = model._meta.db_table
    return model._base_manager.order_by().count() != AuditEvent.objects.filter(row_table=table).order_by().count()


def _check_range(walk: _Walk, model, after: int, upto: int | None, again: bool | None = None) -> None:
    """Merge the table's rows (by id) in (after, upto] with its row events (by row id). `again`:
    rows verified before, read again (a bounded range, unless a slice of the new rows)."""
    again = upto is not None if again is None else again
    table = model._meta.db_table
    only = None if walk.only is None else {model_organization_path(model): walk.organization_id}
    if upto is not None:
        only = {**(only or {}), "pk__lte": upto}
    rows = iter_canonical_texts(model, walk.batch_size, only, after=after)
    names = [field.attname for field in row_fields(model)]
    row = next(rows, None)  # the rows' query runs before the events' (see the module docstring)
    events = _row_events(walk, table, after, upto, again)
    event = next(events, None)
    stage, every = f"rows checked ({table})", walk.every if walk.progress else 0
    walked, unsure, reached = walk.walked, walk.unsure, 0
    while row is not None or event is not None:
        if event is None or (row is not None and row[0] < event[0]):
            _row_without_event(model, row[0])
        elif row is None or event[0] < row[0]:
            pk, _, _, chain, org_id, seq = event[:6]
            if again or seq <= max(walk.heads.get(chain, 0), walk.planned_heads.get(chain, 0)):
                raise _Broken(Problem(f"the row is missing (recorded by event #{seq})", chain, org_id, None, table, pk))
            event = next(events, None)
            continue
        else:
            if again:
                pk, digest, recorded, chain, org_id, seq, values = event
                known = _recheck_event(values, table)
                if walk.reread is not None:
                    walk.reread.append(values)
            else:
                pk, digest, recorded, chain, org_id, seq = event
                span = walked.get(chain)
                known = span is not None and span[0] <= seq <= span[1] and (chain, seq) not in unsure
            # An event whose record hashes to its digest (checked as its chain was walked, or just
            # now) records exactly the row whose canonical text hashes to that digest.
            if not (known and sha256(row[1].encode()).hexdigest() == digest):
                recorded = recorded if again else _decoded(recorded)
                _compare(table, dict(zip(names, row[2], strict=True)), (pk, digest, recorded, chain, org_id, seq))
            reached = row[0]
            event = next(events, None)
        walk.rows += 1
        if every and walk.rows % every == 0:
            walk.progress(stage, walk.rows)
        row = next(rows, None)
    if reached and not again:
        walk.rows_reached[table] = max(walk.rows_reached.get(table, 0), reached)


def verify_rows(rows: list[tuple], *, registries: bool = False) -> list[Problem]:
    """Append-only rows, each a (model, pk), each checked on its own against its row event
    (`row.created`, or `row.baseline` for a row that existed when rows were covered) as the nightly
    pass checks a row it reads again (`_check_range`): the event still hashes and its successor
    links to it, and the row's canonical values are the values it recorded (its digest; else each
    recorded field compared). The problems found, each named as `verify_audit_log` names it (the
    row gone, without its event, or differing from it): one a row at most, and with `registries`
    one a chain at most. Two queries a row by index (the row by id, its event by (row_table,
    row_pk)), whatever the size of the chain; a third only to name a row's organization where it
    has no event.

    An event rewritten and rehashed with its row, and every event after it rehashed too (or with
    none after it yet: a row just filed), still links. With `registries` (a caller about to reach
    the state registries anyway: a filing package sent), the rows' events are then read against
    the state registries' heads, once a chain (`_check_against_registries`): one request to each
    registry and one walk, from the earliest of the events to the farthest head, whatever the
    number of rows; a break is named once. A chain where a row already reads broken is not asked
    about (the rows are refused anyway, and the walk would name the same event again). Without, or
    where no registry holds a head at or after the rows, nothing outside the organization covers
    them yet: not a problem (the next anchor covers them, and the nightly verification reads them
    against that anchor)."""
    problems, events = [], []
    for model, pk in rows:
        walk = _Walk({}, None, 0, 1)
        walk.reread = []
        try:
            _check_range(walk, model, pk - 1, pk, again=True)
        except _Broken as broken:
            problems.append(broken.problem)
        else:
            events += walk.reread
    if registries:
        broken_chains = {problem.chain for problem in problems}
        problems += _check_against_registries([event for event in events if event["chain"] not in broken_chains])
    return problems


def _decoded(text: str | None):
    """A record read as its JSON text, decoded as its JSON field decodes it (`json_value`)."""
    return None if text is None else json_value(text)


def _recheck_event(event: dict, table: str) -> bool:
    """An event walked by an earlier pass, read again with its row: its content still has its
    hash, and the next event of its chain still links to that hash (an event rewritten and
    rehashed breaks its successor's link, unless every later event was rehashed too, which the
    anchors catch: `verify_rows` with `registries`). Whether its record hashes to its row digest."""
    where = dict(chain=event["chain"], organization_id=event["organization_id"], seq=event["seq"],
                 table=table, row_id=event["row_pk"])  # fmt: skip
    names = CONTENT_FIELDS_V1 if event["chain"] == LEGACY_CHAIN else CONTENT_FIELDS
    content = {name: event[name] for name in names}
    content["occurred_at"] = event["occurred_at"].astimezone(UTC).isoformat()
    text, record = content_and_record(content)
    if sha256((event["prev_hash"] + text).encode()).hexdigest() != event["hash"]:
        if chain_hash(event["prev_hash"], event) != event["hash"]:
            raise _Broken(Problem("its content does not match its hash", **where))
    if event["successor_link"] is not None and event["successor_link"] != event["hash"]:
        raise _Broken(Problem("the next event's link to it is broken: it was rewritten", **where))
    return sha256(record.encode()).hexdigest() == event["row_digest"]


def _check_against_registries(events: list[dict]) -> list[Problem]:
    """Rows' events (as `_row_events` reads them again) against the state registries' heads of
    their chains: one problem a chain at most (`_chain_against_registries`)."""
    problems = []
    by_chain = sorted(events, key=lambda event: (event["chain"], event["seq"]))
    for chain, chain_events in groupby(by_chain, key=lambda event: event["chain"]):
        problem = _chain_against_registries(chain, list(chain_events))
        if problem is not None:
            problems.append(problem)
    return problems


def _chain_against_registries(chain: str, filed: list[dict]) -> Problem | None:
    """Rows' events of one chain (in chain order) against the first head each state registry holds
    of it at or after the earliest (`registry_anchors`: one request a registry), by the nightly walk
    (`_walk_chain`) from that event to the farthest such head (the events since, at most, the night
    before it was anchored): every event between still links and hashes, and each head's event has
    the hash the registry holds (else the chain was rewritten after it was anchored: an event with
    its row and every event after it rehashed, or with none after it yet), and is still there (else
    events were removed from its end). A registry holding none at or after it has nothing to
    compare. A head at or after the earliest event covers the later ones where no head lies between
    them: rows written in one transaction, as a filing's are (a head is anchored once committed),
    one request a registry; rows past the farthest head asked (written after it was anchored) are
    asked about again from the first of them. The break named once (`_named_at_rows`)."""
    while filed:
        first = filed[0]
        anchors = registry_anchors(first["organization_id"], chain, first["seq"])
        if not anchors:
            return None
        walk = _Walk({chain: anchors}, None, 0, 2000)
        walk.resume[chain] = (first["seq"], first["hash"])
        last = max(anchor.seq for anchor in anchors)
        events = (row for rows in shaped_chunks(_chain_span_query, chunk_size=2000, chain=chain, first=first["seq"],
                                                last=last) for row in rows)  # fmt: skip
        try:
            _walk_chain(walk, chain, events, "")
        except _Broken as broken:
            return _named_at_rows(broken.problem, filed)
        filed = [event for event in filed if event["seq"] > last]  # past every head asked: asked again from them
    return None


def _named_at_rows(found: Problem, filed: list[dict]) -> Problem:
    """A break the walk from the earliest of rows' events `filed` found, named once: at the row
    whose event it is, else at every row it follows ("event #N after it", or "after them"), unless
    the reason already names its event."""
    at = next((event for event in filed if event["seq"] == found.seq), None)
    if found.seq is None or at is not None:
        rows, after = [at or filed[0]], ""
    else:
        rows = [event for event in filed if event["seq"] < found.seq] or filed[:1]
        named = f"#{found.seq} " in found.reason
        after = "" if named else f"event #{found.seq} after {'it' if len(rows) == 1 else 'them'}: "
    first, *others = rows
    return Problem(
        after + found.reason, first["chain"], first["organization_id"], first["seq"], first["row_table"],
        first["row_pk"], also=tuple((event["row_table"], event["row_pk"], event["seq"]) for event in others),
    )  # fmt: skip


def _chain_span_query(*, chain: str, first: int, last: int):
    events = AuditEvent.objects.filter(chain=chain, seq__gte=first, seq__lte=last).order_by("chain", "seq")
    return events.values_list(*EVENT_FIELDS)


def _row_without_event(model, pk: int) -> None:
    path = model_organization_path(model)
    org_id = model._base_manager.filter(pk=pk).values_list(path, flat=True).first()
    raise _Broken(
        Problem("the row has no event recording it", chain_name(org_id), org_id, None, model._meta.db_table, pk)
    )


def _compare(table: str, canonical: dict, event: tuple) -> None:
    pk, digest, recorded, chain, org_id, seq = event
    # Every field recorded, none gone and each equal (what `_recorded_part` checks one by one) at once.
    current = canonical if recorded == canonical else _recorded_part(table, canonical, event)
    if row_digest(current) != digest:
        raise _Broken(Problem(f"the digest differs from event #{seq}", chain, org_id, None, table, pk))


def _recorded_part(table: str, canonical: dict, event: tuple) -> dict:
    """The row's values of the fields its event recorded: broken where one is gone or differs (the
    differing named in the model's field order)."""
    pk, _, recorded, chain, org_id, seq = event
    recorded = recorded or {}
    gone = sorted(set(recorded) - set(canonical))
    if gone:
        reason = f"field {', '.join(gone)} recorded by event #{seq} no longer exists"
        raise _Broken(Problem(reason, chain, org_id, None, table, pk, tuple(gone)))
    current = {name: canonical[name] for name in recorded} if recorded else canonical
    # In the model's field order (`canonical` is in `row_fields` order), not the stored JSON's: jsonb
    # reads its keys shortest first, SQLite as written, and the same rewrite is named alike on both.
    differing = tuple(name for name in canonical if name in recorded and canonical[name] != recorded[name])
    if differing:
        changes = "; ".join(f"{name} was {recorded[name]!r}, is {current[name]!r}" for name in differing)
        reason = f"{', '.join(differing)} differ{'s' if len(differing) == 1 else ''} from event #{seq} ({changes})"
        raise _Broken(Problem(reason, chain, org_id, None, table, pk, differing))
    return current
