"""Demo surveillance records for the busy demo site, written through the services.

    build_demo_surveillance(site, *, people)

`site` is the busy demo site; `people` is the login -> Employee dict that
`cardroom.demo.load_demo()` returns (it uses "gm" and "shift"). Call it after the
floor's demo, because the daily review log covers the days with dealer shifts.

It records: the site's surveillance status; a camera and a dome on every regularly located
table, a recording unit and a time and date generator for the site, each with an approved
sample recording; one camera outage repaired in time and one recorder outage repaired after its
deadline (`OUTAGES`); a daily review log entry for every table and day of activity, all clear
(the field of view too where the site's pack asks it, ND 99-01.3-08-04(1)(c)) but where the
table's camera or recorder was out while it played: that review finds what the outage is (the
camera not recording, no clear picture, no unobstructed view) and says so, written while the
outage is open, before its repair, so it opens no second outage; the recordings of every day of
activity the floor's demo built (a day a person entered is theirs to log: the nightly checks read
every week of the demo, `compliance.demo`, so a day without its recordings would be a gap); and
the low-hold video review program of the previous quarter, from the day after it ended, with
each week's reviews of the weeks begun.

Idempotent: each step looks for what it would create first, so running it again (on any
day) adds only review log entries for new days of activity.
"""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from cardroom.models import Site, Table
from core import moments
from core.periods import Quarter

from . import queries, services
from .models import Equipment, Outage, Recording, ReviewLogEntry, ReviewProgram, SpecialEvent, SurveillanceStatus
from .rules import FIELD_OF_VIEW, SPECIAL_EVENT, SYSTEM

DEMO_MARK = "Demo:"


def build_demo_surveillance(site: Site, *, people: dict) -> None:
    acting = people["gm"].user
    today = timezone.now().astimezone(ZoneInfo(site.time_zone)).date()
    with transaction.atomic():
        _status(acting, site, today)
        _equipment(acting, site, today)
        _outages(acting, site, today)
        _review_log_and_recordings(acting, site, people)  # while the outages are open: reviewed as they were
        _repairs(acting, site)
        _program(acting, site, today, people)
        _special_events(acting, site, today)


def _tables(site: Site):
    return Table.objects.filter(site=site, active=True, location=Table.Location.REGULAR).order_by("number")


def _local(site: Site, day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(site.time_zone))


def _status(acting, site, today) -> None:
    if not SurveillanceStatus.objects.filter(site=site).exists():
        services.set_surveillance_status(
            acting,
            site,
            True,
            today - timedelta(days=240),
            today - timedelta(days=200),
            _status_reason(site),
        )


def _status_reason(site) -> str:
    """Why the demo site keeps surveillance: North Dakota's activity trigger (ND 99-01.3-08-04)
    where its pack states the rule, a house control elsewhere (no other state's words)."""
    if SYSTEM.applies(site):
        return f"{DEMO_MARK} twenty-one gross proceeds averaged over $10,000 for two consecutive quarters"
    return f"{DEMO_MARK} the house keeps video surveillance of its tables ({SYSTEM.at(site)})"


def _equipment(acting, site, today) -> None:
    if Equipment.objects.filter(site=site).exists():
        return
    installed_on = today - timedelta(days=200)
    units = [(None, "recording_unit", "Hikvision DS-7608"), (None, "time_date_generator", "Hikvision overlay")]
    units += [
        (t, kind, model)
        for t in _tables(site)
        for kind, model in (("camera", "Axis P3245"), ("dome", "Axis clear dome"))
    ]
    for table, kind, model in units:
        equipment = services.install_equipment(
            acting_user=acting,
            site=site,
            table=table,
            kind=kind,
            make_model=model,
            vendor="Dakota Video",
            installed_on=installed_on,
        )
        change = equipment.changes.get()
        sample = services.submit_sample(
            acting_user=acting, change=change, submitted_on=installed_on + timedelta(days=5)
        )
        services.record_sample_evaluation(
            acting_user=acting,
            submission=sample,
            outcome="approved",
            evaluated_on=installed_on + timedelta(days=12),
            evaluator="AG gaming division",
        )
    services.record_vendor_purchase(
        acting_user=acting,
        site=site,
        vendor="Dakota Video",
        description="Cameras and domes",
        purchased_on=installed_on,
        price_cents=480_000,
        deferred_cents=240_000,
    )


