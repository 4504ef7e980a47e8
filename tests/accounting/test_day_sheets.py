"""A day sheet in one request (issue 16): a whole gaming day from paper, applied atomically
through the same services as a live entry, with every error located."""

import copy
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction
from django.utils import timezone

from accounting import summaries
from cardroom.models import Role
from core.models import AuditEvent
from counts import services as counts
from counts.models import CountEntry, CountSession, CountSignature, Drop, DropRemoval
from floor import services as floor
from floor.calculations import business_date
from floor.models import CarriedItem, DealerShift, GamingDay, GamingDayClose, Slip, SlipStep, TableInventory
from tests.factories import TableFactory, make_person

TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 100}]
CHANGE = [{"denomination": 2500, "quantity": 44}, {"denomination": 500, "quantity": 90}]
FILL = [{"denomination": 2500, "quantity": 20}]
CREDIT = [{"denomination": 500, "quantity": 20}]
CLOSER_1 = [{"denomination": 2500, "quantity": 45}, {"denomination": 500, "quantity": 80}]
CLOSER_2 = [{"denomination": 2500, "quantity": 38}, {"denomination": 500, "quantity": 70}]
BOX_1 = [{"denomination_cents": 10000, "quantity": 12}, {"denomination_cents": 2000, "quantity": 15}]
BOX_2 = [{"denomination_cents": 10000, "quantity": 7}]


class Rollback(Exception):
    pass


@pytest.fixture
def day(site):
    """Two days ago at the site: every time of the sheet is in the past."""
    return business_date(timezone.now(), site.time_zone, site.business_day_start_hour) - timedelta(days=2)


@pytest.fixture
def world(org, site, cast, chips, manager):
    tables = [TableFactory(site=site, number=n) for n in (1, 2)]
    floor.register_slip_book(acting_user=manager.user, site=site, kind="fill", first_number=1001, last_number=1050)
    floor.register_slip_book(acting_user=manager.user, site=site, kind="credit", first_number=501, last_number=550)
    for table in tables:
        counts.register_drop_box(acting_user=manager.user, table=table)
    people = {
        "gm": manager,
        "sm": cast[Role.SHIFT_MANAGER],
        "pb": cast[Role.PIT_BOSS],
        "ca": cast[Role.CASHIER],
        "d1": cast[Role.DEALER],
        "d2": make_person(org, Role.DEALER, site),
        "d3": make_person(org, Role.DEALER, site),
        "c1": make_person(org, Role.COUNT_TEAM, site, employment_type="non_gaming"),
        "c2": make_person(org, Role.COUNT_TEAM, site, employment_type="non_gaming"),
        "auditor": cast[Role.AUDITOR],
    }
    return tables, people


def moment(site, day, hh_mm: str, next_day=False) -> datetime:
    hour, minute = map(int, hh_mm.split(":"))
    local = datetime.combine(day + timedelta(days=1 if next_day else 0), time(hour, minute))
    return local.replace(tzinfo=ZoneInfo(site.time_zone))


def iso(site, day, hh_mm, next_day=False) -> str:
    return moment(site, day, hh_mm, next_day).isoformat()


