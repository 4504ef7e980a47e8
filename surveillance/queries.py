"""Reads other apps and compliance jobs call: site status, table activity, outage deadlines
and the $2 wager cap, review progress and video retention.

Dealer shifts belong to the floor (`floor.models.DealerShift`: table, dealer,
started_at, ended_at null while on shift). They are imported inside functions so this app
works before the floor has data. *Assumed*: "hours of activity on the table" (08-04(7)) are
the hours a dealer is on shift at it; with no dealer shift recorded, no time counts as
activity and only the 4-calendar-day limit can run out.
"""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Prefetch, Q
from django.utils import timezone

from cardroom.models import Site, Table
from cardroom.money import format_money

from .deadlines import OutageDeadline, outage_deadline
from .models import Outage, Recording, ReviewEntry, ReviewProgram, ReviewTask, SurveillanceStatus
from .rules import OUTAGE_CALENDAR_LIMIT, OUTAGE_WAGER_CAP_CENTS, RECORDING_RETENTION, REVIEW_MIN_FOOTAGE


def dealer_shifts():
    """The floor's dealer rotations (the activity on a table, ND 99-01.3-08-04(7))."""
    from floor.models import DealerShift

    return DealerShift.objects.all()


# --- Site status -------------------------------------------------------------------------


def current_status(site: Site, on_date: date) -> SurveillanceStatus | None:
    """The status in effect on `on_date`: latest `since`, then latest recorded."""
    return (
        SurveillanceStatus.objects.filter(site=site, since__lte=on_date)
        .order_by("-since", "-recorded_at", "-id")
        .first()
    )


def surveillance_required(site: Site, on_date: date) -> bool:
    """Whether `site` must have a video surveillance system on `on_date` (ND 99-01.3-08-04)."""
    status = current_status(site, on_date)
    return bool(status and status.required)


def table_requires_surveillance(table: Table, on_date: date) -> bool:
    """Every regularly located table at a surveillance site; a temporary special-event table
    is exempt (ND 99-01.3-08-04; its 14-day, two-events-a-quarter limits are the table setup's)."""
    return table.location == Table.Location.REGULAR and surveillance_required(table.site, on_date)


# --- Gaming days and activity ------------------------------------------------------------


def business_day_window(site: Site, gaming_date: date) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day: from the site's business-day start hour to the next one."""
    zone = ZoneInfo(site.time_zone)
    start = datetime.combine(gaming_date, time(site.business_day_start_hour), tzinfo=zone)
    end = datetime.combine(gaming_date + timedelta(days=1), time(site.business_day_start_hour), tzinfo=zone)
    return start, end


def gaming_date_of(site: Site, moment: datetime) -> date:
    local = moment.astimezone(ZoneInfo(site.time_zone))
    return (local - timedelta(hours=site.business_day_start_hour)).date()


def activity_intervals(table: Table, since: datetime | None = None) -> list[tuple[datetime, datetime | None]]:
    """Dealer shifts on the table (end None while the dealer is still on shift)."""
    shifts = dealer_shifts().filter(table=table)
    if since is not None:
        shifts = shifts.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=since))
    return list(shifts.order_by("started_at").values_list("started_at", "ended_at"))


def recorded_shifts(table: Table, start: datetime, end: datetime) -> list[tuple[datetime, datetime | None]]:
    """`(started_at, ended_at)` of the dealer shifts recorded at `table` running during [start, end)."""
    from floor.queries import shifts_overlapping

    return list(shifts_overlapping(start, end).filter(table=table).values_list("started_at", "ended_at"))


def table_had_activity(table: Table, gaming_date: date) -> bool:
    from floor.queries import shifts_overlapping

    start, end = business_day_window(table.site, gaming_date)
    return shifts_overlapping(start, end).filter(table=table).exists()


def employee_dealt_at(employee, site: Site, start: datetime, end: datetime) -> bool:
    """Whether `employee` conducted games at `site` between start and end (dealer rotations)."""
    from floor.queries import employee_dealt_at as dealt

    return dealt(employee, site, start, end)


# --- Outages -----------------------------------------------------------------------------


def deadline_for(outage: Outage) -> OutageDeadline:
    """When the table must close or drop to $2 wagers unless repaired (ND 99-01.3-08-04(7))."""
    calendar_end = outage.began_at + OUTAGE_CALENDAR_LIMIT.value + timedelta(days=1)
    intervals = [(a, b) for a, b in activity_intervals(outage.table, outage.began_at) if a < calendar_end]
    return outage_deadline(outage.began_at, intervals, outage.table.site.time_zone)


