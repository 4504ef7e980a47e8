"""Low-hold video review programs and their entries (ND 99-01.3-08-04(9))."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_gaming_manager, require_role
from cardroom.models import Employee, Site, Table
from core import acts, moments
from core.plurals import plural
from core.rules import HOUSE_CONTROL

from .. import queries
from ..models import ReviewEntry, ReviewProgram, ReviewProgramClosure, ReviewTask
from ..rules import (
    HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES,
    HOUSE_PROGRAM_MAX_WEEKS,
    REVIEW_MIN_FOOTAGE,
    REVIEW_PROGRAM,
    REVIEW_PROGRAM_LENGTH,
    REVIEW_WEEK,
    STAFF_ROLES,
    VIDEO_ACCESS_STORED,
)
from .recordings import may_handle_video
from .steps import append_audited, require_day_begun


def open_review_program(
    acting_user,
    site: Site,
    start_date: date,
    reason: str,
    *,
    weeks: int | None = None,
    footage_minutes: int | None = None,
) -> ReviewProgram:
    """Open a low-hold video review (ND 99-01.3-08-04(9)): one weekly task for each active,
    regularly located table, for the program's continuous weeks, each needing its footage. Where
    the site's pack states the program, its weeks and footage in force on `start_date` (another
    `weeks` or `footage_minutes` is refused); where it states none, the house's own program runs
    the `weeks` and `footage_minutes` (per table a week) the gaming manager sets, the house's
    defaults when omitted. The program keeps both. `acting_user` None means the system (a
    compliance job); otherwise only a gaming manager may."""
    if acting_user is not None:
        require_gaming_manager(acting_user, site.organization_id, action="open a video review program")
    weeks, footage_minutes = _program_terms(site, start_date, weeks, footage_minutes)
    end_date = start_date + weeks * REVIEW_WEEK - timedelta(days=1)
    _refuse_running(site, start_date, end_date)
    tables = list(Table.objects.filter(site=site, active=True, location=Table.Location.REGULAR))
    if not tables:
        raise ValidationError({"site": f"{REVIEW_PROGRAM.at(site)}: the site has no active table to review."})
    with transaction.atomic():
        # The site's row held: programs opened at the site at once wait in turn, and the second
        # reads the first (a program running twice would double every table's weekly task).
        acts.hold(site)
        _refuse_running(site, start_date, end_date)
        program = ReviewProgram(
            site=site,
            start_date=start_date,
            reason=reason,
            opened_by=acting_user,
            end_date=end_date,
            weeks=weeks,
            footage_minutes=footage_minutes,
            opened_at=timezone.now(),
        )
        append_audited(program, acting_user=acting_user, site=site, action="review_program.opened")
        ReviewTask.objects.bulk_create(
            [
                ReviewTask(
                    program=program,
                    table=table,
                    week=week + 1,
                    week_start=start_date + week * REVIEW_WEEK,
                    week_end=start_date + (week + 1) * REVIEW_WEEK - timedelta(days=1),
                )
                for week in range(weeks)
                for table in tables
            ]
        )
    return program


def _refuse_running(site: Site, start_date: date, end_date: date) -> None:
    """Refuse a program whose weeks (`start_date` to `end_date`) meet another's at the site: one
    running on the start date, or one starting within the new one's weeks (a program opened
    back-dated before another would run beside it, each table's weekly task twice)."""
    for program in ReviewProgram.objects.filter(site=site).select_related("closure").order_by("start_date"):
        if queries.program_is_open(program, start_date):
            raise ValidationError(
                {
                    "start_date": f"{REVIEW_PROGRAM.at(site)}: a video review program is already running at this "
                    "site on that date."
                }
            )
        if start_date < program.start_date <= end_date:
            raise ValidationError(
                {
                    "start_date": f"{REVIEW_PROGRAM.at(site)}: a video review program starts at this site on "
                    f"{program.start_date:%Y-%m-%d}, within the weeks of this one (to {end_date:%Y-%m-%d}); "
                    "start it after that program ends."
                }
            )


