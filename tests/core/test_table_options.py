"""A table has only its site's pack's settings (packs/<pack>/tables.py, `TABLE_OPTIONS`): the
setup form, the admin and the API show those alone, and a value for another pack's option is
refused naming the field (a 400 in the API, inline in the browser), nothing written."""

import pytest
from django.utils.html import escape

from cardroom.models import Table
from core.models import AuditEvent
from packs import pack_for
from tests.pack_setup import record_licence

# Each site's happy table (through the API) and another pack's option posted anyway:
# Washington house-banked's payout rounding at North Dakota, North Dakota's dealing method in
# Washington, New York's tie option at Washington blackjack, North Dakota's tip bets in New York.
PACKS = {
    "ND": ({"decks": 6, "max_wager_cents": 2500}, "payout_rounding", "down", "House control"),
    "WA-HB": ({"decks": 6, "payout_rounding": "down", "max_wager_cents": 30000}, "dealing_method", "card_reader",
              "House control"),
    "WA-BJ": ({"decks": 6, "banker": "player", "min_bank_cents": 30000, "max_wager_cents": 2500}, "tie_option", 1,
              "WAC 230-40-125(5) (1999 proposed amendment)"),
    "NY": ({"decks": 4, "double_on": "ten_eleven", "double_after_split": False, "tie_option": 1,
            "max_wager_cents": 500}, "tip_betting_allowed", False, "House control"),
}  # fmt: skip
# What each pack's form shows, and another pack's option it never shows.
SHOWN = {
    "ND": ("dealing_method", "tip_double_down", "tie_option"),
    "WA-HB": ("payout_rounding", "surrender", "banker"),
    "WA-BJ": ("min_bank_cents", "banker", "payout_rounding"),
    "NY": ("tie_option", "insurance_allowed", "dealt_from"),
}
CODES = list(PACKS)


def body(site, code, **more):
    return {"site": site.pk, "number": 1, "game": "21", "min_wager_cents": 100, **PACKS[code][0], **more}


@pytest.mark.parametrize("code", CODES)
def test_the_api_refuses_another_packs_option_naming_the_field_and_writes_nothing(client_for, manager, pack_site, code):
    site = pack_site(code)
    _, field, value, citation = PACKS[code]
    api = client_for(manager)
    refused = api.post("/api/v1/tables/", body(site, code, **{field: value}), format="json")
    assert refused.status_code == 400
    message = refused.json()[field][0]
    assert message.startswith(citation) and f'"{field}" is not a table option at {site}' in message
    assert not Table.objects.filter(site=site).exists()
    created = api.post("/api/v1/tables/", body(site, code), format="json")
    assert created.status_code == 201, created.json()
    shown, (mine, _, other) = created.json(), SHOWN[code]
    assert set(shown) == {"id", "warnings", *pack_for(site).table_fields()} and mine in shown
    assert field not in shown and other not in shown
    events = AuditEvent.objects.count()
    patched = api.patch(f"/api/v1/tables/{shown['id']}/", {field: value, "max_wager_cents": 300}, format="json")
    assert patched.status_code == 400 and field in patched.json()
    assert Table.objects.get(pk=shown["id"]).max_wager_cents != 300 and AuditEvent.objects.count() == events


def as_posted(values: dict) -> dict:
    """A form's values as a browser posts them: a ticked box "on", an unticked one absent."""
    return {k: "on" if v is True else ("" if v is None else v) for k, v in values.items() if v is not False}


