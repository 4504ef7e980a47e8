"""Reads other apps and compliance jobs call: site status, table activity, outage deadlines
and the $2 wager cap, review progress and video retention.

Dealer shifts belong to the floor (`floor.models.DealerShift`: table, dealer,
started_at, ended_at null while on shift). They are imported inside functions so this app
works before the floor has data. *Assumed*: "hours of activity on the table" (08-04(7)) are
the hours a dealer is on shift at it; with no dealer shift recorded, no time counts as
activity and only the 4-calendar-day limit can run out.
"""

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import DateTimeField, Exists, F, Max, Min, OuterRef, Prefetch, Q, Subquery, Value
from django.db.models.functions import Coalesce, Greatest, Least
from django.utils import timezone

from cardroom.models import Site, Table
from core import moments
from core.money import format_money
from core.periods import Quarter
from core.plurals import plural
from core.rules import HOUSE_CONTROL
from packs import Limit

from . import special_events
from .deadlines import OutageDeadline, merge_intervals, outage_deadline
from .models import (
    Equipment,
    EquipmentChange,
    Outage,
    OutageRepair,
    PremisesSuccession,
    Recording,
    ReviewEntry,
    ReviewLogEntry,
    ReviewProgram,
    ReviewTask,
    SampleEvaluation,
    SampleSubmission,
    SurveillanceStatus,
)
from .rules import (
    NOT_OPERATIONAL_WAGER_CAP_CENTS,
    OPERATIONAL_WITHIN,
    OUTAGE_CALENDAR_LIMIT,
    OUTAGE_WAGER_CAP_CENTS,
    RECORDING_RETENTION,
    REVIEW_MIN_FOOTAGE,
    REVIEW_PROGRAM_LENGTH,
    REVIEW_WEEK,
    SYSTEM,
)


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


def premises_chain(site: Site) -> list[int]:
    """Ids of `site` and the sites whose premises it succeeds, back along the chain of
    `PremisesSuccession` (ND 99-01.3-08-04: activity counts whichever organization conducted it)."""
    chain = [site.pk]
    while True:
        previous = PremisesSuccession.objects.filter(site_id=chain[-1]).values_list("predecessor_id", flat=True).first()
        if previous is None or previous in chain:
            return chain
        chain.append(previous)


def surveillance_required(site: Site, on_date: date) -> bool:
    """Whether `site` must have a video surveillance system on `on_date` (ND 99-01.3-08-04)."""
    status = current_status(site, on_date)
    return bool(status and status.required)


def table_requires_surveillance(table: Table, on_date: date) -> bool:
    """Every regularly located table at a surveillance site; a temporary special-event table
    is exempt only within its limits (ND 99-01.3-08-04: 14 or fewer consecutive days, at most
    two events a quarter; `special_event_exemption`)."""
    if not surveillance_required(table.site, on_date):
        return False
    return table.location == Table.Location.REGULAR or not special_event_exemption(table, on_date).exempt


def special_event_days(table_ids, since: date, until: date) -> dict[int, set[date]]:
    """table id -> the gaming days in [since, until] it was used (a dealer shift on it), one query."""
    days: dict[int, set[date]] = {}
    shifts = dealer_shifts().filter(table_id__in=table_ids, gaming_day__gaming_date__range=(since, until))
    for table_id, day in shifts.values_list("table_id", "gaming_day__gaming_date"):
        days.setdefault(table_id, set()).add(day)
    return days


def site_special_events(site_ids, since: date, until: date) -> dict[int, list[tuple[date, date]]]:
    """site id -> its special events in force ((first day, last day), not replaced by a correction)
    that touch [since, until], one query."""
    from .models import SpecialEvent

    found: dict[int, list[tuple[date, date]]] = {}
    events = SpecialEvent.objects.filter(
        site_id__in=site_ids, corrected_by__isnull=True, last_day__gte=since, first_day__lte=until
    )
    for site_id, first, last in events.values_list("site_id", "first_day", "last_day"):
        found.setdefault(site_id, []).append((first, last))
    return found


def special_event_window(start: date, end: date) -> tuple[date, date]:
    """The days whose events decide the exemption of the days [start, end]: from the start of the
    quarter of `start` to the end of the quarter of `end` (events are counted per quarter)."""
    return Quarter.containing(start).start, Quarter.containing(end).end


def special_event_exemption(table: Table, on_date: date) -> special_events.Exemption:
    """ND 99-01.3-08-04: whether a temporary special-event table is within its exemption on
    `on_date`: its site's special events (`site_special_events`; see `special_events`)."""
    events = site_special_events([table.site_id], *special_event_window(on_date, on_date)).get(table.site_id, [])
    return special_events.exemption(events, on_date, table.site)


