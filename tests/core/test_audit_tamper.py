"""The record is tamper-evident end to end (issue 12): the chain covers every append-only row,
each organization has its own chain, anchors outside the database catch a cut or rewritten
chain, and the guard that lets the test teardown empty tables cannot be used in production.

Each attack is made as someone with write access to the database would: the table's
triggers dropped (or the guard lifted), the rows written with SQL, the triggers restored."""

import json
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.utils import timezone

from cardroom import services
from cardroom.models import Role
from core.appendonly import GUARD_TABLE, ImmutableRecordError, drop_trigger_sql, trigger_sql
from core.audit import GENESIS_HASH, LEGACY_CHAIN, canonical_content, chain_hash, chain_name, event_values, record_event
from core.audit_anchors import anchor_chains
from core.audit_rows import ROW_CREATED, canonical_row, covered_models, row_digest, row_fields
from core.audit_verify import verify_chain, verify_rows
from core.models import AuditEvent
from floor import services as floor
from floor.calculations import business_date
from floor.models import Slip, SlipLine, SlipStep
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_chips, make_person

TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}]
FILL = [{"denomination": 2500, "quantity": 20}, {"denomination": 500, "quantity": 20}]


def _floor(site, manager_role=Role.SHIFT_MANAGER):
    """An open day at `site`, table 1 opened, and a cashier to prepare fills."""
    org = site.organization
    make_chips(org)
    boss = make_person(org, manager_role, site)
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)
    today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    floor.open_gaming_day(acting_user=boss.user, site=site, gaming_date=today)
    floor.record_table_inventory(acting_user=boss.user, table=table, kind="opener", chips=TRAY)
    return table, make_person(org, Role.CASHIER, site)


@pytest.fixture
def fill(site):
    table, cashier = _floor(site)
    return floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)


def _tamper(table: str, sql: str, params=()) -> None:
    """Write `table` behind the application's back: drop its triggers, write, restore them."""
    with connection.cursor() as cursor:
        for statement in drop_trigger_sql(connection.vendor, table):
            cursor.execute(statement)
        cursor.execute(sql, list(params))
        for statement in trigger_sql(connection.vendor, table):
            cursor.execute(statement, [])  # with parameters, "%%" in the PostgreSQL function is "%"


def _broken(**options):
    result = verify_chain(**options)
    assert not result.ok
    return result.problem


# --- the chain covers the records -------------------------------------------------------


def test_each_append_only_row_is_recorded_by_an_event_in_the_same_transaction(fill):
    lines = list(SlipLine.objects.filter(slip=fill).order_by("pk"))
    for row in [fill, *lines]:
        event = AuditEvent.objects.get(row_table=row._meta.db_table, row_pk=row.pk)
        fields = row_fields(type(row))
        values = canonical_row(fields, [getattr(row, f.attname) for f in fields])
        assert event.action == ROW_CREATED and event.chain == chain_name(fill.site.organization_id)
        assert event.after == values and event.row_digest == row_digest(values)
    assert AuditEvent.objects.get(row_table=Slip._meta.db_table, row_pk=fill.pk).after["total_cents"] == 60000


def test_a_row_event_names_the_table_not_the_app_label(fill):
    event = AuditEvent.objects.get(row_table=Slip._meta.db_table, row_pk=fill.pk)
    assert (event.row_table, event.object_type, event.object_id) == ("accounting_slip", "accounting_slip", str(fill.pk))


def test_a_rolled_back_row_leaves_no_event(site):
    table, cashier = _floor(site)
    before = AuditEvent.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
        raise RuntimeError("power cut")
    assert AuditEvent.objects.count() == before
    assert verify_chain().ok


def test_bulk_create_with_conflict_handling_is_refused(fill):
    line = SlipLine(slip=fill, denomination_id=fill.lines.first().denomination_id, value_cents=100, quantity=1)
    with pytest.raises(ImmutableRecordError, match="conflict handling"):
        SlipLine.objects.bulk_create([line], ignore_conflicts=True)


