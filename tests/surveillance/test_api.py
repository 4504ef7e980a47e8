"""The surveillance API: every role x every endpoint x own site / other site / another
organization, and the same refusals as the services (400 naming the field and the rule)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from cardroom.models import Role
from surveillance.api_routes import ROUTES
from surveillance.models import Outage, OutageRepair, Recording, ReviewLogEntry
from tests.conftest import ALL_ROLES
from tests.factories import make_person
from tests.shared_world import built_once

from .conftest import local
from .records import make_records

ENDPOINTS = [prefix.split("/", 1)[1] for prefix, _, _ in ROUTES]
READERS = {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.AUDITOR}
ORG_WIDE = {Role.GAMING_MANAGER, Role.AUDITOR}
WRITERS = {
    "statuses": {Role.GAMING_MANAGER},
    "equipment": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "equipment-changes": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "sample-submissions": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "sample-evaluations": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "vendor-purchases": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "recordings": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "video-access": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "review-log": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS},
    "outages": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS},
    "outage-repairs": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
    "special-events": {Role.GAMING_MANAGER},
    "review-programs": {Role.GAMING_MANAGER},
    "review-program-closures": {Role.GAMING_MANAGER},
    "review-entries": {Role.GAMING_MANAGER, Role.SHIFT_MANAGER},
}


@built_once
def world(site, other_site, stranger_site, cast):
    """Every kind of record at the user's site, at another site of the same org and in another
    org (built once for the module: tests/shared_world.py)."""
    manager = cast[Role.GAMING_MANAGER]
    stranger_manager = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    return {
        "site": make_records(site, manager),
        "other_site": make_records(other_site, manager),
        "stranger_site": make_records(stranger_site, stranger_manager),
    }


def url(endpoint, obj=None):
    return f"/api/v1/surveillance/{endpoint}/" + (f"{obj.pk}/" if obj is not None else "")


def visible(role, where):
    if where == "stranger_site" or role not in READERS:
        return False
    return where == "site" or role in ORG_WIDE


@pytest.mark.parametrize("role", ALL_ROLES)
def test_every_endpoint_answers_200_in_scope_and_404_outside(client_for, cast, world, role):
    client = client_for(cast[role])
    for where in ("site", "other_site", "stranger_site"):
        for endpoint in ENDPOINTS:
            if endpoint == "review-program-closures":
                continue  # none in the world: closing ends the program
            response = client.get(url(endpoint, world[where][endpoint]))
            assert response.status_code == (200 if visible(role, where) else 404), (where, endpoint, response.content)


@pytest.mark.parametrize("role", ALL_ROLES)
def test_lists_filter_by_site_and_never_show_another_organization(client_for, cast, world, site, other_site, role):
    client = client_for(cast[role])
    for endpoint in ENDPOINTS:
        if endpoint == "review-program-closures":
            continue
        ids = {row["id"] for row in client.get(url(endpoint)).json()["results"]}
        assert world["stranger_site"][endpoint].pk not in ids, endpoint
        assert (world["site"][endpoint].pk in ids) == (role in READERS), endpoint
        own = {row["id"] for row in client.get(url(endpoint), {"site": site.pk}).json()["results"]}
        assert world["other_site"][endpoint].pk not in own, endpoint


def payload(endpoint, records, cast, manager):
    """A valid new record at the user's site for each endpoint."""
    from surveillance import services

    table = records["table"]
    if endpoint == "sample-submissions":
        change = services.record_site_change(
            acting_user=manager.user, site=table.site, kind="table_moved", changed_on=date(2026, 5, 1)
        )
        return {"change": change.pk, "submitted_on": "2026-05-03"}
    if endpoint == "sample-evaluations":
        change = services.record_site_change(
            acting_user=manager.user, site=table.site, kind="table_moved", changed_on=date(2026, 5, 1)
        )
        sub = services.submit_sample(acting_user=manager.user, change=change, submitted_on=date(2026, 5, 2))
        return {"submission": sub.pk, "evaluated_on": "2026-05-09", "outcome": "approved"}
    return {
        "statuses": {"site": table.site_id, "required": True, "since": "2026-07-01", "reason": "GP"},
        "equipment": {
            "site": table.site_id,
            "table": table.pk,
            "kind": "dome",
            "make_model": "Dome",
            "installed_on": "2026-05-01",
        },
        "equipment-changes": {
            "site": table.site_id,
            "table": table.pk,
            "kind": "table_moved",
            "changed_on": "2026-05-01",
        },
        "vendor-purchases": {
            "site": table.site_id,
            "vendor": "V",
            "description": "Dome",
            "purchased_on": "2026-05-01",
            "price_cents": 2000,
            "deferred_cents": 1000,
        },
        "recordings": {
            "table": table.pk,
            "gaming_date": "2026-03-10",
            "started_at": "2026-03-10T18:00:00-05:00",
            "stopped_at": "2026-03-10T23:00:00-05:00",
        },
        "video-access": {"site": table.site_id, "accessed_at": "2026-03-11T10:00:00-05:00", "purpose": "Copy"},
        "review-log": {
            "table": table.pk,
            "gaming_date": "2026-03-03",
            "camera_recording": True,
            "unobstructed_view": True,
            "clear_picture": False,
            "field_of_view": True,
            "notes": "Glare",
        },
        "outages": {
            "table": table.pk,
            "kind": "camera",
            "began_at": "2026-03-12T20:00:00-05:00",
            "description": "Flicker",
        },
        "outage-repairs": {
            "outage": records["outage"].pk,
            "repaired_at": "2026-03-04T10:00:00-06:00",
            "description": "Fixed",
        },
        "special-events": {
            "site": table.site_id,
            "name": "Autumn fair",
            "first_day": "2026-06-10",
            "last_day": "2026-06-12",
        },
        "review-programs": {"site": table.site_id, "start_date": "2026-09-07", "reason": "Q2 hold 8%"},
        "review-program-closures": {
            "program": records["review-programs"].pk,
            "closed_on": "2026-04-20",
            "low_hold_reason": "Short deck found",
        },
        "review-entries": {
            "task": records["task"].pk,
            "gaming_date": "2026-04-07",
            "shift_started_at": "2026-04-07T18:00:00-05:00",
            "shift_ended_at": "2026-04-08T02:00:00-05:00",
            "footage_start_at": "2026-04-07T20:00:00-05:00",
            "footage_end_at": "2026-04-07T21:00:00-05:00",
            "reviewer": cast[Role.SHIFT_MANAGER].pk,
            "findings": "OK",
        },
    }[endpoint]


