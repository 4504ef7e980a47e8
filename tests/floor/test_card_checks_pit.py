"""ND 99-01.3-08-07(1), (2) on the API and the pit board: card checks created and listed at the sites
one may see, 4xx naming the field on bad input; the board shows each open twenty-one table's checks
with a button for each (one click signed in, badge and PIN at a terminal), and the tables not yet
checked as a standing warning; nothing of it at a Washington or New York site, and no query more
for more tables."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom import pins
from cardroom.models import Role
from floor import services
from floor.models import CardCheck
from tests.compliance.test_no_nd_rule_at_other_packs import TABLES
from tests.conformance.words import ND_WORDS, law_words_in
from tests.conftest import TERMINAL_PIN
from tests.factories import TableFactory, make_person

from .conftest import TRAY

SHOE, DECKS = "ND 99-01.3-08-07(2): ", "ND 99-01.3-08-07(1): "


def live(client, site) -> str:
    return client.get(f"/floor/sites/{site.pk}/pit/live/").content.decode()


def warnings(board: str) -> list[str]:
    return [
        part.split(">", 1)[1].split("</div>")[0]
        for part in board.split('class="alert alert-warning py-2 pit-unchecked"')[1:]
    ]


def opened(site, manager, number: int):
    table = TableFactory(site=site, number=number, min_wager_cents=100, max_wager_cents=2500)
    services.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    return table


# --- The API ------------------------------------------------------------------------------------


def test_the_api_lists_the_checks_of_the_sites_one_sees_only(
    client_for, org, site, other_site, chips, cast, shift_manager, gaming_day, open_table
):
    services.record_card_check(acting_user=shift_manager.user, table=open_table, kind="shoe_inspected")
    boss_there = make_person(org, Role.SHIFT_MANAGER, other_site)
    services.open_gaming_day(acting_user=boss_there.user, site=other_site, gaming_date=gaming_day.gaming_date)
    there = opened(other_site, boss_there, 1)
    theirs = services.record_card_check(acting_user=boss_there.user, table=there, kind="shoe_inspected")
    mine = client_for(shift_manager).get("/api/v1/card-checks/").json()["results"]
    assert [(r["table"], r["kind"], r["checked_by"], r["checked_as"]) for r in mine] == [
        (open_table.pk, "shoe_inspected", shift_manager.pk, "shift_manager")
    ]
    everyone = client_for(cast[Role.AUDITOR]).get("/api/v1/card-checks/", {"site": other_site.pk}).json()
    assert [r["id"] for r in everyone["results"]] == [theirs.pk]
    assert client_for(shift_manager).get(f"/api/v1/card-checks/{theirs.pk}/").status_code == 404


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "shoe_inspected"}, "table"),
        ({"kind": "cards_counted"}, "kind"),
        ({"kind": "decks_approved", "decks": "six"}, "decks"),
        ({"kind": "decks_approved", "decks": 9}, "decks"),
        ({"kind": "decks_approved", "checked_by": 10**12}, "checked_by"),
        ({"kind": "decks_approved", "checked_at": "tomorrow"}, "checked_at"),
        ({"kind": "shoe_inspected", "decks": 6}, "decks"),
    ],
)
def test_bad_input_is_a_400_naming_its_field(client_for, cast, gaming_day, open_table, body, field):
    body = {"table": open_table.pk, **body} if field != "table" else body
    response = client_for(cast[Role.DEALER]).post("/api/v1/card-checks/", body, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()


def test_a_dealer_at_a_terminal_approves_the_decks_with_their_badge_and_pin(
    client, site, gaming_day, open_table, with_pins
):
    dealer = with_pins[Role.DEALER]
    station = pins.create_station(
        acting_user=None, site=site, username="pit-c", password="terminal-password-1", name="C"
    )
    client.force_login(station.user)
    body = {
        "table": open_table.pk,
        "kind": "decks_approved",
        "signer_badge": dealer.initials,
        "signer_pin": TERMINAL_PIN,
    }
    answer = client.post("/api/v1/card-checks/", body, content_type="application/json")
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["checked_by"], answer.json()["recorded_by"], answer.json()["decks"]) == (
        dealer.pk,
        dealer.pk,
        6,
    )


# --- The pit board ------------------------------------------------------------------------------


def test_the_board_shows_each_open_tables_checks_and_records_each_in_one_click(
    client, site, chips, cast, shift_manager, gaming_day, open_table
):
    dealer = cast[Role.DEALER]
    services.start_dealer_shift(acting_user=shift_manager.user, table=open_table, dealer=dealer)
    client.force_login(shift_manager.user)
    board = live(client, site)
    assert 'Shoe <span class="text-danger">not inspected today</span>' in board
    assert warnings(board) == [
        f"{DECKS}Table 1 is open with no approval of the decks recorded today: a dealer approves all decks when the "
        "cards are brought to the table, and again when they are brought back.",
        f"{SHOE}Table 1 is open with no inspection of the dealing shoe recorded today: a dealer or shift manager "
        "inspects each dealing shoe before the day&#x27;s activity.",
    ]
    # One click each: the shoe inspected by the shift manager signed in, the decks by the dealer seated.
    shoe = client.post(f"/floor/tables/{open_table.pk}/card-check/shoe_inspected/")
    decks = client.post(f"/floor/tables/{open_table.pk}/card-check/decks_approved/", {"checked_by": dealer.pk})
    assert shoe.status_code == decks.status_code == 302 and shoe.url == "/floor/pit/"
    checks = CardCheck.objects.order_by("id")
    assert [(c.kind, c.checked_by, c.recorded_by) for c in checks] == [
        ("shoe_inspected", shift_manager, shift_manager),
        ("decks_approved", dealer, shift_manager),
    ]
    board = live(client, site)
    assert warnings(board) == []
    assert f"Shoe inspected by {shift_manager.initials}" in board and f"Decks 6 approved by {dealer.initials}" in board
    assert "pit-shoe-inspected" not in board  # the shoe once a day; the decks again when brought back
    assert f"Approved again by {dealer.initials}" in board


def test_a_refused_click_says_why_on_the_board(client, site, cast, shift_manager, gaming_day, open_table):
    client.force_login(shift_manager.user)
    refused = client.post(f"/floor/tables/{open_table.pk}/card-check/decks_approved/", follow=True)
    assert f"{DECKS}{shift_manager} is not an active employee" in refused.content.decode()
    assert not CardCheck.objects.exists()


def test_who_may_not_record_sees_the_checks_without_a_button(client, site, cast, gaming_day, open_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    board = live(client, site)
    assert "pit-card-checks-1" in board and "card-check/" not in board
    assert client.post(f"/floor/tables/{open_table.pk}/card-check/shoe_inspected/").status_code == 302
    assert not CardCheck.objects.exists()


def test_a_terminal_offers_both_checks_on_each_open_table(client, site, gaming_day, open_table, station):
    client.force_login(station.user)
    board = live(client, site)
    assert 'data-pit-action="card-check" data-kind="shoe_inspected"' in board
    assert 'data-pit-action="card-check" data-kind="decks_approved"' in board


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_nothing_of_it_at_a_site_whose_pack_does_not_state_it(
    client, site, chips, shift_manager, gaming_day, station, jurisdiction
):
    site.jurisdiction = jurisdiction
    site.save()
    table = TableFactory(site=site, number=5, min_wager_cents=100, **TABLES[jurisdiction])
    services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    for user in (shift_manager.user, station.user):
        client.force_login(user)
        board = live(client, site)
        assert 'id="pit-table-5"' in board
        for absent in ("pit-card-checks", "pit-unchecked", "card-check", "Shoe", "Decks"):
            assert absent not in board, absent
        assert not law_words_in(board, ND_WORDS)


def test_the_checks_ask_no_query_more_for_more_tables(client, site, chips, cast, shift_manager, gaming_day, open_table):
    client.force_login(shift_manager.user)
    services.record_card_check(acting_user=shift_manager.user, table=open_table, kind="shoe_inspected")
    live(client, site)  # the session and the access cache warm up alike for both

    def queries():
        with CaptureQueriesContext(connection) as captured:
            board = live(client, site)
        return len(captured), board

    few, board = queries()
    assert len(warnings(board)) == 1 and warnings(board)[0].startswith(f"{DECKS}Table 1 is")
    for number in (2, 3):
        table = opened(site, shift_manager, number)
        services.record_card_check(acting_user=shift_manager.user, table=table, kind="shoe_inspected")
        services.record_card_check(
            acting_user=shift_manager.user, table=table, kind="decks_approved", checked_by=cast[Role.DEALER]
        )
    more, board = queries()
    assert board.count("Shoe inspected by") == 3 and board.count("approved by") == 2
    assert more == few
