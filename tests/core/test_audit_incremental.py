"""`verify_audit_log` resumes from its checkpoint (the newest anchored event it matched, else
the head it reached); `--full` re-verifies everything."""

import pytest

from cardroom import services
from core.audit_anchors import anchor_chains
from core.audit_verify import verify_chain
from core.models import AuditCheckpoint, AuditEvent

from .test_audit_log import _tamper


@pytest.fixture(autouse=True)
def _anchors(settings, tmp_path):
    settings.AUDIT_ANCHOR_DIR = tmp_path / "anchors"


def _tables(manager, site, numbers):
    for number in numbers:
        services.create_table(acting_user=manager.user, site=site, number=number, game="21",
                              min_wager_cents=100, max_wager_cents=2500)  # fmt: skip


@pytest.fixture
def verified(manager, site):
    """Four events, verified (checkpoint at #4), then four more."""
    _tables(manager, site, (1, 2))
    assert verify_chain(full=False).ok
    chain = AuditEvent.objects.get(seq=1).chain
    assert (
        AuditCheckpoint.objects.get(scope="chain", name=chain).position
        == AuditEvent.objects.filter(chain=chain).count()
    )
    checked = AuditEvent.objects.count()
    _tables(manager, site, (3, 4))
    return chain, checked


def _forge(seq):
    _tamper(f"UPDATE {AuditEvent._meta.db_table} SET action = %s WHERE seq = %s", ["table.forged", seq])


def test_the_incremental_pass_verifies_only_the_events_after_the_checkpoint(verified):
    chain, checked = verified
    result = verify_chain(full=False)
    assert result.ok and result.checked == AuditEvent.objects.count() - checked
    assert verify_chain(full=True).checked == AuditEvent.objects.count()


def test_a_change_after_the_checkpoint_is_found_incrementally(verified):
    _, checked = verified
    _forge(checked + 2)
    problem = verify_chain(full=False).problem
    assert problem.seq == checked + 2 and "content does not match" in problem.reason


def test_a_change_before_the_checkpoint_is_found_only_by_the_full_pass(verified):
    _forge(2)
    assert verify_chain(full=False).ok
    problem = verify_chain(full=True).problem
    assert problem.seq == 2 and "content does not match" in problem.reason


def test_a_rewritten_checkpoint_event_is_found_incrementally(verified):
    chain, checked = verified
    _tamper(f"UPDATE {AuditEvent._meta.db_table} SET hash = %s WHERE seq = %s", ["f" * 64, checked])
    problem = verify_chain(full=False).problem
    assert problem.seq == checked and "differs from the one verified before" in problem.reason


def test_the_checkpoint_resumes_from_the_newest_anchor_and_checks_it(manager, site):
    _tables(manager, site, (1, 2))
    anchor_chains()
    anchored = AuditEvent.objects.count()
    _tables(manager, site, (3,))
    assert verify_chain(full=False).ok
    chain = AuditEvent.objects.get(seq=1).chain
    assert AuditCheckpoint.objects.get(scope="chain", name=chain).position == anchored
    _tamper(f"UPDATE {AuditEvent._meta.db_table} SET hash = %s WHERE seq = %s", ["e" * 64, anchored])
    assert verify_chain(full=False).problem.seq == anchored


def test_a_new_organizations_chain_is_read_from_its_first_event_incrementally(verified):
    from tests.factories import OrganizationFactory, SiteFactory, make_person

    org = OrganizationFactory()
    newcomer = make_person(org, "gaming_manager")
    _tables(newcomer, SiteFactory(organization=org), (1,))
    chain = f"org-{org.pk}"
    assert not AuditCheckpoint.objects.filter(scope="chain", name=chain).exists()
    _tamper(f"UPDATE {AuditEvent._meta.db_table} SET action = %s WHERE chain = %s AND seq = 1", ["table.forged", chain])
    problem = verify_chain(full=False).problem
    assert (problem.chain, problem.seq) == (chain, 1) and "content does not match" in problem.reason


def test_the_incremental_pass_reads_each_chain_from_its_checkpoint_not_all_history(verified):
    """The events are read as one index range of (chain, seq) per chain, from its checkpoint:
    no query over the audit log without a chain (or a row table) to start from."""
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    chain, checked = verified
    with CaptureQueriesContext(connection) as queries:
        result = verify_chain(full=False)
    assert result.ok and result.checked == AuditEvent.objects.count() - checked
    table = AuditEvent._meta.db_table
    reads = [
        q["sql"]
        for q in queries
        if re.search(rf'FROM "{table}"', q["sql"]) and q["sql"].lstrip().startswith(("SELECT", "DECLARE"))
    ]
    ranges = [sql for sql in reads if f'"{table}"."chain" = ' in sql and f'"{table}"."seq" >= ' in sql]
    by_row = [sql for sql in reads if f'"{table}"."row_table" = ' in sql and f'"{table}"."row_pk" > ' in sql]
    assert any(f"'{chain}'" in sql and f">= {checked}" in sql for sql in ranges), reads
    # Besides: the checkpoints' own reads (does a table checkpoint name a matched row: an index
    # probe of (row_table, row_pk)), and each table's row events counted by that index.
    checkpoints = [sql for sql in reads if 'FROM "cardroom_auditcheckpoint"' in sql]
    counts = [sql for sql in reads if sql.startswith("SELECT COUNT(*)") and f'"{table}"."row_table" = ' in sql]
    assert [sql for sql in reads if sql not in ranges + by_row + checkpoints + counts
            and "WITH RECURSIVE" not in sql] == []  # fmt: skip
    assert not any(
        "NOT (" in sql or "SELECT U0" in sql for sql in ranges
    )  # no scan of other chains, no subquery per row


def test_a_row_event_naming_a_table_no_longer_append_only_is_reported(site, monkeypatch):
    from core import audit_rows, audit_verify

    from .test_audit_tamper import FILL, _floor, floor

    table, cashier = _floor(site)
    slip = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    name = type(slip)._meta.db_table
    kept = [model for model in audit_rows.covered_models() if model._meta.db_table != name]
    monkeypatch.setattr(audit_verify, "covered_models", lambda: kept)
    problem = verify_chain(full=True).problem
    event = AuditEvent.objects.get(row_table=name, row_pk=slip.pk)
    assert (problem.table, problem.row_id, problem.seq, problem.chain) == (name, slip.pk, event.seq, event.chain)
    assert "names a table that is not append-only here" in problem.reason
