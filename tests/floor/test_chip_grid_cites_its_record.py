"""A box of the floor's chip grid the form itself refuses (a count that is no whole number, "5.5" or
"abc"; a dollar amount longer than any amount of chips) is refused inline on that box in the API's
words, citing the rule of the record the grid is on at the site's pack: a fill or credit slip's
content (ND 99-01.3-08-05(3) at North Dakota; House control where the pack's text states no slip),
a tray count's rule (House control at every pack: no text prescribes table tray counts), at the
opener's page and at a dealer change. Never Django's "enter a whole number" under House control,
never another pack's law; a 400 and nothing written. At a Washington blackjack site, whose pack keeps
none of these records, the page says the pack's refusal alone and judges no box
(test_pages_a_pack_refuses). A matrix over the packs and the pages, driven through the pages and
the API."""

import re

import pytest
from django.utils.html import escape

from cardroom.models import Role
from floor import services
from floor.models import DealerShift, Slip, TableInventory
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import TableFactory, make_person

from .conftest import EVERY_PACK, TRAY, pack_site, pack_table, today

SLIP_CONTENT = {"ND": "ND 99-01.3-08-05(3)", "WA-HB": "House control", "NY": "House control"}
TRAY_COUNT = dict.fromkeys(EVERY_PACK, "House control")
PLAYER_DEALER_RULE = "WAC 230-40-125(2) (1999 proposed amendment)"
FEES_RULE = "WAC 230-40-125(1) (1999 proposed amendment)"

# (what is typed, the box it is typed in, the posted entry mode, the API's line of the same input)
BAD_BOXES = {
    "a fraction of a chip": ({"qty_500": "5.5"}, "qty_500", {"chips": [{"denomination": 500, "quantity": "5.5"}]}),
    "letters for a count": ({"qty_500": "abc"}, "qty_500", {"chips": [{"denomination": 500, "quantity": "abc"}]}),
    "an amount too long": (
        {"entry": "amounts", "amount_500": "1" * 21},
        "amount_500",
        {"amounts": [{"denomination": 500, "amount": "1" * 21}]},
    ),
}
WORDS = {
    "qty_500": "{cited}: the quantity of $5.00 red must be a whole number of chips.",
    "amount_500": '{cited}: the amount of $5.00 red must be dollars and cents, like "125.00".',
}


@pytest.fixture
def site(org, code):
    return pack_site(org, code)


def _table(site, code: str, number: int):
    if code == "WA-BJ":  # a player dealer/banker's table (WAC 230-40-125(2))
        return TableFactory(site=site, number=number, decks=2, banker="player", min_bank_cents=30_000,
                            min_wager_cents=100, max_wager_cents=2500)  # fmt: skip
    return pack_table(site, code) if number == 1 else TableFactory(site=site, number=number, max_wager_cents=500)


@pytest.fixture
def floor(site, code, chips, cast):
    """The day open; where the house's chips go to the tables, table 1 opened and its dealer seated
    (a credit carries their initials), table 2 not yet opened; a relief dealer to seat."""
    manager = cast[Role.SHIFT_MANAGER].user
    services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    table, unopened = _table(site, code, 1), _table(site, code, 2)
    if code != "WA-BJ":
        services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY)
        services.start_dealer_shift(acting_user=manager, table=table, dealer=cast[Role.DEALER])
    return table, unopened, make_person(site.organization, Role.DEALER, site)


def _pages(cast, floor):
    """(page, who posts, its address, the rest of the form, the API's address and body, the rule by pack)."""
    table, unopened, relief = floor
    slip = {"table": table.pk, "purpose": "regular"}
    return {
        "fill slip": (Role.CASHIER, "/floor/slips/new/fill/", slip, "/api/v1/fill-slips/", {"table": table.pk},
                      SLIP_CONTENT),
        "credit slip": (Role.PIT_BOSS, "/floor/slips/new/credit/", slip, "/api/v1/credit-slips/", {"table": table.pk},
                        SLIP_CONTENT),
        "tray count": (Role.SHIFT_MANAGER, f"/floor/tables/{unopened.pk}/opener/", {}, "/api/v1/table-inventories/",
                       {"table": unopened.pk, "kind": "opener"}, TRAY_COUNT),
        "dealer change": (Role.SHIFT_MANAGER, f"/floor/tables/{table.pk}/dealer/", {"dealer": relief.pk},
                          "/api/v1/dealer-shifts/", {"table": table.pk, "dealer": relief.pk}, TRAY_COUNT),
    }  # fmt: skip


def _written() -> tuple[int, int, int]:
    return Slip.objects.count(), TableInventory.objects.count(), DealerShift.objects.count()


def _box_cell(text: str, box: str) -> str:
    """The grid's cell holding `box`: the chip's count box, its dollar box, their inline errors."""
    cell = re.search(r'<td><input[^>]*name="qty_500".*?</td>', text, re.S)
    assert cell is not None and f'name="{box}"' in cell.group(0), f"no {box} box on the page"
    return cell.group(0)


@pytest.mark.parametrize("page", ["fill slip", "credit slip", "tray count", "dealer change"])
@pytest.mark.parametrize("bad", list(BAD_BOXES))
def test_a_bad_chip_box_is_refused_on_that_box_citing_its_records_rule_at_the_pack(
    client, client_for, cast, floor, code, page, bad
):
    role, url, form, api, body, rule = _pages(cast, floor)[page]
    typed, box, line = BAD_BOXES[bad]
    before = _written()
    client.force_login(cast[role].user)
    response = client.post(url, {**form, **typed})
    text = response.content.decode()
    assert response.status_code == 400
    assert _written() == before
    assert "enter a whole number" not in text and "in dollars has at most" not in text
    assert not law_words_in(text, OTHER_WORDS if code == "ND" else ND_WORDS), text
    if code == "WA-BJ":  # no house chips (WAC 230-40-125(1)), no house dealer ((2)): the refusal, no grid
        refused = PLAYER_DEALER_RULE if page == "dealer change" else FEES_RULE
        assert f"{refused}: the " in text and f'name="{box}"' not in text and "must be a whole number" not in text
        return
    said = WORDS[box].format(cited=rule[code])
    assert f'<ul class="errorlist"><li>{escape(said)}</li></ul>' in _box_cell(text, box)
    # The API's refusal of the same input is the same sentence.
    answer = client_for(cast[role]).post(api, {**body, **line}, format="json")
    assert answer.status_code == 400 and answer.json() == {next(iter(line)): [said]}
    assert _written() == before