def test_an_untouched_floor_verifies_and_counts_every_row(fill):
    result = verify_chain()
    rows = sum(model._base_manager.count() for model in covered_models())
    assert result.ok and result.rows_checked == rows > 0
    assert result.checked == AuditEvent.objects.count()


def test_a_scenario_of_records_across_the_apps_verifies(site, people):
    from datetime import date

    from tests.accounting.scenario import Scenario

    scenario, day = Scenario(site, people), date(2026, 8, 14)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, day, "opener", 200_000)
    scenario.slip(table, day, "fill", 20_000, number=1)
    scenario.slip(table, day, "fill", 99_900, number=2, void=True)
    scenario.drop(table, day, 100_000)
    scenario.bank(day, "start", 500_000, 100_000)
    result = verify_chain()
    assert result.ok and result.rows_checked == AuditEvent.objects.exclude(row_table="").count() >= 12


def test_a_slip_total_changed_behind_the_applications_back_is_named(fill):
    table = Slip._meta.db_table
    _tamper(table, f"UPDATE {table} SET total_cents = 90000 WHERE id = %s", [fill.pk])
    problem = _broken()
    assert (problem.table, problem.row_id, problem.fields) == (table, fill.pk, ("total_cents",))
    assert problem.organization_id == fill.site.organization_id
    assert "total_cents was 60000, is 90000" in problem.reason


def test_two_fields_changed_behind_the_applications_back_are_named_in_the_models_order_on_either_database(fill):
    """The slip's total and its preparer's capacity rewritten: named in the model's field order
    (`row_fields`), total_cents before prepared_as, on PostgreSQL (where the event's stored JSON
    reads its keys shortest first) as on SQLite (as written), by the nightly pass and by the check
    of one row alike."""
    table = Slip._meta.db_table
    names = [field.attname for field in row_fields(Slip)]
    assert names.index("total_cents") < names.index("prepared_as")
    sql = f"UPDATE {table} SET prepared_as = 'forged', total_cents = 90000 WHERE id = %s"
    _tamper(table, sql, [fill.pk])
    (of_the_row,) = verify_rows([(Slip, fill.pk)])
    for problem in (_broken(), of_the_row):
        assert problem.fields == ("total_cents", "prepared_as")
        assert problem.reason.startswith("total_cents, prepared_as differ from event #") and problem.reason.endswith(
            f"(total_cents was 60000, is 90000; prepared_as was {fill.prepared_as!r}, is 'forged')"
        )


def test_a_chip_line_changed_behind_the_applications_back_is_named_by_the_command(fill):
    line = fill.lines.order_by("pk").first()
    table = SlipLine._meta.db_table
    _tamper(table, f"UPDATE {table} SET quantity = quantity + 1 WHERE id = %s", [line.pk])
    with pytest.raises(CommandError, match=rf"table {table} id {line.pk}: quantity differs from event #\d+"):
        call_command("verify_audit_log")


def test_a_row_inserted_behind_the_applications_back_has_no_event(fill):
    step_table = SlipStep._meta.db_table
    _tamper(step_table, f"INSERT INTO {step_table} (slip_id, kind, employee_id, initials, at, reason, entered_late) "
                        "VALUES (%s, 'void', %s, 'XX', %s, 'forged', %s)", [fill.pk, fill.prepared_by_id, fill.prepared_at, False])  # fmt: skip
    step = SlipStep.objects.get(slip=fill, kind="void")
    problem = _broken()
    assert (problem.table, problem.row_id, problem.reason) == (step_table, step.pk, "the row has no event recording it")


def test_verification_makes_no_query_per_row(site):
    from django.test.utils import CaptureQueriesContext

    table, cashier = _floor(site)
    counts = []
    for slips in (1, 6):
        while Slip.objects.count() < slips:
            floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
        with CaptureQueriesContext(connection) as queries:
            assert verify_chain().ok
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 2 * len(covered_models()) + 6


def test_verify_audit_log_reports_progress_on_stderr(fill, capsys):
    call_command("verify_audit_log", progress_every=2)
    captured = capsys.readouterr()
    assert "... 2 events verified" in captured.err and "rows checked (accounting_slip)" in captured.err
    assert captured.out.startswith("OK: ")