def statuses_in_force(site_ids, on_date: date) -> dict[int, SurveillanceStatus]:
    """site id -> the status in force on `on_date` (sites without one are left out), one query."""
    found: dict[int, SurveillanceStatus] = {}
    rows = SurveillanceStatus.objects.filter(site_id__in=site_ids, since__lte=on_date)
    for status in rows.order_by("since", "recorded_at", "id"):
        found[status.site_id] = status
    return found


def operational_deadlines(
    site_ids, on_date: date, *, in_force: dict[int, SurveillanceStatus] | None = None
) -> dict[int, date]:
    """site id -> the last day the site may be without an operational system, under the status
    in force on `on_date` (ND 99-01.3-08-04): the quarter rule's date (45 days from the end of
    the second quarter), or at acquired premises 45 days from the first gaming day conducted
    there (none until that day). A status recorded by hand with no date has no deadline. Two
    queries whatever the number of sites (one when the caller read `in_force`, statuses_in_force)."""
    from floor.models import GamingDay

    deadlines, acquired = {}, {}
    if in_force is None:
        in_force = statuses_in_force(site_ids, on_date)
    for site_id, status in in_force.items():
        if not status.required:
            continue
        if status.operational_due_on is not None:
            deadlines[site_id] = status.operational_due_on
        elif status.trigger == SurveillanceStatus.Trigger.ACQUIRED_SITE:
            acquired[site_id] = status.since
    if acquired:
        first_days = Q()
        for site_id, since in acquired.items():
            first_days |= Q(site_id=site_id, gaming_date__gte=since)
        rows = GamingDay.objects.filter(first_days).values("site_id", "site__jurisdiction")
        for site_id, jurisdiction, first in rows.annotate(first=Min("gaming_date")).values_list(
            "site_id", "site__jurisdiction", "first"
        ):
            deadlines[site_id] = first + OPERATIONAL_WITHIN.on(jurisdiction, first).value
    return deadlines


def operational_deadline(site: Site, on_date: date) -> date | None:
    """`operational_deadlines` of one site."""
    return operational_deadlines([site.pk], on_date).get(site.pk)


class EquipmentRegister:
    """Per-table coverage from the equipment register of some sites (one query): a table has a
    system on a day when an in-service camera is assigned to it and an in-service recording
    unit serves it (assigned to it, or to no table) (ND 99-01.3-08-04: a system for each table
    regularly located on the site; 08-04(1))."""

    def __init__(self, site_ids):
        self._cameras: dict[int, list[tuple[date, date | None]]] = {}
        self._recorders: dict[tuple[int, int | None], list[tuple[date, date | None]]] = {}
        kinds = [Equipment.Kind.CAMERA, Equipment.Kind.RECORDING_UNIT]
        rows = Equipment.objects.filter(site_id__in=site_ids, kind__in=kinds)
        for site_id, table_id, kind, installed, removed in rows.values_list(
            "site_id", "table_id", "kind", "installed_on", "removed_on"
        ):
            if kind == Equipment.Kind.CAMERA and table_id is not None:
                self._cameras.setdefault(table_id, []).append((installed, removed))
            elif kind == Equipment.Kind.RECORDING_UNIT:
                self._recorders.setdefault((site_id, table_id), []).append((installed, removed))

    @staticmethod
    def _in_service(periods, on_date: date) -> bool:
        return any(installed <= on_date and (removed is None or removed > on_date) for installed, removed in periods)

    def has_system(self, table: Table, on_date: date) -> bool:
        recorders = self._recorders.get((table.site_id, None), []) + self._recorders.get((table.site_id, table.pk), [])
        return self._in_service(self._cameras.get(table.pk, []), on_date) and self._in_service(recorders, on_date)


def table_has_system(table: Table, on_date: date) -> bool:
    return EquipmentRegister([table.site_id]).has_system(table, on_date)


