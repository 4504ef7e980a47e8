"""A database built before the move (custody in `accounting`, issue 19) migrates to `floor`
without copying or losing a row: the tables stay, only Django's state and the content types'
app label change."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from cardroom.models import Role
from floor.models import DealerShift, GamingDay, GamingDayClose, Slip, TableInventory
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_chips, make_person

# The last migrations before the move: accounting still holds the custody models, cage's
# deposit points at accounting.GamingDay, and the floor app has no migration applied.
BEFORE_THE_MOVE = [("accounting", "0003_quarter_filing"), ("cage", "0001_initial"), ("floor", None)]
AT = datetime(2026, 11, 2, 1, 0, tzinfo=UTC)


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # what is applied now
    return executor


def _old_rows(old, *, site, table, chip, boss, dealer, cashier) -> dict:
    """A gaming day with a closer's count, a dealer shift and a fill slip with its lines and
    steps, written through the historical accounting models."""
    day = old.get_model("accounting", "GamingDay").objects.create(
        site_id=site.pk, gaming_date=date(2026, 11, 1), opened_at=AT, opened_by_id=boss.pk
    )
    shift = old.get_model("accounting", "DealerShift").objects.create(
        table_id=table.pk,
        dealer_id=dealer.pk,
        gaming_day=day,
        started_at=AT,
        ended_at=AT + timedelta(hours=2),
        started_by_id=boss.pk,
        ended_by_id=boss.pk,
    )
    count = old.get_model("accounting", "TableInventory").objects.create(
        gaming_day=day,
        table_id=table.pk,
        kind="closer",
        counted_at=AT + timedelta(hours=2),
        counted_by_id=boss.pk,
        dealer_shift=shift,
        total_cents=40 * 2500,
    )
    old.get_model("accounting", "TableInventoryLine").objects.create(
        inventory=count, denomination_id=chip.pk, value_cents=2500, quantity=40
    )
    slip = old.get_model("accounting", "Slip").objects.create(
        site_id=site.pk,
        kind="fill",
        number=7,
        table_id=table.pk,
        gaming_day=day,
        game="21",
        table_number=1,
        prepared_at=AT + timedelta(minutes=30),
        prepared_by_id=cashier.pk,
        total_cents=20 * 2500,
    )
    old.get_model("accounting", "SlipLine").objects.create(
        slip=slip, denomination_id=chip.pk, value_cents=2500, quantity=20
    )
    for kind, who, minutes in (("verify", boss, 31), ("receive", dealer, 32)):
        old.get_model("accounting", "SlipStep").objects.create(
            slip=slip, kind=kind, employee_id=who.pk, initials=who.initials, at=AT + timedelta(minutes=minutes)
        )
    old.get_model("accounting", "GamingDayClose").objects.create(
        gaming_day=day, closed_at=AT + timedelta(hours=3), closed_by_id=boss.pk
    )
    return {"day": day.pk, "shift": shift.pk, "count": count.pk, "slip": slip.pk}


def _old_content_type() -> tuple[int, int]:
    """The content type of accounting's Slip and its `add` permission, as a database from
    before the move has them (ids the admin history and group permissions refer to)."""
    content_type, _ = ContentType.objects.get_or_create(app_label="accounting", model="slip")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="add_slip", defaults={"name": "Can add slip"}
    )
    return content_type.pk, permission.pk


@pytest.mark.django_db(transaction=True)
def test_custody_written_before_the_move_is_read_through_the_floor_models_after_it():
    org = OrganizationFactory(name="Migrated Charities")
    site = SiteFactory(organization=org, name="Old Lodge")
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)
    chip = make_chips(org)[2500]
    boss, dealer, cashier = (make_person(org, role, site) for role in (Role.SHIFT_MANAGER, Role.DEALER, Role.CASHIER))

    executor = _migrate(BEFORE_THE_MOVE)
    old = executor.loader.project_state([node for node in BEFORE_THE_MOVE if node[1]]).apps
    ids = _old_rows(old, site=site, table=table, chip=chip, boss=boss, dealer=dealer, cashier=cashier)
    content_type_id, permission_id = _old_content_type()

    executor = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()

    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    day = GamingDay.objects.get(pk=ids["day"])
    assert (day.site_id, day.gaming_date, day.opened_at, day.opened_by_id) == (site.pk, date(2026, 11, 1), AT, boss.pk)
    assert GamingDayClose.objects.get(gaming_day=day).closed_at == AT + timedelta(hours=3)
    assert not day.is_open
    shift = DealerShift.objects.get(pk=ids["shift"])
    assert (shift.table_id, shift.dealer_id, shift.gaming_day_id) == (table.pk, dealer.pk, day.pk)
    count = TableInventory.objects.get(pk=ids["count"])
    assert (count.kind, count.dealer_shift_id, count.total_cents) == ("closer", shift.pk, 100_000)
    assert [(line.value_cents, line.quantity, line.amount_cents) for line in count.lines.all()] == [(2500, 40, 100_000)]
    slip = Slip.objects.get(pk=ids["slip"])
    assert (slip.kind, slip.number, slip.gaming_day_id, slip.total_cents) == ("fill", 7, day.pk, 50_000)
    assert [(line.value_cents, line.quantity) for line in slip.lines.all()] == [(2500, 20)]
    assert [(step.kind, step.employee_id) for step in slip.steps.all()] == [("verify", boss.pk), ("receive", dealer.pk)]
    assert slip.status == "received"
    assert list(day.slips.all()) == [slip] and list(day.inventories.all()) == [count]

    moved = ContentType.objects.get_for_model(Slip)
    assert (moved.pk, moved.app_label) == (content_type_id, "floor")
    assert Permission.objects.get(pk=permission_id).content_type_id == content_type_id
    assert not ContentType.objects.filter(app_label="accounting", model="slip").exists()
