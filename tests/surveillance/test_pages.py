"""Surveillance pages: who sees them, forms that call the services, and refusals shown inline
with the same words as the API."""

import pytest
import time_machine

from cardroom.models import Role
from surveillance import services
from surveillance.models import Outage, OutageRepair, Recording, ReviewLogEntry
from tests.conftest import ALL_ROLES

from .conftest import add_shift, local
from .records import make_records

PAGES = ["", "outages/", "review-log/", "equipment/", "recordings/", "programs/"]
READERS = {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.AUDITOR}


@pytest.mark.parametrize("role", ALL_ROLES)
def test_each_page_opens_for_readers_and_is_refused_to_others(client, cast, site, manager, role):
    records = make_records(site, manager)
    client.force_login(cast[role].user)
    for page in [*PAGES, f"programs/{records['review-programs'].pk}/"]:
        response = client.get(f"/surveillance/{page}")
        assert response.status_code == (200 if role in READERS else 403), page


@pytest.mark.parametrize("role,sees_menu", [(r, r in READERS) for r in ALL_ROLES])
def test_the_surveillance_menu_fits_the_role(client, cast, site, role, sees_menu):
    client.force_login(cast[role].user)
    assert ("/surveillance/outages/" in client.get("/").content.decode()) == sees_menu


def test_the_auditor_reads_without_forms(client, cast, site, manager):
    make_records(site, manager)
    client.force_login(cast[Role.AUDITOR].user)
    for page in PAGES:
        assert '<form method="post" novalidate' not in client.get(f"/surveillance/{page}").content.decode(), page


def test_a_shift_manager_reports_an_outage_and_sees_its_deadline(client, cast, table):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    with time_machine.travel(local(2026, 3, 3, 9), tick=False):
        response = client.post(
            "/surveillance/outages/",
            {"table": table.pk, "kind": "camera", "began_at": "2026-03-02T20:00", "description": "Black picture"},
        )
        assert response.status_code == 302
        page = client.get("/surveillance/outages/").content.decode()
    assert Outage.objects.get().began_at == local(2026, 3, 2, 20)
    assert "2026-03-06 20:00" in page and "4 calendar days" in page


def test_an_expired_outage_says_why_the_table_is_limited_to_2_dollars(client, cast, table, manager):
    with time_machine.travel(local(2026, 3, 3, 9), tick=False):
        services.report_outage(
            acting_user=manager.user,
            table=table,
            kind="camera",
            began_at=local(2026, 3, 2, 20),
            description="Black picture",
        )
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    with time_machine.travel(local(2026, 3, 7, 9), tick=False):
        outages = client.get("/surveillance/outages/").content.decode()
        overview = client.get("/surveillance/").content.decode()
    assert "Past the deadline: close the table or limit wagers to $2.00" in outages
    assert "ND 99-01.3-08-04(7): camera not operating properly on table 1" in overview


def test_the_overview_shows_the_rules_deadline_and_the_tables_without_a_system(client, cast, table, manager):
    from datetime import date

    services.require_surveillance_by_rule(
        site=table.site, since=date(2026, 4, 1), operational_due_on=date(2026, 5, 15), reason="ND 99-01.3-08-04: level"
    )
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    with time_machine.travel(local(2026, 5, 15, 20), tick=False):
        on_day_45 = client.get("/surveillance/").content.decode()
    with time_machine.travel(local(2026, 5, 16, 20), tick=False):
        on_day_46 = client.get("/surveillance/").content.decode()
    assert "by <strong>2026-05-15</strong>" in on_day_45
    assert "ND 99-01.3-08-04: table 1 has no operational video surveillance system" not in on_day_45
    assert "ND 99-01.3-08-04: table 1 has no operational video surveillance system" in on_day_46


@pytest.mark.parametrize(
    ("repaired_at", "refusal"),
    [
        (
            "2026-03-02T19:00",
            "ND 99-01.3-08-04(7): the repair ends the outage, so it is dated after the outage began; "
            "2026-03-02 19:00 CST is before the outage&#x27;s start (2026-03-02 20:00 CST).",
        ),
        (
            "2026-03-03T12:00",
            "ND 99-01.3-08-04(7): a record cannot be dated in the future (2026-03-03 12:00 CST is after now).",
        ),
    ],
)
def test_a_repair_before_the_outage_or_in_the_future_shows_the_refusal_inline(
    client, cast, table, manager, repaired_at, refusal
):
    with time_machine.travel(local(2026, 3, 3, 9), tick=False):
        outage = services.report_outage(
            acting_user=manager.user,
            table=table,
            kind="camera",
            began_at=local(2026, 3, 2, 20),
            description="Black picture",
        )
        client.force_login(cast[Role.SHIFT_MANAGER].user)
        response = client.post(
            f"/surveillance/outages/{outage.pk}/repair/", {"repaired_at": repaired_at, "description": "Fixed"}
        )
    assert response.status_code == 400
    assert refusal in response.content.decode()
    assert not OutageRepair.objects.exists()


