"""A database built before the move (audit events, audit checkpoints and idempotent requests in
`cardroom`, issue 34) migrates to `core` without copying or losing a row: the tables stay, with
their append-only triggers, only Django's state and the content types' app label change.

On the test database (a copy of the migrated template), migrated back to before the move and
forward again: 13 migrations each way, 16 s alone. An empty database of its own (as the audit
log's migration test uses, tests/scratch_database.py) is slower here, 36-50 s: the audit chain's
verification reads every append-only table, so it has to be migrated through every app."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from core.audit import GENESIS_HASH, chain_hash, chain_name
from core.audit_verify import verify_chain
from core.models import AuditCheckpoint, AuditEvent, IdempotentRequest
from tests.factories import OrganizationFactory, UserFactory

# The last migrations before the move: cardroom still holds the platform's records, and the
# core app has no migration applied.
BEFORE_THE_MOVE = [("cardroom", "0014_table_double_after_split_default"), ("core", None)]
AT = datetime(2026, 11, 2, 1, 0, tzinfo=UTC)


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # what is applied now
    return executor


def _old_rows(old, *, org, user) -> dict:
    """An event of the organization's chain, a checkpoint and an idempotent answer, written
    through the historical cardroom models."""
    values = dict(
        seq=1, occurred_at=AT, actor_id=user.pk, actor_label=user.username, organization_id=org.pk, site_id=None,
        action="organization.renamed", object_type="cardroom.organization", object_id=str(org.pk),
        before={"name": "Old"}, after={"name": org.name}, chain=chain_name(org.pk), row_table="", row_pk=None,
        row_digest="",
    )  # fmt: skip
    digest = chain_hash(GENESIS_HASH, values)
    event = old.get_model("cardroom", "AuditEvent").objects.create(**values, prev_hash=GENESIS_HASH, hash=digest)
    checkpoint = old.get_model("cardroom", "AuditCheckpoint").objects.create(
        scope="chain", name=chain_name(org.pk), position=event.pk, hash=digest, verified_at=AT
    )
    answer = old.get_model("cardroom", "IdempotentRequest").objects.create(
        user_id=user.pk, key="retry-1", method="POST", path="/api/v1/sites/", fingerprint="f" * 64,
        status_code=201, content_type="application/json", body=b'{"id": 1}', created_at=AT,
        expires_at=AT + timedelta(hours=24),
    )  # fmt: skip
    return {"event": event.pk, "hash": digest, "checkpoint": checkpoint.pk, "answer": answer.pk}


def _old_content_type() -> tuple[int, int]:
    """The content type of cardroom's AuditEvent and its `view` permission, as a database from
    before the move has them (ids the admin history and group permissions refer to)."""
    content_type, _ = ContentType.objects.get_or_create(app_label="cardroom", model="auditevent")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="view_auditevent", defaults={"name": "Can view audit event"}
    )
    return content_type.pk, permission.pk


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_platform_records_written_before_the_move_are_read_through_the_core_models_after_it():
    org = OrganizationFactory(name="Migrated Charities")
    user = UserFactory(username="gm-before")

    executor = _migrate(BEFORE_THE_MOVE)
    old = executor.loader.project_state([node for node in BEFORE_THE_MOVE if node[1]]).apps
    assert old.get_model("cardroom", "AuditEvent")._meta.db_table == "cardroom_auditevent"
    ids = _old_rows(old, org=org, user=user)
    content_type_id, permission_id = _old_content_type()

    executor = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()

    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    event = AuditEvent.objects.get(pk=ids["event"])
    assert (event.chain, event.seq, event.actor_id, event.organization_id, event.hash) == (
        chain_name(org.pk), 1, user.pk, org.pk, ids["hash"]
    )  # fmt: skip
    assert event.after == {"name": "Migrated Charities"}
    assert verify_chain(organization_id=org.pk).ok
    checkpoint = AuditCheckpoint.objects.get(pk=ids["checkpoint"])
    assert (checkpoint.scope, checkpoint.position, checkpoint.hash) == ("chain", event.pk, ids["hash"])
    answer = IdempotentRequest.objects.get(pk=ids["answer"])
    assert (answer.user_id, answer.key, answer.status_code, bytes(answer.body)) == (
        user.pk,
        "retry-1",
        201,
        b'{"id": 1}',
    )

    # The append-only triggers stayed with the table.
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).update(actor_label="someone else")

    moved = ContentType.objects.get_for_model(AuditEvent)
    assert (moved.pk, moved.app_label) == (content_type_id, "core")
    assert Permission.objects.get(pk=permission_id).content_type_id == content_type_id
    assert not ContentType.objects.filter(app_label="cardroom", model="auditevent").exists()