def full_sheet(site, day, people) -> dict:
    """The whole day; signers by initials (and one by id)."""
    i = {key: person.initials for key, person in people.items()}
    return {
        "gaming_date": day.isoformat(),
        "open": {"opened_at": iso(site, day, "17:55"), "opened_by": i["sm"]},
        "openers": [
            {"table": 1, "counted_at": iso(site, day, "18:00"), "counted_by": i["sm"], "chips": TRAY},
            {"table": 2, "counted_at": iso(site, day, "18:01"), "counted_by": people["sm"].pk, "chips": TRAY},
        ],
        "dealer_shifts": [
            {"table": 1, "dealer": i["d1"], "started_at": iso(site, day, "18:05"), "started_by": i["sm"]},
            {"table": 2, "dealer": i["d2"], "started_at": iso(site, day, "18:05"), "started_by": i["sm"]},
            {
                "table": 1,
                "dealer": i["d3"],
                "started_at": iso(site, day, "22:00"),
                "started_by": i["sm"],
                "chips": CHANGE,
            },
        ],
        "slips": [
            {
                "kind": "fill",
                "number": 1001,
                "table": 1,
                "chips": FILL,
                "prepared_at": iso(site, day, "20:00"),
                "prepared_by": i["ca"],
                "verified_at": iso(site, day, "20:01"),
                "verified_by": i["pb"],
                "received_at": iso(site, day, "20:02"),
                "received_by": i["d1"],
            },
            {
                "kind": "credit",
                "number": 501,
                "table": 2,
                "chips": CREDIT,
                "prepared_at": iso(site, day, "23:00"),
                "prepared_by": i["pb"],
                "verified_at": iso(site, day, "23:01"),
                "verified_by": i["sm"],
                "received_at": iso(site, day, "23:02"),
                "received_by": i["ca"],
            },
        ],
        "closers": [
            {"table": 1, "counted_at": iso(site, day, "01:00", True), "counted_by": i["sm"], "chips": CLOSER_1},
            {"table": 2, "counted_at": iso(site, day, "01:01", True), "counted_by": i["sm"], "chips": CLOSER_2},
        ],
        "drops": [
            {
                "box": number,
                "removed_at": iso(site, day, "01:10", True),
                "removed_by": i["sm"],
                "escorted_by": i["pb"],
                "storage_place": "office safe",
                "key_holder": i["c1"],
            }
            for number in (1, 2)
        ],
        "close": {"closed_at": iso(site, day, "01:30", True), "closed_by": i["sm"]},
        "count": {
            "opened_at": iso(site, day, "02:00", True),
            "opened_by": i["c1"],
            "members": [i["c1"], i["c2"]],
            "entries": [
                {"box": box, "counted_at": iso(site, day, "02:10", True), "counted_by": i[who], "currency": cash}
                for box, cash in ((1, BOX_1), (2, BOX_2))
                for who in ("c1", "c2")
            ],
            "signatures": [
                {"signed_at": iso(site, day, "02:30", True), "signed_by": i["c1"]},
                {"signed_at": iso(site, day, "02:31", True), "signed_by": i["c2"]},
            ],
        },
    }


def enter_live(site, day, tables, people):
    """The same day entered call by call, each step by its own signer's login."""
    t1, t2 = tables
    p = {key: person.user for key, person in people.items()}
    at = lambda hh_mm, next_day=False: moment(site, day, hh_mm, next_day)  # noqa: E731
    gaming_day = floor.open_gaming_day(acting_user=p["sm"], site=site, gaming_date=day, at=at("17:55"))
    floor.record_table_inventory(acting_user=p["sm"], table=t1, kind="opener", chips=TRAY, at=at("18:00"))
    floor.record_table_inventory(acting_user=p["sm"], table=t2, kind="opener", chips=TRAY, at=at("18:01"))
    floor.start_dealer_shift(acting_user=p["sm"], table=t1, dealer=people["d1"], started_at=at("18:05"))
    floor.start_dealer_shift(acting_user=p["sm"], table=t2, dealer=people["d2"], started_at=at("18:05"))
    fill = floor.prepare_fill(acting_user=p["ca"], table=t1, chips=FILL, number=1001, at=at("20:00"))
    floor.verify_slip(acting_user=p["pb"], slip=fill, at=at("20:01"))
    floor.receive_slip(acting_user=p["d1"], slip=fill, at=at("20:02"))
    floor.start_dealer_shift(acting_user=p["sm"], table=t1, dealer=people["d3"], started_at=at("22:00"), chips=CHANGE)
    credit = floor.prepare_credit(acting_user=p["pb"], table=t2, chips=CREDIT, number=501, at=at("23:00"))
    floor.verify_slip(acting_user=p["sm"], slip=credit, at=at("23:01"))
    floor.receive_slip(acting_user=p["ca"], slip=credit, at=at("23:02"))
    floor.record_table_inventory(acting_user=p["sm"], table=t1, kind="closer", chips=CLOSER_1, at=at("01:00", True))
    floor.record_table_inventory(acting_user=p["sm"], table=t2, kind="closer", chips=CLOSER_2, at=at("01:01", True))
    boxes = [t.drop_boxes.get() for t in tables]
    for box in boxes:
        counts.remove_drop_box(
            acting_user=p["sm"],
            drop_box=box,
            gaming_date=day,
            removed_at=at("01:10", True),
            storage_place="office safe",
            key_holder=people["c1"],
            escorted_by=people["pb"],
        )
    # The boxes are counted after the close: the shift manager carries them past it (floor.open_items).
    left = [item.key for item in floor.items_left_open(gaming_day)]
    floor.carry_open_items(
        acting_user=p["sm"], gaming_day=gaming_day, keys=left, reason="Counted after the close.", at=at("01:30", True)
    )
    floor.close_gaming_day(acting_user=p["sm"], gaming_day=gaming_day, at=at("01:30", True))
    session = counts.open_count_session(
        acting_user=p["c1"], site=site, gaming_date=day, members=[people["c1"], people["c2"]], at=at("02:00", True)
    )
    for box, cash in zip(boxes, (BOX_1, BOX_2), strict=True):
        for who in ("c1", "c2"):
            counts.record_blind_count(
                acting_user=p[who], session=session, drop_box=box, currency=cash, at=at("02:10", True)
            )
    counts.sign_count(acting_user=p["c1"], session=session, at=at("02:30", True))
    counts.sign_count(acting_user=p["c2"], session=session, at=at("02:31", True))


