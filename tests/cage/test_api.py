"""The cage API: every role x endpoint x own site / other site / another organization, and
bad input answering 400 naming the field and the rule."""

from datetime import date

import pytest

from cage import services
from cage.api_routes import ROUTES
from cage.models import BankCount, BankDeposit, Iou, IouRepayment, TipRedemption
from cardroom.models import Role
from tests.conftest import ALL_ROLES
from tests.factories import make_chips, make_person
from tests.shared_world import built_once

from .conftest import DAY, close_books_directly, make_gaming_day

ORG_WIDE = {Role.GAMING_MANAGER, Role.AUDITOR}
CLERKS = {Role.CASHIER, Role.SHIFT_MANAGER, Role.GAMING_MANAGER}
READERS = CLERKS | {Role.AUDITOR}


@built_once
def world(org, site, other_site, stranger_site, chips, cast):
    """A cashier, a dealer and a closed gaming day at each of the three sites (built once for
    the module: tests/shared_world.py)."""
    make_chips(stranger_site.organization)
    people = {}
    for key, target in (("site", site), ("other_site", other_site), ("stranger_site", stranger_site)):
        cashier = cast[Role.CASHIER] if key == "site" else make_person(target.organization, Role.CASHIER, target)
        dealer = cast[Role.DEALER] if key == "site" else make_person(target.organization, Role.DEALER, target)
        manager = make_person(target.organization, Role.SHIFT_MANAGER, target)
        people[key] = {
            "cashier": cashier,
            "dealer": dealer,
            "site": target,
            "day": make_gaming_day(target, DAY, manager, books=False),
            "iou": services.lend_iou(
                acting_user=cashier.user,
                site=target,
                gaming_date=DAY,
                source="bank",
                destination="reserve",
                amount_cents=1000,
            ),
            # Declared on a day whose books stay open: a redemption is in its declaration's books.
            "declaration": services.declare_tips(
                acting_user=dealer.user, site=target, gaming_date=date(2026, 11, 3), chips={100: 5}
            ),
        }
        close_books_directly(target, DAY, manager)  # the day's cage records came first; a deposit follows
    return people


OPEN_DATE = "2026-11-03"  # new cage records go on a day whose books are open (DAY's are closed)


def _payload(endpoint, w):
    site = w["site"]
    return {
        "bank-counts": {
            "site": site.pk,
            "gaming_date": OPEN_DATE,
            "kind": "start",
            "cash": [{"value_cents": 2000, "quantity": 5}],
            "chips": [{"value_cents": 500, "quantity": 10}],
        },
        "ious": {
            "site": site.pk,
            "gaming_date": OPEN_DATE,
            "source": "reserve",
            "destination": "bank",
            "amount_cents": 5000,
        },
        "chip-redemptions": {"site": site.pk, "gaming_date": OPEN_DATE, "chips": {"2500": 2}},
        "tip-declarations": {
            "site": site.pk,
            "gaming_date": OPEN_DATE,
            "chips": [{"value_cents": 100, "quantity": 3}],
        },
        "tip-redemptions": {"declaration": w["declaration"].pk, "dealer": w["dealer"].pk},
        "deposits": {"gaming_day": w["day"].pk, "amount_cents": 10000, "deposited_on": "2026-11-04"},
        "ideal-banks": {"site": site.pk, "amount_cents": 500000, "effective_on": "2026-01-01"},
    }[endpoint]


