"""Table rules per jurisdiction pack, through the API: each pack's happy path and each refusal a
400 naming the field and the rule with its citation (packs/<pack>/tables.py)."""

import pytest

from cardroom.models import Table
from core.models import AuditEvent
from packs import pack_for
from tests.pack_setup import record_controls, record_licence

NY_OK = {
    "decks": 4,
    "betting_spaces": 7,
    "max_players": 7,
    "dealer_hits_soft_17": False,
    "double_on": "ten_eleven",
    "double_after_split": False,
    "split_pairs": "any_pair",
    "resplit_allowed": True,
    "split_aces_one_card": True,
    "insurance_allowed": True,
    "tie_option": 1,
    "blackjack_payout": "3:2",
    "min_wager_cents": 100,
    "max_wager_cents": 500,
}
WA_HB_OK = {
    "decks": 8,
    "max_players": 9,
    "betting_spaces": 9,
    "dealt_from": "shoe",  # a shuffler table names its approved model on its game page (rule 3)
    "blackjack_payout": "6:5",
    "payout_rounding": "down",
    "dealer_hits_soft_17": True,
    "surrender": "late",
    "min_wager_cents": 500,
    "max_wager_cents": 30000,
}
WA_BJ_OK = {
    "decks": 6,
    "dealt_from": "shoe",
    "banker": "player",
    "min_bank_cents": 30000,
    "blackjack_payout": "3:2",
    "min_wager_cents": 100,
    "max_wager_cents": 2500,
}
ND_OK = {"decks": 8, "min_wager_cents": 100, "max_wager_cents": 2500}
HAPPY = {"ND": ND_OK, "NY": NY_OK, "WA-HB": WA_HB_OK, "WA-BJ": WA_BJ_OK}


def post(client, site, options, number=1):
    return client.post("/api/v1/tables/", {"site": site.pk, "number": number, "game": "21", **options}, format="json")


@pytest.fixture
def as_pack(site, manager):
    def set_pack(code, controls=True):
        site.jurisdiction = code
        site.save()
        if code == "WA-HB" and controls:
            record_controls(manager, site)  # the WSGC rules: the internal controls come first
        if code == "NY":
            record_licence(manager, site, tie_option=1)  # 9 NYCRR 4620.5(h): the licence's tie option
        return site

    return set_pack


@pytest.mark.parametrize("code", ["ND", "NY", "WA-HB", "WA-BJ"])
def test_each_packs_happy_path_is_accepted_and_reads_back(client_for, manager, as_pack, code):
    site = as_pack(code)
    response = post(client_for(manager), site, HAPPY[code])
    assert response.status_code == 201, response.json()
    body = response.json()
    for name, value in HAPPY[code].items():
        assert body[name] == value, name
    table = Table.objects.get(pk=body["id"])
    assert AuditEvent.objects.filter(action="table.created").exists()
    listed = client_for(manager).get(f"/api/v1/tables/{table.pk}/").json()
    assert set(listed) == {"id", *pack_for(site).table_fields()}  # the site's pack's fields only


def test_a_wa_bj_table_given_no_banker_is_player_banked_and_its_form_starts_so(client, client_for, manager, as_pack):
    """WAC 230-40-125(2): a player who is both the dealer and banker, cards dealt from a shoe. A new
    table not given its banker or dealing takes them (the model's default banker is the house),
    through the API and on the setup form."""
    site = as_pack("WA-BJ")
    given = {name: value for name, value in WA_BJ_OK.items() if name not in ("banker", "dealt_from")}
    response = post(client_for(manager), site, given)
    assert response.status_code == 201, response.json()
    assert (response.json()["banker"], response.json()["dealt_from"]) == ("player", "shoe")
    client.force_login(manager.user)
    form = client.get(f"/setup/tables/new/?site={site.pk}").content.decode()
    assert '<option value="player" selected>' in form