@pytest.fixture
def own(world):
    return world["site"]


@pytest.mark.parametrize("role", ALL_ROLES)
def test_each_role_creates_exactly_what_it_may_at_its_own_site(client_for, cast, own, manager, role):
    client = client_for(cast[role])
    for endpoint in WRITERS:  # in this order each new record is valid after the previous ones
        response = client.post(url(endpoint), payload(endpoint, own, cast, manager), format="json")
        assert response.status_code == (201 if role in WRITERS[endpoint] else 403), (endpoint, response.content)


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.GAMING_MANAGER])
@pytest.mark.parametrize("where", ["other_site", "stranger_site"])
def test_creating_at_a_site_out_of_scope_is_an_unknown_object(client_for, cast, world, manager, role, where):
    body = payload("outages", world[where], cast, manager)
    response = client_for(cast[role]).post(url("outages"), body, format="json")
    if where == "other_site" and role == Role.GAMING_MANAGER:
        assert response.status_code == 201
    else:
        assert response.status_code == 400 and "table" in response.json()


def test_an_ineligible_reviewer_is_a_400_naming_the_reviewer_and_the_rule(client_for, cast, own, manager):
    from .conftest import add_shift

    records = own
    add_shift(records["table"], cast[Role.SHIFT_MANAGER], local(2026, 4, 7, 19), local(2026, 4, 7, 23))
    body = payload("review-entries", records, cast, manager)
    response = client_for(manager).post(url("review-entries"), body, format="json")
    assert response.status_code == 400
    assert response.json()["reviewer"][0].startswith("ND 99-01.3-08-04(9):")