CREATORS = {
    "bank-counts": CLERKS,
    "ious": CLERKS,
    "chip-redemptions": CLERKS,
    "tip-declarations": {Role.DEALER, Role.WHEEL_OPERATOR},
    "tip-redemptions": {Role.CASHIER, Role.SHIFT_MANAGER},
    "deposits": CLERKS,
    "ideal-banks": {Role.GAMING_MANAGER},
}


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("endpoint", list(CREATORS))
@pytest.mark.parametrize("target", ["site", "other_site", "stranger_site"])
def test_creating_answers_by_role_and_by_site(client_for, cast, world, role, endpoint, target):
    response = client_for(cast[role]).post(
        f"/api/v1/cage/{endpoint}/", _payload(endpoint, world[target]), format="json"
    )
    in_scope = target == "site" or (target == "other_site" and role in ORG_WIDE)
    if not in_scope:
        assert response.status_code == 400, response.content
    elif role in CREATORS[endpoint]:
        assert response.status_code == 201, response.content
    else:
        assert response.status_code == 403, response.content


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("target", ["site", "other_site", "stranger_site"])
def test_reading_an_iou_answers_200_to_readers_in_scope_and_404_otherwise(client_for, cast, world, role, target):
    response = client_for(cast[role]).get(f"/api/v1/cage/ious/{world[target]['iou'].pk}/")
    visible = role in READERS and (target == "site" or (target == "other_site" and role in ORG_WIDE))
    assert response.status_code == (200 if visible else 404)


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("target", ["site", "other_site", "stranger_site"])
def test_repaying_an_iou_answers_by_role_and_by_site(client_for, cast, world, role, target):
    response = client_for(cast[role]).post(f"/api/v1/cage/ious/{world[target]['iou'].pk}/repay/", {}, format="json")
    visible = role in READERS and (target == "site" or (target == "other_site" and role in ORG_WIDE))
    expected = (201 if role in CLERKS else 403) if visible else 404
    assert response.status_code == expected, response.content


def test_a_dealer_sees_only_their_own_tip_declarations(client_for, org, site, chips, world, cast):
    other = make_person(org, Role.DEALER, site)
    services.declare_tips(acting_user=other.user, site=site, gaming_date=date.fromisoformat(OPEN_DATE), chips={100: 1})
    rows = client_for(cast[Role.DEALER]).get("/api/v1/cage/tip-declarations/").json()["results"]
    assert {row["dealer"] for row in rows} == {cast[Role.DEALER].pk}


def test_lists_filter_by_site_and_gaming_date(client_for, manager, world, site, other_site):
    client = client_for(manager)
    both = client.get("/api/v1/cage/ious/").json()["results"]
    assert {row["site"] for row in both} == {site.pk, other_site.pk}
    one = client.get(f"/api/v1/cage/ious/?site={site.pk}&gaming_date=2026-11-02").json()["results"]
    assert [row["site"] for row in one] == [site.pk]
    assert client.get(f"/api/v1/cage/ious/?site={site.pk}&gaming_date=2026-11-03").json()["results"] == []


@pytest.mark.parametrize(
    "lines,words",
    [
        ([{"value_cents": 500, "quantity": -2}], "cannot be negative"),
        ([{"value_cents": 500, "quantity": 1.5}], "whole number"),
        ([{"value_cents": 300, "quantity": 1}], "not a chip value"),
    ],
)
def test_a_bad_count_answers_400_naming_the_field_and_the_rule(client_for, cast, world, site, lines, words):
    payload = {**_payload("bank-counts", world["site"]), "chips": lines}
    response = client_for(cast[Role.CASHIER]).post("/api/v1/cage/bank-counts/", payload, format="json")
    assert response.status_code == 400
    message = response.json()["chips"][0]
    assert words in message and "ND 99-01.3-0" in message
    assert not BankCount.objects.exists()


def test_repaying_twice_or_too_much_answers_400(client_for, cast, world):
    client = client_for(cast[Role.CASHIER])
    iou = world["site"]["iou"]
    too_much = client.post(f"/api/v1/cage/ious/{iou.pk}/repay/", {"amount_cents": 1001}, format="json")
    assert too_much.status_code == 400 and "outstanding" in too_much.json()["amount_cents"][0]
    assert client.post(f"/api/v1/cage/ious/{iou.pk}/repay/", {}, format="json").status_code == 201
    twice = client.post(f"/api/v1/cage/ious/{iou.pk}/repay/", {}, format="json")
    assert twice.status_code == 400 and "already repaid" in twice.json()["iou"][0]
    assert IouRepayment.objects.filter(iou=iou).count() == 1
    detail = client.get(f"/api/v1/cage/ious/{iou.pk}/").json()
    assert (detail["repaid_cents"], detail["outstanding_cents"]) == (1000, 0)


