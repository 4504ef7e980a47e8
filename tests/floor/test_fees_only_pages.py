"""At a site whose house has no chips at its tables (Washington blackjack: its revenue is the table
fees; floor.rules.house_chips), the floor's slip pages say plainly that no slips are recorded there,
citing the rule, and no page offers slips: the pit, the queues, the register, the slip books and
the daily page's "Behind these figures". A North Dakota site keeps them all."""

import pytest
from django.test import Client

from cardroom import pins
from cardroom.models import Role
from floor.models import SlipBook
from floor.services import open_gaming_day
from tests.page_support import at_site, page

from .conftest import today

FEES_ONLY = "the house's revenue at this site is the fees collected at its tables. No fill or credit slips"
SLIP_PAGES = ["/floor/", "/floor/pit/", "/floor/queues/", "/floor/register/", "/floor/slip-books/"]


@pytest.fixture
def manager_at(site, cast):
    def at(jurisdiction: str) -> Client:
        site.jurisdiction = jurisdiction
        site.save()
        return at_site(Client(), cast[Role.GAMING_MANAGER], site)

    return at


# The slip books page says the slip book service's own refusal in place of its form
# (test_pages_a_pack_refuses.py); the others the site's fees notice.
@pytest.mark.parametrize("path", [path for path in SLIP_PAGES if path != "/floor/slip-books/"])
def test_each_slip_page_at_a_fees_only_site_says_no_slips_are_recorded_there(manager_at, path):
    response = manager_at("WA-BJ").get(path)
    assert response.status_code == 200
    text = page(response)
    assert 'id="fees-only">WAC 230-40-125(1)' in text and FEES_ONLY in text


@pytest.mark.parametrize("path", SLIP_PAGES)
def test_a_site_with_house_chips_is_told_nothing_of_fees(manager_at, path):
    response = manager_at("ND").get(path)
    assert response.status_code == 200 and 'id="fees-only"' not in page(response)


def test_the_pit_at_a_fees_only_site_offers_no_slips(manager_at, table):
    text = page(manager_at("WA-BJ").get("/floor/pit/"))
    assert "Slips waiting" not in text and "to verify" not in text and "to receive" not in text
    assert "No slip waiting" not in text
    nd = page(manager_at("ND").get("/floor/pit/"))
    assert "Slips waiting" in nd and "0 to verify" in nd and "No slip waiting" in nd


def test_the_queues_at_a_fees_only_site_list_no_tables_without_an_opener(manager_at):
    assert 'id="tables-without-opener"' not in page(manager_at("WA-BJ").get("/floor/queues/"))
    assert 'id="tables-without-opener"' in page(manager_at("ND").get("/floor/queues/"))


def test_the_daily_page_at_a_fees_only_site_has_no_slips_behind_its_figures(manager_at, site):
    wa = page(manager_at("WA-BJ").get("/dashboard/daily/", {"site": site.pk}))
    assert 'id="slips"' not in wa and "Slip register for this day" not in wa and ">Slips</h3>" not in wa
    nd = page(manager_at("ND").get("/dashboard/daily/", {"site": site.pk}))
    assert 'id="slips"' in nd and "Slip register for this day" in nd


def test_the_daily_page_at_a_fees_only_site_has_no_counts_behind_its_figures(manager_at, site):
    """It keeps no drop box, so it counts no drop (counts.rules.keeps_drop_boxes)."""
    wa = page(manager_at("WA-BJ").get("/dashboard/daily/", {"site": site.pk}))
    assert 'id="counts"' not in wa and ">Counts</h3>" not in wa
    nd = page(manager_at("ND").get("/dashboard/daily/", {"site": site.pk}))
    assert 'id="counts"' in nd and ">Counts</h3>" in nd


def test_the_slip_books_page_at_a_fees_only_site_offers_no_form_and_registers_no_book(manager_at):
    wa = manager_at("WA-BJ")
    assert 'id="slip-book-form"' not in page(wa.get("/floor/slip-books/"))
    posted = wa.post("/floor/slip-books/", {"kind": "fill", "first_number": 1, "last_number": 50})
    assert posted.status_code == 400 and not SlipBook.objects.exists()
    assert 'id="slip-book-form"' in page(manager_at("ND").get("/floor/slip-books/"))


@pytest.mark.parametrize("jurisdiction, strip", [("WA-BJ", False), ("ND", True)])
def test_the_pit_terminal_at_a_fees_only_site_shows_no_one_on_duty_to_verify(site, cast, jurisdiction, strip):
    """No slip is recorded there, so none is verified: the terminal's duty strip is not drawn."""
    site.jurisdiction = jurisdiction
    site.save()
    open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=today(site))
    station = pins.create_station(
        acting_user=None, site=site, username="pit-a", password="terminal-password-1", name="A"
    )
    client = Client()
    client.force_login(station.user)
    for path in ("/floor/pit/", f"/floor/sites/{site.pk}/pit/live/"):
        text = page(client.get(path))
        assert 'id="pit-data"' in text and ('id="pit-duty"' in text) is strip, path
    # Nor a drop box or a count there (the site keeps none): no Count tablet or Drop boxes button.
    full = page(client.get("/floor/pit/"))
    assert ('id="station-counts"' in full) is strip and ('id="station-boxes"' in full) is strip
    assert ("or a waiting slip" in full) is strip
