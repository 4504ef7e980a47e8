"""A floor page whose record the site's pack refuses outright says so first, citing the pack, and
judges none of its boxes: at a Washington blackjack (WA-BJ) site the house's revenue is its fees
(WAC 230-40-125(1): no fill or credit slip, no slip book, no opener or closer) and a player deals and banks the
game (WAC 230-40-125(2): no dealer seated). Its GET shows the service's refusal with no form; its
POST, even with a box the form would refuse ("5.5" chips), answers 400 with that refusal alone, no
House-control box error, and writes nothing. At a North Dakota, Washington house-banked or New York
site the same pages offer their forms and judge their boxes as before."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from cardroom.models import Role
from floor import rules, services
from floor.models import DealerShift, Slip, SlipBook, TableInventory
from floor.services.steps import refuse_house_chips_at_fees_site
from tests.conformance.words import ND_WORDS, law_words_in
from tests.factories import TableFactory, make_person
from tests.page_support import at_site, page

from .conftest import TRAY, pack_site, today

# Each page: who opens it, its address (of table 1), the form it offers where the pack keeps its
# record, and a box to refuse (a chip count that is no whole number of chips).
PAGES = {
    "fill": (Role.CASHIER, "/floor/slips/new/fill/", 'id="slip-form"', {"purpose": "regular", "qty_500": "5.5"}),
    "credit": (Role.PIT_BOSS, "/floor/slips/new/credit/", 'id="slip-form"', {"purpose": "regular", "qty_500": "5.5"}),
    "opener": (Role.SHIFT_MANAGER, "/floor/tables/{pk}/opener/", 'id="count-form"', {"qty_500": "5.5"}),
    "closer": (Role.SHIFT_MANAGER, "/floor/tables/{pk}/closer/", 'id="count-form"', {"qty_500": "5.5"}),
    "dealer change": (Role.SHIFT_MANAGER, "/floor/tables/{pk}/dealer/", 'id="dealer-form"', {"qty_500": "5.5"}),
}
NOT_A_CHIP_COUNT = "must be a whole number of chips"


def pack_refusal(site, page_name: str) -> str | None:
    """The service's refusal of the page's record at `site`, or None where its pack keeps it."""
    if page_name == "dealer change":
        return None if rules.house_dealers(site) else rules.no_house_dealer(site)
    what = {"opener": "table opener or closer", "closer": "table opener or closer", "slip book": "slip book"}.get(
        page_name, f"{page_name} slip"
    )
    try:
        refuse_house_chips_at_fees_site(site, "table", what)
    except ValidationError as exc:
        return exc.messages[0]
    return None


@pytest.fixture
def floor_at(org, chips, code):
    """A site of the pack with its open gaming day, table 1 (a player dealer/banker at WA-BJ) and
    one person per role that opens these pages."""
    site = pack_site(org, code)
    people = {role: make_person(org, role, site) for role in (Role.SHIFT_MANAGER, Role.CASHIER, Role.PIT_BOSS)}
    player_dealt = {"decks": 2, "banker": "player", "min_bank_cents": 30_000} if code == "WA-BJ" else {}
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=500 if code == "NY" else 2500,
                         **player_dealt)  # fmt: skip
    services.open_gaming_day(acting_user=people[Role.SHIFT_MANAGER].user, site=site, gaming_date=today(site))
    return site, table, people


def test_the_pack_refusing_these_records_is_washington_blackjack_alone(floor_at, code):
    site, _table, _people = floor_at
    refused = {name for name in PAGES if pack_refusal(site, name)}
    assert refused == (set(PAGES) if code == "WA-BJ" else set())


def opened_for(page_name: str, site, table, people) -> None:
    """A closer's page offers its form for a table opened in the day (a table not opened says so
    first and leads to its opener: test_pages_floor.py); the opener counted where the pack keeps it."""
    if page_name == "closer" and pack_refusal(site, page_name) is None:
        services.record_table_inventory(
            acting_user=people[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=TRAY
        )


@pytest.mark.parametrize("page_name", PAGES)
def test_a_page_says_the_packs_refusal_first_or_offers_its_form(floor_at, page_name):
    site, table, people = floor_at
    opened_for(page_name, site, table, people)
    role, address, form_id, _bad = PAGES[page_name]
    response = at_site(Client(), people[role], site).get(address.format(pk=table.pk))
    text, refusal = page(response), pack_refusal(site, page_name)
    assert response.status_code == 200
    if refusal:
        assert refusal in text and form_id not in text
        assert refusal.startswith("WAC 230-40-125(") and law_words_in(text, ND_WORDS) == []
    else:
        assert form_id in text


@pytest.mark.parametrize("page_name", PAGES)
def test_a_bad_box_on_a_page_the_pack_refuses_gets_the_packs_refusal_alone(floor_at, page_name):
    site, table, people = floor_at
    opened_for(page_name, site, table, people)
    role, address, _form_id, bad = PAGES[page_name]
    response = at_site(Client(), people[role], site).post(address.format(pk=table.pk), {"table": table.pk, **bad})
    text, refusal = page(response), pack_refusal(site, page_name)
    assert response.status_code == 400
    assert not Slip.objects.exists() and not DealerShift.objects.exists()
    if refusal:
        assert f'role="alert">{refusal}' in text and NOT_A_CHIP_COUNT not in text
        assert not TableInventory.objects.exists()
    else:  # the pack keeps the record: its box is judged, in the record's own rule
        assert NOT_A_CHIP_COUNT in text


SLIP_BOOKS = "/floor/slip-books/"
A_BOOK = {"kind": "fill", "first_number": 1, "last_number": 50}


def test_the_slip_books_page_says_the_packs_refusal_in_place_of_its_form(floor_at, code):
    site, _table, people = floor_at
    text = page(at_site(Client(), people[Role.SHIFT_MANAGER], site).get(SLIP_BOOKS))
    refusal = pack_refusal(site, "slip book")
    if code == "WA-BJ":
        assert f'id="fees-only">{refusal}' in text and 'id="slip-book-form"' not in text
    else:
        assert refusal is None and 'id="slip-book-form"' in text


def test_a_slip_book_posted_where_the_pack_refuses_it_gets_the_services_sentence_as_the_api_does(
    floor_at, code, client_for
):
    site, _table, people = floor_at
    manager = people[Role.SHIFT_MANAGER]
    response = at_site(Client(), manager, site).post(SLIP_BOOKS, A_BOOK)
    if code != "WA-BJ":  # the pack keeps slip books: the form registers it
        assert response.status_code == 302 and SlipBook.objects.count() == 1
        return
    api = client_for(manager).post("/api/v1/slip-books/", {"site": site.pk, **A_BOOK}, format="json")
    assert api.status_code == 400
    (said,) = api.json()["kind"]
    assert said == pack_refusal(site, "slip book") and said.startswith("WAC 230-40-125(")
    assert response.status_code == 400
    assert f'role="alert">{said}' in page(response)
    assert not SlipBook.objects.exists()