def test_a_tip_redemption_for_another_dealer_answers_400(client_for, cast, org, site, world):
    other = make_person(org, Role.DEALER, site)
    payload = {"declaration": world["site"]["declaration"].pk, "dealer": other.pk}
    response = client_for(cast[Role.CASHIER]).post("/api/v1/cage/tip-redemptions/", payload, format="json")
    assert response.status_code == 400 and "own tips" in response.json()["dealer"][0]
    assert not TipRedemption.objects.exists()


def test_a_deposit_for_a_day_not_closed_answers_400_and_verification_follows(client_for, cast, manager, site, world):
    open_day = make_gaming_day(site, date(2026, 11, 3), cast[Role.SHIFT_MANAGER], closed=False)
    cashier = client_for(cast[Role.CASHIER])
    refused = cashier.post(
        "/api/v1/cage/deposits/",
        {"gaming_day": open_day.pk, "amount_cents": 100, "deposited_on": "2026-11-04"},
        format="json",
    )
    assert refused.status_code == 400 and "not closed" in refused.json()["gaming_day"][0]
    created = cashier.post("/api/v1/cage/deposits/", _payload("deposits", world["site"]), format="json").json()
    assert created["due_on"] == "2026-11-05" and created["late"] is False
    verified = client_for(manager).post(
        f"/api/v1/cage/deposits/{created['id']}/verify/",
        {"statement_date": "2026-11-05", "statement_amount_cents": 10000},
        format="json",
    )
    assert verified.status_code == 201
    assert BankDeposit.objects.get().verification.difference_cents == 0


@pytest.mark.parametrize("role", ALL_ROLES)
def test_only_the_gaming_manager_writes_the_chip_inventory_log_and_auditors_read_it(client_for, cast, world, role):
    client = client_for(cast[role])
    receipt = {"kind": "receipt", "occurred_on": "2026-10-01", "reference": "Invoice 1", "chips": {"500": 100}}
    assert client.post("/api/v1/cage/chip-movements/", receipt, format="json").status_code == (
        201 if role == Role.GAMING_MANAGER else 403
    )
    count = {"counted_on": "2026-11-01", "locations": [{"location": "storage", "chips": {"500": 90}}]}
    assert client.post("/api/v1/cage/chip-inventory-counts/", count, format="json").status_code == (
        201 if role == Role.GAMING_MANAGER else 403
    )
    listed = client.get("/api/v1/cage/chip-movements/").json()["results"]
    readers = {Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER, Role.CASHIER}
    expected = 1 if role == Role.GAMING_MANAGER else 0  # only the manager's own receipt exists
    assert len(listed) == (expected if role in readers else 0)


def test_the_chip_inventory_log_never_shows_another_organization(client_for, cast, stranger_site, world):
    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    client_for(stranger).post(
        "/api/v1/cage/chip-movements/",
        {"kind": "receipt", "occurred_on": "2026-10-01", "reference": "X", "chips": {"500": 1}},
        format="json",
    )
    assert client_for(cast[Role.AUDITOR]).get("/api/v1/cage/chip-movements/").json()["results"] == []


def test_destroying_more_than_the_book_answers_400_naming_chips(client_for, manager, world):
    response = client_for(manager).post(
        "/api/v1/cage/chip-movements/",
        {"kind": "destruction", "occurred_on": "2026-10-01", "reference": "W", "chips": {"500": 1}},
        format="json",
    )
    assert response.status_code == 400 and "the book owns 0" in response.json()["chips"][0]


def test_the_schema_documents_the_error_responses_of_every_cage_write(db):
    from django.urls import include, path
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.routers import DefaultRouter

    from cage.api_routes import register

    router = DefaultRouter()
    register(router)
    schema = SchemaGenerator(patterns=[path("api/v1/", include(router.urls))]).get_schema(request=None, public=True)
    writes = [(p, op) for p, ops in schema["paths"].items() for method, op in ops.items() if method == "post"]
    assert len(writes) == 13  # with a deposit's correction (POST /cage/deposits/{id}/correct/)
    for path_, operation in writes:
        assert {"400", "403", "404"} <= set(operation["responses"]), path_


def test_the_loan_and_its_repayment_stay_separate_rows(client_for, cast, world):
    iou = world["site"]["iou"]
    client_for(cast[Role.CASHIER]).post(f"/api/v1/cage/ious/{iou.pk}/repay/", {"amount_cents": 400}, format="json")
    assert Iou.objects.get(pk=iou.pk).amount_cents == 1000
    assert IouRepayment.objects.get(iou=iou).amount_cents == 400