# --- one chain per organization ----------------------------------------------------------


def test_each_organization_has_its_own_chain_from_one(manager, site):
    other = SiteFactory(organization=OrganizationFactory(name="Other Charity"))
    other_manager = make_person(other.organization, Role.GAMING_MANAGER, None)
    for n in (1, 2):
        services.create_table(acting_user=manager.user, site=site, number=n, game="21", min_wager_cents=100,
                              max_wager_cents=2500)  # fmt: skip
    services.create_table(acting_user=other_manager.user, site=other, number=1, game="21", min_wager_cents=100,
                          max_wager_cents=2500)  # fmt: skip
    mine = list(AuditEvent.objects.filter(chain=chain_name(site.organization_id)))
    theirs = list(AuditEvent.objects.filter(chain=chain_name(other.organization_id)))
    assert [e.seq for e in mine] == [1, 2] and [e.seq for e in theirs] == [1]
    assert mine[0].prev_hash == theirs[0].prev_hash == GENESIS_HASH and mine[1].prev_hash == mine[0].hash
    result = verify_chain()
    assert result.ok and result.chains == 2


def test_an_event_without_organization_is_in_the_system_chain(transactional_db):
    with transaction.atomic():
        event = record_event(actor=None, action="audit_log.verified", object_type="audit_log", object_id="chain")
    assert (event.chain, event.seq, event.organization_id) == ("system", 1, None)


def test_an_event_moved_to_another_organizations_chain_is_named(manager, site):
    services.create_table(acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100,
                          max_wager_cents=2500)  # fmt: skip
    other = OrganizationFactory(name="Other Charity")
    _tamper(AuditEvent._meta.db_table, f"UPDATE {AuditEvent._meta.db_table} SET organization_id = %s", [other.pk])
    assert _broken().reason == "it is in another organization's chain"


def test_the_head_a_transaction_remembers_forgets_what_was_rolled_back(transactional_db, org):
    def event(name):
        return record_event(actor=None, action=name, object_type="test", object_id="1", organization_id=org.pk)

    with transaction.atomic():
        event("a")
        with pytest.raises(RuntimeError), transaction.atomic():
            event("b")  # in a savepoint that is rolled back
            raise RuntimeError("refused")
        event("c")
    with pytest.raises(RuntimeError), transaction.atomic():
        event("d")  # in a transaction that is rolled back
        raise RuntimeError("refused")
    with transaction.atomic():
        event("e")
    assert list(AuditEvent.objects.values_list("action", "seq")) == [("a", 1), ("c", 2), ("e", 3)]
    assert verify_chain().ok


def _legacy_events(count: int) -> list[AuditEvent]:
    """Events as the single global chain wrote them before chains were per organization."""
    events, prev = [], GENESIS_HASH
    for seq in range(1, count + 1):
        event = AuditEvent(chain=LEGACY_CHAIN, seq=seq, occurred_at=timezone.now(), actor_label="gm",
                           action="table.created", object_type="cardroom.table", object_id=str(seq), prev_hash=prev)  # fmt: skip
        event.hash = prev = chain_hash(prev, event_values(event))
        events.append(event)
    return AuditEvent.objects.bulk_create(events)


def test_the_legacy_chain_is_hashed_as_before_and_new_chains_start_from_its_head(manager, site):
    legacy = _legacy_events(3)
    assert "chain" not in json.loads(canonical_content(event_values(legacy[0])))  # hashed as it always was
    services.create_table(acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100,
                          max_wager_cents=2500)  # fmt: skip
    first = AuditEvent.objects.get(chain=chain_name(site.organization_id), seq=1)
    assert first.prev_hash == legacy[-1].hash
    result = verify_chain()
    assert result.ok and result.checked == 4


def test_cutting_the_legacy_chain_breaks_the_chains_that_start_from_it(manager, site):
    _legacy_events(3)
    services.create_table(acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100,
                          max_wager_cents=2500)  # fmt: skip
    _tamper(AuditEvent._meta.db_table, f"DELETE FROM {AuditEvent._meta.db_table} WHERE chain = %s AND seq = 3",
            [LEGACY_CHAIN])  # fmt: skip
    problem = _broken()
    assert (problem.chain, problem.seq, problem.reason) == (
        chain_name(site.organization_id),
        1,
        "its link to the previous event is broken",
    )


