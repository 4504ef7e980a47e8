"""Gaming days, tray counts and dealer rotations through the services."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from cardroom.models import Role
from core.models import AuditEvent
from floor import services
from floor.calculations import business_date, gaming_day_bounds, tray_differs, tray_variance_cents
from floor.models import DealerShift, GamingDayClose, TableInventory
from floor.queries import employee_dealt_at
from tests.factories import make_person

from .conftest import FILL, TRAY, today


@pytest.mark.parametrize(
    "local_hour, expected_day",
    [(5, 21), (6, 22), (23, 22)],
)
def test_a_business_day_runs_past_midnight_until_the_start_hour(local_hour, expected_day):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    moment = datetime(2026, 11, 22, local_hour, 30, tzinfo=ZoneInfo("America/Chicago"))
    assert business_date(moment, "America/Chicago", 6).day == expected_day


def test_gaming_day_bounds_span_start_hour_to_start_hour():
    from datetime import date

    start, end = gaming_day_bounds(date(2026, 11, 22), "America/Chicago", 6)
    assert (start.hour, end.day, (end - start)) == (6, 23, timedelta(hours=24))


def test_a_swap_of_equal_value_is_still_a_tray_difference():
    assert tray_differs({2500: 1}, {500: 5})
    assert tray_variance_cents({2500: 1}, {500: 5}) == 0


def test_opening_a_gaming_day_is_audited_and_needs_a_shift_manager(site, cast):
    with pytest.raises(PermissionDenied):
        services.open_gaming_day(acting_user=cast[Role.PIT_BOSS].user, site=site, gaming_date=today(site))
    day = services.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=today(site))
    event = AuditEvent.objects.get(action="gaming_day.opened")
    assert (event.site_id, event.organization_id, event.after["id"]) == (site.pk, site.organization_id, day.pk)


def test_the_closer_ends_the_dealer_shift_and_then_the_day_closes(dealer_shift, shift_manager, gaming_day, open_table):
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=FILL)
    assert DealerShift.objects.get(pk=dealer_shift.pk).ended_at is not None
    close = services.close_gaming_day(acting_user=shift_manager.user, gaming_day=gaming_day)
    assert GamingDayClose.objects.get(gaming_day=gaming_day) == close
    with pytest.raises(ValidationError, match="already closed"):
        services.close_gaming_day(acting_user=shift_manager.user, gaming_day=gaming_day)


def test_a_table_gets_one_opener_and_one_closer_per_day(open_table, shift_manager):
    with pytest.raises(ValidationError, match="already has its opener"):
        services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="opener", chips=TRAY)
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    with pytest.raises(ValidationError, match="already closed"):
        services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    assert TableInventory.objects.filter(table=open_table).count() == 2


def test_a_closer_without_the_table_being_opened_is_refused(table, chips, gaming_day, shift_manager):
    with pytest.raises(ValidationError, match="was not opened"):
        services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="closer", chips=TRAY)


def test_no_count_without_an_open_gaming_day(table, chips, shift_manager):
    with pytest.raises(ValidationError, match="no gaming day is open"):
        services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)


def test_a_tray_count_is_append_only_in_the_database(open_table):
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE accounting_tableinventory SET total_cents = 0")
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM accounting_gamingday")


def test_a_dealer_cannot_be_at_two_tables_at_once(dealer_shift, cast, shift_manager, site):
    from tests.factories import TableFactory

    with pytest.raises(ValidationError, match="already on shift"):
        services.start_dealer_shift(
            acting_user=shift_manager.user, table=TableFactory(site=site, number=2), dealer=cast[Role.DEALER]
        )


def test_a_dealer_of_another_site_is_not_seated(open_table, shift_manager, org, other_site):
    with pytest.raises(ValidationError) as caught:
        services.start_dealer_shift(
            acting_user=shift_manager.user, table=open_table, dealer=make_person(org, Role.DEALER, other_site)
        )
    assert "dealer" in caught.value.message_dict


def test_a_shift_in_the_future_is_refused(open_table, shift_manager, cast):
    with pytest.raises(ValidationError) as caught:
        services.start_dealer_shift(
            acting_user=shift_manager.user,
            table=open_table,
            dealer=cast[Role.DEALER],
            started_at=timezone.now() + timedelta(hours=1),
        )
    assert "started_at" in caught.value.message_dict


def test_a_rotation_makes_employee_dealt_at_true_only_for_the_shift(
    day_under_way, open_table, shift_manager, cast, site, org
):
    start = timezone.now() - timedelta(hours=2)
    first = services.start_dealer_shift(
        acting_user=shift_manager.user, table=open_table, dealer=cast[Role.DEALER], started_at=start
    )
    relief = make_person(org, Role.DEALER, site)
    services.start_dealer_shift(
        acting_user=shift_manager.user, table=open_table, dealer=relief, started_at=start + timedelta(hours=1)
    )
    first.refresh_from_db()
    assert first.ended_at == start + timedelta(hours=1)
    assert employee_dealt_at(cast[Role.DEALER], site, start, start + timedelta(minutes=1))
    assert not employee_dealt_at(cast[Role.DEALER], site, start + timedelta(hours=1), timezone.now())
    assert employee_dealt_at(relief, site, start + timedelta(hours=1), timezone.now())
