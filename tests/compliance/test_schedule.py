"""The next scheduled run, read from the beat schedule's crontabs."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from celery.schedules import crontab

from compliance.schedule import next_crontab_time, next_runs, next_time

UTC_ZONE = ZoneInfo("UTC")


@pytest.mark.parametrize(
    "entry,after,expected",
    [
        (crontab(hour=9, minute=30), "2026-11-18T09:29", "2026-11-18T09:30"),
        (crontab(hour=9, minute=30), "2026-11-18T09:30", "2026-11-19T09:30"),  # strictly after
        (crontab(hour=9, minute=30), "2026-12-31T23:00", "2027-01-01T09:30"),
        (crontab(hour=8, minute=0, day_of_week="sun"), "2026-11-18T00:00", "2026-11-22T08:00"),
        (
            crontab(hour=9, minute=45, day_of_month="1-21", month_of_year="1,4,7,10"),
            "2026-11-18T00:00",
            "2027-01-01T09:45",
        ),
        (
            crontab(hour=9, minute=45, day_of_month="1-21", month_of_year="1,4,7,10"),
            "2026-10-21T09:45",
            "2027-01-01T09:45",
        ),
        (
            crontab(hour=9, minute=45, day_of_month="1-21", month_of_year="1,4,7,10"),
            "2026-10-20T10:00",
            "2026-10-21T09:45",
        ),
        (crontab(hour="*/6", minute=0), "2026-11-18T13:00", "2026-11-18T18:00"),
        (crontab(hour=0, minute=0, day_of_month=29, month_of_year=2), "2026-03-01T00:00", "2028-02-29T00:00"),
    ],
)
def test_the_next_time_a_crontab_fires(entry, after, expected):
    found = next_crontab_time(entry, datetime.fromisoformat(after).replace(tzinfo=UTC), UTC_ZONE)
    assert found == datetime.fromisoformat(expected).replace(tzinfo=UTC_ZONE)


def test_an_interval_runs_its_interval_after_now():
    now = datetime(2026, 11, 18, 12, tzinfo=UTC)
    assert next_time(timedelta(hours=2), now, UTC_ZONE) == now + timedelta(hours=2)


def test_the_compliance_runs_come_from_the_beat_schedule_soonest_first():
    now = datetime(2026, 11, 18, 18, tzinfo=UTC)
    runs = next_runs(now)
    assert [(r.name, r.at) for r in runs] == [
        ("compliance-daily-rules", datetime(2026, 11, 19, 9, 30, tzinfo=UTC_ZONE)),
        ("compliance-quarter-rules", datetime(2027, 1, 1, 9, 45, tzinfo=UTC_ZONE)),
    ]


def test_a_schedule_without_compliance_runs_has_none():
    schedule = {"other": {"task": "core.tasks.verify_audit_log", "schedule": crontab(hour=1, minute=0)}}
    assert next_runs(datetime(2026, 11, 18, tzinfo=UTC), schedule) == []