def tables_without_system(sites, on_date: date) -> dict[int, list[Table]]:
    """site id -> active tables that need a system on `on_date` and have none in the equipment
    register: every regularly located table of a site requiring surveillance, and a
    special-event table used that day past its exemption. A fixed number of queries."""
    site_ids = [s.pk for s in sites]
    required = {i for i, status in statuses_in_force(site_ids, on_date).items() if status.required}
    tables = list(
        Table.objects.filter(site_id__in=required, active=True).select_related("site").order_by("site_id", "number")
    )
    register = EquipmentRegister(required)
    temporary = [t.pk for t in tables if t.location != Table.Location.REGULAR]
    days = special_event_days(temporary, on_date, on_date) if temporary else {}
    events = site_special_events(required, *special_event_window(on_date, on_date)) if temporary else {}
    found: dict[int, list[Table]] = {}
    for table in tables:
        if table.location != Table.Location.REGULAR:
            used = days.get(table.pk, set())
            if (
                on_date not in used
                or special_events.exemption(events.get(table.site_id, []), on_date, table.site).exempt
            ):
                continue  # not on the site that day, or within its exemption
        if not register.has_system(table, on_date):
            found.setdefault(table.site_id, []).append(table)
    return found


def _system_cap(table: Table, at: datetime, in_force: dict[int, SurveillanceStatus]) -> tuple[int | None, str]:
    on_date = gaming_date_of(table.site, at)
    due = operational_deadlines([table.site_id], on_date, in_force=in_force).get(table.site_id)
    if due is None or on_date <= due or not table_requires_surveillance(table, on_date):
        return None, ""
    if table_has_system(table, on_date):
        return None, ""
    cap, within = NOT_OPERATIONAL_WAGER_CAP_CENTS.on(table.site, on_date), OPERATIONAL_WITHIN.on(table.site, due)
    return cap.value, (
        f"{cap.citation}: table {table.number} has no operational video surveillance system in the equipment "
        f"register (a camera on the table and a recording unit), due within {within.text} "
        f"(by {due:%Y-%m-%d}); limit wagers to {format_money(cap.value)} until it is "
        "operational."
    )


# --- Gaming days and activity ------------------------------------------------------------


def gaming_date_of(site: Site, moment: datetime) -> date:
    local = moment.astimezone(ZoneInfo(site.time_zone))
    return (local - timedelta(hours=site.business_day_start_hour)).date()


def organization_has_other_sites(site: Site) -> bool:
    """Does the site's organization conduct games at another active site? Then its tables carry a
    site identification visible on the recorded video (ND 99-01.3-08-04(2))."""
    return Site.objects.filter(organization_id=site.organization_id, active=True).exclude(pk=site.pk).exists()


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

    start, end = moments.gaming_day_bounds(table.site, gaming_date)
    return shifts_overlapping(start, end).filter(table=table).exists()


def employee_dealt_at(employee, site: Site, start: datetime, end: datetime) -> bool:
    """Whether `employee` conducted games at `site` between start and end (dealer rotations)."""
    from floor.queries import employee_dealt_at as dealt

    return dealt(employee, site, start, end)


# --- Outages -----------------------------------------------------------------------------


def _local_day(site: Site, at: datetime) -> date:
    """The calendar day of `at` on the site's clock (the day whose limits are in force)."""
    return at.astimezone(ZoneInfo(site.time_zone)).date()


def deadline_for(outage: Outage) -> OutageDeadline:
    """When the table must close or drop to $2 wagers unless repaired (ND 99-01.3-08-04(7))."""
    site = outage.table.site
    calendar_end = (
        outage.began_at + OUTAGE_CALENDAR_LIMIT.on(site, _local_day(site, outage.began_at)).value + timedelta(days=1)
    )
    intervals = [(a, b) for a, b in activity_intervals(outage.table, outage.began_at) if a < calendar_end]
    return outage_deadline(outage.began_at, intervals, site.time_zone, site)


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
        site = outage.table.site
        calendar_end = (
            outage.began_at
            + OUTAGE_CALENDAR_LIMIT.on(site, _local_day(site, outage.began_at)).value
            + timedelta(days=1)
        )
        intervals = [
            (a, b)
            for a, b in by_table.get(outage.table_id, [])
            if (b is None or b > outage.began_at) and a < calendar_end
        ]
        deadlines[outage.pk] = outage_deadline(outage.began_at, intervals, site.time_zone, site)
    return deadlines


def wager_caps(table: Table, at: datetime | None = None) -> list[tuple[int, str]]:
    """Every $2 cap in force at `table` at `at` (None: now), as `(cap_cents, reason)`, the
    outage's (08-04(7)) first, then the missing system's (08-04). What table opening and
    seating a dealer ask: the site's status in force and whether the table has an unrepaired
    outage come in one query; the outages themselves are read only when there is one."""
    if not (SYSTEM.applies(table.site) or OUTAGE_WAGER_CAP_CENTS.rule.applies(table.site)):
        return []  # the caps are obligations of a pack's law (ND 99-01.3-08-04), not house controls
    at = at or timezone.now()
    status, has_outage = _cap_facts(table, at)
    caps = [outage_wager_cap(table, at)] if has_outage else []
    if SYSTEM.applies(table.site):
        caps.append(_system_cap(table, at, {table.site_id: status} if status is not None else {}))
    return [(cap, reason) for cap, reason in caps if cap is not None]


