"""Rows written before the occurred and entered times were kept side by side (issue 36) migrate
with `entered_at` backfilled to the time they were dated, since they were entered live, and
`entered_late` false; the backfill lifts the append-only triggers for its one UPDATE only, so the
tables refuse a change again afterwards. Fees (0002) and tournaments (0002, 0003), the records the
fees and tournament pages show, on a database migrated back to just before them."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from cardroom.models import Role
from fees.models import FeeCollection, FeeCount, GameSession
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_person
from tournaments.models import Tournament, TournamentFee, TournamentPrize

# The migrations that added entered_at beside the occurred time, in the order they apply.
ADDED = [
    ("fees", "0002_entered_at_late_entry"),
    ("tournaments", "0002_entered_at_late_entry"),
    ("tournaments", "0003_tournament_entered_at"),
]
# Migrations that came after them, unapplied first and applied again last, so that only these
# depend on the ones above.
AFTER = [("fees", "0003_session_void"), ("tournaments", "0004_found_late_for_closed_day")]
AT = datetime(2026, 11, 2, 19, 0, tzinfo=UTC)
DAY = date(2026, 11, 2)


def _run(loader, key, backwards: bool) -> None:
    """Apply or unapply one migration from the state just before it, as the executor does, but
    without rendering every app's history (the executor's full plan takes a minute): only the
    state of the migration's own dependencies is built."""
    migration = loader.graph.nodes[key]
    state = loader.project_state(key, at_end=False)
    with connection.schema_editor(atomic=migration.atomic) as editor:
        (migration.unapply if backwards else migration.apply)(state, editor)
    recorder = MigrationRecorder(connection)
    (recorder.record_unapplied if backwards else recorder.record_applied)(*key)


def _old_rows(old, *, site, table, boss, cashier) -> dict:
    """Fees and a tournament in the layout before `entered_at`, through the historical models."""
    fees = old.get_model("fees", "FeeCollection").objects
    common = dict(site_id=site.pk, table_id=table.pk, gaming_date=DAY, basis="per_seat", period_minutes=30,
                  rate_cents=300, count=3)  # fmt: skip
    fee = fees.create(**common, amount_cents=900, collected_at=AT, collected_by_id=cashier.pk)
    fee_void = fees.create(
        **common, amount_cents=-900, collected_at=AT + timedelta(minutes=25), collected_by_id=boss.pk, voids_id=fee.pk,
        reason="rung twice",
    )  # fmt: skip
    count = old.get_model("fees", "FeeCount").objects.create(
        site_id=site.pk, gaming_date=DAY, counted_cents=0, counted_at=AT + timedelta(hours=6),
        counted_by_id=cashier.pk, witness_id=boss.pk,
    )  # fmt: skip
    session = old.get_model("fees", "GameSession").objects.create(
        site_id=site.pk, gaming_date=DAY, licence_number="NY-1", started_at=AT, ended_at=AT + timedelta(hours=2),
        receipts_cents=5000, prizes_cents=1500, recorded_by_id=boss.pk,
    )  # fmt: skip
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        site_id=site.pk, name="Old Friday", gaming_date=DAY, entry_fee_cents=10000, chips_per_entry=500,
        length_of_play="30 hands", minimum_bet_chips=10, prizes_offered="$150", announced_at=AT - timedelta(hours=1),
        announced_by_id=boss.pk,
    )  # fmt: skip
    player = old.get_model("tournaments", "TournamentPlayer").objects.create(
        tournament_id=tournament.pk, name="Ann Lee", name_key="ann lee", registered_at=AT, registered_by_id=cashier.pk
    )
    entries = old.get_model("tournaments", "TournamentFee").objects
    entry = entries.create(
        tournament_id=tournament.pk, player_id=player.pk, kind="entry", fee_cents=10000, chips=500, gaming_date=DAY,
        collected_at=AT, collected_by_id=cashier.pk,
    )  # fmt: skip
    entry_void = entries.create(
        tournament_id=tournament.pk, player_id=player.pk, kind="void", fee_cents=-10000, chips=-500, gaming_date=DAY,
        collected_at=AT + timedelta(minutes=10), collected_by_id=boss.pk, voids_id=entry.pk, reason="wrong player",
    )  # fmt: skip
    prize = old.get_model("tournaments", "TournamentPrize").objects.create(
        tournament_id=tournament.pk, player_id=player.pk, round_name="Final", kind="cash", amount_cents=15000,
        gaming_date=DAY, awarded_at=AT + timedelta(minutes=50), awarded_by_id=boss.pk,
    )  # fmt: skip
    return {
        (FeeCollection, fee.pk): fee.collected_at,
        (FeeCollection, fee_void.pk): fee_void.collected_at,
        (FeeCount, count.pk): count.counted_at,
        (GameSession, session.pk): session.ended_at,
        (Tournament, tournament.pk): tournament.announced_at,
        (TournamentFee, entry.pk): entry.collected_at,
        (TournamentFee, entry_void.pk): entry_void.collected_at,
        (TournamentPrize, prize.pk): prize.awarded_at,
    }


@pytest.mark.django_db(transaction=True)
def test_rows_from_before_the_entry_times_are_backfilled_with_the_time_they_were_dated():
    org = OrganizationFactory(name="Old Rows Charities")
    site = SiteFactory(organization=org, name="Tacoma", jurisdiction="WA-BJ", time_zone="America/Los_Angeles")
    table = TableFactory(site=site, number=1)
    boss, cashier = make_person(org, Role.SHIFT_MANAGER, site), make_person(org, Role.CASHIER, site)

    loader = MigrationLoader(connection)
    # Nothing else depends on them, so they alone are unapplied and applied again.
    assert {child.key for key in ADDED for child in loader.graph.node_map[key].children} <= set(ADDED + AFTER)
    for key in reversed(ADDED + AFTER):
        _run(loader, key, backwards=True)
    old = loader.project_state([(app, name) for app, name in ADDED], at_end=False).apps
    assert "entered_at" not in {f.name for f in old.get_model("tournaments", "Tournament")._meta.get_fields()}
    assert "entered_at" not in {f.name for f in old.get_model("fees", "FeeCollection")._meta.get_fields()}
    dated = _old_rows(old, site=site, table=table, boss=boss, cashier=cashier)

    for key in ADDED + AFTER:
        _run(loader, key, backwards=False)
    assert set(ADDED + AFTER) <= set(MigrationRecorder(connection).applied_migrations())

    for (model, pk), occurred in dated.items():
        row = model.objects.get(pk=pk)
        assert (row.entered_at, row.entered_late) == (occurred, False), (model.__name__, pk)
    assert len({occurred for occurred in dated.values()}) == 7  # each row its own time, not one for all
    # The triggers lifted for the backfill are back: a signed row is not changed after it.
    for model, pk in ((FeeCollection, min(pk for m, pk in dated if m is FeeCollection)), (Tournament, None)):
        rows = model.objects.all() if pk is None else model.objects.filter(pk=pk)
        with pytest.raises(IntegrityError), transaction.atomic():
            rows.update(entered_at=AT + timedelta(days=1))
