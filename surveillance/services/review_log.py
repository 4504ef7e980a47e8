"""The daily surveillance review log (ND 99-01.3-08-04(7), 08-16(1)(d))."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Table
from core import acts, limits, moments
from core.rules import HOUSE_CONTROL

from .. import queries
from ..models import Outage, ReviewLogEntry
from ..rules import DAILY_LOG_ROLES, DAILY_REVIEW, FIELD_OF_VIEW, OUTAGE_DEADLINE
from .steps import append_audited


def add_review_log_entry(
    *,
    acting_user,
    table: Table,
    gaming_date: date,
    camera_recording: bool,
    unobstructed_view: bool,
    clear_picture: bool,
    field_of_view: bool | None = None,
    notes: str = "",
    corrects: ReviewLogEntry | None = None,
    reviewed_at: datetime | None = None,
) -> ReviewLogEntry:
    """Document that a table's camera records an unobstructed view and a clear picture, for a
    day of activity (ND 99-01.3-08-04(7); kept per 08-16(1)(d)), and, where the site's pack states
    it, that its field of view takes in the whole table under a clean dome (`field_of_view`: ND
    99-01.3-08-04(1)(c), (2), (4); asked there, refused elsewhere). A check that finds it does not,
    on a table with no outage open, opens the outage in the same transaction, from the review's
    moment, so the deadline to repair it runs (08-04(7): within 48 hours of activity or four
    calendar days, or close the table or limit wagers to $2): `entry.outage` is it, else None."""
    site = table.site
    require_role(
        acting_user, site, *DAILY_LOG_ROLES, action="add to the daily surveillance review log", rule=HOUSE_CONTROL
    )
    if not queries.table_had_activity(table, gaming_date):
        raise ValidationError(
            {
                "gaming_date": (
                    f"{DAILY_REVIEW.at(site)}: the daily review log covers days of activity; table {table.number} "
                    f"had no dealer on shift on {gaming_date:%Y-%m-%d}."
                )
            }
        )
    reviewed_at = moments.occurred_at(
        site,
        reviewed_at,
        field="reviewed_at",
        books=False,
        not_before=moments.gaming_day_bounds(site, gaming_date)[0],
        what="a review",
    )
    _require_field_of_view_asked(site, field_of_view)
    if corrects is not None and (corrects.table_id != table.pk or corrects.gaming_date != gaming_date):
        raise ValidationError({"corrects": f"{HOUSE_CONTROL}: a correction must be for the same table and day."})
    with transaction.atomic():
        entry = ReviewLogEntry(
            site=site,
            table=table,
            gaming_date=gaming_date,
            camera_recording=camera_recording,
            unobstructed_view=unobstructed_view,
            clear_picture=clear_picture,
            field_of_view=field_of_view,
            notes=notes,
            reviewed_by=acts.acting_employee_of(acting_user),
            reviewed_at=reviewed_at,
            corrects=corrects,
        )
        entry = append_audited(entry, acting_user=acting_user, site=site, action="review_log.added")
        entry.outage = None if entry.all_clear else _outage_found(entry, acting_user)
        return entry


def _require_field_of_view_asked(site, field_of_view: bool | None) -> None:
    """The field of view is answered where the site's pack states the rule (FIELD_OF_VIEW: ND
    99-01.3-08-04(1)(c), (2), (4)), and only there: elsewhere the review keeps its three checks."""
    asked = FIELD_OF_VIEW.applies(site)
    if asked and field_of_view is None:
        raise ValidationError(
            {
                "field_of_view": (
                    f"{FIELD_OF_VIEW.at(site)}: say whether the camera's field of view takes in the face of the "
                    "dealing shoe, every betting space, the discard holder, the chip tray, the currency plunger "
                    "and the table number (and the site's identification where the organization has more than one "
                    "site), under a clean dome."
                )
            }
        )
    if not asked and field_of_view is not None:
        raise ValidationError(
            {
                "field_of_view": (
                    f"{DAILY_REVIEW.at(site)}: the field of view is not a check of the daily review at {site.name}; "
                    "its review documents the recording, the view and the picture."
                )
            }
        )


def _outage_found(entry: ReviewLogEntry, acting_user) -> Outage | None:
    """The outage a failed check opens: none where the table has one open (not repaired)."""
    if queries.open_outages(entry.site).filter(table_id=entry.table_id).exists():
        return None
    failed = [
        label
        for ok, label in (
            (entry.camera_recording, "the camera is not recording"),
            (entry.unobstructed_view, "no unobstructed view"),
            (entry.clear_picture, "no clear picture"),
            (
                entry.field_of_view is not False,
                f"field of view incomplete or dome not clean ({FIELD_OF_VIEW.at(entry.site)})",
            ),
        )
        if not ok
    ]
    said = (
        f"{OUTAGE_DEADLINE.at(entry.site)}: found in the daily review log of {entry.gaming_date:%Y-%m-%d} "
        f"(entry {entry.pk}): {', '.join(failed)}."
    )
    outage = Outage(
        table_id=entry.table_id,
        kind=Outage.Kind.VIEW if entry.camera_recording else Outage.Kind.CAMERA,
        began_at=entry.reviewed_at,
        description=f"{said} {entry.notes}"[: limits.MAX_TEXT_LENGTH].rstrip(),  # the reviewer's notes after it
        reported_by=acting_user,
        reported_at=timezone.now(),
    )
    return append_audited(outage, acting_user=acting_user, site=entry.site, action="outage.reported")
