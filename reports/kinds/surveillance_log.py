"""Daily surveillance review log and video review documentation of a site for a period: each
day's log entries by table, corrections pointing back to what they correct
(ND 99-01.3-08-04(7), kept per 08-16(1)(d)), with the field of view where the site's pack asks
it (ND 99-01.3-08-04(1)(c), (2), (4)); then each low-hold review program overlapping the
period, week by week and table by table, with the footage reviewed against the required hour
and every review entry (ND 99-01.3-08-04(9), kept per 08-16(1)(h)). Corrected rows stay on the
report, marked, as the append-only logs keep them."""

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from reportlab.platypus import Spacer

from core.pdf import data_table, format_clock, para
from surveillance.models import ReviewEntry, ReviewLogEntry, ReviewProgram, ReviewTask
from surveillance.queries import (
    active_entries,
    current_status,
    program_ended_on,
    required_footage,
    reviewed_footage,
)
from surveillance.rules import FIELD_OF_VIEW, SURVEILLANCE_RECORDS

from .. import rules as report_rules
from ..columns import DATE, DATETIME, INT, Column, headings, without
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class LogLine:
    number: int  # the entry's id: corrections cite it
    gaming_date: date
    table_number: int
    camera_recording: bool
    unobstructed_view: bool
    clear_picture: bool
    field_of_view: bool | None  # None: not asked (an entry made before it was, or a site whose pack does not)
    notes: str
    reviewed_by: str
    reviewed_at: datetime  # in the site's time zone
    corrects: int | None
    corrected_by: int | None


@dataclass(frozen=True)
class ReviewLine:
    number: int
    gaming_date: date
    reviewer: str
    shift: str
    footage: str
    minutes: int
    findings: str
    corrects: int | None
    corrected_by: int | None


@dataclass(frozen=True)
class WeekTask:
    week: int
    week_start: date
    week_end: date
    table_number: int
    reviewed_minutes: int  # entries not replaced by a correction
    entries: tuple[ReviewLine, ...]
    required_minutes: int  # the site's pack's footage a week, in force when the program started

    @property
    def done(self) -> bool:
        return self.reviewed_minutes >= self.required_minutes


@dataclass(frozen=True)
class Program:
    start_date: date
    end_date: date
    ended_on: date
    reason: str
    closure: str  # the documented reason for the low hold that ended it early, if any
    tasks: tuple[WeekTask, ...]


@dataclass(frozen=True)
class SurveillanceLogReport:
    log: tuple[LogLine, ...]
    programs: tuple[Program, ...]
    where: str = ""  # the site's Site.jurisdiction: its pack cites the sections
    asks_field_of_view: bool = False  # the site's pack states the field of view check (its column shown)
    # Why an empty log may be empty: video surveillance not required at the site at the period's end
    # (or the day the report was asked for, if sooner), as the surveillance page says; "" otherwise.
    not_required: str = ""


def _clock(moment: datetime, zone: ZoneInfo | None = None, with_date: bool = True) -> str:
    """`2026-12-05 9:30 p.m.`: the 12-hour clock every report PDF writes (its footer's too)."""
    local = moment.astimezone(zone) if zone else moment
    return f"{local:%Y-%m-%d} {format_clock(local)}" if with_date else format_clock(local)


def _who(employee) -> str:
    return f"{employee} ({employee.initials})"


def _log(context: ReportContext, zone: ZoneInfo) -> tuple[LogLine, ...]:
    rows = list(
        ReviewLogEntry.objects.filter(site=context.site, gaming_date__gte=context.start, gaming_date__lte=context.end)
        .select_related("table", "reviewed_by__user")
        .order_by("gaming_date", "table__number", "reviewed_at", "pk")
    )
    corrected_by = {r.corrects_id: r.pk for r in rows if r.corrects_id}  # a correction has the same table and day
    return tuple(
        LogLine(r.pk, r.gaming_date, r.table.number, r.camera_recording, r.unobstructed_view, r.clear_picture,
                r.field_of_view, r.notes, _who(r.reviewed_by), r.reviewed_at.astimezone(zone), r.corrects_id, corrected_by.get(r.pk))
        for r in rows
    )  # fmt: skip


