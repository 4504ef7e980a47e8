"""Verification writes an event's content with its record's text in place
(`core.audit.content_and_record`) to check both the event's hash and its row digest from one
encoding of each: the same bytes as `canonical_content`, whatever the values hold."""

from datetime import UTC

from core.audit import LEGACY_CHAIN, canonical_content, canonical_json, content_and_record
from tests.core.test_audit_pins import EVENT, EVENT_TEXT, LEGACY_TEXT


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