def _activity_days(site) -> dict:
    """(table, gaming date) -> (first start, last end) of the dealer shifts that day, for the
    days the floor's demo built."""
    from floor.demo import built_dates

    days: dict = {}
    built = built_dates(site)
    shifts = queries.dealer_shifts()
    for table_id, started_at, ended_at in shifts.filter(table__site=site).values_list(
        "table_id", "started_at", "ended_at"
    ):
        key = (table_id, queries.gaming_date_of(site, started_at))
        if key[1] not in built:
            continue
        first, last = days.get(key, (started_at, ended_at))
        days[key] = (min(first, started_at), max(last or started_at, ended_at or started_at))
    return days


def _review_log_and_recordings(acting, site, people) -> None:
    tables = {t.pk: t for t in Table.objects.filter(site=site)}
    logged = set(ReviewLogEntry.objects.filter(site=site).values_list("table_id", "gaming_date"))
    recorded = set(Recording.objects.filter(table__site=site).values_list("table_id", "gaming_date"))
    days = _activity_days(site)
    down = _outages_by_table(site)
    for (table_id, day), (first, last) in sorted(days.items(), key=lambda item: item[0][1]):
        table = tables[table_id]
        if (table_id, day) not in logged:
            out = [o for o, began, ended in down.get(table_id, ()) if began < last and (ended is None or ended > first)]
            # What the review finds: the outages still open fail their checks; one repaired already
            # (a night added to the demo after it) is only named, the equipment working again.
            failing = {o.kind for o in out if _repair_of(o) is None}
            services.add_review_log_entry(
                acting_user=acting,
                table=table,
                gaming_date=day,
                camera_recording=Outage.Kind.RECORDER not in failing,
                unobstructed_view=Outage.Kind.VIEW not in failing,
                clear_picture=Outage.Kind.CAMERA not in failing,
                field_of_view=True if FIELD_OF_VIEW.applies(site) else None,  # asked where the pack states it
                notes=" ".join(_outage_note(site, o) for o in out),
            )
        if (table_id, day) not in recorded and last > first:
            services.record_recording(
                acting_user=acting,
                table=table,
                gaming_date=day,
                operated_by=people["gm"],
                # From a quarter hour before play, but not before the gaming day began (ND
                # 99-01.3-02-01): a day whose first shift starts at 06:05 is recorded from 06:00.
                started_at=max(first - timedelta(minutes=15), moments.gaming_day_bounds(site, day)[0]),
                stopped_at=last + timedelta(minutes=5),
            )


# The demo's outages: (the first or the last of the site's first two tables, kind, days before
# today it began, at 19:00, what was wrong, days until its repair, the repair). The recorder's is
# within the last week: the custody it caps is built before it (load_demo, and tests.api.demo's
# first week), so no later-built day meets its $2 limit (08-04(7)); its repair comes after the
# deadline, the camera's in time.
OUTAGES = (
    (0, Outage.Kind.CAMERA, 20, "picture rolling", 1, "Loose BNC connector reseated"),
    # What was done, and no more: the table ran past the deadline at its own limits, which the
    # outage alert names (ND 99-01.3-08-04(7): closed or limited to $2 until repaired).
    (-1, Outage.Kind.RECORDER, 6, "recorder drops frames", 5, "Hard disk replaced, after the deadline"),
)  # fmt: skip


def _outages(acting, site, today) -> None:
    """Report the demo's outages (`OUTAGES`), once; their repairs come after the review log
    entries of the days they cover (`_repairs`)."""
    if Outage.objects.filter(table__site=site, description__startswith=DEMO_MARK).exists():
        return
    tables = list(_tables(site)[:2])
    if not tables:
        return
    for index, kind, days_ago, what, _, _ in OUTAGES:
        services.report_outage(
            acting_user=acting,
            table=tables[index],
            kind=kind,
            began_at=_local(site, today - timedelta(days=days_ago), 19),
            description=f"{DEMO_MARK} {what}",
        )


def _planned_repair(outage) -> tuple[datetime, str] | None:
    """When the demo repairs one of its outages, and how (`OUTAGES`); None for a person's."""
    for _, kind, _, what, days, repair in OUTAGES:
        if outage.kind == kind and outage.description == f"{DEMO_MARK} {what}":
            return outage.began_at + timedelta(days=days), repair
    return None


def _repairs(acting, site) -> None:
    """Repair each of the demo's outages not yet repaired, as `OUTAGES` says."""
    for outage in queries.open_outages(site).filter(description__startswith=DEMO_MARK):
        planned = _planned_repair(outage)
        if planned is not None and planned[0] <= timezone.now():
            services.record_outage_repair(
                acting_user=acting, outage=outage, repaired_at=planned[0], description=planned[1]
            )