def _program_terms(site: Site, start_date: date, weeks: int | None, footage_minutes: int | None) -> tuple[int, int]:
    """(weeks, minutes of footage per table a week) of a program opened at `site` on
    `start_date`: the pack's in force that day where it states the program (asked for other
    values, refused naming them); the gaming manager's within the house's bounds where it does
    not, the house's defaults for those not given."""
    length = REVIEW_PROGRAM_LENGTH.on(site, start_date)  # the pack's (or the house's) in force that day
    footage = REVIEW_MIN_FOOTAGE.on(site, start_date)
    stated_weeks, stated_minutes = length.value // REVIEW_WEEK, footage.value // timedelta(minutes=1)
    if REVIEW_PROGRAM.applies(site):
        cited = REVIEW_PROGRAM.at(site)
        if weeks is not None and weeks != stated_weeks:
            raise ValidationError({"weeks": f"{cited}: a review program here runs {length.text}; got {weeks}."})
        if footage_minutes is not None and footage_minutes != stated_minutes:
            raise ValidationError(
                {
                    "footage_minutes": f"{cited}: each table's video is reviewed {footage.text} here; got "
                    f"{queries.footage_words(footage_minutes)}."
                }
            )
        return stated_weeks, stated_minutes
    return _house_terms(
        stated_weeks if weeks is None else weeks, stated_minutes if footage_minutes is None else footage_minutes
    )


def _house_terms(weeks: int, footage_minutes: int) -> tuple[int, int]:
    """The house's own program, within its bounds (house control, `rules.HOUSE_PROGRAM_MAX_WEEKS`)."""
    if not 1 <= weeks <= HOUSE_PROGRAM_MAX_WEEKS:
        raise ValidationError(
            {
                "weeks": f"{HOUSE_CONTROL}: the house's review program runs 1 to {HOUSE_PROGRAM_MAX_WEEKS} whole "
                f"weeks; got {weeks}."
            }
        )
    if not 1 <= footage_minutes <= HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES:
        raise ValidationError(
            {
                "footage_minutes": f"{HOUSE_CONTROL}: the house's review program reviews 1 minute to "
                f"{queries.footage_words(HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES)} of each table's video a week; got "
                f"{plural(footage_minutes, 'minute')}."
            }
        )
    return weeks, footage_minutes


def close_review_program(
    *, acting_user, program: ReviewProgram, closed_on: date, low_hold_reason: str
) -> ReviewProgramClosure:
    """End the program early: a gaming manager documents the reason for the low hold."""
    require_gaming_manager(acting_user, program.site.organization_id, action="document the reason for a low hold")
    _refuse_documented(program)
    if not program.start_date <= closed_on <= program.end_date:
        raise ValidationError(
            {
                "closed_on": f"{REVIEW_PROGRAM.at(program.site)}: the program can end only between its first and "
                "last day."
            }
        )
    if not low_hold_reason.strip():
        raise ValidationError(
            {"low_hold_reason": f"{REVIEW_PROGRAM.at(program.site)}: document the reason for the low hold."}
        )
    with transaction.atomic():
        # The program's row locked, then read again: a second closing sent at once waits for the
        # first and is refused, as it is after it.
        acts.hold(program)
        _refuse_documented(program)
        closure = ReviewProgramClosure(
            program=program,
            closed_on=closed_on,
            low_hold_reason=low_hold_reason,
            closed_by=acting_user,
            closed_at=timezone.now(),
        )
        return append_audited(closure, acting_user=acting_user, site=program.site, action="review_program.closed")


def _refuse_documented(program: ReviewProgram) -> None:
    """`REVIEW_PROGRAM`: the review continues until the reason for the low hold is documented, once."""
    if ReviewProgramClosure.objects.filter(program_id=program.pk).exists():
        raise ValidationError(
            {
                "program": f"{REVIEW_PROGRAM.at(program.site)}: the reason for this program's low hold is already "
                "documented; the program has ended."
            }
        )


