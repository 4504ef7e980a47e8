"""Every surveillance write: permission-checked, validated, audited, in one transaction.

The API, the browser pages and the demo loader call these; none of them validate on their
own. A refusal names the field and the rule; a role that may not act gets PermissionDenied.
"""

from datetime import date, datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import NOT_AN_EMPLOYEE, access_for, require_gaming_manager, require_role
from cardroom.audit import record_event, record_site_event, snapshot
from cardroom.models import Employee, EmploymentType, Site, Table
from cardroom.money import format_money
from cardroom.rules import HOUSE_CONTROL

from . import queries
from .models import (
    Equipment,
    EquipmentChange,
    Outage,
    OutageRepair,
    Recording,
    RecordingAccess,
    ReviewEntry,
    ReviewLogEntry,
    ReviewProgram,
    ReviewProgramClosure,
    ReviewTask,
    SampleEvaluation,
    SampleSubmission,
    SurveillanceStatus,
    VendorPurchase,
)
from .rules import (
    DAILY_LOG_ROLES,
    DAILY_REVIEW_CITATION,
    OUTAGE_REPORT_ROLES,
    RECORDER_OVERLAP,
    REVIEW_PROGRAM_LENGTH,
    REVIEW_WEEK,
    REVIEWER_CITATION,
    SAMPLE_DUE,
    STAFF_ROLES,
    VENDOR_DEFERRED_SHARE,
    VIDEO_ACCESS_CITATION,
    VIDEO_ACCESS_ROLES,
)


def _append(obj, *, acting_user, site: Site, action: str):
    """Validate, save and audit one new row: the one path for every record of this app."""
    obj.full_clean()
    obj.save()
    record_site_event(acting_user, f"surveillance.{action}", obj, site)
    return obj


def _acting_employee(acting_user) -> Employee:
    employee = access_for(acting_user).employee
    if employee is None:
        raise PermissionDenied(NOT_AN_EMPLOYEE)
    return employee


def _same_site(table: Table | None, site: Site, field: str = "table") -> None:
    if table is not None and table.site_id != site.pk:
        raise ValidationError({field: "The table is at another site."})


# --- Site status ---------------------------------------------------------------------------