_STATUS_FIELDS = ("required", "since", "operational_due_on", "trigger")
# Plain SQL: the statement runs at every opener and dealer rotation, and built with the ORM (an
# EXISTS across the repair and a subquery per field of the status) it cost more than the two
# plain queries it replaces. The anchor row makes a site without a status still answer.
_CAP_FACTS_SQL = f"""
    SELECT EXISTS(
               SELECT 1 FROM "{Outage._meta.db_table}" o WHERE o."table_id" = %s AND o."began_at" <= %s
               AND NOT EXISTS(
                   SELECT 1 FROM "{OutageRepair._meta.db_table}" r WHERE r."outage_id" = o."id" AND r."repaired_at" <= %s
               )
           ),
           s."id", {", ".join(f's."{name}"' for name in _STATUS_FIELDS)}
    FROM (SELECT 1 AS one) anchor
    LEFT JOIN (
        SELECT "id", {", ".join(f'"{name}"' for name in _STATUS_FIELDS)} FROM "{SurveillanceStatus._meta.db_table}"
        WHERE "site_id" = %s AND "since" <= %s ORDER BY "since" DESC, "recorded_at" DESC, "id" DESC LIMIT 1
    ) s ON 1 = 1
"""


def _cap_facts(table: Table, at: datetime) -> tuple[SurveillanceStatus | None, bool]:
    """The site's status in force on `at`'s gaming date (an unsaved copy of its fields, or None)
    and whether the table has an outage not repaired by `at`, in one query."""
    moment = connection.ops.adapt_datetimefield_value(at)
    on_date = connection.ops.adapt_datefield_value(gaming_date_of(table.site, at))
    with connection.cursor() as cursor:
        cursor.execute(_CAP_FACTS_SQL, [table.pk, moment, moment, table.site_id, on_date])
        has_outage, pk, *values = cursor.fetchone()
    if pk is None:
        return None, bool(has_outage)
    fields = {
        name: SurveillanceStatus._meta.get_field(name).to_python(v)
        for name, v in zip(_STATUS_FIELDS, values, strict=True)
    }
    return SurveillanceStatus(pk=pk, site_id=table.site_id, **fields), bool(has_outage)


def outage_wager_cap(table: Table, at: datetime | None = None) -> tuple[int | None, str]:
    """`(cap_cents, reason)` when an unrepaired outage is past its deadline at `at`, else
    `(None, "")`. Table opening and table edits refuse a maximum wager above the cap. Never at a
    site whose pack does not state the rule (`OUTAGE_WAGER_CAP_CENTS.rule`)."""
    if not OUTAGE_WAGER_CAP_CENTS.rule.applies(table.site):
        return None, ""
    at = at or timezone.now()
    outages = Outage.objects.filter(table=table, began_at__lte=at).exclude(repair__repaired_at__lte=at)
    for outage in outages.select_related("table__site").order_by("began_at"):
        deadline = deadline_for(outage)
        if at >= deadline.at:
            cap = OUTAGE_WAGER_CAP_CENTS.on(table.site, _local_day(table.site, deadline.at))
            return cap.value, _cap_reason(outage, deadline)
    return None, ""


def _cap_reason(outage: Outage, deadline: OutageDeadline) -> str:
    zone = ZoneInfo(outage.table.site.time_zone)
    cap = OUTAGE_WAGER_CAP_CENTS.on(outage.table.site, _local_day(outage.table.site, deadline.at))
    return (
        f"{deadline.rule.at(outage.table.site)}: {outage.get_kind_display().lower()} on table {outage.table.number} since "
        f"{outage.began_at.astimezone(zone):%Y-%m-%d %H:%M} was not repaired within {deadline.basis} "
        f"(deadline {deadline.at.astimezone(zone):%Y-%m-%d %H:%M}); close the table or limit wagers to "
        f"{format_money(cap.value)} until it is repaired."
    )


def open_outages(site: Site):
    return Outage.objects.filter(table__site=site, repair__isnull=True).select_related("table__site", "equipment")


# --- Recordings --------------------------------------------------------------------------


def release_date(site: Site, stopped_at: datetime) -> date:
    """First date a recording may be released: the day after 30 full days from its stop
    (ND 99-01.3-08-04(6)). *Assumed*: counted in whole days of the site's calendar."""
    stop_date = stopped_at.astimezone(ZoneInfo(site.time_zone)).date()
    return stop_date + RECORDING_RETENTION.on(site, stop_date).value + timedelta(days=1)


