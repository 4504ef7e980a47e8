"""No bank count and no tip declaration holds more chips of a value than the organization's chip
inventory log says exist (ND 99-01.3-03-09(6); House control where the pack states none): refused
when entered, naming the chips and the rule, nothing written; a quantity equal to what exists is
recorded; an organization keeping no log yet is refused nothing."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from cage import services
from cage.models import BankCount, TipDeclaration, TipRedemption

from .conftest import DAY

ND_INVENTORY = "ND 99-01.3-03-09(6)"
LOG = {10000: 100, 2500: 400, 500: 1000}  # 100 $100 chips exist; no $1 chip was ever received


def receive(org, manager, chips=None):
    return services.receive_chips(acting_user=manager.user, organization=org, chips=chips or LOG,
                                  received_on=DAY - timedelta(days=1), reference="Invoice 7")  # fmt: skip


def refused(record: str, exist: int, quantity: int, money: str = "$100.00", at: str = ND_INVENTORY) -> str:
    return (
        f"{at}: the chip inventory log says {exist} {money} chips exist; {quantity} cannot be in one {record}. "
        "Recount, or record the chips received in the inventory log first."
    )


def count(cashier, site, chips):
    return services.record_bank_count(
        acting_user=cashier.user, site=site, gaming_date=DAY, kind="end", cash={2000: 10}, chips=chips
    )


def browser(employee) -> Client:
    client = Client()
    client.force_login(employee.user)
    return client


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


# --- Bank counts ------------------------------------------------------------------------------------


def test_a_bank_count_of_more_chips_than_exist_is_refused_and_not_recorded(org, site, chips, cashier, manager):
    receive(org, manager)
    with pytest.raises(ValidationError) as error:
        count(cashier, site, {10000: 200})
    assert error.value.message_dict == {"chips": [refused("bank count", 100, 200)]}
    assert not BankCount.objects.exists()


def test_a_bank_count_of_exactly_the_chips_that_exist_is_recorded(org, site, chips, cashier, manager):
    receive(org, manager)
    assert count(cashier, site, {10000: 100}).chips_cents == 100 * 10000


def test_a_value_the_log_never_received_has_no_chips_that_exist(org, site, chips, cashier, manager):
    receive(org, manager)
    with pytest.raises(ValidationError) as error:
        count(cashier, site, {10000: 1, 100: 5})
    assert error.value.message_dict == {"chips": [refused("bank count", 0, 5, "$1.00")]}


def test_one_chip_that_exists_is_said_in_the_singular(org, site, chips, cashier, manager):
    receive(org, manager, {10000: 1})
    with pytest.raises(ValidationError) as error:
        count(cashier, site, {10000: 2})
    assert error.value.message_dict["chips"][0].startswith(
        f"{ND_INVENTORY}: the chip inventory log says 1 $100.00 chip exists; 2 cannot be in one bank count."
    )


def test_chips_received_after_the_gaming_date_did_not_exist_on_it(org, site, chips, cashier, manager):
    receive(org, manager)
    services.receive_chips(acting_user=manager.user, organization=org, chips={10000: 100},
                           received_on=DAY + timedelta(days=1), reference="Invoice 8")  # fmt: skip
    with pytest.raises(ValidationError) as error:
        count(cashier, site, {10000: 101})
    assert error.value.message_dict == {"chips": [refused("bank count", 100, 101)]}


def test_an_organization_keeping_no_inventory_log_is_refused_nothing(site, chips, cashier):
    assert count(cashier, site, {10000: 200}).chips_cents == 200 * 10000


def test_the_api_and_the_bank_page_refuse_more_chips_than_exist(org, site, chips, cashier, manager, client_for):
    receive(org, manager)
    body = {
        "site": site.pk,
        "gaming_date": DAY.isoformat(),
        "kind": "end",
        "cash": {"2000": 10},
        "chips": {"10000": 200},
    }
    response = client_for(cashier).post("/api/v1/cage/bank-counts/", body, format="json")
    assert response.status_code == 400 and response.json() == {"chips": [refused("bank count", 100, 200)]}
    form = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "end", "chip_10000": "200"}
    response = browser(cashier).post("/cage/", form)
    assert response.status_code == 400 and refused("bank count", 100, 200) in page(response)
    assert not BankCount.objects.exists()
    assert browser(cashier).post("/cage/", {**form, "chip_10000": "100"}).status_code == 302
    assert BankCount.objects.get().chips_cents == 100 * 10000


def test_at_a_site_of_a_pack_stating_no_inventory_rule_the_refusal_cites_house_control(
    org, site, chips, cashier, manager
):
    site.jurisdiction = "WA-HB"
    site.save()
    receive(org, manager)
    with pytest.raises(ValidationError) as error:
        count(cashier, site, {10000: 200})
    assert error.value.message_dict == {"chips": [refused("bank count", 100, 200, at="House control")]}
    assert not BankCount.objects.exists()


# --- Tip declarations -------------------------------------------------------------------------------


def test_a_tip_declaration_of_more_chips_than_exist_is_refused_so_none_is_redeemed(
    org, site, chips, dealer, cashier, manager
):
    receive(org, manager)
    with pytest.raises(ValidationError) as error:
        services.declare_tips(acting_user=dealer.user, site=site, gaming_date=DAY, chips={10000: 500})
    assert error.value.message_dict == {"chips": [refused("tip declaration", 100, 500)]}
    assert not TipDeclaration.objects.exists() and not TipRedemption.objects.exists()
    declared = services.declare_tips(acting_user=dealer.user, site=site, gaming_date=DAY, chips={10000: 100})
    assert declared.total_cents == 100 * 10000


def test_the_api_and_the_tips_page_refuse_a_declaration_of_more_chips_than_exist(
    org, site, chips, dealer, manager, client_for
):
    receive(org, manager)
    body = {"site": site.pk, "gaming_date": DAY.isoformat(), "chips": [{"value_cents": 10000, "quantity": 500}]}
    response = client_for(dealer).post("/api/v1/cage/tip-declarations/", body, format="json")
    assert response.status_code == 400 and response.json() == {"chips": [refused("tip declaration", 100, 500)]}
    form = {"form": "declare", "gaming_date": DAY.isoformat(), "chip_10000": "500"}
    response = browser(dealer).post("/cage/tips/", form)
    assert response.status_code == 400 and refused("tip declaration", 100, 500) in page(response)
    assert not TipDeclaration.objects.exists()


def test_a_tip_declaration_of_an_organization_keeping_no_log_is_refused_nothing(site, chips, dealer):
    declared = services.declare_tips(acting_user=dealer.user, site=site, gaming_date=DAY, chips={10000: 500})
    assert declared.total_cents == 500 * 10000


@pytest.mark.parametrize("gaming_date", ["2026-02-30", "9999-12-31", ""])
def test_the_tips_and_redemptions_pages_say_what_is_wrong_with_the_gaming_date_at_the_field(
    site, chips, dealer, cashier, gaming_date
):
    """Both forms drew the date's input and never its errors: a bad date was a 400 saying nothing
    (found by the pages' fuzz as dealer and cashier)."""
    import re

    from cage.models import ChipRedemption

    for employee, url, form in ((dealer, "/cage/tips/", "declare"), (cashier, "/cage/redemptions/", "redeem")):
        response = browser(employee).post(url, {"form": form, "gaming_date": gaming_date, "chip_500": "1"})
        assert response.status_code == 400, url
        shown = re.search(
            r'<div class="invalid-feedback d-block" id="id_gaming_date_error">([^<]+)</div>', page(response)
        )
        assert shown and shown.group(1).strip(), url
    assert not TipDeclaration.objects.exists() and not ChipRedemption.objects.exists()