@pytest.mark.parametrize("code", CODES)
def test_the_setup_form_shows_the_sites_pack_fields_and_refuses_another_inline(client, manager, pack_site, code):
    site = pack_site(code)
    _, field, value, citation = PACKS[code]
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    page = answer.content.decode()
    mine, also, other = SHOWN[code]
    assert f'name="{mine}"' in page and f'name="{also}"' in page
    assert f'name="{other}"' not in page and f'name="{field}"' not in page
    form = as_posted(
        {**{name: bound.value() for name, bound in answer.context["form"]._bound_items()}, **body(site, code)}
    )
    form["min_wager_cents"], form["max_wager_cents"] = "1", str(PACKS[code][0]["max_wager_cents"] // 100)
    if "min_bank_cents" in PACKS[code][0]:
        form["min_bank_cents"] = str(PACKS[code][0]["min_bank_cents"] // 100)  # the form takes dollars
    refused = client.post("/setup/tables/new/", {**form, field: "on" if value is False else value})
    assert refused.status_code == 400
    assert f"{citation}: &quot;{field}&quot; is not a table option" in refused.content.decode()
    assert not Table.objects.filter(site=site).exists()
    assert client.post("/setup/tables/new/", form).status_code == 302
    assert Table.objects.filter(site=site, number=1).exists()


@pytest.mark.parametrize("code", ["WA-BJ", "ND"])
def test_the_setup_form_offers_no_choice_its_pack_always_refuses(client, manager, pack_site, code):
    """WAC 230-40-125(2): a Washington blackjack table is banked by a player dealer/banker and dealt
    from a shoe, so its form offers neither "The house banks" nor another deal; posted anyway, the
    house is refused as before, citing (2). A North Dakota form (no banker: the house banks,
    08-11(10)(d)) offers every deal as before."""
    site = pack_site(code)
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    page = answer.content.decode()
    # The natural's payout is the text's alone at both: 08-02(1)'s "BLACKJACK PAYS 3 TO 2" and
    # WAC 230-40-125(5)'s 1.5 times the bet (the form offered 6 to 5, 2 to 1 and even money, refused).
    payout = page[page.index('name="blackjack_payout"') :].split("</select>")[0]
    assert '<option value="3:2" selected>' in payout and payout.count("<option") == 1
    rule = "ND 99-01.3-08-02(1)" if code == "ND" else "WAC 230-40-125(5) (1999 proposed amendment)"
    assert f"{rule}: the only setting the rule allows." in page
    if code == "ND":
        assert 'name="banker"' not in page and all(f'<option value="{deal}"' in page for deal in ("shuffler", "hand"))
        for name, value in (("split_pairs", "any_pair"), ("double_on", "any_two")):
            select = page[page.index(f'name="{name}"') :].split("</select>")[0]
            assert f'<option value="{value}" selected>' in select and select.count("<option") == 1, name
        return
    assert ">The house banks</option>" not in page and '<option value="player" selected>' in page
    assert '<option value="shuffler"' not in page
    assert '<option value="shoe" selected>' in page and '<option value="hand"' not in page
    assert page.count("WAC 230-40-125(2) (1999 proposed amendment): the only setting the rule allows.") == 2
    form = as_posted(
        {**{name: bound.value() for name, bound in answer.context["form"]._bound_items()}, **body(site, code)}
    )
    form["min_wager_cents"], form["max_wager_cents"], form["min_bank_cents"] = "1", "25", "300"
    refused = client.post("/setup/tables/new/", {**form, "banker": "house"})
    assert refused.status_code == 400 and not Table.objects.filter(site=site).exists()
    assert refused.context["form"].errors["banker"][0].startswith("WAC 230-40-125(2) (1999 proposed amendment): ")
    assert client.post("/setup/tables/new/", form).status_code == 302


@pytest.mark.parametrize("code", CODES)
def test_the_admin_shows_a_table_with_its_sites_pack_fields_only(client, client_for, manager, pack_site, code):
    site = pack_site(code)
    table_id = client_for(manager).post("/api/v1/tables/", body(site, code), format="json").json()["id"]
    client.force_login(manager.user)
    page = client.get(f"/admin/cardroom/table/{table_id}/change/").content.decode()
    mine, also, other = SHOWN[code]
    assert f'name="{mine}"' in page and f'name="{also}"' in page and f'name="{other}"' not in page
    added = client.get(f"/admin/cardroom/table/add/?site={site.pk}").content.decode()
    assert f'name="{mine}"' in added and f'name="{other}"' not in added
    # The admin offers no choice the pack's text always refuses, as the setup page (it offered
    # them all, refused on save): the natural's payout where the text fixes it.
    for shown in (page, added):
        payout = shown[shown.index('name="blackjack_payout"') :].split("</select>")[0]
        assert (payout.count("<option") == 1) == (code in ("ND", "WA-BJ")), code


def test_a_value_past_the_packs_limit_is_refused_once_citing_its_rule_not_twice(client, manager, pack_site):
    """Nine decks at a Washington house-banked table: the form field's own bound ("Ensure this value
    is less than or equal to 8.") and the WSGC rule 1 both refuse it; the page shows the rule's
    words alone, once."""
    site = pack_site("WA-HB")
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    form = as_posted(
        {**{name: bound.value() for name, bound in answer.context["form"]._bound_items()}, **body(site, "WA-HB")}
    )
    form["min_wager_cents"], form["max_wager_cents"] = "1", "300"
    refused = client.post("/setup/tables/new/", {**form, "decks": "9"})
    assert refused.status_code == 400 and not Table.objects.filter(site=site).exists()
    errors = refused.context["form"].errors["decks"]
    assert len(errors) == 1 and "WSGC Blackjack Game Rules (rev. April 2018), rule 1" in errors[0], errors
    assert escape(errors[0]) in refused.content.decode() and "Ensure this value" not in refused.content.decode()
    zero = client.post("/setup/tables/new/", {**form, "decks": "0"})  # under every pack's floor: the bound alone
    assert zero.status_code == 400 and zero.context["form"].errors["decks"]
    assert not Table.objects.filter(site=site).exists()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("decks", 9, "blackjack is played using up to eight decks (got 9)."),
        ("max_players", 10, "up to nine players can play on one blackjack table (got 10)."),
    ],
)
def test_the_api_refuses_past_the_wsgc_limit_citing_rule_1_not_a_bare_bound(
    client_for, manager, pack_site, field, value, words
):
    """Nine decks or ten players at a Washington house-banked table: the WSGC Blackjack Game
    Rules, rule 1 ("up to eight decks ... up to nine players"), once, not "Ensure this value is
    less than or equal to 8."; nothing written."""
    site = pack_site("WA-HB")
    refused = client_for(manager).post("/api/v1/tables/", body(site, "WA-HB", **{field: value}), format="json")
    assert refused.status_code == 400
    assert refused.json()[field] == [f"WSGC Blackjack Game Rules (rev. April 2018), rule 1: {words}"]
    assert not Table.objects.filter(site=site).exists()


