"""Fill and credit slips through the services: numbering, steps, refusals (ND 99-01.3-08-05)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from core.appendonly import ImmutableRecordError
from core.models import AuditEvent
from floor import services
from floor.models import Slip, SlipLine, SlipStep

from .conftest import FILL


def test_fill_and_credit_slips_are_separate_series_numbered_from_one_per_site(open_table, dealer_shift, cast):
    fills = [services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL) for _ in range(3)]
    credit = services.prepare_credit(acting_user=cast[Role.DEALER].user, table=open_table, chips=FILL)
    assert [s.number for s in fills] == [1, 2, 3]
    assert credit.number == 1
    assert fills[0].total_cents == 20 * 2500 + 20 * 500


def test_another_site_has_its_own_fill_series(open_table, cast, other_site, chips, manager):
    from tests.factories import TableFactory, make_person

    boss = make_person(open_table.site.organization, Role.SHIFT_MANAGER, other_site)
    other_cashier = make_person(open_table.site.organization, Role.CASHIER, other_site)
    services.open_gaming_day(
        acting_user=boss.user, site=other_site, gaming_date=open_table.site.gaming_days.get().gaming_date
    )
    other_table = TableFactory(site=other_site, number=1)
    services.record_table_inventory(acting_user=boss.user, table=other_table, kind="opener", chips=FILL)
    services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    assert (
        services.prepare_fill(acting_user=boss.user, table=other_table, chips=FILL, cashier=other_cashier).number == 1
    )


def test_a_rolled_back_slip_leaves_no_gap_in_the_series(open_table, cast):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
        raise RuntimeError("power cut")
    assert services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL).number == 1


@pytest.mark.parametrize("role", [Role.DEALER, Role.WHEEL_OPERATOR, Role.COUNT_TEAM, Role.AUDITOR])
def test_only_a_cashier_pit_boss_or_shift_manager_prepares_a_fill(open_table, cast, role):
    with pytest.raises(PermissionDenied):
        services.prepare_fill(acting_user=cast[role].user, table=open_table, chips=FILL)
    assert not Slip.objects.exists()


@pytest.mark.parametrize("role", [Role.CASHIER, Role.COUNT_TEAM, Role.AUDITOR])
def test_only_a_dealer_wheel_operator_pit_boss_or_shift_manager_prepares_a_credit(open_table, cast, role):
    with pytest.raises(PermissionDenied):
        services.prepare_credit(acting_user=cast[role].user, table=open_table, chips=FILL)


@pytest.mark.parametrize(
    "lines",
    [
        [{"denomination": 500, "quantity": 0}],
        [{"denomination": 500, "quantity": -3}],
        [{"denomination": 500, "quantity": 1.5}],
        [{"denomination": 500, "quantity": 2.0}],
        [{"denomination": 1000, "quantity": 2}],
        [{"denomination": 500, "quantity": 2}, {"denomination": 500, "quantity": 1}],
        [],
    ],
    ids=["zero", "negative", "fraction", "float", "not-a-chip-value", "twice", "empty"],
)
def test_bad_chip_lines_are_refused_and_change_nothing(open_table, cast, lines):
    with pytest.raises(ValidationError) as caught:
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=lines)
    assert "ND 99-01.3-08-0" in caught.value.message_dict["chips"][0]
    assert not Slip.objects.exists()


def test_an_inactive_chip_denomination_is_refused(open_table, cast, chips):
    chips[500].active = False
    chips[500].save()
    with pytest.raises(ValidationError, match="ND 99-01.3-08-03"):
        services.prepare_fill(
            acting_user=cast[Role.CASHIER].user, table=open_table, chips=[{"denomination": 500, "quantity": 1}]
        )


def test_a_denomination_is_the_chip_value_never_its_id(open_table, cast, chips):
    assert chips[2500].pk not in chips  # an id that is not also a chip value
    by_id = [{"denomination": chips[2500].pk, "quantity": 4}]
    with pytest.raises(ValidationError, match="is not a chip value"):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=by_id)
    lines = [{"denomination": chips[2500], "quantity": 4}, {"denomination": 100, "quantity": 3}]
    slip = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=lines)
    assert slip.total_cents == 4 * 2500 + 300


def test_a_value_not_among_the_chips_is_refused_naming_the_chips_there_are(open_table, cast, chips):
    """ND 99-01.3-08-03(1): the refusal lists the organization's active chips, in cents and in
    dollars (an inactive one is not offered), so the preparer can put it right at once."""
    chips[200].active = False
    chips[200].save()
    with pytest.raises(ValidationError) as refused:
        services.prepare_fill(
            acting_user=cast[Role.CASHIER].user, table=open_table, chips=[{"denomination": 2501, "quantity": 1}]
        )
    listed = ", ".join(f"{value} (${value // 100:,}.{value % 100:02d})" for value in sorted(chips) if value != 200)
    assert refused.value.message_dict["chips"] == [
        f"ND 99-01.3-08-03(1): 2501 is not a chip value of the organization; give a chip's value in cents: {listed}."
    ]
    assert not Slip.objects.exists()


def test_an_organization_without_chips_is_told_so(open_table, cast, chips):
    for chip in chips.values():
        chip.active = False
        chip.save()
    with pytest.raises(ValidationError, match=r"2500 is not a chip value of the organization, which has no chips yet"):
        services.prepare_fill(
            acting_user=cast[Role.CASHIER].user, table=open_table, chips=[{"denomination": 2500, "quantity": 1}]
        )


def test_a_chip_line_gives_its_value_one_way(open_table, cast, chips):
    for line in ({"denomination": 500, "value_cents": 500, "quantity": 1}, {"value_cents": 500, "quantity": 1}):
        with pytest.raises(ValidationError, match="each line of chips"):
            services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=[line])


def test_a_table_not_opened_takes_no_slip(table, chips, gaming_day, cast):
    # House control: 08-05(1) says what slips move, not when a table may take one.
    with pytest.raises(ValidationError, match="House control: .* is not open"):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)


def test_a_closed_table_takes_no_slip(open_table, cast, shift_manager):
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=FILL)
    with pytest.raises(ValidationError) as caught:
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    assert "closed" in caught.value.message_dict["table"][0]


def test_an_inactive_table_takes_no_slip(open_table, cast):
    open_table.active = False
    open_table.save()
    with pytest.raises(ValidationError, match="inactive"):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)


def test_a_table_of_another_organization_is_refused(stranger_site, chips, cast):
    from tests.factories import TableFactory

    with pytest.raises(PermissionDenied):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=TableFactory(site=stranger_site), chips=FILL)


def test_the_preparer_cannot_verify_their_own_slip(open_table, shift_manager, cast):
    slip = services.prepare_fill(
        acting_user=shift_manager.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER]
    )
    with pytest.raises(ValidationError, match="ND 99-01.3-08-05\\(5\\)"):
        services.verify_slip(acting_user=shift_manager.user, slip=slip)
    assert not SlipStep.objects.exists()


def test_a_pit_boss_presently_dealing_cannot_verify(fill, cast, shift_manager, org, site, chips):
    from tests.factories import TableFactory

    boss = cast[Role.PIT_BOSS]
    from cardroom.models import Membership

    Membership.objects.create(employee=boss, site=site, role=Role.DEALER)
    second = TableFactory(site=site, number=2)
    services.start_dealer_shift(acting_user=shift_manager.user, table=second, dealer=boss)
    with pytest.raises(ValidationError, match="presently dealing"):
        services.verify_slip(acting_user=boss.user, slip=fill)


def test_a_fill_is_verified_then_received_by_the_dealer_at_that_table(fill, dealer_shift, cast):
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    step = services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    assert step.initials == cast[Role.DEALER].initials
    assert Slip.objects.get(pk=fill.pk).status == "received"
    actions = list(AuditEvent.objects.values_list("action", flat=True))
    assert {"fill_slip.prepared", "fill_slip.verify", "fill_slip.receive"} <= set(actions)


def test_a_dealer_not_dealing_at_that_table_cannot_receive_the_fill(fill, cast, org, site):
    from tests.factories import make_person

    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    with pytest.raises(ValidationError, match="ND 99-01.3-08-05\\(6\\)"):
        services.receive_slip(acting_user=make_person(org, Role.DEALER, site).user, slip=fill)


def test_a_slip_is_received_only_after_verification(fill, dealer_shift, cast):
    with pytest.raises(ValidationError, match="verified before"):
        services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)


def test_the_cashier_receives_a_credit_and_the_dealer_dealing_at_a_table_may_not(credit, cast, shift_manager):
    """ND 99-01.3-08-05(6): "a cashier or dealer acting in the capacity of the cashier" receives
    the credit copy; a dealer presently dealing is not acting as cashier. A wheel operator is
    neither (a dealer not dealing may: tests/floor/test_slips_to_the_letter.py)."""
    services.verify_slip(acting_user=shift_manager.user, slip=credit)
    with pytest.raises(
        ValidationError, match="ND 99-01.3-08-05\\(6\\): a dealer receives a credit only acting as cashier"
    ):
        services.receive_slip(acting_user=cast[Role.DEALER].user, slip=credit)
    with pytest.raises(PermissionDenied):
        services.receive_slip(acting_user=cast[Role.WHEEL_OPERATOR].user, slip=credit)
    step = services.receive_slip(acting_user=cast[Role.CASHIER].user, slip=credit)
    assert (step.signed_as, step.reason) == ("cashier", "")
    assert Slip.objects.get(pk=credit.pk).status == "received"


def test_the_preparer_voids_a_slip_which_keeps_its_number_and_cannot_be_voided_twice(fill, cast):
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="wrong table")
    with pytest.raises(ValidationError, match="is void"):
        services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="again")
    slip = Slip.objects.get(pk=fill.pk)
    assert (slip.number, slip.status) == (1, "voided")
    assert services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=fill.table, chips=FILL).number == 2


def test_a_void_needs_a_reason(fill, cast):
    with pytest.raises(ValidationError) as caught:
        services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="  ")
    assert "ND 99-01.3-08-05(2)" in caught.value.message_dict["reason"][0]


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.GAMING_MANAGER])
def test_only_the_preparer_voids_a_slip_not_even_a_shift_manager(fill, cast, role):
    with pytest.raises(ValidationError) as caught:
        services.void_slip(acting_user=cast[role].user, slip=fill, reason="cashier went home")
    message = caught.value.message_dict["slip"][0]
    assert message.startswith("ND 99-01.3-08-05(2): a voided slip is initialed by its preparer")
    assert f"only {cast[Role.CASHIER]} may void fill slip 1" in message and "adjustment" in message
    assert Slip.objects.get(pk=fill.pk).status == "issued"
    assert not SlipStep.objects.filter(kind="void").exists()


def test_nobody_outside_the_site_voids_a_slip(fill, other_site):
    from tests.factories import make_person

    stranger = make_person(other_site.organization, Role.SHIFT_MANAGER, other_site)
    with pytest.raises(PermissionDenied):
        services.void_slip(acting_user=stranger.user, slip=fill, reason="mistake")


def test_a_void_slip_is_not_verified(fill, cast):
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="typo")
    with pytest.raises(ValidationError, match="is void"):
        services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)


def test_a_prepared_slip_cannot_be_edited_or_deleted_even_in_sql(fill):
    with pytest.raises(ImmutableRecordError):
        fill.save()
    for statement in ("UPDATE accounting_slip SET total_cents = 1", "DELETE FROM accounting_slipline"):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert Slip.objects.get(pk=fill.pk).total_cents == fill.total_cents
    assert SlipLine.objects.filter(slip=fill).count() == 2


BAD_CHIPS = [{"denomination": 7, "quantity": 1}]


def test_a_credit_without_a_dealer_on_shift_is_refused_for_its_initials_first(open_table, cast):
    # 08-05(3)(c) before the purpose, the table and the chips, however the service reads them.
    open_table.active = False
    open_table.save()
    with pytest.raises(ValidationError) as caught:
        services.prepare_credit(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=BAD_CHIPS, purpose="x")
    assert caught.value.message_dict == {
        "table": [
            "ND 99-01.3-08-05(3)(c): a credit slip carries the initials of the dealer at the table; "
            f"nobody is on shift at {open_table}."
        ]
    }


@pytest.mark.parametrize("kind", ["fill", "credit"])
def test_a_slip_is_refused_for_its_purpose_then_its_table_then_its_chips(dealer_shift, open_table, cast, kind):
    prepare = services.prepare_fill if kind == "fill" else services.prepare_credit
    user = cast[Role.CASHIER if kind == "fill" else Role.PIT_BOSS].user
    with pytest.raises(ValidationError) as purpose:
        prepare(acting_user=user, table=open_table, chips=BAD_CHIPS, purpose="x")
    open_table.active = False
    open_table.save()
    with pytest.raises(ValidationError) as table:
        prepare(acting_user=user, table=open_table, chips=BAD_CHIPS)
    assert list(purpose.value.message_dict) == ["purpose"]
    assert "inactive" in table.value.message_dict["table"][0]
    assert not Slip.objects.exists()


# On SQLite, one statement per message: BEGIN, the context, the number, the slip, the figures'
# two tokens, the lines, the chain's head, the events, COMMIT.
SQLITE_QUERIES = 10


@pytest.mark.django_db(transaction=True)
def test_a_fill_and_a_credit_take_five_queries_and_the_slip_context_is_planned_once(open_table, dealer_shift, cast):
    # BEGIN, the context (the day, the chips, the dealer, whether the preparer is on duty, the
    # slip's id), the lines and the slip with its number, the figures' tokens and the chain's
    # lock in one message, the events, COMMIT: each slip in its own transaction, as a request
    # makes it. Two after the number is drawn, as the floor (bench_slips). A pit
    # boss on duty already (signing put them on duty: floor.services.duty.on_duty_by_signing)
    # reads the register in the context, nothing more.
    # Counted the second time, as bench_slips counts them (the preparer's roles are read once).
    fill, credit = services.prepare_fill, services.prepare_credit
    for counted in (False, True):
        for prepare, role in ((fill, Role.CASHIER), (credit, Role.PIT_BOSS)):
            with CaptureQueriesContext(connection) as queries:
                prepare(acting_user=cast[role].user, table=open_table, chips=FILL)
            expected = 5 if connection.vendor == "postgresql" else SQLITE_QUERIES
            assert not counted or len(queries.captured_queries) == expected, [
                q["sql"][:60] for q in queries.captured_queries
            ]
    if connection.vendor != "postgresql":
        return  # SQLite prepares nothing across statements: the ORM's path, counted above
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE statement LIKE %s", ["%AS slip_id%"]
        )
        assert sorted(n for (n,) in cursor.fetchall()) == [2, 2]  # the fill's and the credit's context, twice each


def test_a_credit_dated_before_its_day_began_is_refused_for_its_time_not_for_its_dealer(
    dealer_shift, cast, site, gaming_day
):
    """A paper credit dated three hours before the gaming day's first hour: the refusal names the
    time (outside the day's business hours, at prepared_at), where it said nobody was on shift at
    the table then, which sent the user looking for a dealer."""
    from .conftest import in_day

    with pytest.raises(ValidationError) as refused:
        services.prepare_credit(
            acting_user=cast[Role.PIT_BOSS].user,
            table=dealer_shift.table,
            chips=FILL,
            at=in_day(site, gaming_day.gaming_date, -3),
        )
    assert list(refused.value.message_dict) == ["prepared_at"]
    message = refused.value.message_dict["prepared_at"][0]
    assert "outside the business hours of the gaming day" in message and "nobody is on shift" not in message
    assert not Slip.objects.filter(kind="credit").exists()