def releasable_recordings(site: Site, on_date: date | None = None):
    """Recordings whose retention has ended on `on_date` (today at the site by default)."""
    on_date = on_date or timezone.now().astimezone(ZoneInfo(site.time_zone)).date()
    return Recording.objects.filter(table__site=site, release_on__lte=on_date)


# --- Video review program ----------------------------------------------------------------


def active_entries(queryset=None):
    """Review entries not replaced by a correction."""
    queryset = ReviewEntry.objects.all() if queryset is None else queryset
    return queryset.filter(corrections__isnull=True)


def reviews_by(reviewer, site: Site):
    """The review entries (not replaced by a correction) whose reviewer is `reviewer` at `site`,
    earliest shift reviewed first, each with the shift reviewed as the review judged it
    (`window_start`, `window_end`, `_with_windows`)."""
    return (
        _with_windows(active_entries().filter(reviewer=reviewer, table__site=site))
        .select_related("table")
        .order_by("shift_started_at", "pk")
    )


def _with_windows(entries):
    """`entries` with the shift each reviewed as the review judged it (`window_start`,
    `window_end`): the times typed in, widened by the dealer shifts recorded at its table during
    its footage, an open one to the footage's end (`services.review_programs._reviewed_window`, read
    now, so a shift entered since from paper widens it too). The reviewer's own shifts do not widen
    it: one at the table during the footage is in the typed shift, which holds the footage."""
    from floor.queries import shifts_overlapping

    at_the_table = (
        shifts_overlapping(OuterRef("footage_start_at"), OuterRef("footage_end_at"))
        .filter(table=OuterRef("table"))
        .exclude(dealer=OuterRef("reviewer"))  # theirs would be judged by itself (open, it runs to the footage's end)
        .order_by()
        .values("table")
    )
    first = at_the_table.annotate(at=Min("started_at")).values("at")
    last = at_the_table.annotate(at=Max(Coalesce("ended_at", OuterRef("footage_end_at")))).values("at")
    return entries.annotate(
        window_start=Least("shift_started_at", Coalesce(Subquery(first), "shift_started_at")),
        window_end=Greatest("shift_ended_at", Coalesce(Subquery(last), "shift_ended_at")),
    )


def review_widened_onto_its_reviewer(table: Table, dealer, started_at: datetime, ended_at: datetime | None):
    """The first review (not replaced by a correction) of `table`'s footage, by someone other than
    `dealer`, whose shift reviewed (`_with_windows`) the dealer shift of `dealer` at `table` from
    `started_at` to `ended_at` (None: running, to the footage's end), recorded now, widens onto a
    dealer shift of its reviewer at the site that the shift reviewed did not reach before; or None.
    Annotated with `window_start`, `window_end` (as it is), `widened_start`, `widened_end` (with the
    shift) and the reviewer's shift it reaches (`dealt_from`, `dealt_to`, None while running); its
    table, site and reviewer are read with it. One query, however many reviews the table has.

    A shift recorded at the table that runs during the footage joins the shift reviewed: its start
    may move the window's start earlier, and its end (a running shift counts to the footage's end,
    which the typed shift holds) its end later; one not running during the footage leaves it."""
    from floor.models import DealerShift

    entries = active_entries().filter(table=table, footage_end_at__gt=started_at).exclude(reviewer=dealer)
    if ended_at is not None:
        entries = entries.filter(footage_start_at__lt=ended_at)
    moment = DateTimeField()
    widened_end = F("window_end") if ended_at is None else Greatest("window_end", Value(ended_at, output_field=moment))
    reviewed = _with_windows(entries).annotate(
        widened_start=Least("window_start", Value(started_at, output_field=moment)),
        widened_end=widened_end,
    )
    reached = (
        DealerShift.objects.filter(
            dealer=OuterRef("reviewer"), table__site_id=table.site_id, started_at__lt=OuterRef("widened_end")
        )
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=OuterRef("widened_start")))
        # ... and not already reached before this shift (a review the rule already refuses is not
        # this shift's doing: `services.review_programs._check_reviewer`, the floor's own checks).
        .filter(Q(started_at__gte=OuterRef("window_end")) | Q(ended_at__lte=OuterRef("window_start")))
        .order_by("started_at", "pk")
    )
    return (
        reviewed.annotate(
            dealt_from=Subquery(reached.values("started_at")[:1]),
            dealt_to=Subquery(reached.values("ended_at")[:1]),
        )
        .filter(dealt_from__isnull=False)
        .select_related("table__site", "reviewer__user")
        .order_by("shift_started_at", "pk")
        .first()
    )


