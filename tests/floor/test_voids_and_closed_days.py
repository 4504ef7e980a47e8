"""Closed books stay closed (issue 12): a slip is voided only by its preparer, before it is
received and while its gaming day is open (ND 99-01.3-08-05(2) and house controls), and no
write changes the figures of a day whose books are closed. Each refusal is a 400 naming the
rule and the adjustment to record instead; the figures, the quarter's AGP and the
organization's tax stay as they were."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError

from accounting import services as books
from accounting import summaries
from accounting.frozen import daily as daily_json
from accounting.models import BooksClose
from cage import services as cage
from cardroom.models import Role
from core.periods import Quarter
from counts import services as counts
from counts.models import CountAgreement, CountSession, DropBox
from floor import services
from floor.models import SlipStep
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory

from .conftest import FILL

HOUSE_CONTROL = "House control (closed books"


def figures_now(site, day, org):
    """What must not move: the day's figures, the quarter's AGP, the organization's tax."""
    quarter = Quarter.containing(day)
    return (
        daily_json(summaries.daily_summary(site, day))["total"],
        summaries.quarter_summary(site, quarter).total.agp_cents,
        summaries.organization_tax(org, quarter).tax_cents,
    )


def void_by_api(client_for, employee, slip):
    return client_for(employee).post(f"/api/v1/fill-slips/{slip.pk}/void/", {"reason": "wrong"}, format="json")


# --- Voids ----------------------------------------------------------------------------------------


@pytest.fixture
def received_fill(fill, dealer_shift, cast):
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    return fill


def test_a_received_slip_is_not_voided_and_the_figures_stay(received_fill, cast, client_for, site, org):
    day = received_fill.gaming_day.gaming_date
    before = figures_now(site, day, org)
    assert before[0]["fills_cents"] == received_fill.total_cents
    response = void_by_api(client_for, cast[Role.CASHIER], received_fill)  # the preparer
    assert response.status_code == 400
    message = response.json()["slip"][0]
    # The rule that refuses is the house's "a received slip is never voided", not the closed
    # books': the books of the day are still open.
    assert message.startswith(
        "House control: a received slip cannot be voided; fill slip 1 was received (its copy initialed, "
        "ND 99-01.3-08-05(6)), so it can no longer be voided: the chips moved with it."
    )
    assert "closed books" not in message and "no longer voided" not in message and "adjustment" in message
    assert figures_now(site, day, org) == before
    assert not SlipStep.objects.filter(kind="void").exists()


def test_the_slip_page_refuses_a_received_slips_void_with_the_same_words(received_fill, cast):
    from django.test import Client

    from tests.page_support import page

    client = Client()
    client.force_login(cast[Role.CASHIER].user)  # the preparer
    response = client.post(f"/floor/slips/{received_fill.pk}/void/", {"reason": "wrong"})
    assert response.status_code == 400
    text = page(response)
    assert "House control: a received slip cannot be voided; fill slip 1 was received" in text
    assert "so it can no longer be voided: the chips moved with it." in text and "(closed books)" not in text
    assert not SlipStep.objects.filter(kind="void").exists()


def test_a_shift_manager_may_not_void_the_cashiers_received_slip_either(received_fill, cast, client_for):
    response = void_by_api(client_for, cast[Role.SHIFT_MANAGER], received_fill)
    assert response.status_code == 400
    assert response.json()["slip"][0].startswith("ND 99-01.3-08-05(2): a voided slip is initialed by its preparer")


@pytest.fixture
def closed_day_with_a_received_fill(received_fill, open_table, cast, people, site, manager):
    """The gaming day of `received_fill`, closed on the floor, counted, banked and its books closed."""
    boss = cast[Role.SHIFT_MANAGER]
    day = received_fill.gaming_day
    services.record_table_inventory(acting_user=boss.user, table=open_table, kind="closer", chips=FILL)
    services.close_gaming_day(acting_user=boss.user, gaming_day=day)
    scenario = Scenario(site, people)
    scenario.days[day.gaming_date] = day
    scenario.drop(open_table, day.gaming_date, 150_000)
    scenario.bank(day.gaming_date, "start", 500_000, 300_000)
    scenario.bank(day.gaming_date, "end", 650_000, 280_000)
    return day


def test_a_slip_of_a_closed_gaming_day_is_not_voided_even_before_its_books_close(
    closed_day_with_a_received_fill, received_fill, cast
):
    with pytest.raises(ValidationError) as caught:
        services.void_slip(acting_user=cast[Role.CASHIER].user, slip=received_fill, reason="wrong")
    day = closed_day_with_a_received_fill.gaming_date
    assert caught.value.message_dict["slip"][0].startswith(f"{HOUSE_CONTROL}): the gaming day {day}")