def test_a_minimal_new_york_table_takes_the_packs_values_and_is_asked_only_for_what_4620_5_leaves_open(
    client_for, manager, site
):
    """Sent only the table's site, number, game and wagers, a New York table is not judged by the
    model's North Dakota-shaped defaults ("one to four decks ... (got 6)", doubling on any two,
    doubling after a split): 4620.5 fixes doubling on 10 or 11 ((l)(1)), none on split pairs
    ((k)(6)) and the natural's payout under the tie option ((h)(2)); the tie option is the licence's
    in force ((h): "The license shall reflect one of the following options"); its decks ((a)(2),
    one to four) have no single value, so they are asked for, cited. With no licence in force, the
    tie option is asked for too."""
    site.jurisdiction = "NY"
    site.save()
    api = client_for(manager)
    minimal = {"site": site.pk, "number": 1, "game": "21", "min_wager_cents": 100, "max_wager_cents": 500}
    unlicensed = api.post("/api/v1/tables/", minimal, format="json")
    assert unlicensed.status_code == 400 and set(unlicensed.json()) == {"decks", "tie_option"}
    assert unlicensed.json()["tie_option"] == [
        "9 NYCRR 4620.5(h): the organization's tie option (1, 2 or 3, as its licence reflects) is required."
    ]
    record_licence(manager, site, tie_option=2)
    refused = api.post("/api/v1/tables/", minimal, format="json")
    assert refused.status_code == 400
    assert refused.json() == {
        "decks": ["9 NYCRR 4620.5(a)(2): give the table's decks, one to four decks of 52 cards each."]
    }
    assert not Table.objects.filter(site=site).exists()
    created = api.post("/api/v1/tables/", {**minimal, "decks": 2}, format="json")
    assert created.status_code == 201, created.content
    table = Table.objects.get(site=site)
    assert (table.tie_option, table.double_on, table.double_after_split, table.blackjack_payout) == (
        2,
        "ten_eleven",
        False,
        "2:1",
    )


