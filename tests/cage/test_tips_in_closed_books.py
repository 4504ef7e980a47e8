"""Tips are the gaming day's: once its books are closed, no tip is declared on that day, as no IOU
is lent on it (core.closing). Before, the tip services took both into closed books (201). Tips
declared on it and not yet redeemed are still paid: the redemption is counted in the books of the
gaming day it is paid on (cage.rules.TIPS_OF_CLOSED_DAYS, house control), never in the closed
day's. Before, it was refused (400) with nothing that could redeem them, the dealer's money stuck.
The tips page shows the moment a declaration was made, not its gaming date glued to the clock time."""

from datetime import date
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from accounting import services as accounting
from cage import queries, services
from cage.models import TipDeclaration, TipRedemption
from cardroom.models import Role
from floor import services as floor
from floor.calculations import site_today
from tests.accounting.scenario import at
from tests.factories import TableFactory
from tests.reports.test_kind_daily import download, pdf_tables, run_report

DAY = date(2026, 11, 2)
NEXT = date(2026, 11, 3)


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


@pytest.fixture
def paper_tips(scenario, site, chips, cast):
    """DAY played, its tips declared at the dealer's shift's end (14:00 local) and its books closed
    through the accounting service, the tips not redeemed."""
    table = TableFactory(site=site, number=1)
    scenario.played(DAY, table)
    declaration = services.declare_tips(
        acting_user=cast[Role.DEALER].user, site=site, gaming_date=DAY, chips={100: 5}, at=at(DAY, 20)
    )
    accounting.close_books(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=DAY)
    return declaration


def test_tips_of_a_day_whose_books_are_closed_are_redeemed_in_the_books_of_the_day_paid(
    paper_tips, client_for, site, cast
):
    dealer = cast[Role.DEALER]
    auditor = client_for(cast[Role.AUDITOR])
    summary = f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}"
    closed_before = (auditor.get(summary).json(), queries.bank_day(site, DAY))
    payload = {"declaration": paper_tips.pk, "dealer": dealer.pk, "redeemed_at": at(NEXT, 20).isoformat()}
    cashier = client_for(cast[Role.CASHIER])
    response = cashier.post("/api/v1/cage/tip-redemptions/", payload, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["gaming_date"] == str(NEXT) and response.json()["amount_cents"] == 500
    # The closed day's figures stand as closed; the paying day's count the cash out, chips in.
    auditor = client_for(cast[Role.AUDITOR])
    assert (auditor.get(summary).json(), queries.bank_day(site, DAY)) == closed_before
    assert closed_before[1].tips_redeemed_cents == 0
    paid = queries.bank_day(site, NEXT)
    assert paid.tips_redeemed_cents == 500 and paid.tips_of_earlier_days == ((DAY, 500),)
    listed = auditor.get(f"/api/v1/cage/tip-redemptions/?site={site.pk}&gaming_date={NEXT}").json()["results"]
    assert [r["declaration"] for r in listed] == [paper_tips.pk]
    assert auditor.get(f"/api/v1/cage/tip-redemptions/?site={site.pk}&gaming_date={DAY}").json()["results"] == []
    # Redeemed once: the same tips again are refused.
    again = client_for(cast[Role.CASHIER]).post("/api/v1/cage/tip-redemptions/", payload, format="json")
    assert again.status_code == 400, again.content
    assert "already redeemed" in again.json()["declaration"][0]
    assert TipRedemption.objects.count() == 1


def test_tips_of_a_closed_day_are_not_redeemed_at_a_time_in_closed_books(paper_tips, client_for, cast):
    """Paid at a time of the closed day itself, they would change it: the refusal names the time
    and says what to give."""
    payload = {"declaration": paper_tips.pk, "dealer": cast[Role.DEALER].pk, "redeemed_at": at(DAY, 22).isoformat()}
    response = client_for(cast[Role.CASHIER]).post("/api/v1/cage/tip-redemptions/", payload, format="json")
    assert response.status_code == 400, response.content
    text = response.json()["redeemed_at"][0]
    assert text.startswith("House control (closed books") and f"the books of {DAY} are closed" in text
    assert "counted on the gaming day they are paid (House control)" in text and "(none: now)" in text
    assert not TipRedemption.objects.exists()


def test_the_cage_pages_show_a_closed_days_tips_paid_now_in_the_books_of_today(paper_tips, site, cast):
    client = Client()
    client.force_login(cast[Role.CASHIER].user)
    url = reverse("cage:tip_redeem", kwargs={"pk": paper_tips.pk})
    page = client.post(url, {"dealer": cast[Role.DEALER].pk}, follow=True).content.decode()
    today = site_today(site)
    assert f"Counted in the books of {today}, the day they are paid, as those of {DAY}" in page
    row = page.split(f'id="declaration-{paper_tips.pk}"')[1].split("</tr>")[0]
    assert f"counted on {today}: the books of {DAY} had closed; House control" in row
    bank = client.get(f"/cage/?date={today}").content.decode()
    earlier = bank.split('class="tips-of-earlier-day"')[1].split("</tr>")[0]
    assert f"of which tips declared on {DAY}, whose books had closed" in earlier and "$5.00" in earlier
    assert 'class="tips-of-earlier-day"' not in client.get(f"/cage/?date={DAY}").content.decode()


def test_the_daily_report_of_the_day_paid_lists_a_late_entered_redemption_with_its_declarations_day(
    paper_tips, client_for, site, cast
):
    """Entered from paper a month after it was paid, the redemption is late: the paying day's daily
    report lists it, naming the day the tips were declared; the closed day's lists no redemption."""
    floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=NEXT, at=at(NEXT, 13))
    services.redeem_tips(
        acting_user=cast[Role.CASHIER].user, declaration=paper_tips, dealer=cast[Role.DEALER], at=at(NEXT, 20)
    )
    auditor = client_for(cast[Role.AUDITOR])
    heading = ["Record", "Happened", "Entered"]
    listed = {}
    for day in (NEXT, DAY):
        content = download(auditor, run_report(auditor, kind="daily", site=site.pk, start=str(day), end=str(day)))
        listed[day] = [row[0] for g in pdf_tables(content) if g[0] == heading for row in g[1:] if row != heading]
    assert f"Dealer tips redeemed, {cast[Role.DEALER]} (declared on {DAY})" in listed[NEXT]
    assert not any(label.startswith("Dealer tips redeemed") for label in listed[DAY])


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
