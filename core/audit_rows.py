"""The audit chain covers the records: one `row.created` event per append-only row.

When an append-only row is inserted (`AppendOnlyModel.save()` or `bulk_create()`), the same
transaction appends an event to the chain of the row's organization holding:

- `row_table` and `row_pk`: the row's table and id. The table, not the app label, names the
  row, so moving a model between apps (keeping its table) changes nothing here;
- `after`: the row's canonical values (below), so verification can say which fields differ;
- `row_digest`: SHA-256 of those values as canonical JSON.

Canonical values: every concrete field by attname (foreign keys as ids), each passed through
the field's `to_python` and written as JSON: datetimes as UTC ISO 8601, dates as ISO dates,
decimals with the field's places, binary values as {"sha256": ...}, a text of at most
`LONG_VALUE` characters as it is (even where its escaped JSON is longer: the digests already
recorded were made so), and any other value whose JSON is longer than `LONG_VALUE` characters
as {"sha256": ...} of that JSON (a stored PDF, a report's table), so events stay small. Values read back from the database give the same
canonical form as the instance that was saved. A field added to a table later is not in the
old rows' events and is not checked for them; a field removed is reported by verification.

The organization of a row comes from, in order: the model's declared `audit_organization`
lookup; a non-null `organization` foreign key; a non-null foreign key to a site; a non-null
foreign key to another append-only row (whose organization it shares). `organization_path`
derives it once per model; `tests/core/test_appendonly.py` checks every model has one.

Rows that existed before the chain covered rows get a `row.baseline` event instead (same
fields), appended by migration cardroom 0004 with the values the row had at the upgrade: the
event says when the digest was taken, it does not pretend to be the row's creation.
"""

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime, time
from decimal import Decimal
from functools import cache
from itertools import repeat
from json.encoder import encode_basestring_ascii
from uuid import UUID

from django.apps import apps
from django.db import models
from django.utils import timezone

from .appendonly import AppendOnlyModel
from .audit import append_events, canonical_json, to_json
from .id_lists import rows_among
from .rows import shaped_columns

ROW_CREATED = "row.created"
ROW_BASELINE = "row.baseline"
LONG_VALUE = 256  # characters of JSON above which a value is kept as its SHA-256
BINARY_BATCH = 50  # rows read at a time from a table with a binary column
ORGANIZATION_MODEL = "cardroom.organization"
SITE_MODEL = "cardroom.site"


def _sha256(data: bytes) -> dict:
    return {"sha256": hashlib.sha256(data).hexdigest()}


def _plain_text(field: models.Field, value) -> str:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, Decimal):
        places = getattr(field, "decimal_places", None)
        return str(value.quantize(Decimal(1).scaleb(-places)) if places is not None else value)
    return str(value)  # a UUID


def canonical_value(field: models.Field, value):
    """One field's value as it is recorded and compared (see the module docstring)."""
    if value is None:
        return None
    if isinstance(field, models.BinaryField):
        return _sha256(bytes(value))
    value = field.to_python(value)
    if isinstance(value, datetime | date | time | Decimal | UUID):
        # ASCII that JSON does not escape: its JSON is the text in quotes, so its length is known
        text = _plain_text(field, value)
        return text if len(text) + 2 <= LONG_VALUE else _sha256(f'"{text}"'.encode())
    if isinstance(value, dict | list | tuple):
        value = to_json(value)
    elif isinstance(value, str) and len(value) <= LONG_VALUE:
        return value
    elif isinstance(value, bool | int):
        return value
    text = canonical_json(value)
    return _sha256(text.encode()) if len(text) > LONG_VALUE else value


def row_fields(model) -> list[models.Field]:
    return list(model._meta.concrete_fields)


# The value types each field's `to_python` returns unchanged and `canonical_value` keeps as they
# are (a string no longer than LONG_VALUE): most values of a row, taken as they come without a
# call per field. Anything else (a bool in an integer field, a long text, a date) goes through
# `canonical_value`, so the canonical form is the same either way.
_PLAIN_TYPES = {
    models.IntegerField.to_python: (int,),
    models.BooleanField.to_python: (bool,),
    models.CharField.to_python: (str,),
    models.TextField.to_python: (str,),
    models.Field.to_python: (int, bool, str),  # a JSON field's scalars
}


# And the moments and dates, which `to_python` returns unchanged: their ISO text, as
# `_plain_text` writes it (always shorter than LONG_VALUE).
_TEXT_TYPES = {
    models.DateTimeField.to_python: (datetime, lambda value: value.astimezone(UTC).isoformat()),
    models.DateField.to_python: (date, date.isoformat),
}