def _outages_by_table(site) -> dict:
    """{table id: [(outage, began, ended)]}: every outage at the site, ended by its repair, the
    demo's by its planned one (`OUTAGES`), else None (still out)."""
    down: dict = {}
    for outage in Outage.objects.filter(table__site=site).select_related("repair"):
        repair = _repair_of(outage)
        planned = _planned_repair(outage)
        ended = repair.repaired_at if repair is not None else planned[0] if planned else None
        down.setdefault(outage.table_id, []).append((outage, outage.began_at, ended))
    return down


def _repair_of(outage):
    return getattr(outage, "repair", None)


def _outage_note(site, outage) -> str:
    """What the review says of an outage it finds while the table played: open, or repaired since
    (a review written after the repair finds the equipment working and names the outage)."""
    zone = ZoneInfo(site.time_zone)
    began = outage.began_at.astimezone(zone)
    what = outage.description.removeprefix(DEMO_MARK).strip().rstrip(".")
    said = f"({outage.get_kind_display().lower()}): {what}."
    repair = _repair_of(outage)
    if repair is None:
        return f"Outage open since {began:%Y-%m-%d %H:%M} {said}"
    repaired = repair.repaired_at.astimezone(zone)
    return f"Outage from {began:%Y-%m-%d %H:%M} to its repair at {repaired:%Y-%m-%d %H:%M} {said}"


def _program(acting, site, today, people) -> None:
    """The low-hold video review the previous quarter's hold asks for (ND 99-01.3-08-04(9)): opened
    for the six weeks from the day after that quarter ended, the weeks the low-hold alert gives
    (its due date is their end), each table's weekly hour reviewed in every week begun before
    today (a day a person entered is theirs to review), so the weeks gone by are done in time."""
    if ReviewProgram.objects.filter(site=site).exists() or not _tables(site).exists():
        return
    from floor.demo import entered_by_hand

    start = Quarter.containing(today).previous().end + timedelta(days=1)
    # The reason names no figure: the quarter's hold is the accounting's (its quarter page and
    # its alert), which this demo step, below accounting, does not read.
    reason = f"{DEMO_MARK} last quarter's hold was below the threshold (see the quarter page)"
    program = services.open_review_program(acting, site, start, reason)
    # ND 99-01.3-08-04(5)(a): only a gaming or shift manager or an independent person may
    # access stored video, so the shift manager reviews (not the count team or a pit boss).
    reviewer = people["shift"]
    persons_days = set(entered_by_hand(site).values_list("gaming_date", flat=True))
    for task in program.tasks.filter(week_start__lt=today).select_related("table").order_by("week", "table__number"):
        day = task.week_start
        shift_start = _local(site, day, 18)
        if day in persons_days or queries.employee_dealt_at(
            reviewer, site, shift_start, shift_start + timedelta(hours=8)
        ):
            continue
        services.record_review_entry(
            acting_user=acting,
            task=task,
            gaming_date=day,
            reviewer=reviewer,
            findings="Procedures followed",
            shift_started_at=shift_start,
            shift_ended_at=shift_start + timedelta(hours=8),
            footage_start_at=_local(site, day, 20),
            footage_end_at=_local(site, day, 21),
        )


# (name, days before today of its first day, its consecutive days): both within the pack's 14 days.
SPECIAL_EVENTS = (("County fair", 45, 4), ("Charity card tournament week", 24, 7))


def _special_events(acting, site, today) -> None:
    if not SPECIAL_EVENT.applies(site):
        return
    from floor.demo import entered_by_hand

    events = list(SpecialEvent.objects.filter(site=site, corrected_by__isnull=True))
    persons_days = set(entered_by_hand(site).values_list("gaming_date", flat=True))
    for name, days_back, length in SPECIAL_EVENTS:
        label = f"{DEMO_MARK} {name}"
        first = today - timedelta(days=days_back)
        last = first + timedelta(days=length - 1)
        quarters = (Quarter.containing(first).start, Quarter.containing(last).end)
        if (
            any(e.name == label for e in events)
            or any(first <= day <= last for day in persons_days)
            or any(e.first_day <= last and e.last_day >= first for e in events)
            or any(not e.name.startswith(DEMO_MARK) and e.first_day <= quarters[1] and e.last_day >= quarters[0]
                   for e in events)
        ):  # fmt: skip
            continue
        events.append(
            services.record_special_event(acting_user=acting, site=site, name=label, first_day=first, last_day=last)
        )


def extend_demo(demo: dict) -> None:
    """The hook `manage.py load_demo` calls after the floor's demo: the busy site only."""
    build_demo_surveillance(demo["sites"]["busy"], people=demo["people"])