# --- anchors outside the database --------------------------------------------------------


def test_audit_anchor_appends_each_chain_head_as_a_json_line(manager, site, settings, capsys):
    services.create_table(acting_user=manager.user, site=site, number=1, game="21", min_wager_cents=100,
                          max_wager_cents=2500)  # fmt: skip
    call_command("audit_anchor")
    call_command("audit_anchor")
    chain = chain_name(site.organization_id)
    path = settings.AUDIT_ANCHOR_DIR / f"{chain}.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    head = AuditEvent.objects.get(chain=chain, seq=1)
    assert len(lines) == 2 and {(a["chain"], a["organization_id"], a["seq"], a["hash"]) for a in lines} == {
        (chain, site.organization_id, 1, head.hash)
    }
    assert f"{chain}: #1 {head.hash}" in capsys.readouterr().out
    result = verify_chain()
    assert result.ok and result.anchors_checked == 2


def _table_events(manager, site, count: int) -> None:
    for n in range(1, count + 1):
        services.create_table(acting_user=manager.user, site=site, number=n, game="21", min_wager_cents=100,
                              max_wager_cents=2500)  # fmt: skip


def test_events_cut_from_the_end_of_a_chain_are_detected_against_an_anchor(manager, site):
    _table_events(manager, site, 3)
    chain = chain_name(site.organization_id)
    table = AuditEvent._meta.db_table
    anchor_chains()
    _tamper(table, f"DELETE FROM {table} WHERE chain = %s AND seq >= 2", [chain])
    problem = _broken()
    assert (problem.chain, problem.seq) == (chain, 3)
    assert "anchored event #3 is missing" in problem.reason and "the chain ends at #1" in problem.reason


def test_without_an_anchor_a_cut_chain_still_links_which_is_why_anchors_exist(manager, site):
    _table_events(manager, site, 3)
    table = AuditEvent._meta.db_table
    _tamper(table, f"DELETE FROM {table} WHERE chain = %s AND seq = 3", [chain_name(site.organization_id)])
    assert verify_chain().ok


def _rewrite_and_rehash(chain: str, seq: int, **changes) -> None:
    """Change event `seq` of `chain` and recompute every hash after it, as a careful forger would."""
    table = AuditEvent._meta.db_table
    with connection.cursor() as cursor:
        for statement in drop_trigger_sql(connection.vendor, table):
            cursor.execute(statement)
    events = list(AuditEvent.objects.filter(chain=chain, seq__gte=seq).order_by("seq"))
    prev_hash = events[0].prev_hash
    for event in events:
        for name, value in (changes if event.seq == seq else {}).items():
            setattr(event, name, value)
        event.prev_hash, event.hash = prev_hash, chain_hash(prev_hash, event_values(event))
        AuditEvent.objects.filter(pk=event.pk).update(prev_hash=event.prev_hash, hash=event.hash, **changes
                                                      if event.seq == seq else {})  # fmt: skip
        prev_hash = event.hash
    with connection.cursor() as cursor:
        for statement in trigger_sql(connection.vendor, table):
            cursor.execute(statement, [])


def test_a_rewritten_and_rehashed_chain_is_detected_against_an_anchor(manager, site):
    _table_events(manager, site, 3)
    chain = chain_name(site.organization_id)
    anchor_chains()
    _rewrite_and_rehash(chain, 2, after={"number": 2, "max_wager_cents": 100})
    problem = _broken()
    assert (problem.chain, problem.seq) == (chain, 3)
    assert "differs from the anchor of" in problem.reason and "rewritten" in problem.reason


def test_without_an_anchor_a_rehashed_chain_still_links(manager, site):
    _table_events(manager, site, 3)
    _rewrite_and_rehash(chain_name(site.organization_id), 2, after={"number": 2, "max_wager_cents": 100})
    assert verify_chain().ok


