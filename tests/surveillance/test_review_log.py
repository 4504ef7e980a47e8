"""The daily surveillance review log (ND 99-01.3-08-04(7), 08-16(1)(d))."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from cardroom.models import Role
from core.models import AuditEvent
from surveillance import queries, services
from surveillance.models import Outage, ReviewLogEntry

from .conftest import add_shift, local


def log(acting, table, gaming_date=date(2026, 2, 3), **kwargs):
    values = {"camera_recording": True, "unobstructed_view": True, "clear_picture": True, "field_of_view": True}
    values.update(kwargs)
    return services.add_review_log_entry(acting_user=acting.user, table=table, gaming_date=gaming_date, **values)


@pytest.fixture
def activity(table, dealer):
    return add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))


def test_a_shift_manager_logs_a_day_of_activity_with_an_audit_event(shift_manager, table, activity):
    entry = log(shift_manager, table)
    assert entry.reviewed_by == shift_manager and entry.all_clear
    assert AuditEvent.objects.filter(action="surveillance.review_log.added", object_id=str(entry.pk)).exists()


def test_activity_after_midnight_belongs_to_the_gaming_day_it_started(shift_manager, table, dealer):
    add_shift(table, dealer, local(2026, 2, 5, 1), local(2026, 2, 5, 3))  # before the 06:00 day start
    assert log(shift_manager, table, date(2026, 2, 4)).pk


def test_a_day_without_activity_is_refused_and_nothing_is_written(shift_manager, table, activity):
    with pytest.raises(ValidationError) as refusal:
        log(shift_manager, table, date(2026, 2, 5))
    message = refusal.value.message_dict["gaming_date"][0]
    assert message.startswith("ND 99-01.3-08-04(7):") and "2026-02-05" in message
    assert ReviewLogEntry.objects.count() == 0


def test_a_problem_found_is_logged_as_such(shift_manager, table, activity):
    assert not log(shift_manager, table, clear_picture=False, notes="Dome smudged").all_clear


def test_a_correction_is_a_new_entry_pointing_back(shift_manager, table, activity):
    first = log(shift_manager, table, unobstructed_view=False)
    correction = log(shift_manager, table, corrects=first, notes="Entered the wrong box")
    assert correction.corrects == first
    with pytest.raises(IntegrityError), transaction.atomic():
        ReviewLogEntry.objects.filter(pk=first.pk).update(unobstructed_view=True)


@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.AUDITOR])
def test_roles_not_reviewing_surveillance_may_not_log(cast, table, activity, role):
    with pytest.raises(PermissionDenied):
        log(cast[role], table)


# --- A failed check starts the repair clock (ND 99-01.3-08-04(7)) ------------------------------


def test_a_failed_check_opens_the_outage_from_the_review_so_the_deadline_runs(shift_manager, table, activity):
    """08-04(7): a camera "not producing an unobstructed view and clear picture ... not repaired or
    remedied within forty-eight hours of activity on the table or four calendar days": the failed
    check is the outage's start, not a yellow row waiting for someone to report it."""
    entry = log(shift_manager, table, clear_picture=False, unobstructed_view=False, notes="Dome smudged")
    outage = Outage.objects.get(table=table)
    assert entry.outage == outage and not hasattr(outage, "repair")
    assert (outage.kind, outage.began_at, outage.reported_by) == ("view", entry.reviewed_at, shift_manager.user)
    assert outage.description == (
        f"ND 99-01.3-08-04(7): found in the daily review log of 2026-02-03 (entry {entry.pk}): no unobstructed "
        "view, no clear picture. Dome smudged"
    )
    assert AuditEvent.objects.filter(action="surveillance.outage.reported", object_id=str(outage.pk)).exists()
    assert queries.deadline_for(outage).at > outage.began_at  # the deadline runs from the review
    again = log(shift_manager, table, camera_recording=False)  # still failing: the open outage stands
    assert again.outage is None and Outage.objects.count() == 1
    cleared = log(shift_manager, table, corrects=entry, notes="Wrong box")  # a correction repairs nothing
    assert cleared.outage is None and not hasattr(Outage.objects.get(), "repair")


def test_a_recording_camera_down_is_a_camera_outage_and_a_repaired_one_does_not_stop_the_next(
    shift_manager, table, activity
):
    first = log(shift_manager, table, camera_recording=False).outage
    assert first.kind == "camera" and "the camera is not recording." in first.description
    services.record_outage_repair(
        acting_user=shift_manager.user, outage=first, repaired_at=timezone.now(), description="Recabled"
    )
    second = log(shift_manager, table, clear_picture=False).outage
    assert second is not None and second != first and second.kind == "view"


def test_a_clear_check_opens_nothing(shift_manager, table, activity):
    assert log(shift_manager, table).outage is None and not Outage.objects.exists()


def test_the_api_answers_with_the_outage_and_the_page_says_it(client_for, client, shift_manager, table, activity):
    body = {"table": table.pk, "gaming_date": "2026-02-03", "camera_recording": True,
            "unobstructed_view": True, "clear_picture": False, "field_of_view": True, "notes": "Glare"}  # fmt: skip
    answer = client_for(shift_manager).post("/api/v1/surveillance/review-log/", body, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["outage"] == Outage.objects.get().pk
    read_back = client_for(shift_manager).get(f"/api/v1/surveillance/review-log/{answer.json()['id']}/").json()
    assert "outage" not in read_back  # the answer to the write says it; the row read back is the row
    services.record_outage_repair(
        acting_user=shift_manager.user, outage=Outage.objects.get(), repaired_at=timezone.now(), description="ok"
    )
    client.force_login(shift_manager.user)
    form = {"table": table.pk, "gaming_date": "2026-02-03", "camera_recording": "on", "unobstructed_view": "on",
            "field_of_view": "on"}  # fmt: skip
    page = client.post("/surveillance/review-log/", form, follow=True).content.decode()
    opened = Outage.objects.get(repair__isnull=True)
    assert f"ND 99-01.3-08-04(7): outage {opened.pk} opened for table 1 from this review" in page
    assert "the deadline to repair it runs from now" in page


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_where_the_pack_states_no_repair_deadline_the_page_promises_none(client, shift_manager, table, activity, code):
    """The outage is the house's record there (the outages page: "this site's rules set no repair
    deadline or wager cap"): the page names it, citing House control, and no deadline."""
    table.site.jurisdiction = code
    table.site.save()
    client.force_login(shift_manager.user)
    form = {"table": table.pk, "gaming_date": "2026-02-03", "camera_recording": "on", "unobstructed_view": "on"}
    page = client.post("/surveillance/review-log/", form, follow=True).content.decode()
    opened = Outage.objects.get()
    assert f"House control: outage {opened.pk} opened for table 1 from this review" in page
    assert "deadline" not in page.split(f"outage {opened.pk} opened")[1].split("</")[0]
    assert "99-01.3" not in opened.description and opened.description.startswith("House control: found in")
