"""Where the house's revenue is the fees collected at its tables (WA-BJ, WAC 230-40-125(1): Tacoma,
player-banked), the house holds no chips: the cage redeems none and its bank is counted in cash
only. The services refuse chips there, citing the rule the floor refuses fills by, so the pages
and the API refuse them too and nothing is written; the pages offer no chip fields."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from cage import services
from cage.models import BankCount, BankCountLine, ChipRedemption, ChipRedemptionLine
from cardroom.models import Role
from core.models import AuditEvent
from floor.rules import FEES_ONLY
from tests.factories import fees_site
from tests.page_support import at_site, page

from .conftest import DAY


@pytest.fixture
def site(org):
    return fees_site(org)


@pytest.fixture
def cashier_page(cast, site, chips):
    return at_site(Client(), cast[Role.CASHIER], site)


def citation(site) -> str:
    return FEES_ONLY.at(site)


def test_a_chip_redemption_is_refused_and_nothing_is_written(site, chips, cast):
    with pytest.raises(ValidationError) as refused:
        services.redeem_chips(acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, chips={500: 2})
    assert citation(site).startswith("WAC 230-40-125")  # the rule the floor refuses fills by there
    assert refused.value.message_dict["chips"] == [
        f"{citation(site)}: the house's revenue at {site} is the fees collected at its tables; the chips there "
        "are not the house's, so the cage redeems none."
    ]
    assert not ChipRedemption.objects.exists() and not ChipRedemptionLine.objects.exists()
    assert not AuditEvent.objects.filter(action="chips.redeemed").exists()


def test_chips_in_a_bank_count_are_refused_and_nothing_is_written(site, chips, cast):
    with pytest.raises(ValidationError) as refused:
        services.record_bank_count(
            acting_user=cast[Role.CASHIER].user,
            site=site,
            gaming_date=DAY,
            kind="start",
            cash={10000: 5},
            chips={500: 3},
        )
    assert refused.value.message_dict["chips"] == [
        f"{citation(site)}: the house's revenue at {site} is the fees collected at its tables; it holds no "
        "house chips, so its bank is counted in cash only."
    ]
    assert not BankCount.objects.exists() and not BankCountLine.objects.exists()


def test_the_api_refuses_a_redemption_and_chips_in_a_count_naming_the_field(client_for, cast, site, chips):
    api = client_for(cast[Role.CASHIER])
    redeemed = api.post(
        "/api/v1/cage/chip-redemptions/",
        {"site": site.pk, "gaming_date": DAY.isoformat(), "chips": {"500": 2}},
        format="json",
    )
    assert redeemed.status_code == 400, redeemed.content
    assert redeemed.json()["chips"][0].startswith(f"{citation(site)}: the house's revenue")
    counted = api.post(
        "/api/v1/cage/bank-counts/",
        {"site": site.pk, "gaming_date": DAY.isoformat(), "kind": "start", "cash": {"10000": 5}, "chips": {"500": 3}},
        format="json",
    )
    assert counted.status_code == 400, counted.content
    assert counted.json()["chips"][0].startswith(f"{citation(site)}: the house's revenue")
    assert not ChipRedemption.objects.exists() and not BankCount.objects.exists()


def test_the_redemptions_page_offers_no_form_and_says_why(cashier_page, site):
    text = page(cashier_page.get("/cage/redemptions/"))
    assert 'id="redeem-form"' not in text and 'name="chip_500"' not in text
    assert f"{citation(site)}: the house's revenue here is the fees collected at its tables" in text
    # and no rule of redeeming the house's chips above it, which the sentence below would contradict
    assert "chips are redeemed for cash" not in text and 'id="redemption-rule"' not in text


def test_the_redemptions_page_refuses_chips_posted_anyway_inline(cashier_page, site):
    posted = {"form": "redeem", "gaming_date": DAY.isoformat(), "chip_500": "2"}
    response = cashier_page.post("/cage/redemptions/", posted)
    assert response.status_code == 400
    assert f"{citation(site)}: the house's revenue at {site} is the fees collected at its tables" in page(response)
    assert not ChipRedemption.objects.exists()


def test_the_bank_page_offers_cash_only(cashier_page, site):
    text = page(cashier_page.get("/cage/"))
    assert 'name="cash_10000"' in text and 'name="chip_500"' not in text
    assert f"{citation(site)}: the house's revenue here is the fees collected at its tables" in text
    posted = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "start", "cash_10000": "5"}
    assert cashier_page.post("/cage/", posted).status_code == 302
    count = BankCount.objects.get()
    assert (count.cash_cents, count.chips_cents) == (50000, 0)


@pytest.mark.parametrize("fees", [True, False])
def test_the_bank_day_shows_no_chip_rows_where_the_house_has_no_chips(cast, site, chips, fees):
    """Its day read "Chips (face value)", chips redeemed and tips redeemed at a fees-only site; a
    site with house chips (the same site under ND) shows them as before."""
    if not fees:
        site.jurisdiction = "ND"
        site.save()
    text = page(at_site(Client(), cast[Role.CASHIER], site).get("/cage/"))
    day = text[text.index('id="bank-day"') : text.index("</table>", text.index('id="bank-day"'))]
    assert (
        "<td>Cash</td>" in day
        and '<td>IOUs, net <small class="text-muted">(owed to the bank; negative where the bank owes)</small></td>'
        in day
    )
    for row in ("Chips (face value)", "Chips redeemed for players", "Dealer tips redeemed"):
        assert (f"<td>{row}</td>" in day) is not fees, row
    assert ("Cash and chip bank:" in text) is not fees and ("Cash bank:" in text) is fees


def test_the_bank_page_refuses_chips_posted_anyway_inline(cashier_page, site):
    posted = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "start", "cash_10000": "5", "chip_500": "3"}
    response = cashier_page.post("/cage/", posted)
    assert response.status_code == 400
    assert "it holds no house chips, so its bank is counted in cash only" in page(response)
    assert not BankCount.objects.exists()


def test_tip_chips_are_not_declared_to_its_cage_and_nothing_is_written(site, chips, cast):
    from cage.models import TipDeclaration

    with pytest.raises(ValidationError) as refused:
        services.declare_tips(acting_user=cast[Role.DEALER].user, site=site, gaming_date=DAY, chips={500: 2})
    assert refused.value.message_dict["chips"][0].startswith(f"{citation(site)}: the house's revenue at {site}")
    assert not TipDeclaration.objects.exists()


def test_the_tips_page_offers_a_dealer_no_tip_chips_and_says_why(cast, site, chips):
    text = page(at_site(Client(), cast[Role.DEALER], site).get("/cage/tips/"))
    assert 'id="no-tip-chips"' in text and f"{citation(site)}: the house's revenue here" in text
    assert 'id="declare-form"' not in text


def test_the_tips_page_offers_no_form_to_anyone_and_refuses_a_policy_posted_anyway(cast, site, chips):
    """A fees-only site's tips page only says why it takes nothing (tests/cage/test_nav CHIP_PAGES):
    no tip-pooling policy form for its gaming manager either, and a policy posted anyway is
    refused naming the rule, recording nothing."""
    from cage.models import TipPolicy

    manager = at_site(Client(), cast[Role.GAMING_MANAGER], site)
    text = page(manager.get("/cage/tips/"))
    assert 'id="no-tip-chips"' in text and f"{citation(site)}: the house's revenue here" in text
    assert "<form" not in text.split('id="cage-nav"', 1)[1] and "Declare" not in text
    posted = {"form": "policy", "pooled": "on", "description": "Pooled", "effective_on": DAY.isoformat()}
    response = manager.post("/cage/tips/", posted)
    assert response.status_code == 400
    assert (
        f"{citation(site)}: the house's revenue at {site} is the fees collected at its tables; it holds no house "
        "chips, so no tip chips are declared to its cage."
    ) in page(response)
    assert not TipPolicy.objects.exists()


def test_tip_chips_posted_by_a_dealer_page_or_api_are_refused_naming_the_rule(client_for, cast, site, chips):
    from cage.models import TipDeclaration

    posted = {"form": "declare", "gaming_date": DAY.isoformat(), "chip_500": "2"}
    response = at_site(Client(), cast[Role.DEALER], site).post("/cage/tips/", posted)
    assert response.status_code == 400
    assert f"{citation(site)}: the house's revenue at {site} is the fees collected" in page(response)
    declared = client_for(cast[Role.DEALER]).post(
        "/api/v1/cage/tip-declarations/",
        {"site": site.pk, "gaming_date": DAY.isoformat(), "chips": [{"value_cents": 500, "quantity": 2}]},
        format="json",
    )
    assert declared.status_code == 400, declared.content
    assert declared.json()["chips"][0].startswith(f"{citation(site)}: the house's revenue at {site}")
    assert not TipDeclaration.objects.exists()


def test_the_inventory_page_offers_no_form_and_refuses_a_count_or_receipt_posted_anyway(cast, site, chips):
    """The organization's chip log is not shown or kept under a fees-only site's name: no chip
    bank of it to count, no receipt form; posts are refused naming the rule."""
    from cage.models import ChipInventoryCount, ChipMovement

    manager = at_site(Client(), cast[Role.GAMING_MANAGER], site)
    response = manager.get("/cage/inventory/")
    text = page(response)
    assert response.status_code == 200 and 'id="no-house-chips"' in text
    assert f"{citation(site)}: the house's revenue here is the fees collected at its tables" in text
    assert "chip bank" not in text and "<form" not in text.split('id="cage-nav"', 1)[1]
    for posted in (
        {"form": "count", "counted_on": DAY.isoformat(), f"bank_{site.pk}_500": "4"},
        {"form": "movement", "kind": "receipt", "occurred_on": DAY.isoformat(), "reference": "Inv 1", "chip_500": "9"},
    ):
        response = manager.post("/cage/inventory/", posted)
        assert response.status_code == 400
        assert f"{citation(site)}: the house's revenue at {site} is the fees collected" in page(response)
    assert not ChipInventoryCount.objects.exists() and not ChipMovement.objects.exists()


def test_a_chip_inventory_count_of_its_bank_is_refused_and_nothing_is_written(site, chips, cast):
    from cage.models import ChipInventoryCount

    with pytest.raises(ValidationError) as refused:
        services.record_chip_inventory_count(
            acting_user=cast[Role.GAMING_MANAGER].user,
            organization=site.organization,
            counted_on=DAY,
            locations=[{"location": "bank", "site": site.pk, "chips": {500: 4}}],
        )
    assert refused.value.message_dict["locations"] == [
        f"{citation(site)}: the house's revenue at {site} is the fees collected at its tables; it holds no house "
        "chips, so its bank and table trays are not locations of the house's chips."
    ]
    assert not ChipInventoryCount.objects.exists()


def test_the_iou_form_names_its_bank_a_cash_bank(cashier_page):
    text = page(cashier_page.get("/cage/ious/"))
    assert "Blackjack cash bank" in text and "chip bank" not in text
