"""The chip custody endpoints: shapes, 400s naming the field and the rule, 403s, 404s."""

import pytest

from cardroom.models import Role
from floor.models import Slip, TableInventory
from tests.factories import TableFactory

from .conftest import FILL, TRAY, in_day, today


def post(client, url, data=None):
    return client.post(url, data or {}, format="json")


def test_a_shift_manager_opens_and_closes_a_gaming_day(client_for, shift_manager, site):
    client = client_for(shift_manager)
    response = post(client, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(today(site))})
    assert response.status_code == 201, response.json()
    assert response.json()["closed_at"] is None
    closed = post(client, f"/api/v1/gaming-days/{response.json()['id']}/close/")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["closed_by_initials"] == shift_manager.initials


def test_a_gaming_day_is_not_closed_while_a_table_is_open(client_for, shift_manager, open_table, gaming_day):
    response = post(client_for(shift_manager), f"/api/v1/gaming-days/{gaming_day.pk}/close/")
    assert response.status_code == 400
    assert "has 1 open item" in response.json()["gaming_day"][0]
    assert response.json()["open_items"][0].startswith("House control: table 1 is open (no closer)")


def _yesterday_opened_and_closed_with_tray(client, site, table) -> dict:
    """Yesterday's gaming day opened and `table` opened and closed with TRAY, each at a time of
    that day (a day already over is entered with the time on its paper, core.moments)."""
    from datetime import timedelta

    before = today(site) - timedelta(days=1)
    yesterday = post(
        client,
        "/api/v1/gaming-days/",
        {"site": site.pk, "gaming_date": str(before), "opened_at": in_day(site, before, 1).isoformat()},
    )
    assert yesterday.status_code == 201, yesterday.json()
    for kind, hours in (("opener", 2), ("closer", 12)):
        body = {"table": table.pk, "kind": kind, "chips": TRAY, "counted_at": in_day(site, before, hours).isoformat()}
        assert post(client, "/api/v1/table-inventories/", body).status_code == 201
    return yesterday.json()


def test_an_opener_that_differs_from_the_previous_closer_needs_a_reason(client_for, shift_manager, table, chips, site):

    client = client_for(shift_manager)
    yesterday = _yesterday_opened_and_closed_with_tray(client, site, table)
    assert post(client, f"/api/v1/gaming-days/{yesterday['id']}/close/").status_code == 200
    post(client, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(today(site))})
    short = [{"denomination": 2500, "quantity": 39}, *TRAY[1:]]
    refused = post(client, "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": short})
    assert refused.status_code == 400
    assert "House control: the opener differs" in refused.json()["variance_reason"][0]
    explained = post(
        client,
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "chips": short, "variance_reason": "one green chip found under the tray"},
    )
    assert explained.status_code == 201, explained.json()
    assert explained.json()["variance_cents"] == -2500


def test_a_matching_opener_needs_no_reason_and_records_zero_variance(client_for, shift_manager, table, chips, site):

    client = client_for(shift_manager)
    yesterday = _yesterday_opened_and_closed_with_tray(client, site, table)
    post(client, f"/api/v1/gaming-days/{yesterday['id']}/close/")
    post(client, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(today(site))})
    response = post(client, "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": TRAY})
    assert response.status_code == 201, response.json()
    assert response.json()["variance_cents"] == 0


def test_a_second_gaming_day_is_not_opened_while_one_is_open(client_for, shift_manager, site):
    from datetime import timedelta

    client = client_for(shift_manager)
    before = today(site) - timedelta(days=1)
    opened = {"site": site.pk, "gaming_date": str(before), "opened_at": in_day(site, before).isoformat()}
    assert post(client, "/api/v1/gaming-days/", opened).status_code == 201
    response = post(client, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(today(site))})
    assert response.status_code == 400
    assert response.json()["gaming_date"] == [
        f"House control: close the gaming day {today(site) - timedelta(days=1)} first."
    ]