def url(site) -> str:
    return f"/api/v1/sites/{site.pk}/day-sheets/"


MODELS = (
    GamingDay,
    GamingDayClose,
    TableInventory,
    DealerShift,
    Slip,
    SlipStep,
    Drop,
    DropRemoval,
    CountSession,
    CountEntry,
    CountSignature,
    AuditEvent,
)


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


# --- The whole day --------------------------------------------------------------------------------


def test_a_full_day_sheet_gives_the_same_daily_summary_as_the_day_entered_call_by_call(site, day, world, client_for):
    tables, people = world
    with pytest.raises(Rollback), transaction.atomic():
        enter_live(site, day, tables, people)
        live = summaries.daily_summary(site, day)
        raise Rollback
    assert not GamingDay.objects.exists()

    response = client_for(people["gm"]).post(url(site), full_sheet(site, day, people), format="json")

    assert response.status_code == 201, response.json()
    sheet = summaries.daily_summary(site, day)
    assert sheet == live
    # The figures are really there (not two empty summaries): drop 1,200 + 300 + 700, fill 500, credit 100.
    assert sheet.total.drop_cents == 220_000 and sheet.total.fills_cents == 50_000
    assert sheet.total.credits_cents == 10_000 and sheet.gaming_day_closed
    body = response.json()
    assert len(body["slips"]) == 2 and len(body["dealer_shifts"]) == 3 and body["closed"] is True
    assert CountSignature.objects.filter(session_id=body["count_session"]).count() == 2


def test_each_step_is_recorded_as_done_by_its_signer_and_audited_as_entered_by_the_login(site, day, world, client_for):
    tables, people = world
    response = client_for(people["gm"]).post(url(site), full_sheet(site, day, people), format="json")
    assert response.status_code == 201, response.json()

    fill = Slip.objects.get(kind="fill", number=1001)
    assert fill.prepared_by == people["ca"] and fill.prepared_at == moment(site, day, "20:00")
    steps = {step.kind: step for step in fill.steps.all()}
    assert (steps["verify"].employee, steps["verify"].initials) == (people["pb"], people["pb"].initials)
    assert steps["receive"].employee == people["d1"] and steps["receive"].at == moment(site, day, "20:02")
    assert GamingDay.objects.get().opened_by == people["sm"]
    event = AuditEvent.objects.get(action="fill_slip.verify")
    assert event.actor == people["gm"].user and event.actor_label == people["gm"].user.get_username()
    assert event.after["signed_by"] == {"employee": people["pb"].pk, "initials": people["pb"].initials}
    assert AuditEvent.objects.filter(action="day_sheet.applied", actor=people["gm"].user).count() == 1