def written_by_drf(serializer_class, model, pk) -> dict:
    """What DRF's ModelSerializer writes for the serializer's fields, in their order (the lines
    by the line model's own ModelSerializer), for the record read afresh."""
    from rest_framework import serializers

    return serializers.ModelSerializer.to_representation(serializer_class(), model.objects.get(pk=pk))


CREATED_BY = {
    "bank-counts": Role.CASHIER,
    "chip-redemptions": Role.CASHIER,
    "tip-declarations": Role.DEALER,
    "tip-redemptions": Role.CASHIER,
    "ideal-banks": Role.GAMING_MANAGER,
    "chip-movements": Role.GAMING_MANAGER,
    "chip-inventory-counts": Role.GAMING_MANAGER,
    "tip-policies": Role.GAMING_MANAGER,
}


def organization_payloads(site) -> dict:
    """Records of the whole organization (the chip log's, the tip policy): their creates' bodies."""
    storage_and_bank = [
        {"location": "storage", "chips": {"500": 90}},
        {"location": "bank", "site": site.pk, "chips": {"100": 4}},
    ]
    return {
        "chip-movements": {
            "kind": "receipt",
            "occurred_on": "2026-10-01",
            "reference": "Invoice 1",
            "chips": {"500": 9},
        },
        "chip-inventory-counts": {"counted_on": "2026-11-01", "locations": storage_and_bank},
        "tip-policies": {"pooled": True, "description": "Pooled at the cage", "effective_on": "2026-01-01"},
    }


@pytest.mark.parametrize("endpoint", list(CREATED_BY))
def test_a_cage_record_is_answered_as_drf_writes_its_fields_in_the_create_the_list_and_the_detail(
    client_for, cast, world, endpoint
):
    """A cage record's answer is built by a plan of its fields and its lines read as values for
    a list's page (cage.api.RecordSerializer, issue 37); it must stay what DRF's ModelSerializer
    writes for the same fields, in their order, in every view that answers the record."""
    view = {prefix.removeprefix("cage/"): view for prefix, view, _ in ROUTES}[endpoint]
    serializer_class, model = view.output_serializer_class, view.model
    payload = organization_payloads(world["site"]["site"]).get(endpoint) or _payload(endpoint, world["site"])
    created = client_for(cast[CREATED_BY[endpoint]]).post(f"/api/v1/cage/{endpoint}/", payload, format="json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    reader = client_for(cast[Role.GAMING_MANAGER])
    listed = [row for row in reader.get(f"/api/v1/cage/{endpoint}/").json()["results"] if row["id"] == pk]
    detail = reader.get(f"/api/v1/cage/{endpoint}/{pk}/").json()
    drf = written_by_drf(serializer_class, model, pk)
    assert list(drf) == serializer_class.Meta.fields
    assert [created.json()] == listed == [detail] == [drf]
    assert drf.get("lines", [None])  # a record of lines has some


def test_an_iou_repayment_and_a_deposit_verification_are_answered_as_drf_writes_them(client_for, cast, manager, world):
    from cage.api import DepositVerificationSerializer, IouRepaymentSerializer
    from cage.models import DepositVerification

    cashier = client_for(cast[Role.CASHIER])
    repaid = cashier.post(f"/api/v1/cage/ious/{world['site']['iou'].pk}/repay/", {"amount_cents": 400}, format="json")
    assert repaid.json() == written_by_drf(IouRepaymentSerializer, IouRepayment, repaid.json()["id"])
    deposit = cashier.post("/api/v1/cage/deposits/", _payload("deposits", world["site"]), format="json").json()
    verified = client_for(manager).post(
        f"/api/v1/cage/deposits/{deposit['id']}/verify/",
        {"statement_date": "2026-11-05", "statement_amount_cents": 9000, "note": "short"},
        format="json",
    )
    drf = written_by_drf(DepositVerificationSerializer, DepositVerification, verified.json()["id"])
    assert (
        verified.json()
        == drf
        == client_for(manager).get(f"/api/v1/cage/deposits/{deposit['id']}/").json()["verification"]
    )