@pytest.mark.parametrize("asked", ["2001-01-01", "yesterday"])
def test_a_day_before_the_last_gaming_day_is_refused_naming_it(client_for, shift_manager, gaming_day, site, asked):
    """Before, 2001-01-01 asked while today was open answered only "close the gaming day <today>
    first", as if closing it would let 2001-01-01 open next."""
    from datetime import date, timedelta

    day = date(2001, 1, 1) if asked == "2001-01-01" else today(site) - timedelta(days=1)
    asked_for = {"site": site.pk, "gaming_date": str(day), "opened_at": in_day(site, day).isoformat()}  # its paper's
    response = post(client_for(shift_manager), "/api/v1/gaming-days/", asked_for)
    assert response.status_code == 400
    assert response.json()["gaming_date"] == [
        f"House control: the gaming day {day} is before the last gaming day at {site}, {today(site)}, so it "
        f"cannot be opened while the gaming day {today(site)} is open."
    ]


@pytest.mark.parametrize("paper_time", [False, True])
def test_a_future_gaming_day_is_refused_citing_the_rule_and_nothing_opens(client_for, shift_manager, site, paper_time):
    from datetime import timedelta

    from floor.models import GamingDay

    ahead = today(site) + timedelta(days=1)
    payload = {"site": site.pk, "gaming_date": str(ahead)}
    if paper_time:  # a time inside the day not begun: still the date that is at fault
        payload["opened_at"] = f"{ahead}T12:00:00"
    response = post(client_for(shift_manager), "/api/v1/gaming-days/", payload)
    assert response.status_code == 400
    assert response.json() == {
        "gaming_date": [
            f"House control: the gaming day {ahead} has not begun yet at {site} (its current gaming day is "
            f"{today(site)})."
        ]
    }
    assert not GamingDay.objects.exists()


