"""The audit log: one event per change, hash-chained, refused UPDATE/DELETE by the database."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from cardroom import services
from core.appendonly import ImmutableRecordError, drop_trigger_sql, trigger_sql
from core.audit_verify import verify_chain
from core.models import AuditEvent


@pytest.fixture
def three_events(manager, site):
    for number in (1, 2, 3):
        services.create_table(
            acting_user=manager.user, site=site, number=number, game="21", min_wager_cents=100, max_wager_cents=2500
        )
    return list(AuditEvent.objects.order_by("seq"))


def test_each_change_writes_one_event_with_who_and_before_after(manager, site, three_events):
    table = site.tables.get(number=1)
    services.update_table(acting_user=manager.user, table=table, max_wager_cents=2000)
    event = AuditEvent.objects.order_by("-seq").first()
    assert (event.action, event.actor_id, event.object_id) == ("table.updated", manager.user.pk, str(table.pk))
    assert event.before["max_wager_cents"] == 2500 and event.after["max_wager_cents"] == 2000
    assert event.site_id == site.pk and event.organization_id == site.organization_id


def test_events_chain_each_to_the_previous_hash(three_events):
    assert [e.seq for e in three_events] == [1, 2, 3]
    assert three_events[1].prev_hash == three_events[0].hash
    assert three_events[2].prev_hash == three_events[1].hash
    assert verify_chain().ok


def test_a_refused_change_leaves_no_event(manager, site, three_events):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.create_table(
            acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100, max_wager_cents=2500
        )
    assert AuditEvent.objects.count() == 3


def test_the_database_refuses_to_update_an_event(three_events):
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEvent.objects.filter(seq=2).update(action="nothing.happened")
    assert AuditEvent.objects.get(seq=2).action == "table.created"


def test_the_database_refuses_to_delete_an_event(three_events):
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEvent.objects.filter(seq=2).delete()
    assert AuditEvent.objects.count() == 3


def test_python_refuses_to_save_or_delete_an_existing_event(three_events):
    event = three_events[0]
    with pytest.raises(ImmutableRecordError):
        event.save()
    with pytest.raises(ImmutableRecordError):
        event.delete()


def _tamper(sql: str, params: list) -> None:
    """Alter a row behind the application's back: drop the triggers, write, restore them."""
    table = AuditEvent._meta.db_table
    with connection.cursor() as cursor:
        for statement in drop_trigger_sql(connection.vendor, table):
            cursor.execute(statement)
        cursor.execute(sql, params)
        for statement in trigger_sql(connection.vendor, table):
            cursor.execute(statement, [])  # with parameters, "%%" in the PostgreSQL function is "%"


def test_verify_audit_log_names_an_event_altered_behind_the_applications_back(three_events, capsys):
    call_command("verify_audit_log")
    assert "OK: 3 events verified" in capsys.readouterr().out
    _tamper(f"UPDATE {AuditEvent._meta.db_table} SET action = %s WHERE seq = %s", ["table.forged", 2])
    org_id = three_events[1].organization_id
    call_command("verify_audit_log")  # from the checkpoint at #3: #2 is behind it
    with pytest.raises(
        CommandError,
        match=rf"BROKEN: organization {org_id} \(chain org-{org_id}\), event #2: its content does not match",
    ):
        call_command("verify_audit_log", "--full")


def test_verify_audit_log_names_a_missing_event(three_events):
    _tamper(f"DELETE FROM {AuditEvent._meta.db_table} WHERE seq = %s", [2])
    result = verify_chain()
    assert (result.ok, result.broken_seq) == (False, 2)
    assert "missing" in result.reason


def test_record_event_refuses_to_run_outside_a_transaction(manager, transactional_db):
    from core.audit import record_event

    with pytest.raises(RuntimeError, match="inside the transaction"):
        record_event(actor=manager.user, action="x", object_type="y", object_id="1")