@pytest.mark.parametrize(
    "role,refusal",
    [
        (Role.CASHIER, f"{HOUSE_CONTROL}): the gaming day"),  # the preparer: the day is closed
        (Role.SHIFT_MANAGER, "ND 99-01.3-08-05(2): a voided slip is initialed by its preparer"),
    ],
)
def test_a_slip_of_closed_books_is_not_voided_and_the_day_quarter_and_tax_stand(
    closed_day_with_a_received_fill, received_fill, cast, client_for, site, org, manager, role, refusal
):
    day = closed_day_with_a_received_fill.gaming_date
    close = books.close_books(acting_user=manager.user, site=site, gaming_date=day)
    before = figures_now(site, day, org)
    response = void_by_api(client_for, cast[role], received_fill)
    assert response.status_code == 400
    message = response.json()["slip"][0]
    assert message.startswith(refusal) and "adjustment" in message
    assert figures_now(site, day, org) == before
    body = client_for(manager).get(f"/api/v1/sites/{site.pk}/daily-summary/?date={day}").json()
    assert body["books"]["state"] == "equal" and body["books"]["figures_sha256"] == close.figures_sha256
    assert body["total"]["fills_cents"] == received_fill.total_cents


def test_the_preparer_still_voids_an_unreceived_slip_of_an_open_day(fill, cast, site, org):
    day = fill.gaming_day.gaming_date
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="Wrong table written.")
    assert figures_now(site, day, org)[0]["fills_cents"] == 0


# --- Other writes to a closed day -----------------------------------------------------------------

DAY = date(2026, 8, 14)


@pytest.fixture
def closed_books(site, people, manager, chips):
    """DAY played, counted, banked and its books closed."""
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 185_000)
    scenario.slip(table, DAY, "fill", 20_000, number=1)
    scenario.drop(table, DAY, 100_000)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 500_000, 300_000)
    return books.close_books(acting_user=manager.user, site=site, gaming_date=DAY)


def test_a_count_correction_on_a_closed_day_is_refused_pointing_at_the_adjustment(
    closed_books, client_for, manager, site, org
):
    session = CountSession.objects.get(site=site, gaming_date=DAY)
    box = DropBox.objects.get(site=site)
    before = figures_now(site, DAY, org)
    payload = {
        "box": box.pk,
        "currency": [{"denomination_cents": 10000, "quantity": 11}],
        "reason": "A $100 bill stuck in the lid.",
    }
    response = client_for(manager).post(f"/api/v1/count-sessions/{session.pk}/adjustments/", payload, format="json")
    assert response.status_code == 400
    message = response.json()["session"][0]
    assert message.startswith(HOUSE_CONTROL) and f"the books of {DAY} are closed" in message
    assert "adjustment approved by a gaming manager" in message and "/api/v1/adjustments/" in message
    assert CountAgreement.objects.count() == 1
    assert figures_now(site, DAY, org) == before
    assert before[0]["drop_cents"] == 100_000


def _bank_count_correction(site, cast):
    from cage.models import BankCount

    start = BankCount.objects.get(site=site, gaming_date=DAY, kind="start")
    return cage.record_bank_count(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=DAY,
        kind="start",
        cash={10000: 40},
        chips={},
        corrects=start,
        reason="recount",
    )


CLOSED_DAY_WRITES = {
    "bank count correction": _bank_count_correction,
    "IOU lent": lambda site, cast: cage.lend_iou(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=DAY,
        source="bank",
        destination="pull_tabs",
        amount_cents=10_000,
    ),
    "chip redemption": lambda site, cast: cage.redeem_chips(
        acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, chips={2500: 2}
    ),
    "drop box placed": lambda site, cast: counts.place_drop_box(
        acting_user=cast[Role.SHIFT_MANAGER].user, drop_box=DropBox.objects.get(site=site), gaming_date=DAY
    ),
}


@pytest.mark.parametrize("write", CLOSED_DAY_WRITES)
def test_writes_dated_on_a_closed_day_are_refused_and_change_nothing(closed_books, cast, site, org, write):
    before = figures_now(site, DAY, org)
    cash_before = summaries.daily_summary(site, DAY).cash
    with pytest.raises(ValidationError) as caught:
        CLOSED_DAY_WRITES[write](site, cast)
    message = caught.value.message_dict["gaming_date"][0]
    assert message.startswith(HOUSE_CONTROL) and "adjustment" in message
    assert figures_now(site, DAY, org) == before
    assert summaries.daily_summary(site, DAY).cash == cash_before


def test_an_iou_is_not_repaid_on_a_closed_day(closed_books, cast, site):
    iou = cage.lend_iou(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=DAY - timedelta(days=1),
        source="bank",
        destination="pull_tabs",
        amount_cents=10_000,
    )
    with pytest.raises(ValidationError) as caught:
        cage.repay_iou(acting_user=cast[Role.CASHIER].user, iou=iou, gaming_date=DAY)
    assert caught.value.message_dict["gaming_date"][0].startswith(HOUSE_CONTROL)


def test_a_new_count_session_for_a_closed_day_is_refused(closed_books, site, people):
    with pytest.raises(ValidationError) as caught:
        counts.open_count_session(
            acting_user=people["count1"].user,
            site=site,
            gaming_date=DAY,
            members=[people["count1"], people["count2"]],
        )
    assert caught.value.message_dict["gaming_date"][0].startswith(HOUSE_CONTROL)


def test_the_next_days_records_are_still_taken(closed_books, cast, site):
    after = DAY + timedelta(days=1)
    cage.lend_iou(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=after,
        source="bank",
        destination="pull_tabs",
        amount_cents=10_000,
    )
    assert BooksClose.objects.get().figures_sha256 == closed_books.figures_sha256
