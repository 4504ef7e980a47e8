"""The daily surveillance review log (ND 99-01.3-08-04(7), 08-16(1)(d))."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from cardroom.models import Role
from core.models import AuditEvent
from surveillance import services
from surveillance.models import ReviewLogEntry

from .conftest import add_shift, local


def log(acting, table, gaming_date=date(2026, 2, 3), **kwargs):
    values = {"camera_recording": True, "unobstructed_view": True, "clear_picture": True, **kwargs}
    return services.add_review_log_entry(acting_user=acting.user, table=table, gaming_date=gaming_date, **values)


@pytest.fixture
def activity(table, dealer):
    return add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))


def test_a_shift_manager_logs_a_day_of_activity_with_an_audit_event(shift_manager, table, activity):
    entry = log(shift_manager, table)
    assert entry.reviewed_by == shift_manager and entry.all_clear
    assert AuditEvent.objects.filter(action="surveillance.review_log.added", object_id=str(entry.pk)).exists()


def test_activity_after_midnight_belongs_to_the_gaming_day_it_started(shift_manager, table, dealer):
    add_shift(table, dealer, local(2026, 2, 5, 1), local(2026, 2, 5, 3))  # before the 06:00 day start
    assert log(shift_manager, table, date(2026, 2, 4)).pk


def test_a_day_without_activity_is_refused_and_nothing_is_written(shift_manager, table, activity):
    with pytest.raises(ValidationError) as refusal:
        log(shift_manager, table, date(2026, 2, 5))
    message = refusal.value.message_dict["gaming_date"][0]
    assert message.startswith("ND 99-01.3-08-04(7):") and "2026-02-05" in message
    assert ReviewLogEntry.objects.count() == 0


def test_a_problem_found_is_logged_as_such(shift_manager, table, activity):
    assert not log(shift_manager, table, clear_picture=False, notes="Dome smudged").all_clear


def test_a_correction_is_a_new_entry_pointing_back(shift_manager, table, activity):
    first = log(shift_manager, table, unobstructed_view=False)
    correction = log(shift_manager, table, corrects=first, notes="Entered the wrong box")
    assert correction.corrects == first
    with pytest.raises(IntegrityError), transaction.atomic():
        ReviewLogEntry.objects.filter(pk=first.pk).update(unobstructed_view=True)


@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.AUDITOR])
def test_roles_not_reviewing_surveillance_may_not_log(cast, table, activity, role):
    with pytest.raises(PermissionDenied):
        log(cast[role], table)