def _converting(field: models.Field):
    """The `to_python` that converts the field's values, None for a field read another way."""
    converting = field.target_field if isinstance(field, models.ForeignKey) else field
    if isinstance(converting, models.ForeignKey | models.BinaryField):
        return None
    return type(converting).to_python


def row_plan(fields: Sequence[models.Field]) -> list[tuple]:
    """Per field, what `canonical_row` needs: its name, its plain types, its text type and how
    to write it, and the field."""
    plan = []
    for field in fields:
        converting = _converting(field)
        text_type, text = _TEXT_TYPES.get(converting, (None, None))
        plan.append((field.attname, _PLAIN_TYPES.get(converting, ()), text_type, text, field))
    return plan


def canonical_row(fields: Sequence[models.Field], values: Sequence, plan=None) -> dict:
    """The canonical values of one row (`plan`: `row_plan(fields)`, computed once a table)."""
    return canonical_rows(fields, [[value] for value in values], plan)[0]


def canonical_rows(fields: Sequence[models.Field], columns: Sequence[Sequence], plan=None) -> list[dict]:
    """The canonical values of rows given as their columns (a sequence of values per field, as
    `core.rows.shaped_columns` reads them), computed a column at a time: a loop per column, not
    per value."""
    plan = plan or row_plan(fields)
    converted = [_canonical_column(entry, column) for entry, column in zip(plan, columns, strict=True)]
    names = [name for name, *_ in plan]
    return [dict(zip(names, values, strict=True)) for values in zip(*converted, strict=True)]


def _canonical_column(entry: tuple, column: Sequence) -> list:
    _, plain, text_type, text, field = entry
    return [
        value
        if value is None or (type(value) in plain and (type(value) is not str or len(value) <= LONG_VALUE))
        else text(value)
        if type(value) is text_type
        else canonical_value(field, value)
        for value in column
    ]


def row_digest(canonical: dict) -> str:
    return hashlib.sha256(canonical_json(canonical).encode()).hexdigest()


def organization_path(
    model, *, is_append_only: Callable[[type], bool], declared_of: Callable[[type], str | None]
) -> str | None:
    """The lookup from `model` to its organization's id ("site__organization"), or None."""
    declared = declared_of(model)
    if declared:
        return declared
    foreign_keys = [f for f in model._meta.concrete_fields if f.is_relation and not f.null]
    for field in foreign_keys:
        if field.related_model._meta.label_lower == ORGANIZATION_MODEL:
            return field.name
    for field in foreign_keys:
        if field.related_model._meta.label_lower == SITE_MODEL:
            return f"{field.name}__organization"
    for field in foreign_keys:
        parent = field.related_model
        if parent is not model and is_append_only(parent):
            parent_path = organization_path(parent, is_append_only=is_append_only, declared_of=declared_of)
            if parent_path:
                return f"{field.name}__{parent_path}"
    return None


def _is_covered(model) -> bool:
    return issubclass(model, AppendOnlyModel) and model.audit_rows


@cache
def model_organization_path(model) -> str:
    path = organization_path(model, is_append_only=_is_covered, declared_of=lambda m: m.audit_organization)
    if path is None:
        raise LookupError(
            f"{model._meta.label}: no organization, site or append-only parent to find the organization from; "
            "declare audit_organization"
        )
    return path


def covered_models() -> list[type[models.Model]]:
    """Every concrete append-only model whose rows the chain covers, one per table."""
    found = {}
    for model in apps.get_models():
        if _is_covered(model) and not model._meta.proxy and model._meta.managed:
            found.setdefault(model._meta.db_table, model)
    return [found[table] for table in sorted(found)]


def _organization_from_cache(obj, path: list[str]) -> tuple[bool, int | None]:
    """Walk `path` through related objects already loaded; (False, None) when one is not."""
    for name in path[:-1]:
        known = getattr(obj, "_audit_organization_id", None)
        if known is not None:
            return True, known
        field = obj._meta.get_field(name)
        if not field.is_cached(obj):
            return False, None
        obj = getattr(obj, name)
    return True, getattr(obj, obj._meta.get_field(path[-1]).attname)


def organizations_of(model, objs: Sequence[models.Model]) -> list[int]:
    """The organization id of each saved row: from loaded relations where possible, else one
    query per chunk of the rest (core.id_lists: a bulk insert of any size)."""
    path = model_organization_path(model)
    hops = path.split("__")
    found: dict[int, int] = {}
    missing = []
    for obj in objs:
        known, org_id = _organization_from_cache(obj, hops)
        if known and org_id is not None:
            found[obj.pk] = org_id
        else:
            missing.append(obj.pk)
    if missing:
        found.update(rows_among(model._base_manager.values_list("pk", path), "pk", missing))
    return [found[obj.pk] for obj in objs]


