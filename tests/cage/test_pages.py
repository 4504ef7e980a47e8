"""Cashier pages: each page opens for its readers, a refusal shows inline with the API's words."""

from datetime import date

import pytest
from django.test import Client

from cage import services
from cage.models import BankCount, ChipInventoryCount, IouRepayment
from cardroom.models import Role

from .conftest import DAY

PAGES = ["bank", "ious", "redemptions", "tips", "deposits", "inventory"]


def browser(employee) -> Client:
    client = Client()
    client.force_login(employee.user)
    return client


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("role", [Role.CASHIER, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR])
def test_every_cage_page_opens_for_cage_readers(cast, chips, closed_day, page, role):
    response = browser(cast[role]).get(f"/cage/{page}/" if page != "bank" else "/cage/")
    assert response.status_code == 200


@pytest.mark.parametrize("role", [Role.DEALER, Role.PIT_BOSS, Role.COUNT_TEAM])
def test_the_bank_page_is_refused_to_other_roles(cast, chips, role):
    assert browser(cast[role]).get("/cage/").status_code == 403


def test_a_dealer_opens_the_tips_page_to_declare(cast, chips):
    assert browser(cast[Role.DEALER]).get("/cage/tips/").status_code == 200


def test_the_bank_grid_records_a_count_with_totals(cast, chips):
    response = browser(cast[Role.CASHIER]).post(
        "/cage/",
        {
            "form": "count",
            "gaming_date": "2026-11-02",
            "kind": "start",
            "cash_10000": "3",
            "chip_500": "40",
        },
    )
    assert response.status_code == 302
    count = BankCount.objects.get()
    assert (count.cash_cents, count.chips_cents) == (30000, 20000)
    page = browser(cast[Role.CASHIER]).get("/cage/?date=2026-11-02").content.decode()
    assert "$300.00" in page and "$200.00" in page


# "²" and "1²" pass str.isdigit() and fail int(): they were a 500 (core.limits.digits).
@pytest.mark.parametrize("raw,words", [("-3", "cannot be negative"), ("2.5", "whole number"), ("²", "whole number"),
                                       ("1²", "whole number")])  # fmt: skip
def test_a_bad_quantity_in_the_grid_is_shown_inline_with_the_api_message(cast, chips, raw, words):
    response = browser(cast[Role.CASHIER]).post(
        "/cage/", {"form": "count", "gaming_date": "2026-11-02", "kind": "start", "chip_500": raw}
    )
    assert response.status_code == 400
    assert words in response.content.decode() and "ND 99-01.3-08-16(1)(a)" in response.content.decode()
    assert not BankCount.objects.exists()


def test_repaying_too_much_in_the_browser_is_refused_inline(site, cast):
    iou = services.lend_iou(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=DAY,
        source="bank",
        destination="reserve",
        amount_cents=1000,
    )
    response = browser(cast[Role.CASHIER]).post(f"/cage/ious/{iou.pk}/repay/", {"amount_cents": "10.01"})
    assert response.status_code == 400
    assert "more than the $10.00 outstanding" in response.content.decode()
    assert not IouRepayment.objects.exists()


def test_the_deposits_page_shows_the_due_date_and_a_late_deposit(cast, closed_day):
    services.record_deposit(
        acting_user=cast[Role.CASHIER].user, gaming_day=closed_day, amount_cents=5000, deposited_on=date(2026, 11, 9)
    )
    page = browser(cast[Role.AUDITOR]).get("/cage/deposits/").content.decode()
    assert "2026-11-05" in page or "Nov. 5, 2026" in page
    assert "late" in page


def test_the_inventory_log_shows_the_book_and_outstanding_chips(org, cast, chips):
    manager = cast[Role.GAMING_MANAGER]
    services.receive_chips(
        acting_user=manager.user,
        organization=org,
        received_on=date(2026, 10, 1),
        reference="Invoice 77",
        chips={500: 100},
    )
    response = browser(manager).post(
        "/cage/inventory/", {"form": "count", "counted_on": "2026-11-01", "storage_0_500": "90"}
    )
    assert response.status_code == 302
    page = browser(cast[Role.AUDITOR]).get("/cage/inventory/").content.decode()
    assert "Invoice 77" in page and "Physical count" in page and "$50.00" in page


def test_the_inventory_count_form_says_why_its_date_is_refused(org, cast, chips):
    """Found walking the demo: the physical count sent with a future date (or none) came back 400
    with its date field marked invalid and nothing said; the refusal (its rule) is now shown under it."""
    manager = cast[Role.GAMING_MANAGER]
    for counted_on, said in (("2099-01-01", "give the date of the count, not a future one."), ("", "required")):
        response = browser(manager).post(
            "/cage/inventory/", {"form": "count", "counted_on": counted_on, "storage_0_500": "90"}
        )
        assert response.status_code == 400
        form = response.content.decode().split('id="count-form"')[1].split("</form>")[0]
        assert said in form, form
    assert not ChipInventoryCount.objects.exists()


def test_the_redemptions_page_shows_a_site_where_twenty_one_stopped(cast, chips, site, other_site):
    other_site.twenty_one_discontinued_on = date(2026, 10, 1)
    other_site.save()
    page = browser(cast[Role.CASHIER]).get("/cage/redemptions/").content.decode()
    assert (
        f"ND 99-01.3-08-06(2): twenty-one was discontinued at {other_site.name} on 2026-10-01; its chips are "
        "redeemed at the business office or an active site for thirty days thereafter."
    ) in page


def _kind_proposed(client, day: str) -> str:
    text = client.get(f"/cage/?date={day}").content.decode()
    select = text[text.index('name="kind"') : text.index("</select>", text.index('name="kind"'))]
    return select.split(" selected>")[0].rsplit('value="', 1)[1].split('"')[0]


def test_the_bank_form_proposes_the_ending_bank_once_the_starting_bank_is_counted(cast, chips):
    """The cashier's count at the end of the night: once the day's starting bank is counted, the
    form proposes its ending bank (one choice less), and the starting bank again once both are in
    (a correction names the count it corrects)."""
    cashier = browser(cast[Role.CASHIER])
    assert _kind_proposed(cashier, "2026-11-02") == "start"
    counted = {"form": "count", "gaming_date": "2026-11-02", "cash_10000": "3", "chip_500": "40"}
    assert cashier.post("/cage/", {**counted, "kind": "start"}).status_code == 302
    assert _kind_proposed(cashier, "2026-11-02") == "end"
    assert _kind_proposed(cashier, "2026-11-03") == "start"  # another day: its own counts
    assert cashier.post("/cage/", {**counted, "kind": "end"}).status_code == 302
    assert _kind_proposed(cashier, "2026-11-02") == "start"
    assert sorted(BankCount.objects.values_list("kind", flat=True)) == ["end", "start"]