def test_a_rewritten_row_event_is_caught_by_its_row_even_when_rehashed(fill):
    chain = chain_name(fill.site.organization_id)
    event = AuditEvent.objects.get(row_table=Slip._meta.db_table, row_pk=fill.pk)
    _rewrite_and_rehash(chain, event.seq, after={**event.after, "total_cents": 1})
    problem = _broken()
    assert (problem.table, problem.row_id, problem.fields) == (Slip._meta.db_table, fill.pk, ("total_cents",))


def test_an_anchor_file_with_a_bad_line_fails_verification_naming_it(manager, site, settings):
    _table_events(manager, site, 1)
    anchor_chains()
    path = settings.AUDIT_ANCHOR_DIR / f"{chain_name(site.organization_id)}.jsonl"
    with path.open("a") as file:
        file.write("not json\n")
    assert f"{path}:2 is not an anchor line" in _broken().reason


def test_an_anchor_of_a_chain_with_no_events_left_is_a_missing_event(manager, site):
    _table_events(manager, site, 1)
    anchor_chains()
    table = AuditEvent._meta.db_table
    _tamper(table, f"DELETE FROM {table}")
    problem = _broken()
    assert "anchored event #1 is missing" in problem.reason and "no events" in problem.reason


# --- the guard cannot be lifted in production --------------------------------------------


def _delete_with_guard_lifted(table: str, pk: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {GUARD_TABLE} SET lifted = 1 WHERE id = 1")
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [pk])
        cursor.execute(f"UPDATE {GUARD_TABLE} SET lifted = 0 WHERE id = 1")


def test_a_deletion_the_lifted_guard_allows_is_detected(fill):
    """SQLite has no roles: whoever writes the file can lift the guard. On PostgreSQL only a
    superuser (the test runner) can; either way verification names the row that is gone."""
    step = floor.void_slip(acting_user=fill.prepared_by.user, slip=fill, reason="wrong table")
    _delete_with_guard_lifted(SlipStep._meta.db_table, step.pk)
    problem = _broken()
    assert (problem.table, problem.row_id) == (SlipStep._meta.db_table, step.pk)
    assert problem.reason.startswith("the row is missing (recorded by event #")


def test_the_application_role_cannot_lift_the_guard_nor_delete_a_signed_row(fill):
    """On PostgreSQL the application's role (not a superuser, not the maintenance role, not
    the owner) cannot write the guard; and were it granted that, the trigger ignores a guard
    lifted by anyone but a superuser or maintainer. SQLite has no roles: see the test above."""
    step = floor.void_slip(acting_user=fill.prepared_by.user, slip=fill, reason="wrong table")
    step_table = SlipStep._meta.db_table
    if connection.vendor != "postgresql":
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {step_table} WHERE id = %s", [step.pk])
        assert SlipStep.objects.filter(pk=step.pk).exists()
        return
    role = f"cardroom_app_test_{uuid.uuid4().hex[:12]}"  # roles are cluster-wide; created in the test's transaction
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} NOLOGIN")
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {step_table} TO {role}")
        try:
            cursor.execute(f"SET ROLE {role}")
            with pytest.raises(ProgrammingError, match="permission denied"), transaction.atomic():
                cursor.execute(f"UPDATE {GUARD_TABLE} SET lifted = 1 WHERE id = 1")
            cursor.execute("RESET ROLE")
            cursor.execute(f"GRANT UPDATE ON {GUARD_TABLE} TO {role}")  # even an over-generous grant
            cursor.execute(f"SET ROLE {role}")
            cursor.execute(f"UPDATE {GUARD_TABLE} SET lifted = 1 WHERE id = 1")
            with pytest.raises(IntegrityError, match="append-only: DELETE"), transaction.atomic():
                cursor.execute(f"DELETE FROM {step_table} WHERE id = %s", [step.pk])
        finally:
            cursor.execute("RESET ROLE")
            cursor.execute(f"UPDATE {GUARD_TABLE} SET lifted = 0 WHERE id = 1")
    assert SlipStep.objects.filter(pk=step.pk).exists()
    assert verify_chain().ok