def test_a_review_log_for_a_day_without_activity_shows_the_api_message_inline(client, cast, table, dealer):
    add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))
    client.force_login(cast[Role.PIT_BOSS].user)
    form = {"table": table.pk, "camera_recording": "on", "unobstructed_view": "on", "clear_picture": "on",
            "field_of_view": "on"}  # fmt: skip
    refused = client.post("/surveillance/review-log/", {**form, "gaming_date": "2026-02-05"})
    assert refused.status_code == 400
    assert (
        "ND 99-01.3-08-04(7): the daily review log covers days of activity; table 1 had no dealer on shift on "
        "2026-02-05." in refused.content.decode()
    )
    assert client.post("/surveillance/review-log/", {**form, "gaming_date": "2026-02-03"}).status_code == 302
    assert ReviewLogEntry.objects.get().reviewed_by == cast[Role.PIT_BOSS]


def test_an_overlap_shorter_than_10_minutes_is_refused_inline(client, cast, table, manager):
    services.record_recording(
        acting_user=manager.user,
        table=table,
        gaming_date=local(2026, 1, 1).date(),
        started_at=local(2026, 1, 1, 18),
        stopped_at=local(2026, 1, 1, 22),
    )
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(
        "/surveillance/recordings/",
        {
            "form": "recording",
            "table": table.pk,
            "gaming_date": "2026-01-01",
            "started_at": "2026-01-01T21:55",
            "stopped_at": "2026-01-02T02:00",
        },
    )
    assert response.status_code == 400
    assert "ND 99-01.3-08-04(5)(c): two recorders in sequence" in response.content.decode()


def test_a_recording_starting_outside_its_gaming_day_is_refused_inline(client, cast, table):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(
        "/surveillance/recordings/",
        {
            "form": "recording",
            "table": table.pk,
            "gaming_date": "2026-01-01",
            "started_at": "2026-01-02T06:15",
            "stopped_at": "2026-01-02T08:00",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "ND 99-01.3-02-01: 2026-01-02 06:15 CST is outside the business hours of the gaming day 2026-01-01" in page
    assert not Recording.objects.exists()


def test_a_gaming_manager_opens_a_program_and_records_a_review(client, manager, cast, table):
    client.force_login(manager.user)
    assert (
        client.post("/surveillance/programs/", {"start_date": "2026-04-06", "reason": "Q1 hold 7%"}).status_code == 302
    )
    program = table.site.review_programs.get()
    task = program.tasks.get(week=1)
    add_shift(table, cast[Role.SHIFT_MANAGER], local(2026, 4, 6, 19), local(2026, 4, 6, 23))
    entry = {
        "form": "entry",
        "task": task.pk,
        "gaming_date": "2026-04-06",
        "shift_started_at": "2026-04-06T18:00",
        "shift_ended_at": "2026-04-07T02:00",
        "footage_start_at": "2026-04-06T20:00",
        "footage_end_at": "2026-04-06T21:00",
        "findings": "Fine",
    }
    refused = client.post(f"/surveillance/programs/{program.pk}/", {**entry, "reviewer": cast[Role.SHIFT_MANAGER].pk})
    assert refused.status_code == 400 and "ND 99-01.3-08-04(9)" in refused.content.decode()
    pit_boss = client.post(f"/surveillance/programs/{program.pk}/", {**entry, "reviewer": cast[Role.PIT_BOSS].pk})
    assert pit_boss.status_code == 400 and "ND 99-01.3-08-04(5)(a)" in pit_boss.content.decode()
    accepted = client.post(f"/surveillance/programs/{program.pk}/", {**entry, "reviewer": manager.pk})
    assert accepted.status_code == 302


def test_the_pages_print_times_in_the_zone_of_the_site_one_works_at(client, cast, site, table):
    """Every page, not only those that activate a zone themselves: an outage that began at
    20:00 in Chicago began at 18:00 at a Spokane site (config.middleware), and the API gives
    the same instant in UTC (core.api.moment_in_utc)."""
    began = local(2026, 3, 2, 20)
    with time_machine.travel(began, tick=False):
        outage = services.report_outage(
            acting_user=cast[Role.SHIFT_MANAGER].user,
            table=table,
            kind=Outage.Kind.CAMERA,
            began_at=began,
            description="Picture is black",
        )
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert "2026-03-02 20:00" in client.get("/surveillance/outages/").content.decode()
    type(site).objects.filter(pk=site.pk).update(time_zone="America/Los_Angeles")
    text = client.get("/surveillance/outages/").content.decode()
    assert "2026-03-02 18:00" in text and "2026-03-02 20:00" not in text
    answer = client.get(f"/api/v1/surveillance/outages/{outage.pk}/").json()
    assert answer["began_at"] == "2026-03-03T02:00:00Z"


def test_an_outage_form_sent_twice_records_one_outage(client, cast, table):
    from tests.page_support import form_token

    client.force_login(cast[Role.SHIFT_MANAGER].user)
    with time_machine.travel(local(2026, 3, 3, 9), tick=False):
        token = form_token(client.get("/surveillance/outages/").content.decode(), "outage-form")
        data = {"table": table.pk, "kind": "camera", "began_at": "2026-03-02T20:00", "description": "Black picture",
                "form_token": token}  # fmt: skip
        assert client.post("/surveillance/outages/", data).status_code == 302
        again = client.post("/surveillance/outages/", data, follow=True)
    assert "Already recorded" in again.content.decode() and Outage.objects.count() == 1