def test_dealer_rotations_apply_in_time_order_whatever_the_order_on_the_sheet(site, day, world, client_for):
    """A dealer leaving table 2 at 22:00 sits at table 1 the same minute: the end (written on
    the sheet) comes before the start, and the rotation at table 1 relieves its dealer."""
    tables, people = world
    i = {key: person.initials for key, person in people.items()}
    sheet = full_sheet(site, day, people)
    sheet["dealer_shifts"] = [
        {"table": 1, "dealer": i["d2"], "started_at": iso(site, day, "22:00"), "started_by": i["sm"]},
        {"table": 1, "dealer": i["d1"], "started_at": iso(site, day, "18:05"), "started_by": i["sm"]},
        {
            "table": 2,
            "dealer": i["d2"],
            "started_at": iso(site, day, "18:05"),
            "started_by": i["sm"],
            "ended_at": iso(site, day, "22:00"),
            "ended_by": i["sm"],
        },
        {"table": 2, "dealer": i["d3"], "started_at": iso(site, day, "22:30"), "started_by": i["sm"]},
    ]
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 201, response.json()
    shifts = [DealerShift.objects.get(pk=pk) for pk in response.json()["dealer_shifts"]]
    assert [(s.table.number, s.dealer) for s in shifts] == [
        (1, people["d2"]),
        (1, people["d1"]),
        (2, people["d2"]),
        (2, people["d3"]),
    ]
    assert shifts[1].ended_at == moment(site, day, "22:00") and shifts[2].ended_at == moment(site, day, "22:00")
    assert shifts[0].ended_at == moment(site, day, "01:00", True)  # the closer of table 1 ends the last shift
    assert shifts[3].ended_at == moment(site, day, "01:01", True)


