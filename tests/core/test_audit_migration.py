"""An existing database, chained globally, migrates to per-organization chains covering every
row, and verifies afterwards: the old events stay as the frozen legacy chain (same content,
same hashes), and each existing append-only row gets a `row.baseline` event."""

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from core.audit import GENESIS_HASH, LEGACY_CHAIN, chain_hash, chain_name
from core.audit_rows import ROW_BASELINE
from core.audit_verify import verify_chain
from core.models import AuditEvent

BEFORE = [("cardroom", "0002_table_disclosure_rules")]


def _migrate(targets):
    """Migrate to `targets`; returns the models of every app as they are then."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    # The state of what is applied now: other apps' later migrations may depend on the target's
    # later ones and be unapplied with them.
    applied = MigrationExecutor(connection).loader.applied_migrations
    return executor.loader.project_state(list(applied)).apps


def _legacy_event(old_event_model, seq: int, prev_hash: str, org_id: int):
    """An event as the single global chain hashed it (its content has no chain or row fields)."""
    values = dict(
        seq=seq, occurred_at=datetime(2026, 11, 1, 20, seq, tzinfo=UTC), actor_id=None, actor_label="gm",
        organization_id=org_id, site_id=None, action="tip_policy.set", object_type="cage.tippolicy",
        object_id=str(seq), before=None, after={"pooled": True},
    )  # fmt: skip
    digest = chain_hash(prev_hash, {**values, "chain": LEGACY_CHAIN})
    old_event_model.objects.create(**values, prev_hash=prev_hash, hash=digest)
    return digest


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_globally_chained_database_migrates_and_verifies():
    old = _migrate(BEFORE)
    try:
        org = old.get_model("cardroom", "Organization").objects.create(name="Prairie Charities")
        user = old.get_model("auth", "User").objects.create(username="gm")
        employee = old.get_model("cardroom", "Employee").objects.create(organization=org, user=user, initials="GM")
        policies = [
            old.get_model("cage", "TipPolicy").objects.create(
                organization=org,
                pooled=pooled,
                description="Pooled nightly",
                effective_on=date(2026, 11, n),
                set_at=datetime(2026, 11, n, 20, tzinfo=UTC),
                set_by=employee,
            )  # fmt: skip
            for n, pooled in ((1, True), (2, False))
        ]
        prev = GENESIS_HASH
        for seq in (1, 2):
            prev = _legacy_event(old.get_model("cardroom", "AuditEvent"), seq, prev, org.pk)
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    result = verify_chain()
    assert result.ok, result.problem
    legacy = list(AuditEvent.objects.filter(chain=LEGACY_CHAIN).order_by("seq"))
    assert [e.seq for e in legacy] == [1, 2] and legacy[-1].hash == prev
    baseline = list(AuditEvent.objects.filter(chain=chain_name(org.pk)).order_by("seq"))
    assert [(e.action, e.row_table, e.row_pk) for e in baseline] == [
        (ROW_BASELINE, "cage_tippolicy", p.pk) for p in policies
    ]
    assert baseline[0].prev_hash == prev  # the organization's chain starts from the legacy head
    assert result.rows_checked == 2 and result.checked == 4
