"""The nightly `verify_audit_log` (from its checkpoints) reads again what it verified before
(issue 36): a slip total, a slip line or a signature row changed after they were verified, an
event rewritten with its row, or a row forged behind a checkpoint moved forward, is found the
next night, not only by the weekly `--full`. Checkpoints are append-only in the database, and a
problem names its organization the same way in both modes."""

from datetime import timedelta

import pytest
from django.core.management.color import no_style
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from core import audit_verify
from core.audit_rows import canonical_row, row_digest, row_fields
from core.audit_verify import (
    RECHECK_DAYS,
    ROLLING_NIGHTS,
    join_slices,
    plan_nightly,
    recheck_ranges,
    verify_chain,
    verify_slice,
)
from core.models import AuditCheckpoint, AuditEvent
from floor import services as floor
from floor.models import Slip, SlipLine, SlipStep

from .test_audit_tamper import FILL, _floor, _tamper


@pytest.fixture(autouse=True)
def _anchors(settings, tmp_path):
    settings.AUDIT_ANCHOR_DIR = tmp_path / "anchors"


@pytest.fixture
def verified(site):
    """A fill verified and received, then verified by the nightly pass (its checkpoints written),
    then another fill: the first slip's rows are behind the checkpoints."""
    table, cashier = _floor(site)
    slip = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    assert verify_chain(full=False).ok
    assert AuditCheckpoint.objects.filter(scope="table", name=Slip._meta.db_table, position__gte=slip.pk).exists()
    floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    return slip


def _nightly_problem():
    result = verify_chain(full=False)
    assert not result.ok, "the nightly pass did not find it"
    return result.problem


def test_a_slip_total_changed_after_it_was_verified_is_found_the_next_night(verified):
    table = Slip._meta.db_table
    _tamper(table, f"UPDATE {table} SET total_cents = 90000 WHERE id = %s", [verified.pk])
    problem = _nightly_problem()
    assert (problem.table, problem.row_id, problem.fields) == (table, verified.pk, ("total_cents",))
    assert "total_cents was 60000, is 90000" in problem.reason


def test_a_slip_line_changed_after_it_was_verified_is_found_the_next_night(verified):
    line = verified.lines.order_by("pk").first()
    table = SlipLine._meta.db_table
    _tamper(table, f"UPDATE {table} SET quantity = quantity + 1 WHERE id = %s", [line.pk])
    problem = _nightly_problem()
    assert (problem.table, problem.row_id, problem.fields) == (table, line.pk, ("quantity",))


def test_a_signature_row_changed_after_it_was_verified_is_found_the_next_night(site):
    table, cashier = _floor(site)
    slip = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    from cardroom.models import Role
    from tests.factories import make_person

    boss = make_person(site.organization, Role.PIT_BOSS, site)
    floor.verify_slip(acting_user=boss.user, slip=slip)
    step = SlipStep.objects.get(slip=slip, kind="verify")
    assert verify_chain(full=False).ok
    steps = SlipStep._meta.db_table
    _tamper(steps, f"UPDATE {steps} SET initials = 'ZZ' WHERE id = %s", [step.pk])
    problem = _nightly_problem()
    assert (problem.table, problem.row_id, problem.fields) == (steps, step.pk, ("initials",))


def test_a_row_rewritten_with_its_event_is_found_by_the_events_hash(verified):
    """The row and what its event recorded changed together (the digest recomputed, the event
    not rehashed): the event's content no longer matches its hash."""
    table = Slip._meta.db_table
    _tamper(table, f"UPDATE {table} SET total_cents = 90000 WHERE id = %s", [verified.pk])
    fields = row_fields(Slip)
    values = Slip.objects.filter(pk=verified.pk).values_list(*[f.attname for f in fields]).get()
    canonical = canonical_row(fields, values)
    event = AuditEvent.objects.get(row_table=table, row_pk=verified.pk)
    events = AuditEvent._meta.db_table
    import json

    _tamper(events, f"UPDATE {events} SET after = %s, row_digest = %s WHERE id = %s",
            [json.dumps(canonical), row_digest(canonical), event.pk])  # fmt: skip
    problem = _nightly_problem()
    assert (problem.seq, problem.table, problem.row_id) == (event.seq, table, verified.pk)
    assert problem.reason == "its content does not match its hash"


