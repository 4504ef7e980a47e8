"""What a service's own INSERT binds is what the ORM binds (core.insert_values), and the events
a service's INSERT writes on PostgreSQL (core.audit) are stored as the ORM stores them."""

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from core import audit
from core.insert_values import insert_plan, insert_values, plain_types
from core.models import AuditEvent
from core.prepared import bound_sql, prepared_cursor
from floor import services as floor
from floor.models import SlipKind, SlipLine

from .test_audit_tamper import FILL, _floor

SAMPLES = {type(None): None, str: 'it\'s a \\ "quoted" ünïcode text', int: 30_000, bool: True}


def _literal(value) -> str:
    if connection.vendor != "postgresql":
        return repr(value)
    with connection.cursor() as cursor:
        return cursor.cursor.mogrify("%s", [value])


@pytest.mark.django_db
def test_every_value_taken_as_it_is_is_what_its_field_binds():
    """For every field of every model, each type `plain_types` lets through as it is: the
    field's own preparation gives the same value (on PostgreSQL: the same literal)."""
    checked = 0
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            for kind in plain_types(field):
                sample = SAMPLES[kind]
                prepared = field.get_db_prep_save(sample, connection)
                assert prepared == sample and _literal(prepared) == _literal(sample), (model, field.name, kind)
                checked += 1
    assert checked > 500


@pytest.mark.django_db
def test_a_slip_its_lines_and_its_events_bind_what_the_orm_binds(site):
    table, cashier = _floor(site)
    slip = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    rows = [slip, *SlipLine.objects.filter(slip=slip), *AuditEvent.objects.filter(organization_id=site.organization_id)]
    slip.kind = SlipKind.FILL  # a str enum: through the field
    for row in rows:
        fields = tuple(f for f in row._meta.concrete_fields if not f.primary_key)
        expected = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
        got = insert_values(insert_plan(fields), row, connection)
        assert [_literal(v) for v in got] == [_literal(v) for v in expected]


def _events(chain: str) -> list[AuditEvent]:
    at = datetime(2026, 11, 29, 20, 15, 9, 123456, tzinfo=UTC)
    made = [
        AuditEvent(
            chain=chain,
            seq=n + 1,
            occurred_at=at + timedelta(microseconds=n),
            actor_label='it\'s \\ "odd" ünïcode 😀',
            action="slip.prepared",
            object_type="floor.slip",
            object_id=str(n),
            before=None if n % 2 else {"x": [1, None, True, 2**62, "é"], "nested": {"b": 1, "a": "\\'"}},
            after={"n": n, "text": 'ünïcode "quoted" \u2028', "list": [1, None], "big": 2**70},
            row_table="floor_slip" if n else "",
            row_pk=n or None,
            row_digest="d" * 64,
            prev_hash="p" * 64,
            hash="h" * 64,
        )
        for n in range(4)
    ]
    made[1].occurred_at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-6)))  # not UTC, no micro
    return made


def _stored(insert) -> tuple[list, list, list]:
    """The events of `_events` written by `insert`, read back: ids, every other column, and the
    moment and the JSON columns as PostgreSQL writes them as text; then rolled back."""
    names = [f.attname for f in AuditEvent._meta.concrete_fields if f.attname != "id"]
    with transaction.atomic():
        events = _events("test")
        insert(events)
        rows = list(AuditEvent.objects.filter(chain="test").order_by("seq").values_list("id", *names))
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT occurred_at::text, before::text, after::text FROM cardroom_auditevent "
                "WHERE chain = 'test' ORDER BY seq"
            )
            texts = cursor.fetchall()
        transaction.set_rollback(True)
    assert [e.pk for e in events] == [row[0] for row in rows]
    return [row[0] for row in rows], [row[1:] for row in rows], texts


@pytest.mark.django_db
def test_the_events_insert_stores_what_the_orm_stores():
    if not audit._one_round_trip(connection):
        pytest.skip("PostgreSQL with client-side binding only")
    orm_ids, by_orm, orm_texts = _stored(AuditEvent.objects.bulk_create)
    ids, ours, texts = _stored(lambda events: audit._insert_events(connection, events))
    assert ours == by_orm and texts == orm_texts
    assert ids == sorted(ids) and ids[0] > orm_ids[-1]  # drawn in the events' order


def _bound_samples() -> list:
    json_field = AuditEvent._meta.get_field("after")
    return [
        None, 0, 7, -5, 2**31, 2**63, 2**70, True, False, "", 'it\'s a \\ "quoted" ünïcode 100% text 😀',
        Decimal("12.30"), Decimal("-0.01"), date(2026, 11, 29),
        datetime(2026, 11, 29, 20, 15, 9, 123456, tzinfo=UTC),
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-6))),
        json_field.get_db_prep_save({"n": 1, "text": 'ünïcode "quoted" \u2028 \\ 100%', "list": [1, None]}, connection),
    ]  # fmt: skip


@pytest.mark.django_db
def test_a_statement_bound_by_hand_is_what_the_cursor_sends():
    """`core.prepared.bound_sql` (a slip's INSERTs and its events, bench_slips) merges the values
    into the text exactly as psycopg's client-side cursor does (`ClientCursor.mogrify`), from the
    Transformer it keeps for the connection."""
    if not audit._one_round_trip(connection):
        pytest.skip("PostgreSQL with client-side binding only")
    values = _bound_samples()
    sql = "SELECT " + ", ".join(["%s"] * len(values)) + ", '100%%'"
    with connection.cursor() as cursor:
        expected = cursor.cursor.mogrify(sql, values)
        assert bound_sql(connection, sql, values) == expected
        assert bound_sql(connection, sql, values) == expected  # again: the kept Transformer's dumpers cached
        cursor.execute(bound_sql(connection, sql, values))
        by_hand = cursor.fetchone()
        cursor.execute(sql, values)
        assert by_hand == cursor.fetchone()


@pytest.mark.django_db
def test_a_prepared_statement_is_logged_as_django_logs_it():
    """A prepared statement's logged text (DEBUG, `core.prepared`) is what `compose_sql` gives."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    sql, params = "SELECT %(a)s::text, %(b)s::int, %(c)s::jsonb", {"a": "it's 100%", "b": 7, "c": _bound_samples()[-1]}
    with CaptureQueriesContext(connection) as queries, prepared_cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.fetchone()[:2] == ("it's 100%", 7)
    assert [q["sql"] for q in queries.captured_queries][-1] == connection.ops.compose_sql(sql, params)
