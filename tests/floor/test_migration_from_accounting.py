"""A database built before the move (custody in `accounting`, issue 19) migrates to `floor`
without copying or losing a row: the tables stay, only Django's state and the content types'
app label change.

On an empty database of its own (tests/scratch_database.py), migrated to what the move's four
migrations depend on, written to, then migrated through those four only: migrating the test
database back and forward through the whole project took about 53 s, nearly all of it Django
rendering the project's model states."""

from datetime import UTC, date, datetime, timedelta

import pytest

from tests.scratch_database import dependencies_of, migrate, scratch_database

# The move: floor's tables are accounting's (floor 0001, state only), cage's deposit points at
# floor's gaming day (cage 0002), accounting lets go of them (accounting 0004) and the content
# types follow (floor 0002).
THE_MOVE = [
    ("floor", "0001_initial"),
    ("cage", "0002_gaming_day_is_the_floors"),
    ("accounting", "0004_custody_moves_to_floor"),
    ("floor", "0002_content_types_follow_the_move"),
]
AT = datetime(2026, 11, 2, 1, 0, tzinfo=UTC)


def _people(old) -> dict:
    """An organization's site, table, chip and staff, written through the historical models."""
    org = old.get_model("cardroom", "Organization").objects.create(name="Migrated Charities")
    site = old.get_model("cardroom", "Site").objects.create(organization=org, name="Old Lodge")
    table = old.get_model("cardroom", "Table").objects.create(
        site=site, number=1, min_wager_cents=100, max_wager_cents=2500
    )
    chip = old.get_model("cardroom", "ChipDenomination").objects.create(
        organization=org, value_cents=2500, primary_colour="green", edge_spots=4
    )
    staff = {}
    for initials in ("SM", "DL", "CA"):
        user = old.get_model("auth", "User").objects.create(username=initials.lower(), password="!")
        staff[initials] = old.get_model("cardroom", "Employee").objects.create(
            organization=org, user=user, initials=initials
        )
    return dict(site=site, table=table, chip=chip, boss=staff["SM"], dealer=staff["DL"], cashier=staff["CA"])


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


def _old_content_type(old) -> tuple[int, int]:
    """The content type of accounting's Slip and its `add` permission, as a database from
    before the move has them (ids the admin history and group permissions refer to)."""
    content_type = old.get_model("contenttypes", "ContentType").objects.create(app_label="accounting", model="slip")
    permission = old.get_model("auth", "Permission").objects.create(
        content_type=content_type, codename="add_slip", name="Can add slip"
    )
    return content_type.pk, permission.pk


@pytest.mark.django_db(transaction=True)
def test_custody_written_before_the_move_is_read_through_the_floor_models_after_it():
    with scratch_database():
        executor = migrate(dependencies_of(THE_MOVE))
        assert executor.loader.applied_migrations.keys().isdisjoint(THE_MOVE)  # rows written before it
        old = executor.loader.project_state(list(executor.loader.applied_migrations)).apps
        made = _people(old)
        ids = _old_rows(old, **made)
        content_type_id, permission_id = _old_content_type(old)

        executor = migrate(THE_MOVE)
        new = executor.loader.project_state(THE_MOVE).apps
        assert not any(model._meta.model_name == "slip" for model in new.get_app_config("accounting").get_models())
        site, table, chip = made["site"], made["table"], made["chip"]
        boss, dealer = made["boss"], made["dealer"]

        day = new.get_model("floor", "GamingDay").objects.get(pk=ids["day"])
        assert (day.site_id, day.gaming_date, day.opened_at, day.opened_by_id) == (
            site.pk,
            date(2026, 11, 1),
            AT,
            boss.pk,
        )
        close = new.get_model("floor", "GamingDayClose").objects.get(gaming_day=day)
        assert close.closed_at == AT + timedelta(hours=3)
        shift = new.get_model("floor", "DealerShift").objects.get(pk=ids["shift"])
        assert (shift.table_id, shift.dealer_id, shift.gaming_day_id) == (table.pk, dealer.pk, day.pk)
        count = new.get_model("floor", "TableInventory").objects.get(pk=ids["count"])
        assert (count.kind, count.dealer_shift_id, count.total_cents) == ("closer", shift.pk, 100_000)
        lines = [(line.denomination_id, line.value_cents, line.quantity) for line in count.lines.all()]
        assert lines == [(chip.pk, 2500, 40)]
        slip = new.get_model("floor", "Slip").objects.get(pk=ids["slip"])
        assert (slip.kind, slip.number, slip.gaming_day_id, slip.total_cents) == ("fill", 7, day.pk, 50_000)
        assert [(line.value_cents, line.quantity) for line in slip.lines.all()] == [(2500, 20)]
        steps = [(step.kind, step.employee_id) for step in slip.steps.order_by("at")]
        assert steps == [("verify", boss.pk), ("receive", dealer.pk)]
        assert list(day.slips.all()) == [slip] and list(day.inventories.all()) == [count]

        content_type = new.get_model("contenttypes", "ContentType")
        moved = content_type.objects.get(model="slip")
        assert (moved.pk, moved.app_label) == (content_type_id, "floor")
        assert new.get_model("auth", "Permission").objects.get(pk=permission_id).content_type_id == content_type_id