def record_review_entry(
    *,
    acting_user,
    task: ReviewTask,
    gaming_date: date,
    shift_started_at: datetime,
    shift_ended_at: datetime,
    footage_start_at: datetime,
    footage_end_at: datetime,
    reviewer: Employee,
    findings: str,
    corrects: ReviewEntry | None = None,
) -> ReviewEntry:
    """Document reviewed footage of one table and shift (ND 99-01.3-08-04(9)). The reviewer
    must be a gaming or shift manager or an independent person, the only people who may access
    stored video (08-04(5)(a)), and must not have conducted games at the site on the shift
    reviewed. That shift is judged on the dealer shifts recorded at the table during the
    footage as well as on the times typed in (`_reviewed_window`)."""
    site = task.program.site
    require_role(acting_user, site, *STAFF_ROLES, action="record a video review", rule=HOUSE_CONTROL)
    require_day_begun(site, gaming_date)
    _check_review_times(task, gaming_date, shift_started_at, shift_ended_at, footage_start_at, footage_end_at)
    # Footage is reviewed once recorded: its end is not in the future (core.moments, the clock's tolerance).
    moments.occurred_at(site, footage_end_at, field="footage_end_at", books=False, what="a video review")
    _check_reviewer(
        reviewer,
        site,
        *_reviewed_window(task.table, shift_started_at, shift_ended_at, footage_start_at, footage_end_at),
    )
    if corrects is not None and corrects.task_id != task.pk:
        raise ValidationError({"corrects": f"{HOUSE_CONTROL}: a correction must be for the same weekly review."})
    with transaction.atomic():
        entry = ReviewEntry(
            task=task,
            table=task.table,
            gaming_date=gaming_date,
            shift_started_at=shift_started_at,
            shift_ended_at=shift_ended_at,
            footage_start_at=footage_start_at,
            footage_end_at=footage_end_at,
            reviewer=reviewer,
            findings=findings,
            corrects=corrects,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return append_audited(entry, acting_user=acting_user, site=site, action="review_entry.recorded")


def _check_review_times(task, gaming_date, shift_started_at, shift_ended_at, footage_start_at, footage_end_at):
    if not task.week_start <= gaming_date <= task.week_end:
        raise ValidationError(
            {
                "gaming_date": (
                    f"{REVIEW_PROGRAM.at(task.program.site)}: week {task.week} runs from {task.week_start:%Y-%m-%d} to "
                    f"{task.week_end:%Y-%m-%d}; {gaming_date:%Y-%m-%d} is outside the week."
                )
            }
        )
    if not queries.program_is_open(task.program, gaming_date):
        raise ValidationError(
            {"gaming_date": f"{REVIEW_PROGRAM.at(task.program.site)}: the review program had ended by that day."}
        )
    if shift_ended_at <= shift_started_at:
        raise ValidationError({"shift_ended_at": f"{HOUSE_CONTROL}: the shift must end after it starts."})
    if footage_end_at <= footage_start_at:
        raise ValidationError({"footage_end_at": f"{HOUSE_CONTROL}: the footage must end after it starts."})
    day_start, day_end = moments.gaming_day_bounds(task.program.site, gaming_date)
    if not (day_start <= footage_start_at and footage_end_at <= day_end):
        raise ValidationError(
            {
                "footage_start_at": (
                    f"{REVIEW_PROGRAM.at(task.program.site)}: the footage must be from gaming day {gaming_date:%Y-%m-%d} "
                    f"of week {task.week}; it is outside the week's day reviewed."
                )
            }
        )
    if footage_start_at < shift_started_at or footage_end_at > shift_ended_at:
        raise ValidationError(
            {
                "footage_start_at": f"{REVIEW_PROGRAM.at(task.program.site)}: the footage must lie within the shift reviewed."
            }
        )


def _reviewed_window(table: Table, shift_started_at, shift_ended_at, footage_start_at, footage_end_at):
    """The shift reviewed, as recorded: from the earliest start to the latest end of the dealer
    shifts at `table` running during the footage, widened by the times typed in. Typed times
    alone could leave out the shift a reviewer actually dealt."""
    starts, ends = [shift_started_at], [shift_ended_at]
    for started, ended in queries.recorded_shifts(table, footage_start_at, footage_end_at):
        starts.append(started)
        ends.append(ended or footage_end_at)
    return min(starts), max(ends)


def _check_reviewer(reviewer: Employee, site: Site, shift_started_at: datetime, shift_ended_at: datetime) -> None:
    if reviewer.organization_id != site.organization_id:
        raise ValidationError({"reviewer": f"{HOUSE_CONTROL}: the reviewer must be a person of the organization."})
    if not may_handle_video(reviewer, site):
        raise ValidationError(
            {
                "reviewer": (
                    f"{VIDEO_ACCESS_STORED.at(site)}: {reviewer} may not review stored video: only a gaming or shift "
                    "manager or an independent person may access it."
                )
            }
        )
    if queries.employee_dealt_at(reviewer, site, shift_started_at, shift_ended_at):
        raise ValidationError(
            {
                "reviewer": (
                    f"{REVIEW_PROGRAM.at(site)}: {reviewer} conducted games at {site} on the shift reviewed (dealer shifts "
                    f"recorded from {_clock(shift_started_at, site)} to {_clock(shift_ended_at, site)}); the review "
                    "must be done by someone who did not."
                )
            }
        )


def seating_deals_a_reviewed_shift(dealer: Employee, site: Site, gaming_date: date, started_at: datetime) -> str | None:
    """The floor asks before seating `dealer` at `site` at `started_at` (`floor.seating`; the day,
    `gaming_date`, is the count's question): a reviewer is judged when the review is recorded
    (`_check_reviewer`), so a dealer shift recorded afterwards (entered later from paper) that starts
    in the shift reviewed, as the review judged it (`queries.reviews_by`'s window: the typed times
    widened by the table's recorded shifts), is refused here (`REVIEW_PROGRAM`)."""
    reviews = queries.reviews_by(dealer, site)
    entry = reviews.filter(window_start__lte=started_at, window_end__gt=started_at).first()
    if entry is None:
        return None
    return (
        _dealt_on_review(entry, dealer, site, f"seating them at {_clock(started_at, site)}") + " Seat another dealer."
    )


def shift_end_deals_a_reviewed_shift(
    dealer: Employee, site: Site, started_at: datetime, ended_at: datetime
) -> str | None:
    """The floor asks before a dealer shift from `started_at` ends at `ended_at` (`floor.seating`):
    a shift recorded after a review of `dealer`'s, starting before the shift reviewed (as the review
    judged it) and ending after its start, dealt on it as well (`REVIEW_PROGRAM`); one starting in
    it was refused when seated (`seating_deals_a_reviewed_shift`)."""
    reviews = queries.reviews_by(dealer, site)
    entry = reviews.filter(window_start__lt=ended_at, window_end__gt=started_at).first()
    if entry is None:
        return None
    dealt = f"their shift from {_clock(started_at, site)} ending at {_clock(ended_at, site)}"
    return _dealt_on_review(entry, dealer, site, dealt) + f" End it by {_clock(entry.window_start, site)}."


def table_shift_widens_a_review(
    table: Table, dealer: Employee, started_at: datetime, ended_at: datetime | None
) -> str | None:
    """The floor asks before a dealer shift at `table` from `started_at` to `ended_at` (None: seated,
    still running) is recorded (`floor.seating`): the mirror of the two checks above. A review's
    shift reviewed is widened by the table's dealer shifts recorded during its footage
    (`queries.reviews_by`), so another dealer's shift there, recorded after the review (entered later
    from paper, or ended later than the footage), may widen it onto a dealer shift of the reviewer at
    the site: the reviewer would then have conducted games on the shift they reviewed
    (`REVIEW_PROGRAM`), and the shift is refused naming the review, citing North Dakota's 08-04(9)
    where the pack states it and house control where a house program reviews (as the two checks above
    cite it). One query however many reviews the table has."""
    site = table.site
    entry = queries.review_widened_onto_its_reviewer(table, dealer, started_at, ended_at)
    if entry is None:
        return None
    shift = (
        f"seating {dealer} at that table at {_clock(started_at, site)}"
        if ended_at is None
        else f"the shift of {dealer} at that table from {_clock(started_at, site)} ending at {_clock(ended_at, site)}"
    )
    reviewer = entry.reviewer
    until = "on, still running" if entry.dealt_to is None else f"to {_clock(entry.dealt_to, site)}"
    widening = (
        f"{shift}, during the footage ({_clock(entry.footage_start_at, site)} to {_clock(entry.footage_end_at, site)}), "
        f"would have the table's dealer shifts run it from {_clock(entry.widened_start, site)} to "
        f"{_clock(entry.widened_end, site)}, over {reviewer}'s dealer shift at {site} from "
        f"{_clock(entry.dealt_from, site)} {until}"
    )
    return (
        f"{_reviewed(entry, reviewer, site)}; {widening}: they would have conducted games at {site} on the shift they "
        "reviewed, and the review must be done by someone who did not. Correct the review first (record it again by "
        "someone who did not deal on that shift)."
    )


def _dealt_on_review(entry: ReviewEntry, dealer: Employee, site: Site, dealt: str) -> str:
    """`entry` from `queries.reviews_by`, reviewed by `dealer` (`_reviewed`)."""
    return (
        _reviewed(entry, dealer, site) + f"; {dealt} would have them conduct games at {site} on the shift they "
        "reviewed, and the review must be done by someone who did not."
    )


def _reviewed(entry: ReviewEntry, reviewer: Employee, site: Site) -> str:
    """The review `entry` (from `queries.reviews_by` or `queries.review_widened_onto_its_reviewer`)
    cited, with the shift reviewed as typed, and as the table's recorded shifts widen it where they do."""
    widened = (entry.window_start, entry.window_end) != (entry.shift_started_at, entry.shift_ended_at)
    recorded = (
        f" (the table's dealer shifts recorded during the footage run it from {_clock(entry.window_start, site)} "
        f"to {_clock(entry.window_end, site)})"
        if widened
        else ""
    )
    return (
        f"{REVIEW_PROGRAM.at(site)}: {reviewer} reviewed the video of {entry.table} on gaming day "
        f"{entry.gaming_date:%Y-%m-%d} for the shift from {_clock(entry.shift_started_at, site)} to "
        f"{_clock(entry.shift_ended_at, site)}{recorded}"
    )


def _clock(moment: datetime, site: Site) -> str:
    return f"{moment.astimezone(ZoneInfo(site.time_zone)):%Y-%m-%d %H:%M}"
