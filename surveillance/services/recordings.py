"""Recordings and who accessed the video (ND 99-01.3-08-04)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import access_for
from cardroom.models import Employee, EmploymentType, Site, Table
from core import acts, moments
from core.rules import HOUSE_CONTROL

from .. import queries, rules
from ..models import Equipment, Recording, RecordingAccess
from ..rules import RECORDER_OVERLAP, VIDEO_ACCESS_ROLES
from .steps import append_audited, require_day_begun, require_same_site


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
            f"{rules.VIDEO_ACCESS.at(site)}: {employee} may not {action}: only a gaming or shift manager or an "
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
    operated_by = operated_by or acts.acting_employee_of(acting_user)
    _require_video_handler(acts.acting_employee_of(acting_user), site, "record a recording")
    _require_video_handler(operated_by, site, "start or stop a recording")
    require_day_begun(site, gaming_date)
    # The recording starts when chips are first made available on the table (08-04(5)(b)): in the
    # business hours of its gaming day. It runs until the table is permanently closed for the day,
    # which may be past the day's last hour, so its stop is judged only against its start (and the
    # clock), never against the day's end.
    started_at = moments.occurred_at(
        site, started_at, field="started_at", gaming_date=gaming_date, books=False, what="a recording"
    )
    stopped_at = moments.occurred_at(site, stopped_at, field="stopped_at", books=False, what="a recording")
    if stopped_at <= started_at:
        raise ValidationError(
            {"stopped_at": f"{rules.RECORDING_COVERS_PLAY.at(site)}: the recording stops after it starts."}
        )
    if recorder is not None and recorder.site_id != site.pk:
        raise ValidationError({"recorder": f"{HOUSE_CONTROL}: the recording unit is at another site."})
    if RECORDER_OVERLAP.rule.applies(site):  # ND's recorders rule; elsewhere no state's obligation
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
        return append_audited(recording, acting_user=acting_user, site=site, action="recording.recorded")


def _check_overlap(table: Table, gaming_date: date, started_at: datetime, stopped_at: datetime) -> None:
    """08-04(5)(c): "If two recorders are used for one table, their separate recordings for a
    day's activity must overlap by ten minutes": recorders in sequence, so a recording overlaps
    the one just before it in the table's day (the latest to start by its start) and the one just
    after it (the first to start after it), not every other recording of the day. A chain
    18:00-20:00, 19:50-22:00, 21:50-01:00 is three recorders in sequence, each pair overlapping."""
    others = sorted(Recording.objects.filter(table=table, gaming_date=gaming_date),
                    key=lambda r: (r.started_at, r.stopped_at, r.pk))  # fmt: skip
    before = [r for r in others if r.started_at <= started_at]
    after = [r for r in others if r.started_at > started_at]
    neighbours = ([before[-1]] if before else []) + ([after[0]] if after else [])
    limit = RECORDER_OVERLAP.on(table.site, gaming_date)
    for other in neighbours:
        overlap = min(stopped_at, other.stopped_at) - max(started_at, other.started_at)
        if overlap < limit.value:
            minutes = int(overlap.total_seconds() // 60)
            raise ValidationError(
                {
                    "started_at": (
                        f"{limit.citation}: two recorders in sequence for one table must overlap by "
                        f"{limit.text}; this recording overlaps the one from "
                        f"{other.started_at.astimezone(ZoneInfo(table.site.time_zone)):%H:%M} by {minutes} minutes."
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
    accessed_by = accessed_by or acts.acting_employee_of(acting_user)
    _require_video_handler(acts.acting_employee_of(acting_user), site, "log access to video")
    _require_video_handler(accessed_by, site, "access a recording unit, camera or stored video")
    require_same_site(table, site)
    accessed_at = moments.occurred_at(site, accessed_at, field="accessed_at", books=False, what="an access")
    if recording is not None and recording.table.site_id != site.pk:
        raise ValidationError({"recording": f"{HOUSE_CONTROL}: the recording is of another site."})
    if recording is not None and accessed_at < recording.started_at:
        raise ValidationError(
            {
                "accessed_at": f"{rules.VIDEO_ACCESS_STORED.at(site)}: stored video is accessed after it is recorded; "
                f"the recording began {recording.started_at.astimezone(moments.site_zone(site)):%Y-%m-%d %H:%M %Z}."
            }
        )
    if equipment is not None and equipment.site_id != site.pk:
        raise ValidationError({"equipment": f"{HOUSE_CONTROL}: the equipment is at another site."})
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
        return append_audited(access, acting_user=acting_user, site=site, action="video_access.recorded")