REFUSALS = [
    # NY: 9 NYCRR 4620.5
    ("NY", {"decks": 6}, "decks", "9 NYCRR 4620.5(a)(2)"),
    ("NY", {"betting_spaces": 8}, "betting_spaces", "9 NYCRR 4620.5(a)(1)"),
    ("NY", {"max_players": 8}, "max_players", "9 NYCRR 4620.5(c)"),
    ("NY", {"max_wager_cents": 600}, "max_wager_cents", "9 NYCRR 4620.5(f)(2)"),
    ("NY", {"dealer_hits_soft_17": True}, "dealer_hits_soft_17", "9 NYCRR 4620.5(i)(3)"),
    ("NY", {"double_on": "any_two"}, "double_on", "9 NYCRR 4620.5(l)(1)"),
    ("NY", {"double_after_split": True}, "double_after_split", "9 NYCRR 4620.5(k)(6)"),
    ("NY", {"split_pairs": "identical"}, "split_pairs", "9 NYCRR 4620.5(k)(1)"),
    ("NY", {"resplit_allowed": False}, "resplit_allowed", "9 NYCRR 4620.5(k)(3)"),
    ("NY", {"split_aces_one_card": False}, "split_aces_one_card", "9 NYCRR 4620.5(k)(4)"),
    ("NY", {"insurance_allowed": False}, "insurance_allowed", "9 NYCRR 4620.5(m)"),
    ("NY", {"surrender": "late"}, "surrender", "9 NYCRR 4620.5(h)(3)"),
    ("NY", {"banker": "player"}, "banker", "9 NYCRR 4620.5(b)(1)"),
    ("NY", {"tie_option": None}, "tie_option", "9 NYCRR 4620.5(h)"),
    ("NY", {"tie_option": 1, "blackjack_payout": "2:1"}, "blackjack_payout", "9 NYCRR 4620.5(h)(2)"),
    ("NY", {"tie_option": 2, "blackjack_payout": "3:2"}, "blackjack_payout", "9 NYCRR 4620.5(h)(2)"),
    ("NY", {"tie_option": 3, "blackjack_payout": "3:2"}, "blackjack_payout", "9 NYCRR 4620.5(h)(2)"),
    # WA-HB: WSGC Blackjack Game Rules (rev. April 2018)
    # (rule 1's eight decks and nine players are also the fields' own bounds: a 400 either way)
    ("WA-HB", {"dealt_from": "hand", "decks": 6}, "dealt_from", "rule 3"),
    ("WA-HB", {"dealt_from": "shuffler"}, "dealt_from", "rule 3"),  # no approved shuffler named yet
    ("WA-HB", {"blackjack_payout": "3:2", "payout_rounding": ""}, "payout_rounding", "rule 7"),
    ("WA-HB", {"tie_option": 1}, "tie_option", "rule 11"),
    ("WA-HB", {"banker": "player"}, "banker", "House control"),
    ("WA-HB", {"min_wager_cents": 550}, "min_wager_cents", "House control"),
    ("WA-HB", {"max_wager_cents": 1_000_000}, "max_wager_cents", "WAC 230-15-140"),
    ("WA-HB", {"max_wager_cents": 30100}, "max_wager_cents", "WAC 230-15-140"),
    # WA-BJ: WAC 230-40-125 (1999 proposed amendment)
    ("WA-BJ", {"decks": 8}, "decks", "WAC 230-40-125(2) (1999 proposed amendment)"),
    ("WA-BJ", {"dealt_from": "hand"}, "dealt_from", "WAC 230-40-125(2) (1999 proposed amendment)"),
    ("WA-BJ", {"banker": "house"}, "banker", "WAC 230-40-125(2) (1999 proposed amendment)"),
    ("WA-BJ", {"min_bank_cents": 50100}, "min_bank_cents", "WAC 230-40-125(3) (1999 proposed amendment)"),
    ("WA-BJ", {"max_wager_cents": 2600}, "max_wager_cents", "WAC 230-40-125(4) (1999 proposed amendment)"),
    ("WA-BJ", {"blackjack_payout": "6:5"}, "blackjack_payout", "WAC 230-40-125(5) (1999 proposed amendment)"),
    ("WA-BJ", {"tie_option": 3}, "tie_option", "WAC 230-40-125(5) (1999 proposed amendment)"),
    ("WA-BJ", {"surrender": "late"}, "surrender", "WAC 230-40-125(7) (1999 proposed amendment)"),
    ("WA-BJ", {"double_on": "none"}, "double_on", "WAC 230-40-125(14) (1999 proposed amendment)"),
    # (14): "the player received only one more card. The player must then stand on those three cards": no
    # doubling on any card again after each card (an approved house-banked game's play; before, refused as
    # House control asking for a game approval, which no player-banked site has).
    ("WA-BJ", {"double_on": "any_card"}, "double_on", "WAC 230-40-125(14) (1999 proposed amendment)"),
    ("WA-BJ", {"split_pairs": "none"}, "split_pairs", "WAC 230-40-125(17) (1999 proposed amendment)"),
    ("WA-BJ", {"split_pairs": "aces_eights"}, "split_pairs", "WAC 230-40-125(17) (1999 proposed amendment)"),
    # ND: chapter 99-01.3-08
    ("ND", {"decks": 2}, "decks", "ND 99-01.3-08-02(3)"),
    ("ND", {"dealt_from": "shuffler"}, "dealt_from", "ND 99-01.3-08-02(3)"),
    ("ND", {"betting_spaces": 9}, "betting_spaces", "ND 99-01.3-08-02(1)"),
    ("ND", {"blackjack_payout": "6:5"}, "blackjack_payout", "ND 99-01.3-08-02(1)"),
    ("ND", {"max_wager_cents": 3000}, "max_wager_cents", "ND 99-01.3-08-09(1)"),
    ("ND", {"max_players": 8}, "max_players", "ND 99-01.3-08-01(2)"),
    ("ND", {"max_players": 9}, "max_players", "ND 99-01.3-08-01(2)"),
    ("ND", {"split_pairs": "identical"}, "split_pairs", "ND 99-01.3-08-09(2)(c)"),
    ("ND", {"split_pairs": "aces_eights"}, "split_pairs", "ND 99-01.3-08-09(2)(c)"),
    ("ND", {"resplit_allowed": False}, "resplit_allowed", "ND 99-01.3-08-09(2)(c)"),
    ("ND", {"split_aces_one_card": False}, "split_aces_one_card", "ND 99-01.3-08-09(2)(c)"),
    ("ND", {"double_on": "ten_eleven"}, "double_on", "ND 99-01.3-08-09(2)(d)"),
    ("ND", {"double_on": "none"}, "double_on", "ND 99-01.3-08-09(2)(d)"),
    ("ND", {"double_after_split": False}, "double_after_split", "ND 99-01.3-08-09(2)(d)"),
    ("ND", {"surrender": "late"}, "surrender", "ND 99-01.3-08-11(5)"),
    ("ND", {"banker": "player"}, "banker", "ND 99-01.3-08-11(10)(d)"),
    ("ND", {"min_bank_cents": 30000}, "min_bank_cents", "ND 99-01.3-08-11(10)(d)"),
    ("ND", {"tie_option": 3}, "tie_option", "ND 99-01.3-08-11(12)"),
    ("ND", {"tie_option": 1}, "tie_option", "ND 99-01.3-08-11(12)"),
]
FOREIGN = {
    "ND": ("WAC", "WSGC", "NYCRR"),
    "NY": ("99-01.3", "SFN", "N.D.C.C.", "North Dakota", "WAC", "WSGC"),
    "WA-HB": ("99-01.3", "SFN", "N.D.C.C.", "North Dakota", "NYCRR", "New York", "230-40-125"),
    "WA-BJ": ("99-01.3", "SFN", "N.D.C.C.", "North Dakota", "NYCRR", "New York", "WSGC"),
}


