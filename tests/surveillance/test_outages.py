"""Outages (ND 99-01.3-08-04(7)): the deadline from dealer shifts, the $2 cap after it, the
repair as a new row, and the refusal to open an expired table above $2."""

from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from cardroom.models import Role
from core.models import AuditEvent
from surveillance import queries, services
from surveillance.models import Outage, OutageRepair

from .conftest import add_shift, local

MONDAY_8PM = local(2026, 3, 2, 20)


@pytest.fixture
def night_shifts(table, dealer):
    """10:00-02:00 every day that week: 48 hours of activity are reached Thursday 20:00."""
    return [
        add_shift(table, dealer, local(2026, 3, 2 + n, 10), local(2026, 3, 2 + n, 10) + timedelta(hours=16))
        for n in range(5)
    ]


@pytest.fixture
def outage(table, shift_manager):
    with time_machine.travel(MONDAY_8PM + timedelta(minutes=5), tick=False):
        return services.report_outage(
            acting_user=shift_manager.user,
            table=table,
            kind=Outage.Kind.CAMERA,
            began_at=MONDAY_8PM,
            description="Picture is black",
        )


def test_reporting_an_outage_writes_an_audit_event(outage):
    assert AuditEvent.objects.filter(action="surveillance.outage.reported", object_id=str(outage.pk)).count() == 1


def test_the_deadline_comes_from_dealer_shifts_on_the_table(outage, night_shifts):
    deadline = queries.deadline_for(outage)
    assert deadline.at == local(2026, 3, 5, 20)
    assert deadline.basis == "48 hours of activity on the table"


def test_without_dealer_shifts_only_the_4_calendar_days_run(outage):
    assert queries.deadline_for(outage).at == local(2026, 3, 6, 20)


def test_shifts_on_another_table_are_not_activity_on_this_one(outage, site, dealer):
    from tests.factories import TableFactory

    other = TableFactory(site=site, number=2)
    add_shift(other, dealer, local(2026, 3, 2, 6), None)
    assert queries.deadline_for(outage).basis == "4 calendar days"


def test_a_shift_still_running_counts_as_activity_until_now(outage, table, dealer):
    add_shift(table, dealer, local(2026, 3, 2, 18), None)
    assert queries.deadline_for(outage).at == local(2026, 3, 4, 20)
    assert queries.outage_wager_cap(table, local(2026, 3, 4, 19, 59)) == (None, "")
    assert queries.outage_wager_cap(table, local(2026, 3, 4, 20))[0] == 200


def test_no_cap_before_the_deadline_and_2_dollars_from_it(outage, table, night_shifts):
    assert queries.outage_wager_cap(table, local(2026, 3, 5, 19, 59)) == (None, "")
    cap, reason = queries.outage_wager_cap(table, local(2026, 3, 5, 20))
    assert cap == 200
    assert reason.startswith("ND 99-01.3-08-04(7): camera not operating properly on table 1")
    assert "48 hours of activity" in reason and "$2.00" in reason


def test_a_repair_before_the_deadline_means_no_cap(outage, table, shift_manager, night_shifts):
    with time_machine.travel(local(2026, 3, 4, 12), tick=False):
        services.record_outage_repair(
            acting_user=shift_manager.user, outage=outage, repaired_at=local(2026, 3, 4, 11), description="New camera"
        )
    assert queries.outage_wager_cap(table, local(2026, 3, 6, 20)) == (None, "")


def test_a_late_repair_ends_the_cap_when_it_is_made(outage, table, shift_manager):
    with time_machine.travel(local(2026, 3, 8, 12), tick=False):
        services.record_outage_repair(
            acting_user=shift_manager.user,
            outage=outage,
            repaired_at=local(2026, 3, 8, 11),
            description="Cable replaced",
        )
    assert queries.outage_wager_cap(table, local(2026, 3, 8, 10, 59))[0] == 200
    assert queries.outage_wager_cap(table, local(2026, 3, 8, 11)) == (None, "")


def test_opening_an_outage_expired_table_above_2_dollars_is_refused(outage, table):
    with time_machine.travel(local(2026, 3, 7), tick=False):
        with pytest.raises(ValidationError) as refusal:
            services.check_wager_under_outage_cap(table, 2500)
        services.check_wager_under_outage_cap(table, 200)
    assert "ND 99-01.3-08-04(7)" in refusal.value.message_dict["max_wager_cents"][0]
    assert "4 calendar days" in refusal.value.message_dict["max_wager_cents"][0]


def test_a_repair_is_a_new_row_and_the_outage_is_never_edited(outage, shift_manager):
    with time_machine.travel(local(2026, 3, 3), tick=False):
        repair = services.record_outage_repair(
            acting_user=shift_manager.user, outage=outage, repaired_at=local(2026, 3, 2, 23), description="Refocused"
        )
    assert repair.outage_id == outage.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Outage.objects.filter(pk=outage.pk).update(description="nothing happened")
    with pytest.raises(IntegrityError), transaction.atomic():
        OutageRepair.objects.filter(pk=repair.pk).delete()


def test_a_second_repair_of_the_same_outage_is_refused(outage, shift_manager):
    with time_machine.travel(local(2026, 3, 3), tick=False):
        services.record_outage_repair(
            acting_user=shift_manager.user, outage=outage, repaired_at=local(2026, 3, 2, 23), description="Refocused"
        )
        with pytest.raises(ValidationError, match="already has its repair"):
            services.record_outage_repair(
                acting_user=shift_manager.user,
                outage=outage,
                repaired_at=local(2026, 3, 2, 23, 30),
                description="Again",
            )


def test_a_repair_before_the_outage_began_is_refused_and_changes_nothing(outage, shift_manager):
    with pytest.raises(ValidationError) as refusal:
        services.record_outage_repair(
            acting_user=shift_manager.user,
            outage=outage,
            repaired_at=MONDAY_8PM - timedelta(hours=1),
            description="Before",
        )
    assert refusal.value.message_dict["repaired_at"] == [
        "ND 99-01.3-08-04(7): the repair ends the outage, so it is dated after the outage began; "
        "2026-03-02 19:00 CST is before the outage's start (2026-03-02 20:00 CST)."
    ]
    assert OutageRepair.objects.count() == 0


def test_a_repair_dated_in_the_future_is_refused_citing_the_outage_rule(outage, shift_manager):
    with time_machine.travel(local(2026, 3, 3, 9), tick=False), pytest.raises(ValidationError) as refusal:
        services.record_outage_repair(
            acting_user=shift_manager.user, outage=outage, repaired_at=local(2026, 3, 3, 10), description="Ahead"
        )
    assert refusal.value.message_dict["repaired_at"] == [
        "ND 99-01.3-08-04(7): a record cannot be dated in the future (2026-03-03 10:00 CST is after now)."
    ]
    assert OutageRepair.objects.count() == 0


def test_an_outage_cannot_begin_in_the_future(table, shift_manager):
    with time_machine.travel(MONDAY_8PM, tick=False), pytest.raises(ValidationError, match="future"):
        services.report_outage(
            acting_user=shift_manager.user,
            table=table,
            kind="camera",
            began_at=MONDAY_8PM + timedelta(hours=1),
            description="x",
        )


@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.COUNT_TEAM, Role.AUDITOR])
def test_roles_outside_the_floor_management_may_not_report_an_outage(cast, table, role):
    with time_machine.travel(MONDAY_8PM, tick=False), pytest.raises(PermissionDenied):
        services.report_outage(
            acting_user=cast[role].user, table=table, kind="camera", began_at=MONDAY_8PM, description="x"
        )
    assert Outage.objects.count() == 0