def reviewed_footage(spans) -> timedelta:
    """The video the review entries `spans` ((footage start, footage end), ...) cover, each moment
    once: ND 99-01.3-08-04(9) asks an hour of a table's video reviewed, so footage reviewed twice (by
    two reviewers, or entered twice) or overlapping another entry is not counted again. One measure
    for the task's page and API, the nightly check of its week and the surveillance log."""
    return sum((end - start for start, end in merge_intervals(spans, open_end=timezone.now())), timedelta())


def task_footage(task: ReviewTask) -> timedelta:
    """Footage reviewed for the task (`reviewed_footage`); reads `task.active_entries` when a list
    prefetched them (`with_active_entries`)."""
    entries = getattr(task, "active_entries", None)
    if entries is None:
        entries = active_entries(task.entries.all())
    return reviewed_footage((e.footage_start_at, e.footage_end_at) for e in entries)


def with_active_entries(tasks):
    """Review tasks with their active entries prefetched (one query for the whole list)."""
    return tasks.prefetch_related(Prefetch("entries", queryset=active_entries(), to_attr="active_entries"))


def program_length(program: ReviewProgram) -> Limit:
    """The program's length as it asked when opened: the pack's `Limit` in force on its start
    date where it kept those weeks (or kept none, opened before it was kept), else the house's
    own weeks, cited "House control"."""
    stated = REVIEW_PROGRAM_LENGTH.on(program.site, program.start_date)
    if program.weeks is None or program.weeks * REVIEW_WEEK == stated.value:
        return stated
    weeks = plural(program.weeks, "continuous week")
    return Limit(REVIEW_PROGRAM_LENGTH.key, program.weeks * REVIEW_WEEK, weeks, HOUSE_CONTROL)


def program_footage(program: ReviewProgram) -> Limit:
    """The footage a week's task needs, as the program asked when opened (as `program_length`)."""
    stated = REVIEW_MIN_FOOTAGE.on(program.site, program.start_date)
    if program.footage_minutes is None or timedelta(minutes=program.footage_minutes) == stated.value:
        return stated
    return Limit(
        REVIEW_MIN_FOOTAGE.key,
        timedelta(minutes=program.footage_minutes),
        f"at least {footage_words(program.footage_minutes)} per week",
        HOUSE_CONTROL,
    )


def footage_words(minutes: int) -> str:
    """Minutes of video as a page says them: "90 minutes", "2 hours"."""
    return plural(minutes // 60, "hour") if minutes and minutes % 60 == 0 else plural(minutes, "minute")


def required_footage(program: ReviewProgram) -> timedelta:
    """The footage a week's task needs: the program's own (`program_footage`)."""
    return program_footage(program).value


def task_done(task: ReviewTask) -> bool:
    return task_footage(task) >= required_footage(task.program)


def program_ended_on(program: ReviewProgram) -> date:
    """The last day of the program: the end of week 6, or the day the reason was documented."""
    closure = getattr(program, "closure", None)
    return min(program.end_date, closure.closed_on) if closure else program.end_date


def review_started_since(site_id: int, since: date) -> bool:
    """Has a low-hold video review program started at the site on or after `since`?"""
    return ReviewProgram.objects.filter(site_id=site_id, start_date__gte=since).exists()


def reviews_done(site_id: int, since: date, until: date) -> tuple[date, date] | None:
    """(first day, last day) of a low-hold video review program at the site that started within
    [since, until] and whose every weekly task has its footage reviewed (ND 99-01.3-08-04(9));
    None: no such program."""
    programs = ReviewProgram.objects.filter(site_id=site_id, start_date__range=(since, until)).order_by("start_date")
    for program in programs.select_related("site"):
        tasks = list(with_active_entries(program.tasks.select_related("program__site")))
        if tasks and all(task_done(task) for task in tasks):
            return program.start_date, program_ended_on(program)
    return None


def program_is_open(program: ReviewProgram, on_date: date) -> bool:
    return program.start_date <= on_date <= program_ended_on(program)


def wager_cap(table: Table, at: datetime | None = None) -> tuple[int | None, str]:
    """The first $2 cap in force at `table` (an outage past its deadline, 08-04(7); no system
    past the site's deadline, 08-04), as `(cap_cents, reason)`; `(None, "")` when none is, and
    always at a site whose pack states neither cap's rule."""
    caps = wager_caps(table, at)
    return caps[0] if caps else (None, "")


# --- Reads of compliance's surveillance rules --------------------------------------------------------


def statuses_by_site(site_ids) -> dict[int, list[SurveillanceStatus]]:
    """site id -> its surveillance statuses in the order they take force (one query)."""
    by_site: dict[int, list] = {}
    for status in SurveillanceStatus.objects.filter(site_id__in=site_ids).order_by("since", "recorded_at", "id"):
        by_site.setdefault(status.site_id, []).append(status)
    return by_site


def review_logged(site_ids, start: date, end: date) -> set[tuple[int, date, int]]:
    """{(site id, gaming date, table number)} of the review log entries of the sites in [start, end]."""
    return set(
        ReviewLogEntry.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end)).values_list(
            "site_id", "gaming_date", "table__number"
        )
    )