@pytest.mark.parametrize(
    ("code", "change", "field", "citation"), REFUSALS, ids=[f"{c}-{f}-{i}" for i, (c, _, f, _) in enumerate(REFUSALS)]
)
def test_each_refusal_is_a_400_naming_the_field_and_the_rule(
    client_for, manager, as_pack, code, change, field, citation
):
    site = as_pack(code)
    response = post(client_for(manager), site, {**HAPPY[code], **change})
    assert response.status_code == 400
    body = response.json()
    assert field in body, body
    message = " ".join(body[field])
    assert message.startswith(citation) or citation in message, message
    everything = " ".join(" ".join(messages) for messages in body.values())
    assert not [word for word in FOREIGN[code] if word in everything], everything
    assert not Table.objects.filter(site=site).exists()


def test_a_change_to_an_existing_table_is_judged_by_the_pack(client_for, manager, as_pack):
    site = as_pack("NY")
    table_id = post(client_for(manager), site, NY_OK).json()["id"]
    response = client_for(manager).patch(f"/api/v1/tables/{table_id}/", {"max_wager_cents": 600}, format="json")
    assert response.status_code == 400 and "9 NYCRR 4620.5(f)(2)" in response.json()["max_wager_cents"][0]
    assert Table.objects.get(pk=table_id).max_wager_cents == 500


