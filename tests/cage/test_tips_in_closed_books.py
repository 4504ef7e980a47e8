"""Tips are the gaming day's: once its books are closed, no tip is declared on that day and no
tip declared on it is redeemed, as no IOU is lent on it (core.closing). Before, the tip services
took both into closed books (201). The tips page shows the moment a declaration was made, not
its gaming date glued to the clock time."""

from datetime import date
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from accounting import services as accounting
from cage import services
from cage.models import TipDeclaration, TipRedemption
from cardroom.models import Role
from tests.factories import TableFactory

DAY = date(2026, 11, 2)


@pytest.fixture
def closed_books_with_tips(scenario, site, chips, cast):
    """DAY played, its tips declared, its books closed through the accounting service."""
    table = TableFactory(site=site, number=1)
    scenario.played(DAY, table)
    declaration = services.declare_tips(acting_user=cast[Role.DEALER].user, site=site, gaming_date=DAY, chips={100: 5})
    accounting.close_books(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=DAY)
    return declaration


def test_no_tip_is_declared_on_a_day_whose_books_are_closed(closed_books_with_tips, client_for, site, cast):
    payload = {"site": site.pk, "gaming_date": str(DAY), "chips": [{"value_cents": 100, "quantity": 3}]}
    response = client_for(cast[Role.DEALER]).post("/api/v1/cage/tip-declarations/", payload, format="json")
    assert response.status_code == 400, response.content
    text = response.json()["gaming_date"][0]
    assert text.startswith("House control (closed books") and f"the books of {DAY}" in text and "the tips" in text
    assert TipDeclaration.objects.count() == 1


def test_no_tip_of_a_day_whose_books_are_closed_is_redeemed(closed_books_with_tips, client_for, cast):
    dealer = cast[Role.DEALER]
    payload = {"declaration": closed_books_with_tips.pk, "dealer": dealer.pk}
    response = client_for(cast[Role.CASHIER]).post("/api/v1/cage/tip-redemptions/", payload, format="json")
    assert response.status_code == 400, response.content
    assert f"the books of {DAY}" in response.json()["declaration"][0]
    assert not TipRedemption.objects.exists()


def test_the_tips_page_shows_when_a_declaration_was_made_and_its_gaming_date_apart(site, chips, cast):
    declaration = services.declare_tips(acting_user=cast[Role.DEALER].user, site=site, gaming_date=DAY, chips={100: 5})
    client = Client()
    client.force_login(cast[Role.CASHIER].user)
    page = client.get("/cage/tips/").content.decode()
    made = declaration.declared_at.astimezone(ZoneInfo(site.time_zone))
    row = page.split(f'id="declaration-{declaration.pk}"')[1].split("</tr>")[0]
    assert made.strftime("%Y-%m-%d %H:%M") in row
    assert f"{DAY} {made:%H:%M}" not in row  # the gaming date is not glued to the clock time
    assert f">{DAY}<" in row  # the gaming date in its own cell


@pytest.mark.parametrize(
    "endpoint,payload,what",
    [
        ("ious", {"source": "reserve", "destination": "bank", "amount_cents": 5000}, "the IOUs"),
        ("tip-declarations", {"chips": [{"value_cents": 100, "quantity": 3}]}, "the tips"),
        ("chip-redemptions", {"chips": {"2500": 2}}, "the cash bank"),
    ],
)
def test_the_closed_books_refusal_reads_right_for_a_plural_and_a_singular(
    closed_books_with_tips, client_for, site, cast, endpoint, payload, what
):
    """Before, it read "so the IOUs of <date> is not changed" (a plural noun, a singular verb)."""
    role = Role.DEALER if endpoint == "tip-declarations" else Role.CASHIER
    body = {"site": site.pk, "gaming_date": str(DAY), **payload}
    response = client_for(cast[role]).post(f"/api/v1/cage/{endpoint}/", body, format="json")
    assert response.status_code == 400, response.content
    text = response.json()["gaming_date"][0]
    assert f"the books of {DAY} are closed, so {what} of {DAY} cannot be changed. " in text