def outages_overlapping(site_ids, start: date, end: date):
    """The outages of the sites' tables begun by `end` and not repaired before `start`."""
    return Outage.objects.filter(table__site_id__in=site_ids, began_at__date__lte=end).exclude(
        repair__repaired_at__date__lt=start
    )


def equipment_changes_with_first_sample(site_ids, start: date, end: date):
    """The sites' equipment changes made in [start, end], each with its first sample's submission
    date (`first_submission`, null while none)."""
    return EquipmentChange.objects.filter(site_id__in=site_ids, changed_on__range=(start, end)).annotate(
        first_submission=Min("submissions__submitted_on")
    )


def samples_to_resubmit(site_ids, end: date) -> list[tuple]:
    """(site id, submission id, the change's kind label, table number or None, sent on, evaluated
    on, findings) of the sites' samples evaluated not satisfactory by `end` with no sample sent
    after them (ND 99-01.3-08-04(11): resolve and resubmit). One query."""
    kinds = dict(EquipmentChange.Kind.choices)
    rows = (
        SampleEvaluation.objects.filter(
            outcome=SampleEvaluation.Outcome.RESUBMIT,
            evaluated_on__lte=end,
            submission__change__site_id__in=site_ids,
        )
        .exclude(Exists(SampleSubmission.objects.filter(resubmission_of=OuterRef("submission_id"))))
        .order_by("evaluated_on", "submission_id")
        .values_list(
            "submission__change__site_id",
            "submission_id",
            "submission__change__kind",
            "submission__change__table__number",
            "submission__submitted_on",
            "evaluated_on",
            "findings",
        )
    )
    return [(site_id, pk, kinds[kind], *rest) for site_id, pk, kind, *rest in rows]


def premises_predecessors() -> dict[int, int]:
    """site id -> the site whose premises it succeeds (surveillance.models.PremisesSuccession)."""
    return dict(PremisesSuccession.objects.values_list("site_id", "predecessor_id"))


def review_weeks_due(sites, start: date, end: date, today: date) -> tuple[list[ReviewTask], dict[int, timedelta]]:
    """The review program weeks of the sites ending in [start, end] before `today` (not after
    their program closed), with the video reviewed for each (task id -> duration)."""
    return review_weeks(sites, start, min(end, today - timedelta(days=1)))


def review_weeks(sites, start: date, end: date) -> tuple[list[ReviewTask], dict[int, timedelta]]:
    """The review program weeks of the sites ending in [start, end], past or to come (not after
    their program closed: its reason documented, 08-04(9)), each with its program and table, and
    the video reviewed for each (task id -> duration). Two queries."""
    due = ReviewTask.objects.filter(program__site__in=sites, week_end__range=(start, end)).exclude(
        program__closure__closed_on__lt=F("week_start")
    )
    tasks = list(due.select_related("program", "table"))
    spans: dict[int, list] = defaultdict(list)
    entries = active_entries(ReviewEntry.objects.filter(task__in=due.values("pk")))  # a subquery, not an id list
    for task_id, footage_start, footage_end in entries.values_list("task_id", "footage_start_at", "footage_end_at"):
        spans[task_id].append((footage_start, footage_end))
    return tasks, {task_id: reviewed_footage(found) for task_id, found in spans.items()}


def sites_with_equipment(site_ids, on: date) -> set[int]:
    """The sites with surveillance equipment installed on or before `on`."""
    return set(Equipment.objects.filter(site_id__in=site_ids, installed_on__lte=on).values_list("site_id", flat=True))