@pytest.mark.parametrize(("code", "game"), [("WA-HB", "blackjack"), ("WA-BJ", "blackjack"), ("NY", "Black Jack")])
def test_a_card_room_whose_texts_name_no_paddlewheel_deals_none_and_its_form_offers_none(
    client, client_for, manager, as_pack, code, game
):
    """Washington's texts describe blackjack tables (the WSGC game rules, WAC 230-40-125), New
    York's Black Jack (9 NYCRR 4620.5): a paddlewheel is not offered by the table form there, and
    is refused naming the game."""
    site = as_pack(code)
    body = {"site": site.pk, "number": 3, "game": "PW", "min_wager_cents": 100, "max_wager_cents": 100}
    response = client_for(manager).post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json()["game"] == [
        f"House control: paddlewheel is not a game of {site.get_jurisdiction_display()} ({site.name}); "
        f"its tables deal {game}."
    ]
    assert not Table.objects.filter(site=site, number=3).exists()
    client.force_login(manager.user)
    form = client.get("/setup/tables/new/").content.decode()
    game = form[form.index('name="game"') : form.index("</select>", form.index('name="game"'))]
    assert 'value="PW"' not in game and 'value="21"' in game


# --- WSGC Blackjack Game Rules: the options that must be documented in internal controls ------

WA_HB_DOCUMENTED = [
    ({"dealer_hits_soft_17": True}, "dealer_hits_soft_17", "rule 9.iii"),
    ({"split_pairs": "aces_eights"}, "split_pairs", "Splitting Pairs (note)"),
    ({"double_on": "ten_eleven"}, "double_on", "Doubling Down (note)"),
    ({"insurance_allowed": False}, "insurance_allowed", "Insurance (note)"),
    ({"surrender": "late"}, "surrender", "Surrender (note)"),
    ({"blackjack_payout": "6:5"}, "blackjack_payout", "rule 7"),
    ({"payout_rounding": "down"}, "payout_rounding", "rule 7"),
    # The immaterial modifications of the rules' own play (Irregularities, last paragraph).
    ({"resplit_allowed": False}, "resplit_allowed", "Irregularities (immaterial modifications)"),
    ({"split_aces_one_card": True}, "split_aces_one_card", "Irregularities (immaterial modifications)"),
    ({"double_after_split": False}, "double_after_split", "Irregularities (immaterial modifications)"),
    ({"double_down": "up_to"}, "double_down", "Irregularities (immaterial modifications)"),
    ({"even_money_offered": True}, "even_money_offered", "Insurance (note)"),
]