def test_a_row_forged_behind_a_checkpoint_moved_forward_is_found_the_next_night(verified):
    """A signature inserted behind the application's back, and a checkpoint appended past it
    (the application's role may insert one, not change or remove one): a verification records
    only ids of rows it matched to their events, so the forged checkpoint is named."""
    steps = SlipStep._meta.db_table
    _forge_step(verified)
    forged = SlipStep.objects.get(slip=verified, kind="void")
    AuditCheckpoint.objects.create(scope="table", name=steps, position=forged.pk, verified_at=timezone.now())
    problem = _nightly_problem()
    assert (problem.table, problem.row_id) == (steps, forged.pk) and "a checkpoint moved forward" in problem.reason


def test_a_row_forged_behind_a_later_genuine_checkpoint_is_found_the_next_night(site):
    """The checkpoint moved to a genuine row after the forged one (dated back, so as not to look
    recent): the rows of the recent nights are read again all the same."""
    table, cashier = _floor(site)
    first = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    assert verify_chain(full=False).ok
    steps = SlipStep._meta.db_table
    _forge_step(first)
    forged = SlipStep.objects.get(slip=first, kind="void")
    from cardroom.models import Role
    from tests.factories import make_person

    later = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    floor.verify_slip(acting_user=make_person(site.organization, Role.PIT_BOSS, site).user, slip=later)
    genuine = SlipStep.objects.get(slip=later, kind="verify")
    assert genuine.pk > forged.pk
    for days in (0, RECHECK_DAYS + 1):
        AuditCheckpoint.objects.create(scope="table", name=steps, position=genuine.pk,
                                       verified_at=timezone.now() - timedelta(days=days))  # fmt: skip
    problem = _nightly_problem()
    assert (problem.table, problem.row_id, problem.reason) == (steps, forged.pk, "the row has no event recording it")


def _forge_step(slip):
    steps = SlipStep._meta.db_table
    _tamper(steps, f"INSERT INTO {steps} (slip_id, kind, employee_id, initials, at, reason, entered_late) "
                   "VALUES (%s, 'void', %s, 'XX', %s, 'forged', %s)",
            [slip.pk, slip.prepared_by_id, slip.prepared_at, False])  # fmt: skip


