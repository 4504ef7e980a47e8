"""One of every surveillance record at a site, written through the services."""

from datetime import date, timedelta

from cardroom.models import Role
from surveillance import services
from tests.factories import TableFactory, make_person

from .conftest import add_shift, local


def make_records(site, manager) -> dict:
    """Every kind of record at `site`, keyed by its API endpoint; `manager` is a gaming manager."""
    user = manager.user
    table = site.tables.filter(number=1).first() or TableFactory(site=site, number=1)
    dealer = make_person(site.organization, Role.DEALER, site)
    shift = add_shift(table, dealer, local(2026, 3, 3, 19), local(2026, 3, 4, 1))
    camera = services.install_equipment(
        acting_user=user, site=site, table=table, kind="camera", make_model="Axis", installed_on=date(2026, 3, 1)
    )
    change = camera.changes.get()
    submission = services.submit_sample(acting_user=user, change=change, submitted_on=date(2026, 3, 5))
    recording = services.record_recording(
        acting_user=user,
        table=table,
        gaming_date=date(2026, 3, 3),
        started_at=local(2026, 3, 3, 18),
        stopped_at=local(2026, 3, 4, 2),
    )
    outage = services.report_outage(
        acting_user=user, table=table, kind="camera", began_at=local(2026, 3, 3, 20), description="Black picture"
    )
    program = services.open_review_program(user, site, date(2026, 4, 6), "Q1 hold below 10%")
    task = program.tasks.get(week=1, table=table)
    day = local(2026, 4, 6)
    return {
        "table": table,
        "dealer": dealer,
        "shift": shift,
        "task": task,
        "outage": outage,
        "statuses": services.set_surveillance_status(user, site, True, date(2026, 1, 1), date(2026, 2, 1), "GP"),
        "equipment": camera,
        "equipment-changes": change,
        "sample-submissions": submission,
        "sample-evaluations": services.record_sample_evaluation(
            acting_user=user, submission=submission, evaluated_on=date(2026, 3, 9), outcome="resubmit"
        ),
        "vendor-purchases": services.record_vendor_purchase(
            acting_user=user,
            site=site,
            vendor="V",
            description="Kit",
            purchased_on=date(2026, 3, 1),
            price_cents=1000,
            deferred_cents=500,
            change=change,
        ),
        "recordings": recording,
        "video-access": services.record_video_access(
            acting_user=user, site=site, accessed_at=local(2026, 3, 5, 9), purpose="Copy", recording=recording
        ),
        "review-log": services.add_review_log_entry(
            acting_user=user,
            table=table,
            gaming_date=date(2026, 3, 3),
            camera_recording=True,
            unobstructed_view=True,
            clear_picture=True,
            field_of_view=True,
        ),
        "outages": outage,
        "outage-repairs": services.record_outage_repair(
            acting_user=user,
            outage=services.report_outage(
                acting_user=user, table=table, kind="recorder", began_at=local(2026, 3, 2, 20), description="Disk"
            ),
            repaired_at=local(2026, 3, 3, 10),
            description="Disk replaced",
        ),
        "review-programs": program,
        "special-events": services.record_special_event(
            acting_user=user, site=site, name="Summer fair", first_day=date(2026, 6, 1), last_day=date(2026, 6, 3)
        ),
        "review-tasks": task,
        "review-entries": services.record_review_entry(
            acting_user=user,
            task=task,
            gaming_date=date(2026, 4, 6),
            shift_started_at=day + timedelta(hours=18),
            shift_ended_at=day + timedelta(hours=26),
            footage_start_at=day + timedelta(hours=19),
            footage_end_at=day + timedelta(hours=20),
            reviewer=manager,
            findings="OK",
        ),
    }