@pytest.mark.parametrize(("change", "field", "rule"), WA_HB_DOCUMENTED, ids=[f for _, f, _ in WA_HB_DOCUMENTED])
def test_a_wa_hb_option_is_refused_until_internal_controls_in_effect_list_it(
    client_for, manager, as_pack, change, field, rule
):
    site = as_pack("WA-HB", controls=False)
    options = {
        "decks": 6,
        "blackjack_payout": "3:2",
        "payout_rounding": "down",
        "min_wager_cents": 500,
        "max_wager_cents": 30000,
        **change,
    }
    refused = post(client_for(manager), site, options)
    assert refused.status_code == 400
    message = " ".join(refused.json()[field])
    assert f"WSGC Blackjack Game Rules (rev. April 2018), {rule}" in message and "internal controls" in message
    assert not [word for word in FOREIGN["WA-HB"] if word in message], message
    assert not Table.objects.filter(site=site).exists()
    record_controls(manager, site)  # the controls list every value: now the table is accepted
    accepted = post(client_for(manager), site, options)
    assert accepted.status_code == 201, accepted.json()


def test_wa_hb_controls_that_do_not_list_an_option_refuse_it(client_for, manager, as_pack):
    site = as_pack("WA-HB", controls=False)
    record_controls(manager, site, dealer_hits_soft_17=[False])
    refused = post(client_for(manager), site, {**WA_HB_OK})
    assert refused.status_code == 400
    assert "rule 9.iii" in refused.json()["dealer_hits_soft_17"][0]
    assert post(client_for(manager), site, {**WA_HB_OK, "dealer_hits_soft_17": False}).status_code == 201


def test_the_table_number_is_a_house_control_outside_north_dakota(client_for, manager, as_pack):
    site = as_pack("NY")
    assert post(client_for(manager), site, NY_OK).status_code == 201
    again = post(client_for(manager), site, NY_OK)
    assert again.status_code == 400
    message = again.json()["number"][0]
    assert message.startswith("House control") and "99-01.3" not in message


def test_the_state_wager_limit_in_force_is_the_one_of_the_sites_own_day(client_for, manager, as_pack):
    """The single-wager limit is effective-dated (WAC 230-15-140: the record held says $300; the
    commission's $400 proposal, WSR 23-09-065, is added as a later row when it applies,
    shared/regulations/wa-wager-limits.md). A table is judged by the row in force on the site's own
    day, as its approved game's doubles are (`approvals.checks.double_limit_cents`), not the
    server's: at 00:30 on 1 January in Chicago (settings.TIME_ZONE, an API request's zone) it is
    still 31 December in Washington, so a $400 maximum is refused there. Before, the API judged it
    by the server's date and accepted it two hours early."""
    from datetime import date, datetime
    from zoneinfo import ZoneInfo

    import time_machine

    from packs.base import WagerLimits

    site = as_pack("WA-HB")
    site.time_zone = "America/Los_Angeles"
    site.save()
    pack = pack_for(site)
    kept = pack.wager_limits
    later = WagerLimits("WAC 230-15-140 (a later limit: test)", 100, 40_000, 100, effective_from=date(2027, 1, 1))
    object.__setattr__(pack, "wager_limits", (*kept, later))
    try:
        server_new_year = datetime(2027, 1, 1, 0, 30, tzinfo=ZoneInfo("America/Chicago"))
        with time_machine.travel(server_new_year, tick=False):
            refused = post(client_for(manager), site, {**WA_HB_OK, "max_wager_cents": 40_000})
        assert refused.status_code == 400, refused.content
        assert "$300.00" in refused.json()["max_wager_cents"][0]
        with time_machine.travel(datetime(2027, 1, 1, 0, 30, tzinfo=ZoneInfo("America/Los_Angeles")), tick=False):
            created = post(client_for(manager), site, {**WA_HB_OK, "max_wager_cents": 40_000})
        assert created.status_code == 201, created.content
    finally:
        object.__setattr__(pack, "wager_limits", kept)