def row_event(
    model, pk: int, canonical: dict, *, action: str = ROW_CREATED, event_model=None, site_id: int | None = None
):
    from .models import AuditEvent

    event_model = event_model or AuditEvent
    table = model._meta.db_table
    given = {
        "occurred_at": timezone.now(),
        "actor_id": None,
        "actor_label": "system",
        "site_id": site_id,
        "action": action,
        "object_type": table,
        "object_id": str(pk),
        "before": None,
        "after": canonical,
        "row_table": table,
        "row_pk": pk,
        "row_digest": row_digest(canonical),
    }
    # Every field by position, the others at their defaults: what the same values given by
    # name make, without the constructor's look-up of each name (three events a slip).
    return event_model(
        *[given[name] if name in given else field.get_default() for name, field in _fields_of(event_model)]
    )


@cache
def _fields_of(model) -> tuple[tuple[str, models.Field], ...]:
    return tuple((field.attname, field) for field in model._meta.concrete_fields)


@cache
def _fields_and_plan(model) -> tuple[list[models.Field], list[tuple]]:
    """A model's fields and their `row_plan`, made once a model (a slip's lines and the slip:
    every slip)."""
    fields = row_fields(model)
    return fields, row_plan(fields)


def record_rows(objs: Sequence[models.Model]) -> None:
    """Append one `row.created` event per saved row (all of one model) to its organization's
    chain, in the caller's transaction."""
    model = type(objs[0])
    if any(obj.pk is None for obj in objs):
        raise ValueError(f"{model._meta.label}: rows without primary keys cannot be recorded")
    fields, plan = _fields_and_plan(model)
    action = model.audit_created_action  # the creation is the event (AppendOnlyModel), at the row's site
    by_org: dict[int, list] = defaultdict(list)
    for obj, org_id in zip(objs, organizations_of(model, objs), strict=True):
        obj._audit_organization_id = org_id
        canonical = canonical_row(fields, [getattr(obj, f.attname) for f in fields], plan)
        site_id = getattr(obj, "site_id", None) if action else None
        by_org[org_id].append(row_event(model, obj.pk, canonical, action=action or ROW_CREATED, site_id=site_id))
    for org_id in sorted(by_org):  # a fixed order, so two transactions never wait on each other's locks
        append_events(org_id, by_org[org_id])


# Frozen for migration cardroom 0004: the models whose generic path fails, by table.
BASELINE_DECLARED = {
    "surveillance_recording": "table__site__organization",
    "surveillance_outage": "table__site__organization",
    "reports_reportfile": "run__organization",
}


def record_baseline(event_model, historical_models, schema_editor, batch_size: int = 2000) -> None:
    """Migration step: a `row.baseline` event for every row of every append-only table that
    exists before rows were covered. Append-only tables are recognised by their triggers,
    so this uses only the historical models of the migration state (the migration gives them:
    its event model and every model of its state)."""
    from .appendonly import installed_trigger_names

    connection = schema_editor.connection
    table_models = {m._meta.db_table: m for m in historical_models if m._meta.managed}
    guarded = {t for t in table_models if t != event_model._meta.db_table and installed_trigger_names(connection, t)}

    def is_append_only(model) -> bool:
        return model._meta.db_table in guarded

    for table in sorted(guarded):
        model = table_models[table]
        path = organization_path(
            model, is_append_only=is_append_only, declared_of=lambda m: BASELINE_DECLARED.get(m._meta.db_table)
        )
        if path is None:
            raise LookupError(f"{table}: no path to its organization for the baseline")
        _baseline_table(model, path, event_model, batch_size)


def _baseline_head(event_model, chain: str) -> tuple[int, str]:
    from .audit import GENESIS_HASH, LEGACY_CHAIN

    for name in (chain, LEGACY_CHAIN):
        last = event_model.objects.filter(chain=name).order_by("-seq").values_list("seq", "hash").first()
        if last:
            return last if name == chain else (0, last[1])
    return 0, GENESIS_HASH


