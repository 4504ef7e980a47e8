"""Each cage form, once its record is saved, says on the next page what was recorded and what comes
next (as the floor's pages do: "... prepared: now have it verified."); a refused form says nothing
of the kind."""

import pytest
from django.test import Client

from cage import services
from cage.models import BankCount, Iou, TipDeclaration
from cardroom.models import Role
from tests.page_support import page

from .conftest import DAY


def browser(employee) -> Client:
    client = Client()
    client.force_login(employee.user)
    return client


def test_the_starting_count_says_what_was_counted_and_that_the_ending_count_follows(cast, chips):
    posted = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "start", "cash_10000": "270", "chip_500": "120"}
    response = browser(cast[Role.CASHIER]).post("/cage/", posted, follow=True)
    assert "Starting bank of 2026-11-02 counted ($27,600.00): count the ending bank when the day closes." in (
        page(response)
    )


def test_the_ending_count_points_to_closing_the_books_and_the_deposit(cast, chips):
    posted = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "end", "cash_10000": "3"}
    text = page(browser(cast[Role.CASHIER]).post("/cage/", posted, follow=True))
    assert (
        "Ending bank of 2026-11-02 counted ($300.00): the books of 2026-11-02 can now be closed on the daily page, "
        "then the day's cash deposited."
    ) in text


def test_a_correction_says_which_count_it_corrects(cast, chips, site):
    first = services.record_bank_count(
        acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, kind="start", cash={10000: 1}, chips={}
    )
    posted = {
        "form": "count",
        "gaming_date": DAY.isoformat(),
        "kind": "start",
        "corrects": first.pk,
        "reason": "miscounted",
        "cash_10000": "2",
    }
    text = page(browser(cast[Role.CASHIER]).post("/cage/", posted, follow=True))
    assert f"Starting bank of 2026-11-02 counted ($200.00), correcting count #{first.pk}: count the ending" in text


def test_a_refused_count_confirms_nothing(cast, chips):
    response = browser(cast[Role.CASHIER]).post(
        "/cage/", {"form": "count", "gaming_date": DAY.isoformat(), "kind": "start"}
    )
    assert response.status_code == 400
    assert "counted (" not in page(response) and not BankCount.objects.exists()


def test_an_iou_and_its_repayment_are_confirmed(cast, chips, site):
    cashier = browser(cast[Role.CASHIER])
    lent = {
        "form": "lend",
        "gaming_date": DAY.isoformat(),
        "source": "bank",
        "destination": "reserve",
        "amount_cents": "50.00",
    }
    text = page(cashier.post("/cage/ious/", lent, follow=True))
    assert (
        "IOU of $50.00 from Twenty-one cash and chip bank to Reserve (safe) on 2026-11-02 recorded: record its "
        "repayment here when the money comes back."
    ) in text
    iou = Iou.objects.get(site=site)
    text = page(cashier.post(f"/cage/ious/{iou.pk}/repay/", {"amount_cents": "", "gaming_date": ""}, follow=True))
    assert "Repayment of $50.00 to the IOU from Twenty-one cash and chip bank to Reserve (safe) of 2026-11-02" in text


def test_a_chip_redemption_says_what_to_pay(cast, chips):
    posted = {"form": "redeem", "gaming_date": DAY.isoformat(), "chip_2500": "2", "chip_100": "3"}
    text = page(browser(cast[Role.CASHIER]).post("/cage/redemptions/", posted, follow=True))
    assert "Chips redeemed on 2026-11-02: pay the player $53.00 in cash; the chips go into the bank." in text


def test_a_tip_declaration_and_its_redemption_are_confirmed(cast, chips, site):
    dealer = cast[Role.DEALER]
    declared = page(
        browser(dealer).post(
            "/cage/tips/", {"form": "declare", "gaming_date": DAY.isoformat(), "chip_100": "7"}, follow=True
        )
    )
    assert "Tips of $7.00 declared for 2026-11-02: have the cashier redeem them at the cage window." in declared
    declaration = TipDeclaration.objects.get(dealer=dealer)
    redeemed = page(
        browser(cast[Role.CASHIER]).post(f"/cage/tips/{declaration.pk}/redeem/", {"dealer": dealer.pk}, follow=True)
    )
    assert f"Tips of {dealer} redeemed: pay $7.00 in cash at the window." in redeemed


def test_the_tip_policy_is_confirmed(cast, chips):
    posted = {"form": "policy", "description": "Each dealer keeps their own.", "effective_on": "2026-11-01"}
    text = page(browser(cast[Role.GAMING_MANAGER]).post("/cage/tips/", posted, follow=True))
    assert "Tip policy in force from 2026-11-01 recorded." in text


def test_a_deposit_says_who_verifies_it_and_the_verification_is_confirmed(cast, chips, closed_day):
    posted = {"amount_cents": "1234.00", "deposited_on": "2026-11-04", "reference": "slip 9"}
    text = page(browser(cast[Role.CASHIER]).post(f"/cage/deposits/day/{closed_day.pk}/", posted, follow=True))
    assert (
        "Deposit of $1,234.00 for 2026-11-02 recorded (deposited 2026-11-04, due 2026-11-05): a gaming manager "
        "now verifies it against the bank statement."
    ) in text
    deposit = closed_day.deposit
    verified = {"statement_amount_cents": "1234.00", "statement_date": "2026-11-05"}
    text = page(browser(cast[Role.GAMING_MANAGER]).post(f"/cage/deposits/{deposit.pk}/verify/", verified, follow=True))
    assert "Deposit of 2026-11-02 verified against the statement of 2026-11-05 ($1,234.00)." in text


@pytest.mark.parametrize(
    "posted,words",
    [
        (
            {
                "form": "movement",
                "kind": "receipt",
                "occurred_on": "2026-11-01",
                "reference": "Invoice 9",
                "chip_500": "10",
            },
            "Received from the manufacturer: $50.00 of chips recorded in the chip inventory log.",
        ),
        (
            {"form": "count", "counted_on": "2026-11-01", "storage_0_500": "4"},
            "Chip inventory count of $20.00 recorded in the chip inventory log.",
        ),
    ],
)
def test_the_chip_inventory_log_confirms_each_entry(cast, chips, posted, words):
    assert words in page(browser(cast[Role.GAMING_MANAGER]).post("/cage/inventory/", posted, follow=True))
