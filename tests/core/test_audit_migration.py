"""An existing database, chained globally, migrates to per-organization chains covering every
row: the old events stay as the frozen legacy chain (same content, same hashes), and each
existing append-only row gets a `row.baseline` event holding its values and digest; every
chain's links and hashes check as verification checks them (core.audit.chain_hash).

On an empty database of its own (tests/scratch_database.py), migrated to what the two
migrations depend on, written to, then migrated through those two only: migrating the test
database back and then forward through the whole project took 77-105 s, nearly all of it
Django rendering the project's model states (cProfile: 60 of 78 s in `StateApps` reloads)."""

from datetime import UTC, date, datetime

import pytest

from core.audit import EVENT_FIELDS, GENESIS_HASH, LEGACY_CHAIN, chain_hash, chain_name
from core.audit_rows import ROW_BASELINE, canonical_row, row_digest, row_fields
from tests.scratch_database import dependencies_of, migrate, scratch_database

UNDER_TEST = [("cardroom", "0003_audit_chain_per_organization"), ("cardroom", "0004_audit_row_baseline")]


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


def _chain(event_model, chain: str, start_hash: str) -> list[dict]:
    """One chain's events, after checking its numbering, links and hashes as verification does."""
    events = list(event_model.objects.filter(chain=chain).order_by("seq").values(*EVENT_FIELDS))
    prev_hash = start_hash
    for expected, event in enumerate(events, start=1):
        assert event["seq"] == expected and event["prev_hash"] == prev_hash, (chain, event["seq"])
        assert chain_hash(prev_hash, event) == event["hash"], (chain, event["seq"])
        prev_hash = event["hash"]
    return events


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_globally_chained_database_migrates_to_chains_per_organization_covering_its_rows():
    with scratch_database():
        before = dependencies_of(UNDER_TEST)
        assert ("cardroom", "0002_table_disclosure_rules") in before and ("cage", "0001_initial") in before
        executor = migrate(before)
        assert executor.loader.applied_migrations.keys().isdisjoint(UNDER_TEST)  # rows written before them
        old = executor.loader.project_state(list(executor.loader.applied_migrations)).apps
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

        executor = migrate(UNDER_TEST[-1:])
        new = executor.loader.project_state(UNDER_TEST[-1:]).apps
        events, tip_policy = new.get_model("cardroom", "AuditEvent"), new.get_model("cage", "TipPolicy")
        assert set(events.objects.values_list("chain", flat=True)) == {LEGACY_CHAIN, chain_name(org.pk)}
        legacy = _chain(events, LEGACY_CHAIN, GENESIS_HASH)
        assert [e["seq"] for e in legacy] == [1, 2] and legacy[-1]["hash"] == prev  # same content, same hashes
        baseline = _chain(events, chain_name(org.pk), prev)  # the organization's chain starts from the legacy head
        assert [(e["action"], e["row_table"], e["row_pk"]) for e in baseline] == [
            (ROW_BASELINE, "cage_tippolicy", p.pk) for p in policies
        ]
        fields = row_fields(tip_policy)
        for event, policy in zip(baseline, policies, strict=True):
            row = tip_policy.objects.filter(pk=policy.pk).values_list(*(f.attname for f in fields)).get()
            canonical = canonical_row(fields, row)
            assert event["after"] == canonical and event["row_digest"] == row_digest(canonical)
            assert event["organization_id"] == org.pk and canonical["pooled"] is policy.pooled
