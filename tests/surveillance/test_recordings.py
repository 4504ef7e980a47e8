"""Recordings and access to video (ND 99-01.3-08-04(5),(6)): who may handle them, recorders
in sequence overlapping by 10 minutes, and 30 days of retention."""

from datetime import date, timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Role
from surveillance import queries, services
from surveillance.models import Recording, RecordingAccess
from surveillance.rules import RECORDER_OVERLAP, RECORDING_RETENTION

from .conftest import local


def record(acting, table, start, stop, **kwargs):
    return services.record_recording(
        acting_user=acting.user, table=table, gaming_date=date(2026, 1, 1), started_at=start, stopped_at=stop, **kwargs
    )


def test_a_recording_may_be_released_the_day_after_30_full_days(shift_manager, table):
    assert RECORDING_RETENTION.on("ND").value == timedelta(days=30)
    recording = record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 2, 2))
    assert recording.release_on == date(2026, 2, 2)


def test_retention_holds_until_the_release_date_in_frozen_time(shift_manager, table, site):
    recording = record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 23))
    assert recording.release_on == date(2026, 2, 1)
    with time_machine.travel(local(2026, 1, 31, 23, 59), tick=False):
        assert recording not in queries.releasable_recordings(site)
    with time_machine.travel(local(2026, 2, 1, 0, 0), tick=False):
        assert list(queries.releasable_recordings(site)) == [recording]


def test_two_recorders_overlapping_by_10_minutes_are_accepted(shift_manager, table):
    record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 22))
    second = record(shift_manager, table, local(2026, 1, 1, 22) - RECORDER_OVERLAP.on("ND").value, local(2026, 1, 2, 2))
    assert second.pk


@pytest.mark.parametrize("overlap_minutes", [9, 0, -5])
def test_an_overlap_shorter_than_10_minutes_is_refused(shift_manager, table, overlap_minutes):
    record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 22))
    with pytest.raises(ValidationError) as refusal:
        record(shift_manager, table, local(2026, 1, 1, 22) - timedelta(minutes=overlap_minutes), local(2026, 1, 2, 2))
    message = refusal.value.message_dict["started_at"][0]
    assert message.startswith("ND 99-01.3-08-04(5)(c):") and "10 minutes" in message
    assert Recording.objects.count() == 1


def test_a_recording_must_stop_after_it_starts(shift_manager, table):
    with pytest.raises(ValidationError) as refusal:
        record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 18))
    assert refusal.value.message_dict["stopped_at"][0].startswith("ND 99-01.3-08-04(5)(b): the recording stops after")


def test_access_to_a_recording_is_not_dated_before_it_was_recorded(shift_manager, site, table):
    recording = record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 22))
    with pytest.raises(ValidationError) as refusal:
        services.record_video_access(
            acting_user=shift_manager.user,
            site=site,
            recording=recording,
            accessed_at=local(2026, 1, 1, 17),
            purpose="Review a disputed hand",
        )
    message = refusal.value.message_dict["accessed_at"][0]
    assert message.startswith("ND 99-01.3-08-04(5)(a): stored video is accessed after it is recorded")
    assert "2026-01-01 18:00 CST" in message and not RecordingAccess.objects.exists()


def test_an_independent_person_may_operate_the_recorder(independent_person, table):
    assert (
        record(independent_person, table, local(2026, 1, 1, 18), local(2026, 1, 1, 22)).operated_by
        == independent_person
    )


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.DEALER, Role.CASHIER, Role.COUNT_TEAM, Role.AUDITOR])
def test_other_roles_may_not_handle_recordings(cast, table, role):
    with pytest.raises(PermissionDenied, match=r"ND 99-01.3-08-04\(5\)"):
        record(cast[role], table, local(2026, 1, 1, 18), local(2026, 1, 1, 22))


def test_access_to_stored_video_is_logged_for_a_manager(shift_manager, site, table):
    access = services.record_video_access(
        acting_user=shift_manager.user,
        site=site,
        table=table,
        accessed_at=local(2026, 1, 3, 10),
        purpose="Review a disputed hand",
    )
    assert access.accessed_by == shift_manager


def test_a_manager_cannot_log_access_by_a_dealer(shift_manager, dealer, site):
    with pytest.raises(PermissionDenied, match="only a gaming or shift manager or an independent person"):
        services.record_video_access(
            acting_user=shift_manager.user,
            site=site,
            accessed_by=dealer,
            accessed_at=local(2026, 1, 3, 10),
            purpose="Curiosity",
        )
    assert RecordingAccess.objects.count() == 0


def test_a_shift_manager_of_another_site_may_not_handle_video_here(org, other_site, table):
    from tests.factories import make_person

    elsewhere = make_person(org, Role.SHIFT_MANAGER, other_site)
    with pytest.raises(PermissionDenied):
        record(elsewhere, table, local(2026, 1, 1, 18), local(2026, 1, 1, 22))