def _review_line(entry: ReviewEntry, corrected_by: dict, zone: ZoneInfo) -> ReviewLine:
    return ReviewLine(
        entry.pk,
        entry.gaming_date,
        _who(entry.reviewer),
        f"{_clock(entry.shift_started_at, zone)}-{_clock(entry.shift_ended_at, zone, False)}",
        f"{_clock(entry.footage_start_at, zone)}-{_clock(entry.footage_end_at, zone, False)}",
        int(entry.footage.total_seconds() // 60),
        entry.findings,
        entry.corrects_id,
        corrected_by.get(entry.pk),
    )


def _task(task: ReviewTask, entries: list[ReviewEntry], active: set, corrected_by: dict, zone, required) -> WeekTask:
    lines = tuple(_review_line(e, corrected_by, zone) for e in entries)
    reviewed = reviewed_footage((e.footage_start_at, e.footage_end_at) for e in entries if e.pk in active)
    minutes = int(reviewed.total_seconds() // 60)
    required_minutes = int(required.total_seconds() // 60)
    return WeekTask(task.week, task.week_start, task.week_end, task.table.number, minutes, lines, required_minutes)


def _programs(context: ReportContext, zone: ZoneInfo) -> tuple[Program, ...]:
    programs = [
        p
        for p in ReviewProgram.objects.filter(
            site=context.site, start_date__lte=context.end, end_date__gte=context.start
        )
        .select_related("closure", "site")
        .order_by("start_date", "pk")
        if program_ended_on(p) >= context.start
    ]
    tasks = [
        t
        for t in ReviewTask.objects.filter(
            program__in=programs, week_start__lte=context.end, week_end__gte=context.start
        )
        .select_related("table")
        .order_by("program_id", "week", "table__number")
    ]
    entries = list(
        ReviewEntry.objects.filter(task__in=tasks).select_related("reviewer__user").order_by("footage_start_at", "pk")
    )
    active = set(active_entries(ReviewEntry.objects.filter(task__in=tasks)).values_list("pk", flat=True))
    corrected_by = {e.corrects_id: e.pk for e in entries if e.corrects_id}
    by_task: dict[int, list] = {}
    for e in entries:
        by_task.setdefault(e.task_id, []).append(e)
    return tuple(
        Program(
            p.start_date,
            p.end_date,
            program_ended_on(p),
            p.reason,
            _closure(p),
            tuple(
                _task(
                    t,
                    by_task.get(t.pk, []),
                    active,
                    corrected_by,
                    zone,
                    required_footage(p),
                )
                for t in tasks
                if t.program_id == p.pk and t.week_start <= program_ended_on(p)
            ),
        )
        for p in programs
    )


def _closure(program: ReviewProgram) -> str:
    closure = getattr(program, "closure", None)
    return f"Ended {closure.closed_on}: {closure.low_hold_reason}" if closure else ""


def build(context: ReportContext) -> SurveillanceLogReport:
    zone = ZoneInfo(context.site.time_zone)
    log = _log(context, zone)
    return SurveillanceLogReport(
        log,
        _programs(context, zone),
        context.site.jurisdiction,
        FIELD_OF_VIEW.applies(context.site),
        "" if log else _not_required(context),
    )


def _not_required(context: ReportContext) -> str:
    """Video surveillance not required at the site on the period's last day (or the day asked, if
    sooner), with the reason recorded for it; "" where it was required (an empty log is then itself
    the finding)."""
    on_date = min(context.end, context.as_of)
    status = current_status(context.site, on_date)
    if status is not None and status.required:
        return ""
    reason = f" ({status.reason})" if status is not None and status.reason else ""
    return f"video surveillance was not required at this site on {on_date}{reason}"


def _yes_no(value: bool | None) -> str:
    """A check's answer; a check not asked of an entry (None) is a dash."""
    return "—" if value is None else "yes" if value else "NO"


def _correction(corrects: int | None, corrected_by: int | None) -> str:
    parts = ([f"corrects #{corrects}"] if corrects else []) + ([f"REPLACED by #{corrected_by}"] if corrected_by else [])
    return "; ".join(parts)


LOG_HEADER = ["#", "Gaming date", "Table", "Recording", "Unobstructed view", "Clear picture", "Field of view",
              "Notes", "Reviewed by", "Reviewed at", "Correction"]  # fmt: skip
LOG_WIDTHS = [34, 62, 36, 52, 62, 48, 48, 118, 89, 76, 80]  # 705: the landscape frame
FIELD_OF_VIEW_CELL = LOG_HEADER.index("Field of view")  # left out where the site's pack does not ask it
PLAIN_LOG_WIDTHS = [34, 62, 36, 52, 62, 48, 150, 105, 76, 80]  # the same frame without it
REVIEW_HEADER = ["#", "Gaming date", "Reviewer", "Shift reviewed", "Footage", "Minutes", "Findings", "Correction"]
REVIEW_WIDTHS = [34, 62, 105, 110, 110, 44, 160, 80]


def _log_rows(log) -> list[list]:
    return [
        [f"#{line.number}", str(line.gaming_date), line.table_number, _yes_no(line.camera_recording),
         _yes_no(line.unobstructed_view), _yes_no(line.clear_picture), _yes_no(line.field_of_view), line.notes,
         line.reviewed_by, _clock(line.reviewed_at), _correction(line.corrects, line.corrected_by)]
        for line in log
    ]  # fmt: skip


def _log_grid(data: SurveillanceLogReport) -> tuple[list[str], list[list], list[int]]:
    """The log's header, rows and widths: the field of view's column only where the pack asks it."""
    rows = _log_rows(data.log)
    if data.asks_field_of_view:
        return LOG_HEADER, rows, LOG_WIDTHS
    cut = FIELD_OF_VIEW_CELL
    return LOG_HEADER[:cut] + LOG_HEADER[cut + 1 :], [r[:cut] + r[cut + 1 :] for r in rows], PLAIN_LOG_WIDTHS


def _render_log(data: SurveillanceLogReport) -> list:
    story = [para(f"Daily surveillance review log ({report_rules.SURVEILLANCE_DAILY_LOG.at(data.where)})", "heading")]
    if not data.log:
        why = f": {data.not_required}" if data.not_required else ""
        return [*story, para(f"No review log entry at this site in the period{why}.")]
    header, rows, widths = _log_grid(data)
    # The entry's number and the table's are figures: never wrapped mid-number.
    return [*story, data_table(header, rows, col_widths=widths, right_columns=(0, 2))]


def _task_heading(task: WeekTask) -> str:
    status = "done" if task.done else "NOT DONE"
    return (
        f"Week {task.week} ({task.week_start} to {task.week_end}), table {task.table_number}: "
        f"{task.reviewed_minutes} of {task.required_minutes} minutes reviewed ({status})"
    )


def _render_program(program: Program) -> list:
    story = [
        para(f"Video review program {program.start_date} to {program.end_date}", "heading"),
        para(f"Reason: {program.reason}"),
    ]
    if program.closure:
        story.append(para(program.closure))
    for task in program.tasks:
        story += [Spacer(1, 4), para(_task_heading(task), "cell_bold")]
        if not task.entries:
            story.append(para("No footage reviewed.", "small"))
            continue
        rows = [
            [f"#{e.number}", str(e.gaming_date), e.reviewer, e.shift, e.footage, e.minutes, e.findings,
             _correction(e.corrects, e.corrected_by)]
            for e in task.entries
        ]  # fmt: skip
        story.append(data_table(REVIEW_HEADER, rows, col_widths=REVIEW_WIDTHS, right_columns=(0, 5)))
    return story


def render(data: SurveillanceLogReport) -> list:
    story = _render_log(data)
    story += [
        Spacer(1, 10),
        para(f"Video review programs ({report_rules.VIDEO_REVIEW_PROGRAMS.at(data.where)})", "heading"),
    ]
    if not data.programs:
        return [*story, para("No video review program at this site in the period.")]
    for program in data.programs:
        story += _render_program(program)
    return story


COLUMNS = [Column("section"), Column("number", INT), Column("gaming_date", DATE), Column("table", INT),
           Column("camera_recording"), Column("unobstructed_view"), Column("clear_picture"), Column("field_of_view"),
           Column("reviewed_by"), Column("reviewed_at", DATETIME), Column("notes_or_findings"), Column("corrects", INT),
           Column("corrected_by", INT), Column("program_start", DATE), Column("week", INT), Column("week_start", DATE),
           Column("week_end", DATE), Column("shift"), Column("footage"), Column("minutes", INT),
           Column("week_reviewed_minutes", INT), Column("week_done")]  # fmt: skip
HEADER = headings(COLUMNS)


def _log_csv(line: LogLine) -> list:
    return ["log", line.number, line.gaming_date, line.table_number, _yes_no(line.camera_recording).lower(),
            _yes_no(line.unobstructed_view).lower(), _yes_no(line.clear_picture).lower(),
            _yes_no(line.field_of_view).lower(), line.reviewed_by, line.reviewed_at, line.notes, line.corrects,
            line.corrected_by, *[None] * 9]  # fmt: skip


def _review_csv(program: Program, task: WeekTask, e: ReviewLine | None) -> list:
    entry = (
        [e.number, e.gaming_date, task.table_number, "", "", "", "", e.reviewer, None, e.findings, e.corrects,
         e.corrected_by]
        if e else [None, None, task.table_number, *[None] * 9]
    )  # fmt: skip
    return ["review", *entry, program.start_date, task.week, task.week_start, task.week_end,
            e.shift if e else "", e.footage if e else "", e.minutes if e else None, task.reviewed_minutes,
            "yes" if task.done else "no"]  # fmt: skip


def table(data: SurveillanceLogReport) -> tuple[list[Column], list[list]]:
    rows = [_log_csv(line) for line in data.log]
    for program in data.programs:
        for task in program.tasks:
            rows += [_review_csv(program, task, e) for e in task.entries] or [_review_csv(program, task, None)]
    return (COLUMNS, rows) if data.asks_field_of_view else without(COLUMNS, rows, {"field_of_view"})


KIND = register(
    ReportKind(
        "surveillance_log",
        "Daily surveillance review log and video review documentation",
        report_rules.SURVEILLANCE_LOG,
        "range",
        build,
        render,
        table,
        landscape=True,
        reader=SURVEILLANCE_RECORDS,
    )
)