def test_a_slip_response_carries_number_status_lines_total_and_initials(client_for, cast, open_table, dealer_shift):
    response = post(client_for(cast[Role.CASHIER]), "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["number"], body["status"], body["total_cents"]) == (1, "issued", 60000)
    assert {(c["value_cents"], c["quantity"]) for c in body["chips"]} == {(2500, 20), (500, 20)}
    assert body["prepared_by_initials"] == cast[Role.CASHIER].initials
    verified = post(client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{body['id']}/verify/").json()
    assert (verified["status"], verified["verified_by_initials"]) == ("verified", cast[Role.PIT_BOSS].initials)
    received = post(client_for(cast[Role.DEALER]), f"/api/v1/fill-slips/{body['id']}/receive/").json()
    assert (received["status"], received["received_by_initials"]) == ("received", cast[Role.DEALER].initials)


def test_voiding_through_the_api_records_initials_and_reason_and_twice_is_a_400(client_for, cast, fill):
    client = client_for(cast[Role.CASHIER])
    body = post(client, f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": "wrong table"}).json()
    assert (body["status"], body["voided_by_initials"], body["void_reason"]) == (
        "voided",
        cast[Role.CASHIER].initials,
        "wrong table",
    )
    again = post(client, f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": "again"})
    assert again.status_code == 400
    assert "ND 99-01.3-08-05(2)" in again.json()["slip"][0]


@pytest.mark.parametrize("field", ["from_table", "to_table"])
def test_a_slip_between_two_tables_is_refused(client_for, cast, open_table, site, field):
    other = TableFactory(site=site, number=2)
    response = post(
        client_for(cast[Role.SHIFT_MANAGER]),
        "/api/v1/fill-slips/",
        {"table": open_table.pk, field: other.pk, "chips": FILL},
    )
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(1)" in response.json()[field][0]
    assert not Slip.objects.exists()


@pytest.mark.parametrize("quantity", [0, -1, 1.5, "x"])
def test_a_bad_quantity_is_a_400_naming_chips_and_the_rule(client_for, cast, open_table, quantity):
    response = post(
        client_for(cast[Role.CASHIER]),
        "/api/v1/fill-slips/",
        {"table": open_table.pk, "chips": [{"denomination": 500, "quantity": quantity}]},
    )
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(3)" in response.json()["chips"][0]


def test_another_organizations_table_does_not_exist_on_create_and_its_slips_are_404(
    client_for, cast, stranger_site, fill
):
    stranger_table = TableFactory(site=stranger_site, number=1)
    response = post(client_for(cast[Role.CASHIER]), "/api/v1/fill-slips/", {"table": stranger_table.pk, "chips": FILL})
    assert response.status_code == 400
    assert "does not exist" in response.json()["table"][0]
    from tests.factories import make_person

    outsider = make_person(stranger_site.organization, Role.SHIFT_MANAGER, stranger_site)
    assert client_for(outsider).get(f"/api/v1/fill-slips/{fill.pk}/").status_code == 404
    assert post(client_for(outsider), f"/api/v1/fill-slips/{fill.pk}/verify/").status_code == 404


def test_a_fill_is_not_found_among_credit_slips(client_for, cast, fill):
    assert client_for(cast[Role.AUDITOR]).get(f"/api/v1/credit-slips/{fill.pk}/").status_code == 404


def test_slip_lists_filter_by_status_and_table(client_for, cast, open_table, site):
    client = client_for(cast[Role.CASHIER])
    first = post(client, "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL}).json()
    post(client, "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL})
    post(client, f"/api/v1/fill-slips/{first['id']}/void/", {"reason": "typo"})
    voided = client.get("/api/v1/fill-slips/", {"status": "voided", "site": site.pk}).json()["results"]
    issued = client.get("/api/v1/fill-slips/", {"status": "issued", "table": open_table.pk}).json()["results"]
    assert [s["number"] for s in voided] == [1]
    assert [s["number"] for s in issued] == [2]


def test_a_dealer_rotation_relieves_the_dealer_on_shift_and_records_the_tray_count(
    client_for, shift_manager, cast, open_table, dealer_shift, org, site
):
    from tests.factories import make_person

    relief = make_person(org, Role.DEALER, site)
    response = post(
        client_for(shift_manager),
        "/api/v1/dealer-shifts/",
        {"table": open_table.pk, "dealer": relief.pk, "chips": TRAY},
    )
    assert response.status_code == 201, response.json()
    dealer_shift.refresh_from_db()
    assert dealer_shift.ended_at is not None
    change = TableInventory.objects.get(kind="change")
    assert (change.dealer_shift_id, change.total_cents) == (response.json()["id"], 200000)


def test_ending_a_shift_twice_is_a_400(client_for, shift_manager, dealer_shift):
    client = client_for(shift_manager)
    assert post(client, f"/api/v1/dealer-shifts/{dealer_shift.pk}/end/").status_code == 200
    response = post(client, f"/api/v1/dealer-shifts/{dealer_shift.pk}/end/")
    assert response.status_code == 400
    assert "already ended" in response.json()["ended_at"][0]


def test_a_cashier_is_not_seated_as_dealer(client_for, shift_manager, cast, open_table):
    response = post(
        client_for(shift_manager), "/api/v1/dealer-shifts/", {"table": open_table.pk, "dealer": cast[Role.CASHIER].pk}
    )
    assert response.status_code == 400
    assert "not an active dealer" in response.json()["dealer"][0]


def test_queues_show_slips_to_verify_to_receive_and_tables_without_opener(
    client_for, cast, fill, credit, shift_manager, site, chips
):
    from floor import services

    services.verify_slip(acting_user=shift_manager.user, slip=credit)
    second = TableFactory(site=site, number=2)
    from tests.factories import make_person

    services.start_dealer_shift(
        acting_user=shift_manager.user, table=second, dealer=make_person(site.organization, Role.DEALER, site)
    )
    body = client_for(cast[Role.AUDITOR]).get(f"/api/v1/sites/{site.pk}/custody-queues/").json()
    assert [(s["kind"], s["number"]) for s in body["awaiting_verification"]] == [("fill", 1)]
    assert [(s["kind"], s["number"]) for s in body["awaiting_receipt"]] == [("credit", 1)]
    assert [t["number"] for t in body["tables_without_opener"]] == [2]


def test_a_paper_slip_is_entered_with_its_printed_number_from_a_registered_book(
    client_for, shift_manager, cast, site, open_table, dealer_shift
):
    book = post(
        client_for(shift_manager),
        "/api/v1/slip-books/",
        {"site": site.pk, "kind": "credit", "first_number": 5001, "last_number": 5050},
    )
    assert book.status_code == 201, book.json()
    client = client_for(cast[Role.DEALER])
    response = post(client, "/api/v1/credit-slips/", {"table": open_table.pk, "chips": FILL, "number": 5003})
    assert response.status_code == 201, response.json()
    assert (response.json()["number"], response.json()["slip_book"]) == (5003, book.json()["id"])
    missing_number = post(client, "/api/v1/credit-slips/", {"table": open_table.pk, "chips": FILL})
    assert "ND 99-01.3-08-05(2)" in missing_number.json()["number"][0]


def test_a_dealer_of_another_organization_does_not_exist(client_for, shift_manager, open_table, stranger_site):
    from tests.factories import make_person

    outsider = make_person(stranger_site.organization, Role.DEALER, stranger_site)
    response = post(
        client_for(shift_manager), "/api/v1/dealer-shifts/", {"table": open_table.pk, "dealer": outsider.pk}
    )
    assert response.status_code == 400
    assert "does not exist" in response.json()["dealer"][0]


def test_dealer_shifts_list_filters_those_on_shift(client_for, cast, dealer_shift, site):
    rows = (
        client_for(cast[Role.AUDITOR])
        .get("/api/v1/dealer-shifts/", {"site": site.pk, "on_shift": "true"})
        .json()["results"]
    )
    assert [(r["id"], r["dealer_initials"]) for r in rows] == [(dealer_shift.pk, cast[Role.DEALER].initials)]


def test_a_table_count_is_answered_as_drf_writes_its_fields_in_the_list_the_detail_and_the_create(
    client_for, shift_manager, table, chips, site
):
    """The count's answer is built directly (floor.api.TableInventorySerializer.to_representation,
    issue 37); it must stay what DRF's ModelSerializer writes for the same fields, in their order,
    in every view that answers a count, with its counter's time zone (the create's answer with its
    warnings after them)."""
    from rest_framework import serializers

    from floor.api import TableInventorySerializer

    client = client_for(shift_manager)
    post(client, "/api/v1/gaming-days/", {"site": site.pk, "gaming_date": str(today(site))})
    created = post(client, "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": TRAY})
    assert created.status_code == 201, created.json()
    listed = client.get("/api/v1/table-inventories/").json()["results"][0]
    detail = client.get(f"/api/v1/table-inventories/{created.json()['id']}/").json()
    drf = serializers.ModelSerializer.to_representation(
        TableInventorySerializer(), TableInventory.objects.get(pk=created.json()["id"])
    )
    assert list(drf) == TableInventorySerializer.Meta.fields
    answer = created.json()
    assert answer.pop("warnings") == []  # the create's answer says what the count leaves to see to, besides
    assert answer == listed == detail == drf
    assert [line["amount_cents"] for line in drf["chips"]] == [
        line["value_cents"] * line["quantity"] for line in drf["chips"]
    ]


def test_a_dealer_shift_is_answered_as_drf_writes_its_fields_in_the_create_the_list_the_detail_and_the_end(
    client_for, shift_manager, cast, open_table
):
    """The shift's answer is built directly (floor.api.DealerShiftSerializer.to_representation,
    issue 37), its retention date from the day's date and the site's jurisdiction read in the
    list's query; it must stay what DRF's ModelSerializer writes for the same fields, in their
    order, in every view that answers a shift, running and ended."""
    from rest_framework import serializers

    from cardroom.retention import retain_until
    from floor.api import DealerShiftSerializer
    from floor.models import DealerShift

    def drf(pk):
        return serializers.ModelSerializer.to_representation(DealerShiftSerializer(), DealerShift.objects.get(pk=pk))

    client = client_for(shift_manager)
    created = post(client, "/api/v1/dealer-shifts/", {"table": open_table.pk, "dealer": cast[Role.DEALER].pk})
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    running = drf(pk)
    assert list(running) == DealerShiftSerializer.Meta.fields
    assert running["retain_until"] == retain_until(DealerShift.objects.get(pk=pk)) is not None
    listed = client.get("/api/v1/dealer-shifts/").json()["results"][0]
    assert (
        created.json()
        == listed
        == client.get(f"/api/v1/dealer-shifts/{pk}/").json()
        == client.get("/api/v1/dealer-shifts/", {"limit": 1}).json()["results"][0]
    )
    assert created.json() == {**running, "retain_until": str(running["retain_until"])}
    ended = post(client, f"/api/v1/dealer-shifts/{pk}/end/")
    assert ended.status_code == 200, ended.json()
    after = drf(pk)
    assert after["ended_at"] is not None and after["ended_by"] == shift_manager.pk
    answer = ended.json()
    assert answer.pop("warnings") == []  # the end's answer says what the relief leaves to see to, besides
    assert (
        answer
        == client.get(f"/api/v1/dealer-shifts/{pk}/").json()
        == {
            **after,
            "retain_until": str(after["retain_until"]),
        }
    )


def test_a_slip_is_answered_as_drf_writes_its_fields_in_the_create_each_step_the_list_and_the_detail(
    client_for, cast, open_table, dealer_shift
):
    """The slip's answer is built directly (floor.api.SlipSerializer.to_representation, issue
    37), its lines and steps read as values for the page; it must stay what DRF's ModelSerializer
    writes for the same fields, in their order (a step's moment as the JSON renderer writes the
    datetime its method field returns), in every view that answers a slip, at each status."""
    import json

    from rest_framework import serializers
    from rest_framework.renderers import JSONRenderer

    from floor.api import SlipSerializer

    def drf(pk):
        written = serializers.ModelSerializer.to_representation(SlipSerializer(), Slip.objects.get(pk=pk))
        assert list(written) == SlipSerializer.Meta.fields
        return json.loads(JSONRenderer().render(written))

    def listed_and_detail(client, kind, pk):
        rows = [row for row in client.get(f"/api/v1/{kind}-slips/").json()["results"] if row["id"] == pk]
        return [*rows, client.get(f"/api/v1/{kind}-slips/{pk}/").json()]

    fills = client_for(cast[Role.CASHIER])
    created = post(fills, "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL})
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert [created.json(), *listed_and_detail(fills, "fill", pk)] == [drf(pk)] * 3
    verified = post(client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{pk}/verify/")
    assert [verified.json(), *listed_and_detail(fills, "fill", pk)] == [drf(pk)] * 3
    received = post(client_for(cast[Role.DEALER]), f"/api/v1/fill-slips/{pk}/receive/")
    assert [received.json(), *listed_and_detail(fills, "fill", pk)] == [drf(pk)] * 3
    assert (received.json()["status"], received.json()["verified_at"] is not None) == ("received", True)

    credits = client_for(cast[Role.PIT_BOSS])
    credit = post(credits, "/api/v1/credit-slips/", {"table": open_table.pk, "chips": FILL}).json()
    voided = post(credits, f"/api/v1/credit-slips/{credit['id']}/void/", {"reason": "wrong table"})
    assert [voided.json(), *listed_and_detail(credits, "credit", credit["id"])] == [drf(credit["id"])] * 3
    assert (voided.json()["status"], voided.json()["void_reason"]) == ("voided", "wrong table")