def test_a_chain_of_recorders_each_overlapping_the_one_before_is_accepted(shift_manager, table):
    """08-04(5)(c) asks the overlap of a table's two recorders in sequence, not of every pair of
    the day's recordings: 18:00-20:00, 19:50-22:00, 21:50-01:00 (the first and the third never
    meet) is a long day recorded in sequence."""
    record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 20))
    record(shift_manager, table, local(2026, 1, 1, 19, 50), local(2026, 1, 1, 22))
    third = record(shift_manager, table, local(2026, 1, 1, 21, 50), local(2026, 1, 2, 1))
    assert third.pk and Recording.objects.count() == 3


def test_a_recording_inserted_in_a_chain_overlaps_both_its_neighbours(shift_manager, table):
    record(shift_manager, table, local(2026, 1, 1, 18), local(2026, 1, 1, 20))
    record(shift_manager, table, local(2026, 1, 1, 19, 50), local(2026, 1, 1, 22))
    with pytest.raises(ValidationError) as refusal:  # overlaps the one before, meets the next by 5 minutes
        record(shift_manager, table, local(2026, 1, 1, 19), local(2026, 1, 1, 19, 55))
    assert refusal.value.message_dict["started_at"][0].startswith("ND 99-01.3-08-04(5)(c):")
    assert "from 19:50 by 5 minutes" in refusal.value.message_dict["started_at"][0]
    assert Recording.objects.count() == 2


def test_the_overlap_refusal_names_the_earlier_recording_on_the_sites_clock(shift_manager, site, table):
    """It printed the earlier recording's start in the server's zone (America/Chicago): an hour off
    at a Mountain-time site such as the demo's Medora."""
    from zoneinfo import ZoneInfo

    site.time_zone = "America/Denver"
    site.save()
    mountain = ZoneInfo("America/Denver")
    start = local(2026, 1, 1, 18).replace(tzinfo=mountain)
    record(shift_manager, table, start, start + timedelta(hours=4))
    with pytest.raises(ValidationError) as refusal:
        record(shift_manager, table, start + timedelta(hours=3, minutes=55), start + timedelta(hours=8))
    assert "overlaps the one from 18:00 by 5 minutes" in refusal.value.message_dict["started_at"][0]


@pytest.mark.parametrize(
    ("start", "stop"),
    [
        (local(2026, 1, 1, 5, 59), local(2026, 1, 1, 22)),  # before the day's 06:00 start
        (local(2026, 1, 2, 6), local(2026, 1, 2, 8)),  # the next gaming day's first minute
        (local(2025, 12, 31, 18), local(2025, 12, 31, 22)),  # the day before, wholly
    ],
)
def test_a_recording_starting_outside_its_gaming_days_business_hours_is_refused(shift_manager, table, start, stop):
    with pytest.raises(ValidationError) as refusal:
        record(shift_manager, table, start, stop)
    message = refusal.value.message_dict["started_at"][0]
    assert message.startswith("ND 99-01.3-02-01: ")
    assert "is outside the business hours of the gaming day 2026-01-01" in message
    assert "2026-01-01 06:00 CST to 2026-01-02 06:00 CST" in message
    assert not Recording.objects.exists()


def test_a_recording_may_run_past_its_gaming_days_last_hour(shift_manager, table):
    """08-04(5)(b): recorded until the table is permanently closed for the day, which may be after
    the day's last hour: only its start is held to the day."""
    recording = record(shift_manager, table, local(2026, 1, 2, 4), local(2026, 1, 2, 7, 30))
    assert recording.gaming_date == date(2026, 1, 1) and recording.stopped_at == local(2026, 1, 2, 7, 30)


def test_a_recording_stopping_before_it_starts_is_refused_even_inside_the_day(shift_manager, table):
    with pytest.raises(ValidationError) as refusal:
        record(shift_manager, table, local(2026, 1, 1, 22), local(2026, 1, 1, 21))
    assert refusal.value.message_dict["stopped_at"][0].startswith("ND 99-01.3-08-04(5)(b): the recording stops after")
    assert not Recording.objects.exists()


def test_a_recording_of_a_gaming_day_not_begun_is_refused(shift_manager, site, table):
    with time_machine.travel(local(2026, 1, 1, 20), tick=False):
        with pytest.raises(ValidationError) as refusal:
            services.record_recording(
                acting_user=shift_manager.user,
                table=table,
                gaming_date=date(2026, 1, 2),
                started_at=local(2026, 1, 1, 18),
                stopped_at=local(2026, 1, 1, 19),
            )
    message = refusal.value.message_dict["gaming_date"][0]
    assert message.startswith("ND 99-01.3-02-01: the gaming day 2026-01-02 has not begun yet")
    assert "(its current gaming day is 2026-01-01)" in message and not Recording.objects.exists()
