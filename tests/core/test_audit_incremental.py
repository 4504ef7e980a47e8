"""`verify_audit_log` resumes from its checkpoint (the newest anchored event it matched, else
the head it reached); `--full` re-verifies everything."""

import pytest

from cardroom import services
from cardroom.audit import verify_chain
from cardroom.audit_anchors import anchor_chains
from cardroom.models import AuditCheckpoint, AuditEvent

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