def test_a_new_york_table_sent_without_its_game_takes_the_packs_values_as_a_blackjack_table(client_for, manager, site):
    """The API's `game` is optional (the model's game 21, Black Jack, the only game New York's pack
    deals): a table sent without it is the same Black Jack table, so it takes 4620.5's doubling on
    10 or 11 ((l)(1)), none on split pairs ((k)(6)) and the natural's payout under the licence's tie
    option ((h)(2)), and is asked for its decks ((a)(2)), as with `"game": "21"`. Before, the pack's
    values were left out and the model's refused instead (doubling on any two, 3 to 2 under tie
    option 2, "(got 6)" decks), asking the user to choose what the rule fixes."""
    site.jurisdiction = "NY"
    site.save()
    record_licence(manager, site, tie_option=2)
    api = client_for(manager)
    minimal = {"site": site.pk, "number": 1, "min_wager_cents": 100, "max_wager_cents": 500}
    refused = api.post("/api/v1/tables/", minimal, format="json")
    assert refused.status_code == 400
    assert refused.json() == {
        "decks": ["9 NYCRR 4620.5(a)(2): give the table's decks, one to four decks of 52 cards each."]
    }
    created = api.post("/api/v1/tables/", {**minimal, "decks": 2}, format="json")
    assert created.status_code == 201, created.content
    table = Table.objects.get(site=site)
    assert (table.game, table.tie_option, table.double_on, table.double_after_split, table.blackjack_payout) == (
        "21",
        2,
        "ten_eleven",
        False,
        "2:1",
    )


def test_a_new_york_table_not_given_its_decks_is_told_its_other_refusals_at_once(client_for, manager, site):
    """The decks asked for do not hide what else is wrong: a $10 maximum is refused with them,
    citing 4620.5(f)(2); nothing is written."""
    site.jurisdiction = "NY"
    site.save()
    record_licence(manager, site, tie_option=1)
    minimal = {"site": site.pk, "number": 1, "game": "21", "min_wager_cents": 100, "max_wager_cents": 1000}
    refused = client_for(manager).post("/api/v1/tables/", {**minimal, "tie_option": 1}, format="json")
    assert refused.status_code == 400
    answer = refused.json()
    assert set(answer) == {"decks", "max_wager_cents"}, answer
    assert answer["decks"] == ["9 NYCRR 4620.5(a)(2): give the table's decks, one to four decks of 52 cards each."]
    assert answer["max_wager_cents"][0].startswith("9 NYCRR 4620.5(f)(2)")
    assert not Table.objects.filter(site=site).exists()


@pytest.mark.parametrize("code", CODES)
def test_a_new_tables_form_starts_from_the_values_its_pack_fixes(client, manager, pack_site, code):
    """New York's form starts doubling on 10 or 11 only and not after a split (9 NYCRR 4620.5(l)(1),
    (k)(6)) with its decks blank (one to four: no single value); the model's six decks and doubling
    on any two cards are no pack's law. The other packs' forms keep the model's values."""
    pack_site(code)
    client.force_login(manager.user)
    form = client.get("/setup/tables/new/").context["form"]
    values = {name: bound.value() for name, bound in form._bound_items()}
    if code == "NY":  # the licence's tie option (1, pack_site's), and the natural's payout it implies
        assert (values["decks"], values["double_on"], values["double_after_split"]) == (None, "ten_eleven", False)
        assert (values["tie_option"], values["blackjack_payout"]) == (1, "3:2")
    else:
        assert values["decks"] == 6


