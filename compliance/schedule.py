"""When the compliance checks run next, read from the Celery beat schedule (config.celery),
so the page shows what the schedule says rather than a copy of it."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from celery.schedules import crontab
from django.conf import settings

# The scheduled tasks that run the rules, in the words of the page.
RUN_TASKS = {
    "compliance.tasks.run_daily_checks": "Day rules (the last seven gaming days, every site)",
    "compliance.tasks.run_quarter_checks": "Quarter rules (the quarter just ended, every site)",
}
SEARCH_DAYS = 9 * 366  # Feb 29 may be eight years away (2096 to 2104); Celery refuses a day that never comes


@dataclass(frozen=True)
class ScheduledRun:
    name: str  # the beat schedule's entry
    what: str
    at: datetime  # aware


def next_crontab_time(entry: crontab, after: datetime, zone: ZoneInfo) -> datetime | None:
    """The first time strictly after `after` that the crontab fires, reading its fields as
    Celery does: minute, hour, day of week (0 = Sunday), day of month and month all must
    match; times are in `zone` (CELERY_TIMEZONE)."""
    local = after.astimezone(zone)
    times = sorted(time(h, m) for h in entry.hour for m in entry.minute)
    for offset in range(SEARCH_DAYS):
        day = local.date() + timedelta(days=offset)
        if not _day_matches(entry, day):
            continue
        for at in times:
            candidate = datetime.combine(day, at, tzinfo=zone)
            if candidate > local:
                return candidate
    return None


def _day_matches(entry: crontab, day: date) -> bool:
    return (
        day.month in entry.month_of_year
        and day.day in entry.day_of_month
        and (day.isoweekday() % 7) in entry.day_of_week
    )


def next_time(schedule, after: datetime, zone: ZoneInfo) -> datetime | None:
    """The next run of a beat entry's schedule: a crontab exactly; an interval (`schedule`,
    a timedelta) from `after`, since beat counts it from its own last run."""
    if isinstance(schedule, crontab):
        return next_crontab_time(schedule, after, zone)
    if isinstance(schedule, timedelta | int | float):
        return after + (schedule if isinstance(schedule, timedelta) else timedelta(seconds=schedule))
    run_every = getattr(schedule, "run_every", None)
    return after + run_every if isinstance(run_every, timedelta) else None


def next_runs(now: datetime, beat_schedule: dict | None = None) -> list[ScheduledRun]:
    """The next run of each scheduled compliance check, soonest first."""
    if beat_schedule is None:
        from celery import current_app  # the project's app (config.celery), set current when it is made

        beat_schedule = current_app.conf.beat_schedule
    zone = ZoneInfo(getattr(settings, "CELERY_TIMEZONE", None) or "UTC")
    runs = []
    for name, entry in beat_schedule.items():
        if entry["task"] in RUN_TASKS and (at := next_time(entry["schedule"], now, zone)) is not None:
            runs.append(ScheduledRun(name, RUN_TASKS[entry["task"]], at))
    return sorted(runs, key=lambda run: run.at)