def test_checkpoints_cannot_be_deleted_or_rewritten(verified):
    table = AuditCheckpoint._meta.db_table
    for sql in (f"DELETE FROM {table}", f"UPDATE {table} SET position = position + 100"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert AuditCheckpoint.objects.exists()


def test_each_pass_appends_the_positions_that_moved_and_resumes_from_the_latest(verified):
    before = AuditCheckpoint.objects.count()
    assert verify_chain(full=False).ok  # the second fill's rows and events moved the positions
    moved = AuditCheckpoint.objects.count() - before
    assert moved > 0
    assert verify_chain(full=False).ok and AuditCheckpoint.objects.count() == before + moved  # nothing moved


def test_the_rows_of_the_recent_nights_and_a_rolling_slice_of_the_older_are_read_again(verified):
    """The ranges read again, from the checkpoints' history: the rows after the position of
    RECHECK_DAYS ago, and one slice a night of those before it, every one within ROLLING_NIGHTS."""
    table = Slip._meta.db_table
    position = AuditCheckpoint.objects.filter(scope="table", name=table).latest("pk").position
    now = timezone.now()
    ranges = recheck_ranges({table: position}, now)[table]
    assert ranges[-1] == (0, position)  # no checkpoint a week old yet: every row is read again
    # A week later, that checkpoint is the old position: the later rows every night, the older in slices.
    later = now + timedelta(days=RECHECK_DAYS + 1)
    resumed = position + 70
    covered = set()
    for night in range(ROLLING_NIGHTS):
        ranges = recheck_ranges({table: resumed}, later + timedelta(hours=24 * night))[table]
        assert ranges[-1] == (position, resumed)
        covered |= {i for lo, hi in ranges[:-1] for i in range(lo + 1, hi + 1)}
    assert covered == set(range(1, position + 1))


def test_a_rewritten_checkpoint_event_names_the_organization_as_the_full_pass_does(verified, site):
    org_id = site.organization_id
    chain = f"org-{org_id}"
    checkpoint = AuditCheckpoint.objects.filter(scope="chain", name=chain).order_by("-pk").first()
    events = AuditEvent._meta.db_table
    _tamper(
        events, f"UPDATE {events} SET hash = %s WHERE chain = %s AND seq = %s", ["f" * 64, chain, checkpoint.position]
    )
    nightly = str(_nightly_problem())
    full = str(verify_chain(full=True).problem)
    assert nightly.startswith(f"organization {org_id} (chain {chain}), event #{checkpoint.position}:")
    assert full.startswith(f"organization {org_id} (chain {chain}), event #")
    assert "no organization" not in nightly


def verify_nightly(workers: int):
    """The split nightly pass as the Celery task runs it, its slices one after another here."""
    plan = plan_nightly(workers)
    return join_slices(plan, [] if plan["problem"] else [verify_slice(plan, k) for k in range(workers)])


@pytest.fixture
def four_fills(site, monkeypatch):
    """Four fills verified by the split nightly pass (its checkpoints written); every range is
    split between the two slices, however few its ids."""
    monkeypatch.setattr(audit_verify, "MIN_SPLIT", 1)
    # The slices split the id span from 0: the slips' ids start at 1 here, as in a new database (on
    # PostgreSQL a rolled-back test leaves its sequence moved on, and all four would be high ids).
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Slip]):
            cursor.execute(sql)
    table, cashier = _floor(site)
    slips = [floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL) for _ in range(4)]
    assert verify_nightly(2).ok
    return slips


def _slice_reading_again(slip) -> list[int]:
    """The slices of tonight's split pass that read this slip's row again."""
    slices = plan_nightly(2)["slices"]
    table = Slip._meta.db_table
    return [k for k, part in enumerate(slices)
            if any(again and after < slip.pk <= upto for after, upto, again in part["tables"].get(table, []))]  # fmt: skip


@pytest.mark.parametrize("which", [0, -1])
def test_the_split_nightly_pass_finds_an_old_row_changed_in_either_slice(four_fills, site, which):
    slip = four_fills[which]
    assert _slice_reading_again(slip) == [0 if which == 0 else 1]
    table = Slip._meta.db_table
    checkpoints = AuditCheckpoint.objects.count()
    _tamper(table, f"UPDATE {table} SET total_cents = 90000 WHERE id = %s", [slip.pk])
    result = verify_nightly(2)
    assert not result.ok and len(result.problems) == 1
    assert (result.problem.table, result.problem.row_id, result.problem.fields) == (table, slip.pk, ("total_cents",))
    assert str(result.problem).startswith(f"organization {site.organization_id} (chain org-{site.organization_id})")
    assert AuditCheckpoint.objects.count() == checkpoints  # a broken pass appends nothing


def test_the_split_pass_appends_the_positions_the_single_pass_would_and_refuses_a_forged_checkpoint(four_fills):
    table = Slip._meta.db_table
    assert AuditCheckpoint.objects.filter(scope="table", name=table).latest("pk").position == four_fills[-1].pk
    before = AuditCheckpoint.objects.count()
    assert verify_nightly(2).ok and AuditCheckpoint.objects.count() == before  # nothing moved
    assert verify_chain(full=False).ok and AuditCheckpoint.objects.count() == before  # the single pass agrees
    steps = SlipStep._meta.db_table
    _forge_step(four_fills[0])
    forged = SlipStep.objects.get(slip=four_fills[0], kind="void")
    AuditCheckpoint.objects.create(scope="table", name=steps, position=forged.pk, verified_at=timezone.now())
    result = verify_nightly(2)
    assert not result.ok and "a checkpoint moved forward" in result.problem.reason
