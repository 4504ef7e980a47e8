"""Each organization's record stands alone (issue 18): its own chain and lock, verified on its
own, a tamper in it reported for it; a service's events appended at the end of its
transaction in one INSERT (`appended_at_end`)."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from core.appendonly import drop_trigger_sql, trigger_sql
from core.audit import COPY_EVENTS, appended_at_end, chain_name, record_event
from core.audit_anchors import anchor_chains
from core.audit_verify import verify_chain
from core.models import AuditEvent
from floor import services as floor
from floor.models import Slip, SlipLine
from tests.factories import OrganizationFactory, SiteFactory, make_person

from .test_audit_tamper import FILL, _floor


def _tamper(table: str, sql: str, params=()) -> None:
    with connection.cursor() as cursor:
        for statement in drop_trigger_sql(connection.vendor, table):
            cursor.execute(statement)
        cursor.execute(sql, list(params))
        for statement in trigger_sql(connection.vendor, table):
            cursor.execute(statement, [])


@pytest.fixture
def two_floors(site):
    """Two organizations, one site each, each with two fills."""
    other = SiteFactory(organization=OrganizationFactory(name="Other Charity"))
    slips = {}
    for each in (site, other):
        table, cashier = _floor(each)
        slips[each.organization_id] = [
            floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL) for _ in range(2)
        ]
    return slips


def test_two_organizations_slips_are_in_two_chains_each_from_one(two_floors):
    for org_id, slips in two_floors.items():
        chain = AuditEvent.objects.filter(organization_id=org_id).order_by("seq")
        assert set(chain.values_list("chain", flat=True)) == {chain_name(org_id)}
        seqs = list(chain.values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
        recorded = set(chain.filter(row_table=Slip._meta.db_table).values_list("row_pk", flat=True))
        assert recorded == {slip.pk for slip in slips}


def test_each_organization_verifies_on_its_own(two_floors):
    mine, theirs = sorted(two_floors)
    for org_id in (mine, theirs):
        result = verify_chain(organization_id=org_id)
        assert result.ok, result.problem
        assert result.chains == 1  # its chain only (no legacy events here)
        assert result.checked == AuditEvent.objects.filter(chain=chain_name(org_id)).count()
        # every slip, line and count row of that organization, and nobody else's
        own_slips = Slip.objects.filter(site__organization_id=org_id).count()
        assert result.rows_checked >= own_slips + SlipLine.objects.filter(slip__site__organization_id=org_id).count()
    whole = verify_chain()
    assert (
        whole.ok
        and whole.checked == verify_chain(organization_id=mine).checked + verify_chain(organization_id=theirs).checked
    )


def test_a_slip_tampered_in_one_organization_is_reported_for_it_and_the_other_still_verifies(two_floors):
    mine, theirs = sorted(two_floors)
    slip = two_floors[theirs][1]
    _tamper(Slip._meta.db_table, f"UPDATE {Slip._meta.db_table} SET total_cents = 1 WHERE id = %s", [slip.pk])

    whole = verify_chain()
    assert not whole.ok and whole.problem.organization_id == theirs and whole.problem.row_id == slip.pk
    assert "total_cents" in whole.problem.fields
    alone = verify_chain(organization_id=theirs)
    assert not alone.ok and alone.problem == whole.problem
    assert verify_chain(organization_id=mine).ok


def test_an_event_rewritten_in_one_organizations_chain_is_reported_for_it_only(two_floors):
    mine, theirs = sorted(two_floors)
    table = AuditEvent._meta.db_table
    _tamper(table, f"UPDATE {table} SET actor_label = 'someone else' WHERE chain = %s AND seq = 3", [chain_name(mine)])

    problem = verify_chain().problem
    assert (problem.organization_id, problem.chain, problem.seq) == (mine, chain_name(mine), 3)
    assert problem.reason == "its content does not match its hash"
    assert verify_chain(organization_id=mine).problem == problem
    assert verify_chain(organization_id=theirs).ok


def test_a_cut_chain_is_caught_by_its_own_anchor_when_verified_alone(two_floors, settings, tmp_path):
    settings.AUDIT_ANCHOR_DIR = tmp_path
    mine, theirs = sorted(two_floors)
    anchor_chains()
    table = AuditEvent._meta.db_table
    last = AuditEvent.objects.filter(chain=chain_name(theirs)).order_by("-seq").values_list("seq", flat=True)[0]
    _tamper(table, f"DELETE FROM {table} WHERE chain = %s AND seq = %s", [chain_name(theirs), last])

    problem = verify_chain(organization_id=theirs).problem
    assert problem.organization_id == theirs and problem.seq == last and "removed from its end" in problem.reason
    mine_alone = verify_chain(organization_id=mine)
    assert mine_alone.ok and mine_alone.anchors_checked == 1


def test_verify_audit_log_for_one_organization(two_floors, capsys):
    mine, theirs = sorted(two_floors)
    call_command("verify_audit_log", organization=mine)
    assert capsys.readouterr().out.startswith("OK: ")
    slip = two_floors[mine][0]
    _tamper(Slip._meta.db_table, f"UPDATE {Slip._meta.db_table} SET number = 99 WHERE id = %s", [slip.pk])
    with pytest.raises(CommandError, match=rf"BROKEN: organization {mine} \(chain org-{mine}\), table accounting_slip"):
        call_command("verify_audit_log", organization=mine)
    call_command("verify_audit_log", organization=theirs)
    with pytest.raises(CommandError, match="--organization: House control: there is no organization 987654"):
        call_command("verify_audit_log", organization=987654)


# --- appended at the end of the transaction ------------------------------------------------


def _event(org, name):
    return record_event(actor=None, action=name, object_type="test", object_id="1", organization_id=org.pk)


def test_events_queued_in_the_block_are_appended_at_its_end_in_order_in_one_insert(transactional_db, org):
    with transaction.atomic():
        _event(org, "before")
        with CaptureQueriesContext(connection) as queries, appended_at_end():
            queued = [_event(org, f"queued {n}") for n in range(3)]
            assert [e.seq for e in queued] == [None] * 3 and not queries.captured_queries
        assert len(queries.captured_queries) == 1  # one INSERT: the lock was taken by "before"
    chain = list(AuditEvent.objects.filter(chain=chain_name(org.pk)).order_by("seq"))
    assert [e.action for e in chain] == ["before", "queued 0", "queued 1", "queued 2"]
    assert [e.seq for e in queued] == [2, 3, 4]
    assert all(b.prev_hash == a.hash for a, b in zip(chain, chain[1:], strict=False))
    assert verify_chain().ok


def test_an_error_in_the_block_appends_nothing_and_the_chain_goes_on(transactional_db, org):
    with pytest.raises(ValueError), transaction.atomic(), appended_at_end():
        _event(org, "lost")
        raise ValueError("refused")
    with transaction.atomic(), appended_at_end():
        _event(org, "kept")
    assert list(AuditEvent.objects.values_list("action", "seq")) == [("kept", 1)]
    assert verify_chain().ok


def test_the_events_of_a_savepoint_rolled_back_inside_the_block_are_not_appended(transactional_db, org):
    other = OrganizationFactory(name="Other Charity")
    with transaction.atomic(), appended_at_end():
        _event(org, "kept")
        try:
            with transaction.atomic():
                _event(org, "rolled back")
                _event(other, "rolled back too")  # its organization's only event
                with transaction.atomic():
                    _event(org, "inner, rolled back with its savepoint")
                raise ValueError
        except ValueError:
            pass
        with transaction.atomic():
            _event(org, "in a savepoint released")
        _event(org, "kept too")
    chain = AuditEvent.objects.order_by("chain", "seq").values_list("chain", "action", "seq")
    assert list(chain) == [
        (chain_name(org.pk), "kept", 1),
        (chain_name(org.pk), "in a savepoint released", 2),
        (chain_name(org.pk), "kept too", 3),
    ]
    assert verify_chain().ok


def test_many_events_at_once_are_appended_in_order_with_their_ids_and_verify(transactional_db, org):
    """At COPY_EVENTS events or more, PostgreSQL takes them by COPY (ids from the sequence first)."""
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries, appended_at_end():
            queued = [
                record_event(
                    actor=None,
                    action=f"many {n}",
                    object_type="test",
                    object_id=str(n),
                    organization_id=org.pk,
                    after={"n": n, "text": 'ünïcode "quoted"', "list": [1, None]},
                )
                for n in range(COPY_EVENTS + 3)
            ]
    chain = list(AuditEvent.objects.filter(chain=chain_name(org.pk)).order_by("seq"))
    assert [e.pk for e in chain] == [e.pk for e in queued] and None not in [e.pk for e in queued]
    assert [(e.seq, e.action, e.after) for e in chain] == [(e.seq, e.action, e.after) for e in queued]
    assert chain[-1].after == {"n": COPY_EVENTS + 2, "text": 'ünïcode "quoted"', "list": [1, None]}
    if connection.vendor == "postgresql":
        assert any("nextval" in q["sql"] for q in queries.captured_queries)  # the COPY's ids
    assert verify_chain().ok


def test_the_block_runs_only_inside_a_transaction(transactional_db):
    with pytest.raises(RuntimeError, match="inside the transaction"), appended_at_end():
        pass


def test_a_slip_takes_its_chain_lock_once_and_writes_its_events_in_one_insert(site):
    table, cashier = _floor(site)
    floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    with CaptureQueriesContext(connection) as queries:
        slip = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "cardroom_auditevent"')]
    assert len(inserts) == 1
    events = AuditEvent.objects.filter(chain=chain_name(site.organization_id)).order_by("-seq")[:4]
    assert {e.action for e in events} == {"row.created", "fill_slip.prepared"}
    assert {e.object_id for e in events if e.row_table == Slip._meta.db_table} == {str(slip.pk)}
    assert verify_chain().ok


def test_a_refused_slip_leaves_no_event_and_no_number(site):
    table, cashier = _floor(site)
    pit_boss = make_person(site.organization, Role.PIT_BOSS, site)
    before = AuditEvent.objects.count()
    with pytest.raises(Exception):  # noqa: B017, PT011 - a fill needs its cashier named (08-05(3)(c))
        floor.prepare_fill(acting_user=pit_boss.user, table=table, chips=FILL)
    assert AuditEvent.objects.count() == before
    slip = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    assert slip.number == 1