def set_surveillance_status(
    acting_user, site: Site, required: bool, since: date, operational_on: date | None, reason: str
) -> SurveillanceStatus:
    """Record whether `site` requires video surveillance from `since` (ND 99-01.3-08-04). Set by
    a gaming manager until compliance jobs compute it from twenty-one gross proceeds."""
    require_gaming_manager(acting_user, site.organization_id, action="set the surveillance status of a site")
    if operational_on is not None and not required:
        raise ValidationError({"operational_on": "A site that does not require surveillance has no operational date."})
    with transaction.atomic():
        status = SurveillanceStatus(
            site=site,
            required=required,
            since=since,
            operational_on=operational_on,
            reason=reason,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(status, acting_user=acting_user, site=site, action="status.set")


# --- Equipment, sample recordings and vendor purchases ------------------------------------


def _change(acting_user, *, site, table, equipment, kind, changed_on, note) -> EquipmentChange:
    change = EquipmentChange(
        site=site,
        table=table,
        equipment=equipment,
        kind=kind,
        changed_on=changed_on,
        sample_due_on=changed_on + SAMPLE_DUE.value,
        note=note,
        recorded_by=acting_user,
        recorded_at=timezone.now(),
    )
    return _append(change, acting_user=acting_user, site=site, action="equipment_change.recorded")


def install_equipment(
    *,
    acting_user,
    site: Site,
    kind: str,
    make_model: str,
    installed_on: date,
    table: Table | None = None,
    serial_number: str = "",
    vendor: str = "",
    replaces: Equipment | None = None,
    note: str = "",
) -> Equipment:
    """Install a camera, dome, recorder or time and date generator, optionally replacing one.
    A sample recording becomes due 14 days later (ND 99-01.3-08-04(11))."""
    require_role(acting_user, site, *STAFF_ROLES, action="install surveillance equipment", rule=HOUSE_CONTROL)
    _same_site(table, site)
    if replaces is not None and (replaces.site_id != site.pk or not replaces.in_service):
        raise ValidationError({"replaces": "Only equipment in service at this site can be replaced."})
    with transaction.atomic():
        equipment = Equipment(
            site=site,
            table=table,
            kind=kind,
            make_model=make_model,
            serial_number=serial_number,
            vendor=vendor,
            installed_on=installed_on,
        )
        equipment.full_clean()
        equipment._history_user = acting_user
        equipment.save()
        if replaces is not None:
            _retire(acting_user, replaces, removed_on=installed_on, replaced_by=equipment)
        kind_of_change = EquipmentChange.Kind.REPLACED if replaces else EquipmentChange.Kind.INSTALLED
        _change(
            acting_user,
            site=site,
            table=table,
            equipment=equipment,
            kind=kind_of_change,
            changed_on=installed_on,
            note=note,
        )
    return equipment


def _retire(acting_user, equipment: Equipment, *, removed_on: date, replaced_by: Equipment) -> None:
    before = snapshot(equipment)
    equipment.removed_on, equipment.replaced_by = removed_on, replaced_by
    equipment._history_user = acting_user
    equipment.save(update_fields=["removed_on", "replaced_by"])
    record_event(
        actor=acting_user,
        action="surveillance.equipment.replaced",
        obj=equipment,
        organization_id=equipment.site.organization_id,
        site_id=equipment.site_id,
        before=before,
        after=snapshot(equipment),
    )


def move_equipment(*, acting_user, equipment: Equipment, table: Table, moved_on: date, note: str = "") -> Equipment:
    """Move a camera (or other unit) to another table of the site; a sample becomes due."""
    site = equipment.site
    require_role(acting_user, site, *STAFF_ROLES, action="move surveillance equipment", rule=HOUSE_CONTROL)
    _same_site(table, site)
    if not equipment.in_service:
        raise ValidationError({"equipment": "This equipment is no longer in service."})
    with transaction.atomic():
        before = snapshot(equipment)
        equipment.table = table
        equipment._history_user = acting_user
        equipment.save(update_fields=["table"])
        record_event(
            actor=acting_user,
            action="surveillance.equipment.moved",
            obj=equipment,
            organization_id=site.organization_id,
            site_id=site.pk,
            before=before,
            after=snapshot(equipment),
        )
        _change(
            acting_user,
            site=site,
            table=table,
            equipment=equipment,
            kind=EquipmentChange.Kind.MOVED,
            changed_on=moved_on,
            note=note,
        )
    return equipment


def record_site_change(
    *, acting_user, site: Site, kind: str, changed_on: date, table: Table | None = None, note: str = ""
) -> EquipmentChange:
    """A site acquired with its equipment, or a table moved at the site: a sample becomes due."""
    require_role(acting_user, site, *STAFF_ROLES, action="record an equipment change", rule=HOUSE_CONTROL)
    _same_site(table, site)
    if kind not in (EquipmentChange.Kind.SITE_ACQUIRED, EquipmentChange.Kind.TABLE_MOVED):
        raise ValidationError({"kind": "Installations, moves and replacements are recorded with the equipment."})
    with transaction.atomic():
        return _change(acting_user, site=site, table=table, equipment=None, kind=kind, changed_on=changed_on, note=note)


def submit_sample(*, acting_user, change: EquipmentChange, submitted_on: date, note: str = "") -> SampleSubmission:
    """Record a sample recording sent to the attorney general (ND 99-01.3-08-04(11)); after an
    unsatisfactory evaluation the new sample points back to the one it replaces."""
    require_role(acting_user, change.site, *STAFF_ROLES, action="record a sample recording", rule=HOUSE_CONTROL)
    previous = change.submissions.order_by("-submitted_on", "-id").first()
    if previous is not None:
        evaluation = getattr(previous, "evaluation", None)
        if evaluation is None:
            raise ValidationError({"change": "The previous sample is still waiting for its evaluation."})
        if evaluation.outcome == SampleEvaluation.Outcome.APPROVED:
            raise ValidationError({"change": "The sample for this change is already approved."})
    if submitted_on < change.changed_on:
        raise ValidationError({"submitted_on": "A sample cannot be sent before the change it shows."})
    with transaction.atomic():
        submission = SampleSubmission(
            change=change,
            resubmission_of=previous,
            submitted_on=submitted_on,
            note=note,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(submission, acting_user=acting_user, site=change.site, action="sample.submitted")


def record_sample_evaluation(
    *,
    acting_user,
    submission: SampleSubmission,
    evaluated_on: date,
    outcome: str,
    evaluator: str = "",
    findings: str = "",
) -> SampleEvaluation:
    """The attorney general's evaluation (SFN 19857): approved, or resolve and resubmit."""
    site = submission.change.site
    require_role(acting_user, site, *STAFF_ROLES, action="record a sample evaluation", rule=HOUSE_CONTROL)
    if hasattr(submission, "evaluation"):
        raise ValidationError({"submission": "This sample already has its evaluation."})
    if evaluated_on < submission.submitted_on:
        raise ValidationError({"evaluated_on": "The evaluation cannot come before the sample was sent."})
    with transaction.atomic():
        evaluation = SampleEvaluation(
            submission=submission,
            evaluated_on=evaluated_on,
            outcome=outcome,
            evaluator=evaluator,
            findings=findings,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(evaluation, acting_user=acting_user, site=site, action="sample.evaluated")


def record_vendor_purchase(
    *,
    acting_user,
    site: Site,
    vendor: str,
    description: str,
    purchased_on: date,
    price_cents: int,
    deferred_cents: int,
    approved_vendor: bool = True,
    change: EquipmentChange | None = None,
) -> VendorPurchase:
    """Equipment bought or leased; from an approved vendor at least half of the price is
    deferred until the attorney general approves the video (ND 99-01.3-08-04(10))."""
    require_role(acting_user, site, *STAFF_ROLES, action="record a vendor purchase", rule=HOUSE_CONTROL)
    if change is not None and change.site_id != site.pk:
        raise ValidationError({"change": "The equipment change is at another site."})
    numerator, denominator = VENDOR_DEFERRED_SHARE.value
    if approved_vendor and deferred_cents * denominator < price_cents * numerator:
        raise ValidationError(
            {
                "deferred_cents": (
                    f"{VENDOR_DEFERRED_SHARE.citation}: {VENDOR_DEFERRED_SHARE.text} of an approved vendor's price "
                    f"({format_money(price_cents)}) must be deferred until the attorney general approves the video; "
                    f"{format_money(deferred_cents)} is not enough."
                )
            }
        )
    with transaction.atomic():
        purchase = VendorPurchase(
            site=site,
            change=change,
            vendor=vendor,
            approved_vendor=approved_vendor,
            description=description,
            purchased_on=purchased_on,
            price_cents=price_cents,
            deferred_cents=deferred_cents,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(purchase, acting_user=acting_user, site=site, action="vendor_purchase.recorded")


# --- Recordings and access to video --------------------------------------------------------


def may_handle_video(employee: Employee, site: Site) -> bool:
    """A gaming or shift manager, or an independent person (ND 99-01.3-08-04(5))."""
    if employee.organization_id != site.organization_id or not employee.active:
        return False
    if employee.employment_type == EmploymentType.INDEPENDENT:
        return True
    return access_for(employee.user).has_role(site.pk, *VIDEO_ACCESS_ROLES)


def _require_video_handler(employee: Employee, site: Site, action: str) -> None:
    if not may_handle_video(employee, site):
        raise PermissionDenied(
            f"{VIDEO_ACCESS_CITATION}: {employee} may not {action}: only a gaming or shift manager or an "
            "independent person may access a recording unit, camera or stored video."
        )


def record_recording(
    *,
    acting_user,
    table: Table,
    gaming_date: date,
    started_at: datetime,
    stopped_at: datetime,
    recorder: Equipment | None = None,
    operated_by: Employee | None = None,
) -> Recording:
    """A day's recording of a table, from when chips are first made available until the table
    closes (08-04(5)(b)); a second recorder in sequence overlaps the first by 10 minutes
    (08-04(5)(c)). Kept 30 days (08-04(6)): `release_on` is the first day it may be released."""
    site = table.site
    operated_by = operated_by or _acting_employee(acting_user)
    _require_video_handler(_acting_employee(acting_user), site, "record a recording")
    _require_video_handler(operated_by, site, "start or stop a recording")
    if stopped_at <= started_at:
        raise ValidationError({"stopped_at": "The recording must stop after it starts."})
    if recorder is not None and recorder.site_id != site.pk:
        raise ValidationError({"recorder": "The recording unit is at another site."})
    _check_overlap(table, gaming_date, started_at, stopped_at)
    with transaction.atomic():
        recording = Recording(
            table=table,
            recorder=recorder,
            gaming_date=gaming_date,
            started_at=started_at,
            stopped_at=stopped_at,
            release_on=queries.release_date(site, stopped_at),
            operated_by=operated_by,
            recorded_at=timezone.now(),
        )
        return _append(recording, acting_user=acting_user, site=site, action="recording.recorded")


def _check_overlap(table: Table, gaming_date: date, started_at: datetime, stopped_at: datetime) -> None:
    for other in Recording.objects.filter(table=table, gaming_date=gaming_date):
        overlap = min(stopped_at, other.stopped_at) - max(started_at, other.started_at)
        if overlap < RECORDER_OVERLAP.value:
            minutes = int(overlap.total_seconds() // 60)
            raise ValidationError(
                {
                    "started_at": (
                        f"{RECORDER_OVERLAP.citation}: two recorders in sequence for one table must overlap by "
                        f"{RECORDER_OVERLAP.text}; this recording overlaps the one from "
                        f"{other.started_at.astimezone(timezone.get_current_timezone()):%H:%M} by {minutes} minutes."
                    )
                }
            )


def record_video_access(
    *,
    acting_user,
    site: Site,
    accessed_at: datetime,
    purpose: str,
    table: Table | None = None,
    recording: Recording | None = None,
    equipment: Equipment | None = None,
    accessed_by: Employee | None = None,
) -> RecordingAccess:
    """Log who accessed a recording unit, camera or stored video (ND 99-01.3-08-04(5)(a)); any
    other person is refused."""
    accessed_by = accessed_by or _acting_employee(acting_user)
    _require_video_handler(_acting_employee(acting_user), site, "log access to video")
    _require_video_handler(accessed_by, site, "access a recording unit, camera or stored video")
    _same_site(table, site)
    if recording is not None and recording.table.site_id != site.pk:
        raise ValidationError({"recording": "The recording is of another site."})
    if equipment is not None and equipment.site_id != site.pk:
        raise ValidationError({"equipment": "The equipment is at another site."})
    with transaction.atomic():
        access = RecordingAccess(
            site=site,
            table=table,
            recording=recording,
            equipment=equipment,
            accessed_by=accessed_by,
            accessed_at=accessed_at,
            purpose=purpose,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(access, acting_user=acting_user, site=site, action="video_access.recorded")


# --- Daily surveillance review log ---------------------------------------------------------


def add_review_log_entry(
    *,
    acting_user,
    table: Table,
    gaming_date: date,
    camera_recording: bool,
    unobstructed_view: bool,
    clear_picture: bool,
    notes: str = "",
    corrects: ReviewLogEntry | None = None,
) -> ReviewLogEntry:
    """Document that a table's camera records an unobstructed view and a clear picture, for a
    day of activity (ND 99-01.3-08-04(7); kept per 08-16(1)(d))."""
    site = table.site
    require_role(acting_user, site, *DAILY_LOG_ROLES, action="add to the daily surveillance review log", rule=HOUSE_CONTROL)
    if not queries.table_had_activity(table, gaming_date):
        raise ValidationError(
            {
                "gaming_date": (
                    f"{DAILY_REVIEW_CITATION}: the daily review log covers days of activity; table {table.number} "
                    f"had no dealer on shift on {gaming_date:%Y-%m-%d}."
                )
            }
        )
    if corrects is not None and (corrects.table_id != table.pk or corrects.gaming_date != gaming_date):
        raise ValidationError({"corrects": "A correction must be for the same table and day."})
    with transaction.atomic():
        entry = ReviewLogEntry(
            site=site,
            table=table,
            gaming_date=gaming_date,
            camera_recording=camera_recording,
            unobstructed_view=unobstructed_view,
            clear_picture=clear_picture,
            notes=notes,
            reviewed_by=_acting_employee(acting_user),
            reviewed_at=timezone.now(),
            corrects=corrects,
        )
        return _append(entry, acting_user=acting_user, site=site, action="review_log.added")


# --- Outages -------------------------------------------------------------------------------


def report_outage(
    *, acting_user, table: Table, kind: str, began_at: datetime, description: str, equipment: Equipment | None = None
) -> Outage:
    """Report a camera or recorder not operating properly since `began_at` (08-04(7)); the
    deadline to repair it runs from then (`queries.deadline_for`)."""
    site = table.site
    require_role(acting_user, site, *OUTAGE_REPORT_ROLES, action="report a surveillance outage", rule=HOUSE_CONTROL)
    if began_at > timezone.now():
        raise ValidationError({"began_at": "An outage cannot begin in the future."})
    if equipment is not None and equipment.site_id != site.pk:
        raise ValidationError({"equipment": "The equipment is at another site."})
    with transaction.atomic():
        outage = Outage(
            table=table,
            equipment=equipment,
            kind=kind,
            began_at=began_at,
            description=description,
            reported_by=acting_user,
            reported_at=timezone.now(),
        )
        return _append(outage, acting_user=acting_user, site=site, action="outage.reported")


def record_outage_repair(*, acting_user, outage: Outage, repaired_at: datetime, description: str) -> OutageRepair:
    """Record the repair that ends an outage: a new row pointing back to it."""
    site = outage.table.site
    require_role(acting_user, site, *STAFF_ROLES, action="record a surveillance repair", rule=HOUSE_CONTROL)
    if hasattr(outage, "repair"):
        raise ValidationError({"outage": "This outage already has its repair recorded."})
    if repaired_at < outage.began_at:
        raise ValidationError({"repaired_at": "The repair cannot come before the outage began."})
    if repaired_at > timezone.now():
        raise ValidationError({"repaired_at": "A repair cannot be recorded in advance."})
    with transaction.atomic():
        repair = OutageRepair(
            outage=outage,
            repaired_at=repaired_at,
            description=description,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(repair, acting_user=acting_user, site=site, action="outage.repaired")


def check_wager_under_outage_cap(table: Table, max_wager_cents: int, at: datetime | None = None) -> None:
    """For table opening and table edits: refuse a maximum wager above $2 on a table whose
    outage is past its deadline (ND 99-01.3-08-04(7))."""
    cap, reason = queries.outage_wager_cap(table, at)
    if cap is not None and max_wager_cents > cap:
        raise ValidationError({"max_wager_cents": reason})


# --- Video review program ------------------------------------------------------------------


def open_review_program(acting_user, site: Site, start_date: date, reason: str) -> ReviewProgram:
    """Open a low-hold video review (ND 99-01.3-08-04(9)): one weekly task of at least one
    hour for each active, regularly located table, for six continuous weeks. `acting_user`
    None means the system (a compliance job); otherwise only a gaming manager may."""
    if acting_user is not None:
        require_gaming_manager(acting_user, site.organization_id, action="open a video review program")
    if any(queries.program_is_open(p, start_date) for p in ReviewProgram.objects.filter(site=site)):
        raise ValidationError({"start_date": "A video review program is already running at this site on that date."})
    tables = list(Table.objects.filter(site=site, active=True, location=Table.Location.REGULAR))
    if not tables:
        raise ValidationError({"site": "The site has no active table to review."})
    with transaction.atomic():
        program = ReviewProgram(
            site=site,
            start_date=start_date,
            reason=reason,
            opened_by=acting_user,
            end_date=start_date + REVIEW_PROGRAM_LENGTH.value - timedelta(days=1),
            opened_at=timezone.now(),
        )
        _append(program, acting_user=acting_user, site=site, action="review_program.opened")
        weeks = REVIEW_PROGRAM_LENGTH.value // REVIEW_WEEK.value
        ReviewTask.objects.bulk_create(
            [
                ReviewTask(
                    program=program,
                    table=table,
                    week=week + 1,
                    week_start=start_date + week * REVIEW_WEEK.value,
                    week_end=start_date + (week + 1) * REVIEW_WEEK.value - timedelta(days=1),
                )
                for week in range(weeks)
                for table in tables
            ]
        )
    return program


def close_review_program(
    *, acting_user, program: ReviewProgram, closed_on: date, low_hold_reason: str
) -> ReviewProgramClosure:
    """End the program early: a gaming manager documents the reason for the low hold."""
    require_gaming_manager(acting_user, program.site.organization_id, action="document the reason for a low hold")
    if hasattr(program, "closure"):
        raise ValidationError({"program": "The reason for this program's low hold is already documented."})
    if not program.start_date <= closed_on <= program.end_date:
        raise ValidationError({"closed_on": "The program can end only between its first and last day."})
    if not low_hold_reason.strip():
        raise ValidationError({"low_hold_reason": f"{REVIEWER_CITATION}: document the reason for the low hold."})
    with transaction.atomic():
        closure = ReviewProgramClosure(
            program=program,
            closed_on=closed_on,
            low_hold_reason=low_hold_reason,
            closed_by=acting_user,
            closed_at=timezone.now(),
        )
        return _append(closure, acting_user=acting_user, site=program.site, action="review_program.closed")


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
    must not have conducted games at the site on the shift reviewed (dealer rotations)."""
    site = task.program.site
    require_role(acting_user, site, *STAFF_ROLES, action="record a video review", rule=HOUSE_CONTROL)
    _check_review_times(task, gaming_date, shift_started_at, shift_ended_at, footage_start_at, footage_end_at)
    _check_reviewer(reviewer, site, shift_started_at, shift_ended_at)
    if corrects is not None and corrects.task_id != task.pk:
        raise ValidationError({"corrects": "A correction must be for the same weekly review."})
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
        return _append(entry, acting_user=acting_user, site=site, action="review_entry.recorded")


def _check_review_times(task, gaming_date, shift_started_at, shift_ended_at, footage_start_at, footage_end_at):
    if not task.week_start <= gaming_date <= task.week_end:
        raise ValidationError(
            {
                "gaming_date": (
                    f"{REVIEWER_CITATION}: week {task.week} runs from {task.week_start:%Y-%m-%d} to "
                    f"{task.week_end:%Y-%m-%d}; {gaming_date:%Y-%m-%d} is outside the week."
                )
            }
        )
    if not queries.program_is_open(task.program, gaming_date):
        raise ValidationError({"gaming_date": "The review program had ended by that day."})
    if shift_ended_at <= shift_started_at:
        raise ValidationError({"shift_ended_at": "The shift must end after it starts."})
    if footage_end_at <= footage_start_at:
        raise ValidationError({"footage_end_at": "The footage must end after it starts."})
    day_start, day_end = queries.business_day_window(task.program.site, gaming_date)
    if not (day_start <= footage_start_at and footage_end_at <= day_end):
        raise ValidationError(
            {
                "footage_start_at": (
                    f"{REVIEWER_CITATION}: the footage must be from gaming day {gaming_date:%Y-%m-%d} "
                    f"of week {task.week}; it is outside the week's day reviewed."
                )
            }
        )
    if footage_start_at < shift_started_at or footage_end_at > shift_ended_at:
        raise ValidationError({"footage_start_at": "The footage must lie within the shift reviewed."})


def _check_reviewer(reviewer: Employee, site: Site, shift_started_at: datetime, shift_ended_at: datetime) -> None:
    if reviewer.organization_id != site.organization_id:
        raise ValidationError({"reviewer": "The reviewer must be a person of the organization."})
    if queries.employee_dealt_at(reviewer, site, shift_started_at, shift_ended_at):
        raise ValidationError(
            {
                "reviewer": (
                    f"{REVIEWER_CITATION}: {reviewer} conducted games at {site} on the shift reviewed; the review must be "
                    "done by someone who did not."
                )
            }
        )