def test_a_review_log_for_a_day_without_activity_is_a_400_and_writes_nothing(client_for, own, cast, manager):
    body = {**payload("review-log", own, cast, manager), "gaming_date": "2026-03-09"}
    before = ReviewLogEntry.objects.count()
    response = client_for(manager).post(url("review-log"), body, format="json")
    assert response.status_code == 400 and "ND 99-01.3-08-04(7)" in response.json()["gaming_date"][0]
    assert ReviewLogEntry.objects.count() == before


def test_a_recording_starting_outside_its_gaming_day_is_a_400_and_writes_nothing(client_for, own, cast, manager):
    body = {**payload("recordings", own, cast, manager), "started_at": "2026-03-10T05:30:00-05:00"}
    before = Recording.objects.count()
    response = client_for(manager).post(url("recordings"), body, format="json")
    assert response.status_code == 400
    message = response.json()["started_at"][0]
    assert (
        message.startswith("ND 99-01.3-02-01: ")
        and "outside the business hours of the gaming day 2026-03-10" in message
    )
    assert Recording.objects.count() == before


def test_a_recording_past_the_days_last_hour_is_a_201(client_for, own, cast, manager):
    body = {
        **payload("recordings", own, cast, manager),
        "started_at": "2026-03-11T05:00:00-05:00",
        "stopped_at": "2026-03-11T06:30:00-05:00",
    }
    response = client_for(manager).post(url("recordings"), body, format="json")
    assert response.status_code == 201 and response.json()["gaming_date"] == "2026-03-10"


@pytest.mark.parametrize(
    ("repaired_at", "refusal"),
    [
        (
            "2026-03-03T19:00:00",
            "the repair ends the outage, so it is dated after the outage began; 2026-03-03 19:00 CST",
        ),
        ("2099-03-04T10:00:00-06:00", "a record cannot be dated in the future (2099-03-04 10:00 CST is after now)."),
    ],
)
def test_a_repair_before_its_outage_or_in_the_future_is_a_400_citing_the_outage_rule(
    client_for, own, cast, manager, repaired_at, refusal
):
    body = {**payload("outage-repairs", own, cast, manager), "repaired_at": repaired_at}
    before = OutageRepair.objects.count()
    response = client_for(manager).post(url("outage-repairs"), body, format="json")
    assert response.status_code == 400
    assert response.json()["repaired_at"][0].startswith(f"ND 99-01.3-08-04(7): {refusal}")
    assert OutageRepair.objects.count() == before


def test_a_naive_repair_time_is_the_sites_local_time(client_for, own, cast, manager):
    body = {**payload("outage-repairs", own, cast, manager), "repaired_at": "2026-03-03T20:00:00"}
    response = client_for(manager).post(url("outage-repairs"), body, format="json")
    assert response.status_code == 201, response.json()
    assert OutageRepair.objects.get(pk=response.json()["id"]).repaired_at == local(2026, 3, 3, 20)


def test_an_outage_shows_its_deadline_and_repair(client_for, own, manager):
    outage = own["outages"]
    body = client_for(manager).get(url("outages", outage)).json()
    assert body["deadline_basis"] == "4 calendar days"
    deadline = datetime.fromisoformat(body["deadline_at"])  # in UTC ("Z"); the 7th at the site
    assert body["deadline_at"].endswith("Z") and deadline.astimezone(ZoneInfo(outage.table.site.time_zone)).day == 7
    assert body["repaired_at"] is None
    assert Outage.objects.get(pk=outage.pk).kind == body["kind"]


def test_review_tasks_report_their_reviewed_minutes(client_for, own, manager):
    task = own["review-tasks"]
    body = client_for(manager).get(url("review-tasks", task)).json()
    assert (body["reviewed_minutes"], body["done"]) == (60, True)


def test_the_schema_documents_the_surveillance_errors(client, manager):
    client.force_login(manager.user)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for endpoint in WRITERS:
        assert {"201", "400", "403", "404"} <= set(schema["paths"][url(endpoint)]["post"]["responses"]), endpoint