def test_a_count_difference_resolved_by_recount_and_the_records_marked_late(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["count"]["entries"][3]["currency"] = [{"denomination_cents": 10000, "quantity": 6}]
    sheet["count"]["recounts"] = [
        {
            "box": 2,
            "counted_at": iso(site, day, "02:20", True),
            "counted_by": people["c1"].initials,
            "currency": [{"denomination_cents": 10000, "quantity": 7}],
            "note": "one $100 bill was stuck to the box lid",
        }
    ]
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 201, response.json()
    assert summaries.daily_summary(site, day).total.drop_cents == 220_000
    # Entered two days after it happened: each record keeps both times and says it was late.
    opener = TableInventory.objects.filter(kind="opener").first()
    assert opener.counted_at == moment(site, day, "18:00") and opener.entered_late

    del sheet["count"]["recounts"]
    # The same sheet again: the day is already open, so the second is refused as a whole.
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400 and list(response.json()) == ["open.gaming_date"]
    assert "already opened" in response.json()["open.gaming_date"][0]


def test_a_day_already_open_takes_a_sheet_without_its_opening(site, day, world, client_for):
    tables, people = world
    floor.open_gaming_day(acting_user=people["sm"].user, site=site, gaming_date=day, at=moment(site, day, "17:00"))
    sheet = full_sheet(site, day, people)
    del sheet["open"], sheet["count"], sheet["close"]
    response = client_for(people["sm"]).post(url(site), sheet, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["gaming_day"] == GamingDay.objects.get().pk


# --- Errors: located, and nothing changed -----------------------------------------------------------


def test_a_structural_error_deep_in_the_sheet_is_located_and_changes_nothing(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["slips"][1]["chips"] = [{"denomination": 500, "quantity": 5}, {"denomination": 2500, "quantity": 0}]
    sheet["count"]["entries"][3]["counted_by"] = "ZZZ"
    before = row_counts()

    response = client_for(people["gm"]).post(url(site), sheet, format="json")

    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"slips[1].chips[1].quantity", "count.entries[3].counted_by"}
    assert "greater than or equal to 1" in errors["slips[1].chips[1].quantity"][0]
    assert "'ZZZ'" in errors["count.entries[3].counted_by"][0]
    assert row_counts() == before


def test_a_refusal_by_a_service_late_in_the_sheet_rolls_back_the_whole_day(site, day, world, client_for):
    """The second signature is by someone not on the count team: everything before it (the
    day, its slips, the count) is rolled back, and the error points at that signature."""
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["count"]["signatures"][1]["signed_by"] = people["sm"].initials
    before = row_counts()

    response = client_for(people["gm"]).post(url(site), sheet, format="json")

    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == ["count.signatures[1].signed_by"]
    assert errors["count.signatures[1].signed_by"][0].startswith("ND 99-01.3-08-14")
    assert row_counts() == before


def test_a_signer_without_the_role_is_refused_with_the_live_rule_at_the_signer(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["slips"][0]["verified_by"] = people["d2"].initials  # a dealer may not verify (08-05(5))
    before = row_counts()

    response = client_for(people["gm"]).post(url(site), sheet, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "slips[0].verified_by": ["ND 99-01.3-08-05(5): only a shift manager or pit boss may verify a slip."]
    }
    assert row_counts() == before


def test_a_service_rule_names_the_sheets_field(site, day, world, client_for):
    """The preparer verifying their own slip (08-05(5)), and a printed number outside every
    registered book (08-05(2)), each at the field the paper has."""
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["slips"][0]["verified_by"] = people["ca"].initials
    sheet["slips"][0]["prepared_by"] = people["pb"].initials
    sheet["slips"][0]["cashier"] = people["ca"].initials  # a pit boss's fill names the cashier (08-05(3)(c))
    sheet["slips"][0]["verified_by"] = people["pb"].initials
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["slips[0].verified_by"]
    assert "cannot verify their own slip" in response.json()["slips[0].verified_by"][0]

    sheet = full_sheet(site, day, people)
    sheet["slips"][1]["number"] = 999
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400
    assert response.json()["slips[1].number"][0].startswith("ND 99-01.3-08-05(2): 999 is not in a registered book")
    assert not GamingDay.objects.exists()


def test_times_are_the_papers_and_never_the_future(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["closers"][1]["counted_at"] = (timezone.now() + timedelta(hours=2)).isoformat()
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["closers[1].counted_at"]
    assert "future" in response.json()["closers[1].counted_at"][0]


def test_a_count_is_never_dated_in_the_future_either(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["count"]["entries"][2]["counted_at"] = (timezone.now() + timedelta(minutes=6)).isoformat()
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "count.entries[2].counted_at": ["House control: a record cannot be dated in the future."]
    }


def test_a_time_without_its_offset_is_the_sites_local_time(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["slips"][0]["prepared_at"] = moment(site, day, "20:00").replace(tzinfo=None).isoformat()
    sheet["count"]["entries"][0]["counted_at"] = moment(site, day, "02:10", True).replace(tzinfo=None).isoformat()
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 201, response.json()
    assert Slip.objects.get(number=1001, kind="fill").prepared_at == moment(site, day, "20:00")
    assert CountEntry.objects.order_by("pk").first().entered_at == moment(site, day, "02:10", True)


def test_the_sheet_of_another_day_than_the_open_one_is_refused(site, day, world, client_for):
    tables, people = world
    floor.open_gaming_day(acting_user=people["sm"].user, site=site, gaming_date=day, at=moment(site, day, "17:00"))
    sheet = full_sheet(site, day - timedelta(days=1), people)
    del sheet["open"]
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["open"] and str(day) in response.json()["open"][0]


def test_not_a_sheet_answers_400_not_500(site, world, client_for):
    tables, people = world
    bodies = (
        [],
        {"gaming_date": "tomorrow"},
        {"gaming_date": "2026-01-01", "slips": "many"},
        {"gaming_date": "2026-01-01", "open": {"opened_at": "2026-01-01T18:00", "opened_by": "A\x00"}},
        {"gaming_date": "2026-01-01", "open": {"opened_at": "2026-01-01T18:00", "opened_by": 2**70}},
        {"gaming_date": "2026-01-01", "openers": [{"table": 99999, "chips": [{}]}]},
    )
    for body in bodies:
        response = client_for(people["gm"]).post(url(site), body, format="json")
        assert response.status_code == 400, body


# --- Who may enter a sheet --------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["pb", "ca", "d1", "c1", "auditor"])
def test_only_a_gaming_manager_or_shift_manager_enters_a_sheet(site, day, world, client_for, who):
    tables, people = world
    before = row_counts()
    response = client_for(people[who]).post(url(site), full_sheet(site, day, people), format="json")
    assert response.status_code == 403
    assert "only a gaming manager or shift manager may enter a day sheet" in response.json()["detail"]
    assert row_counts() == before


def test_a_shift_manager_enters_the_floor_but_not_the_count(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    response = client_for(people["sm"]).post(url(site), sheet, format="json")
    assert response.status_code == 403
    assert response.json()["detail"].startswith("House control: only a gaming manager may enter the count section")
    del sheet["count"]
    response = client_for(people["sm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400  # the boxes are not counted (ND 99-01.3-08-14(4)): open items at the close
    assert "Drop box 1 of table 1 is removed but not counted" in " ".join(response.json()["close.open_items"])
    sheet["close"]["carry_reason"] = "The count team counts the boxes in the morning."
    response = client_for(people["sm"]).post(url(site), sheet, format="json")
    assert response.status_code == 201, response.json()
    assert CarriedItem.objects.filter(kind="box_not_counted").count() == 2


def test_another_organizations_site_is_not_found(stranger_site, day, world, client_for):
    tables, people = world
    response = client_for(people["gm"]).post(url(stranger_site), {"gaming_date": str(day)}, format="json")
    assert response.status_code == 404


def test_employees_of_another_organization_are_unknown_by_id(site, day, world, client_for, stranger_site):
    tables, people = world
    outsider = make_person(stranger_site.organization, Role.SHIFT_MANAGER, stranger_site)
    sheet = copy.deepcopy(full_sheet(site, day, people))
    sheet["open"]["opened_by"] = outsider.pk
    response = client_for(people["gm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400 and list(response.json()) == ["open.opened_by"]


def test_the_schema_documents_the_day_sheet():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/sites/{id}/day-sheets/"]["post"]
    assert {"201", "400", "403", "404"} <= set(operation["responses"])
    request = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    sheet = schema["components"]["schemas"][request]["properties"]
    assert {"gaming_date", "open", "openers", "dealer_shifts", "slips", "closers", "drops", "count", "close"} <= set(
        sheet
    )
    slip = schema["components"]["schemas"]["DaySheetSlipRequest"]["properties"]
    assert {"prepared_at", "prepared_by", "verified_by", "received_by", "number", "chips"} <= set(slip)
    assert "slips[3].chips[1].quantity" in operation["responses"]["400"]["description"]


def test_a_day_closed_with_a_table_still_open_is_refused_at_the_close(site, day, world, client_for):
    tables, people = world
    sheet = full_sheet(site, day, people)
    del sheet["closers"][1], sheet["count"]
    sheet["close"]["carry_reason"] = "The count team counts the boxes in the morning."
    before = row_counts()
    response = client_for(people["sm"]).post(url(site), sheet, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["close", "close.open_items"]
    assert "has 1 open item" in response.json()["close"][0]  # the boxes were carried; a closer never is
    assert response.json()["close.open_items"] == [
        "House control: table 2 is open (no closer); record the closer of table 2 first (it ends the dealer's "
        "shift and is recorded only while the day is open, so it is not carried)."
    ]
    assert row_counts() == before


def test_an_inactive_employee_signs_nothing(site, day, world, client_for):
    tables, people = world
    people["pb"].active = False
    people["pb"].save(update_fields=["active"])
    response = client_for(people["gm"]).post(url(site), full_sheet(site, day, people), format="json")
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {
        "slips[0].verified_by",
        "slips[1].prepared_by",
        "drops[0].escorted_by",
        "drops[1].escorted_by",
    }
    assert errors["slips[0].verified_by"][0].startswith("House control: ") and "not an active employee" in str(errors)
    assert not GamingDay.objects.exists()