def deadlines_for(outages) -> dict[int, OutageDeadline]:
    """`deadline_for` of each outage of a list, reading the tables' dealer shifts in one query."""
    outages = list(outages)
    if not outages:
        return {}
    since = min(o.began_at for o in outages)
    shifts = dealer_shifts().filter(table__in={o.table_id for o in outages})
    shifts = shifts.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=since)).order_by("started_at")
    by_table: dict[int, list[tuple[datetime, datetime | None]]] = {}
    for table_id, started, ended in shifts.values_list("table_id", "started_at", "ended_at"):
        by_table.setdefault(table_id, []).append((started, ended))
    deadlines = {}
    for outage in outages:
        calendar_end = outage.began_at + OUTAGE_CALENDAR_LIMIT.value + timedelta(days=1)
        intervals = [
            (a, b)
            for a, b in by_table.get(outage.table_id, [])
            if (b is None or b > outage.began_at) and a < calendar_end
        ]
        deadlines[outage.pk] = outage_deadline(outage.began_at, intervals, outage.table.site.time_zone)
    return deadlines


def repaired_by(outage: Outage, at: datetime) -> bool:
    repair = getattr(outage, "repair", None) if outage.pk else None
    return repair is not None and repair.repaired_at <= at


def outage_wager_cap(table: Table, at: datetime | None = None) -> tuple[int | None, str]:
    """`(cap_cents, reason)` when an unrepaired outage is past its deadline at `at`, else
    `(None, "")`. Table opening and table edits refuse a maximum wager above the cap."""
    at = at or timezone.now()
    outages = Outage.objects.filter(table=table, began_at__lte=at).exclude(repair__repaired_at__lte=at)
    for outage in outages.select_related("table__site").order_by("began_at"):
        deadline = deadline_for(outage)
        if at >= deadline.at:
            return OUTAGE_WAGER_CAP_CENTS.value, _cap_reason(outage, deadline)
    return None, ""


def _cap_reason(outage: Outage, deadline: OutageDeadline) -> str:
    zone = ZoneInfo(outage.table.site.time_zone)
    return (
        f"{deadline.citation}: {outage.get_kind_display().lower()} on table {outage.table.number} since "
        f"{outage.began_at.astimezone(zone):%Y-%m-%d %H:%M} was not repaired within {deadline.basis} "
        f"(deadline {deadline.at.astimezone(zone):%Y-%m-%d %H:%M}); close the table or limit wagers to "
        f"{format_money(OUTAGE_WAGER_CAP_CENTS.value)} until it is repaired."
    )


def open_outages(site: Site):
    return Outage.objects.filter(table__site=site, repair__isnull=True).select_related("table__site", "equipment")


# --- Recordings --------------------------------------------------------------------------


def release_date(site: Site, stopped_at: datetime) -> date:
    """First date a recording may be released: the day after 30 full days from its stop
    (ND 99-01.3-08-04(6)). *Assumed*: counted in whole days of the site's calendar."""
    stop_date = stopped_at.astimezone(ZoneInfo(site.time_zone)).date()
    return stop_date + RECORDING_RETENTION.value + timedelta(days=1)


def releasable_recordings(site: Site, on_date: date | None = None):
    """Recordings whose retention has ended on `on_date` (today at the site by default)."""
    on_date = on_date or timezone.now().astimezone(ZoneInfo(site.time_zone)).date()
    return Recording.objects.filter(table__site=site, release_on__lte=on_date)


# --- Video review program ----------------------------------------------------------------


def active_entries(queryset=None):
    """Review entries not replaced by a correction."""
    queryset = ReviewEntry.objects.all() if queryset is None else queryset
    return queryset.filter(corrections__isnull=True)


def task_footage(task: ReviewTask) -> timedelta:
    """Footage reviewed for the task; reads `task.active_entries` when a list prefetched them
    (`with_active_entries`)."""
    entries = getattr(task, "active_entries", None)
    if entries is None:
        entries = active_entries(task.entries.all())
    return sum((e.footage for e in entries), timedelta())


def with_active_entries(tasks):
    """Review tasks with their active entries prefetched (one query for the whole list)."""
    return tasks.prefetch_related(Prefetch("entries", queryset=active_entries(), to_attr="active_entries"))


def task_done(task: ReviewTask) -> bool:
    return task_footage(task) >= REVIEW_MIN_FOOTAGE.value


def program_ended_on(program: ReviewProgram) -> date:
    """The last day of the program: the end of week 6, or the day the reason was documented."""
    closure = getattr(program, "closure", None)
    return min(program.end_date, closure.closed_on) if closure else program.end_date


def program_is_open(program: ReviewProgram, on_date: date) -> bool:
    return program.start_date <= on_date <= program_ended_on(program)