def _baseline_table(model, path: str, event_model, batch_size: int) -> None:
    from .audit import chain_hash, chain_name, event_values

    fields = row_fields(model)
    plan = row_plan(fields)
    rows = model._base_manager.order_by("pk").values_list(path, *[f.attname for f in fields])
    pending: dict[int, list] = defaultdict(list)
    heads: dict[int, tuple[int, str]] = {}

    def flush() -> None:
        events = []
        for org_id, org_events in pending.items():
            seq, prev_hash = heads.get(org_id) or _baseline_head(event_model, chain_name(org_id))
            for event in org_events:
                seq += 1
                event.chain, event.seq, event.prev_hash, event.organization_id = (
                    chain_name(org_id),
                    seq,
                    prev_hash,
                    org_id,
                )
                event.hash = prev_hash = chain_hash(prev_hash, event_values(event))
                events.append(event)
            heads[org_id] = (seq, prev_hash)
        event_model.objects.bulk_create(events)
        pending.clear()

    for count, (org_id, *values) in enumerate(rows.iterator(chunk_size=batch_size), start=1):
        canonical = canonical_row(fields, values, plan)
        pk = canonical[model._meta.pk.attname]
        pending[org_id].append(row_event(model, pk, canonical, action=ROW_BASELINE, event_model=event_model))
        if count % batch_size == 0:
            flush()
    if pending:
        flush()


def iter_canonical_rows(
    model, batch_size: int, only: dict | None = None, *, after: int = 0
) -> Iterable[tuple[int, dict]]:
    """(pk, canonical values) of every row of `model` (or those matching the filter `only`, whose
    values are ids) with a primary key above `after`, in primary key order, streamed: by SQL
    compiled once per table and filter (core.rows.shaped_columns), converted a column at a time."""
    names = [f.attname for f in row_fields(model)]
    for pks, converted in _canonical_chunks(model, batch_size, only, after):
        yield from zip(
            pks, [dict(zip(names, values, strict=True)) for values in zip(*converted, strict=True)], strict=True
        )


def iter_canonical_texts(
    model, batch_size: int, only: dict | None = None, *, after: int = 0
) -> Iterable[tuple[int, str, tuple]]:
    """`iter_canonical_rows`' rows as (pk, their canonical text, their canonical values in the
    order of `row_fields`): the text `row_digest` hashes, written a column at a time
    (`canonical_texts`), without making a dict of each row."""
    plan = row_plan(row_fields(model))
    for pks, converted in _canonical_chunks(model, batch_size, only, after):
        yield from zip(pks, canonical_texts(plan, converted), zip(*converted, strict=True), strict=True)


def _canonical_chunks(model, batch_size: int, only: dict | None, after: int) -> Iterable[tuple[Sequence, list]]:
    fields = row_fields(model)
    pk_index = [f.attname for f in fields].index(model._meta.pk.attname)
    if any(isinstance(field, models.BinaryField) for field in fields):
        batch_size = min(batch_size, BINARY_BATCH)  # a stored PDF per row: keep a chunk small
    plan = row_plan(fields)
    filters = tuple(sorted(only or {}))
    values = {f"value_{n}": only[name] for n, name in enumerate(filters)}
    chunks = shaped_columns(
        _rows_query,
        chunk_size=batch_size,
        shape={"model": model, "filters": filters},
        after=after,
        **values,
    )
    for columns in chunks:
        yield columns[pk_index], [_canonical_column(entry, column) for entry, column in zip(plan, columns, strict=True)]


def canonical_texts(plan: list[tuple], converted: Sequence[Sequence]) -> list[str]:
    """`canonical_json` of each row of canonical values given as their columns (in the order of
    `plan`, `row_plan`'s): the keys in sorted order, each column's values written in one loop
    (a column of texts or of integers by one map), each row joined once. The same text as
    `canonical_json` of the row's dict (`tests/core/test_audit_record_text.py`)."""
    order = sorted(range(len(plan)), key=lambda i: plan[i][0])
    pieces = []
    for n, i in enumerate(order):
        pieces.append(repeat(("{" if n == 0 else ",") + encode_basestring_ascii(plan[i][0]) + ":"))
        pieces.append(_json_column(converted[i]))
    pieces.append(repeat("}"))
    return ["".join(parts) for parts in zip(*pieces, strict=False)]  # the repeats end with the columns


def _json_column(values: Sequence) -> list[str]:
    """Each value's canonical JSON (`canonical_json`'s, as its encoder writes a dict's values)."""
    kinds = set(map(type, values))
    if kinds <= {str}:
        return list(map(encode_basestring_ascii, values))
    if kinds <= {int}:
        return list(map(int.__repr__, values))
    return [_JSON_SCALARS[value] if value is None or type(value) is bool else canonical_json(value) for value in values]


_JSON_SCALARS = {None: "null", True: "true", False: "false"}


def _rows_query(*, model, filters: tuple, after: int, **values):
    """The rows `iter_canonical_rows` reads (`values`: the filters' values, value_0, value_1 ...)."""
    only = {name: values[f"value_{n}"] for n, name in enumerate(filters)}
    rows = model._base_manager.filter(pk__gt=after, **only).order_by("pk")
    return rows.values_list(*[f.attname for f in row_fields(model)])