# Plain SQL, the same on SQLite (3.25+) and PostgreSQL: the ORM cannot filter on a window
# function. Gaps and islands, in one pass over each table day's recordings in order of start
# (no aggregate joined back: with the planner's estimate of one table day, a join back re-ran
# the aggregate for every table day). Of the recordings that overlap the play [opener, closer)
# (`inside`), each gets the latest stop of those before it (`reached`). The play is covered
# when the first starts by the opener, the last stop reaches the closer, and none starts after
# `reached` (a recording starting exactly at the previous stop continues the cover, as in
# surveillance.coverage). Only the table days not covered come back, each with all its
# recordings (as surveillance.coverage.gaps is given them), or one row without a recording.
# A table day with one recording from its opener (or before) to its closer (or after), most of
# them, is covered and left out first by a probe of its recordings, so the sort and windows
# run over the few others only (largest chunk at state scale: 245 ms -> 185 ms).
_UNCOVERED_SQL = """
    WITH play AS (
        SELECT o.table_id, g.gaming_date, o.counted_at AS opener_at, c.counted_at AS closer_at,
               t.site_id, t.number, t.location
        FROM {gaming_day} g
        JOIN {inventory} o ON o.gaming_day_id = g.id AND o.kind = 'opener'
        JOIN {inventory} c ON c.gaming_day_id = g.id AND c.table_id = o.table_id AND c.kind = 'closer'
        JOIN {table} t ON t.id = o.table_id
        WHERE g.site_id IN ({sites}) AND g.gaming_date BETWEEN %s AND %s AND t.site_id IN ({sites})
          AND c.counted_at > o.counted_at
          AND NOT EXISTS (
              SELECT 1 FROM {recording} whole
              WHERE whole.table_id = o.table_id AND whole.gaming_date = g.gaming_date
                AND whole.started_at <= o.counted_at AND whole.stopped_at >= c.counted_at
          )
    ), recorded AS (
        SELECT p.*, r.started_at, r.stopped_at,
               CASE WHEN r.stopped_at > p.opener_at AND r.started_at < p.closer_at THEN 1 ELSE 0 END AS inside
        FROM play p
        LEFT JOIN {recording} r ON r.table_id = p.table_id AND r.gaming_date = p.gaming_date
    ), span AS (
        SELECT recorded.*,
               MAX(CASE WHEN inside = 1 THEN stopped_at END) OVER (
                   PARTITION BY table_id, gaming_date ORDER BY started_at
                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reached
        FROM recorded
    ), cover AS (
        SELECT span.*,
               MIN(CASE WHEN inside = 1 THEN started_at END) OVER (PARTITION BY table_id, gaming_date) AS first_start,
               MAX(CASE WHEN inside = 1 THEN stopped_at END) OVER (PARTITION BY table_id, gaming_date) AS last_stop,
               SUM(CASE WHEN inside = 1 AND started_at > reached THEN 1 ELSE 0 END)
                   OVER (PARTITION BY table_id, gaming_date) AS breaks
        FROM span
    )
    SELECT table_id, gaming_date, opener_at, closer_at, site_id, number, location, started_at, stopped_at
    FROM cover
    WHERE first_start IS NULL OR first_start > opener_at OR last_stop < closer_at OR breaks > 0
"""


def uncovered_table_days(site_ids: list[int], start: date, end: date) -> dict[tuple[int, date], dict]:
    """(table id, gaming date) -> the play of each table day of the sites with an opener and a
    later closer that its recordings do not cover: its opener and closer times, site, table
    number and location, and all its recordings (start, stop). One query."""
    from floor.models import GamingDay, TableInventory
    from floor.queries import as_date

    sql = _UNCOVERED_SQL.format(
        inventory=TableInventory._meta.db_table,
        gaming_day=GamingDay._meta.db_table,
        table=Table._meta.db_table,
        recording=Recording._meta.db_table,
        sites=", ".join(["%s"] * len(site_ids)),
    )
    params = [
        *site_ids,
        connection.ops.adapt_datefield_value(start),
        connection.ops.adapt_datefield_value(end),
        *site_ids,
    ]
    days = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for table_id, day, opener_at, closer_at, site_id, number, location, began, stopped in cursor.fetchall():
            key = (table_id, as_date(day))
            if key not in days:
                days[key] = {
                    "opener_at": _as_aware(opener_at),
                    "closer_at": _as_aware(closer_at),
                    "site_id": site_id,
                    "number": number,
                    "location": location,
                    "recordings": [],
                }
            if began is not None:
                days[key]["recordings"].append((_as_aware(began), _as_aware(stopped)))
    return days


def _as_aware(value) -> datetime:
    """A datetime column read by plain SQL: SQLite hands back its text (or a naive datetime)
    in UTC, PostgreSQL an aware datetime."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)