def test_a_minimum_above_the_maximum_is_refused_naming_the_house_control(client_for, manager, site):
    answer = client_for(manager).post(
        "/api/v1/tables/",
        {"site": site.pk, "number": 7, "game": "21", "min_wager_cents": 500, "max_wager_cents": 300},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["min_wager_cents"] == ["House control: the minimum wager cannot be above the maximum wager."]
    assert not Table.objects.filter(site=site, number=7).exists()


# A setting the pack's law fixes, posted otherwise: the refusal names the option to choose as the
# form lists it (its label), with the value the API takes, not the value alone.
FIXED = [
    ("NY", "double_on", "any_two", 'choose "First two cards totalling 10 or 11" (ten_eleven)'),
    ("NY", "split_pairs", "identical", 'choose "Identical cards and any two ten-valued cards" (any_pair)'),
    ("ND", "double_on", "ten_eleven", 'choose "Any first two cards" (any_two)'),
    ("WA-BJ", "banker", "house", 'choose "A player-dealer banks" (player)'),
]


@pytest.mark.parametrize(("code", "field", "value", "named"), FIXED)
def test_a_refused_setting_names_the_option_as_the_form_lists_it(
    client_for, manager, pack_site, code, field, value, named
):
    site = pack_site(code)
    refused = client_for(manager).post("/api/v1/tables/", body(site, code, **{field: value}), format="json")
    assert refused.status_code == 400
    assert named in refused.json()[field][0]
    assert not Table.objects.filter(site=site).exists()


def test_a_new_york_form_offers_the_doubling_and_the_pairs_its_text_allows_and_no_other(client, manager, pack_site):
    """9 NYCRR 4620.5(l)(1): doubling on a first two cards totalling 10 or 11 only; (k)(1): any two
    identical cards and any two ten-valued cards split. The form offered every house's doubling and
    splitting rule, each refused on submit; it offers the text's, citing it."""
    pack_site("NY")
    client.force_login(manager.user)
    page = client.get("/setup/tables/new/").content.decode()
    for name, value, rule in (("double_on", "ten_eleven", "(l)(1)"), ("split_pairs", "any_pair", "(k)(1)")):
        select = page[page.index(f'name="{name}"') :].split("</select>")[0]
        assert f'<option value="{value}" selected>' in select and select.count("<option") == 1, name
        assert f"9 NYCRR 4620.5{rule}: the only setting the rule allows." in page


def test_a_washington_blackjack_form_offers_the_doubling_and_the_pairs_the_rule_allows_and_no_other(
    client, manager, pack_site
):
    """WAC 230-40-125(14) (1999 proposed amendment): the conditions of doubling are the house's, but a
    wager may be doubled and takes one more card only; (17): a pair may be split. The form offered
    "No doubling down", doubling "again after each card", "Aces and eights only" and "No splitting",
    each refused on submit; it offers the others, citing the subsection, and one posted anyway is
    still refused naming it."""
    site = pack_site("WA-BJ")
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    page = answer.content.decode()
    offered = {
        ("double_on", "(14)"): ["any_two", "ten_eleven", "nine_to_eleven"],
        ("split_pairs", "(17)"): ["any_pair", "identical"],
    }
    for (name, rule), values in offered.items():
        select = page[page.index(f'name="{name}"') :].split("</select>")[0]
        assert [v.split('"')[0] for v in select.split('<option value="')[1:]] == values, name
        assert f"WAC 230-40-125{rule} (1999 proposed amendment): the settings the rule allows." in page
    form = as_posted(
        {**{name: bound.value() for name, bound in answer.context["form"]._bound_items()}, **body(site, "WA-BJ")}
    )
    form["min_wager_cents"], form["max_wager_cents"], form["min_bank_cents"] = "1", "25", "300"
    for name, refused_value, rule in (("double_on", "any_card", "(14)"), ("split_pairs", "none", "(17)")):
        refused = client.post("/setup/tables/new/", {**form, name: refused_value})
        assert refused.status_code == 400 and not Table.objects.filter(site=site).exists()
        assert refused.context["form"].errors[name][0].startswith(f"WAC 230-40-125{rule} (1999 proposed amendment): ")
    assert (
        client.post(
            "/setup/tables/new/", {**form, "double_on": "nine_to_eleven", "split_pairs": "identical"}
        ).status_code
        == 302
    )
    assert Table.objects.get(site=site).double_on == "nine_to_eleven"
