"""Verification writes an event's content with its record's text in place
(`core.audit.content_and_record`) to check both the event's hash and its row digest from one
encoding of each: the same bytes as `canonical_content`, whatever the values hold; and a row's
canonical text a column at a time (`core.audit_rows.canonical_texts`): `canonical_json`'s."""

from datetime import UTC

import pytest

from core.audit import LEGACY_CHAIN, canonical_content, canonical_json, content_and_record
from core.audit_rows import (
    canonical_row,
    canonical_texts,
    covered_models,
    iter_canonical_rows,
    iter_canonical_texts,
    row_fields,
    row_plan,
)
from tests.core.test_audit_pins import EVENT, EVENT_TEXT, FIELDS, LEGACY_TEXT, ROW_TEXT, VALUES
from tests.core.test_audit_tamper import fill  # noqa: F401 (a fixture)


def _texts(values: dict) -> tuple[str, str]:
    names = [name for name in values if name not in ("prev_hash", "hash")]
    content = {name: values[name] for name in names}
    content["occurred_at"] = values["occurred_at"].astimezone(UTC).isoformat()
    if values["chain"] == LEGACY_CHAIN:
        for name in ("chain", "row_table", "row_pk", "row_digest"):
            content.pop(name)
    return content_and_record(content)


def test_the_content_and_record_texts_are_the_pinned_ones():
    text, record = _texts(EVENT)
    assert text == EVENT_TEXT and record == canonical_json(EVENT["after"])
    legacy = {**EVENT, "chain": LEGACY_CHAIN, "row_table": "", "row_pk": None, "row_digest": ""}
    text, record = _texts(legacy)
    assert text == LEGACY_TEXT and record == canonical_json(EVENT["after"])


def test_a_value_that_looks_like_the_mark_does_not_move_the_record():
    mark = '"after":"\\u0000"'
    values = {
        **EVENT,
        "actor_label": f'x{mark}, "after":"\x00"',
        "action": '"after":"\x00"',
        "before": {"after": "\x00", 'x"after': "\x00"},
        "after": {"after": "\x00", "note": mark},
    }
    text, record = _texts(values)
    assert text == canonical_content(values) and record == canonical_json(values["after"])
    values = {**values, "after": None}
    text, record = _texts(values)
    assert text == canonical_content(values) and record == "null"


def test_a_rows_text_written_a_column_at_a_time_is_the_pinned_one():
    plan = row_plan(FIELDS)
    canonical = canonical_row(FIELDS, VALUES, plan)
    assert canonical_texts(plan, [[canonical[name]] for name, *_ in plan]) == [ROW_TEXT]


def test_columns_of_mixed_values_are_written_as_canonical_json_writes_them():
    plan = row_plan(FIELDS)
    rows = [canonical_row(FIELDS, VALUES, plan)]
    rows.append({**rows[0], "total_cents": None, "initials": None, "voided": True, "figures": [1, "é", None]})
    rows.append({**rows[0], "total_cents": 1, "initials": 7, "voided": None, "figures": {"b": 1.5, "a": False}})
    columns = [[row[name] for row in rows] for name, *_ in plan]
    assert canonical_texts(plan, columns) == [canonical_json(row) for row in rows]


@pytest.mark.django_db
@pytest.mark.usefixtures("fill")
def test_rows_read_back_have_texts_written_a_column_at_a_time_as_their_dicts_encode():
    """A text that differed would only send its row to the field-by-field comparison: this finds it."""
    read = 0
    for model in covered_models():
        names = [field.attname for field in row_fields(model)]
        texts = list(iter_canonical_texts(model, 100))
        dicts = list(iter_canonical_rows(model, 100))
        assert [pk for pk, *_ in texts] == [pk for pk, _ in dicts]
        for (_, text, values), (_, canonical) in zip(texts, dicts, strict=True):
            assert text == canonical_json(canonical) and dict(zip(names, values, strict=True)) == canonical
        read += len(texts)
    assert read > 5
