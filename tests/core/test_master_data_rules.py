"""Bad master data gets a 400 naming the field and the rule, the same message in the browser
form, and changes nothing."""

import pytest
from django.utils.html import escape

from cardroom.models import ChipDenomination, Table
from core.models import AuditEvent
from tests.factories import TableFactory
from tests.pack_setup import record_controls

pytestmark = pytest.mark.unshared  # a test creates the chips another asks the fixture for


def table_payload(site, **overrides):
    return {"site": site.pk, "number": 5, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500, **overrides}


def form_data(site, **overrides):
    """The browser form takes dollars."""
    data = table_payload(site, **overrides)
    data["min_wager_cents"] = f"{data['min_wager_cents'] / 100:.2f}"
    data["max_wager_cents"] = f"{data['max_wager_cents'] / 100:.2f}"
    return {
        **data,
        "location": "regular",
        "active": "on",
        "decks": 6,
        "double_down": "equal",
        "tip_double_down": "not_permitted",
        "dealing_method": "no_peek",
        # ND 99-01.3-08-09(2)(c),(d): split again, split aces one card, double after a split
        "resplit_allowed": "on",
        "split_aces_one_card": "on",
        "double_after_split": "on",
        "jumbo_faced_cards": "on",  # ND 99-01.3-08-02(3)
    }


BAD_TABLES = [
    # (overrides, field, text the message must contain)
    ({"number": 1}, "number", "ND 99-01.3-08-02(1)"),
    ({"min_wager_cents": 2000, "max_wager_cents": 1000}, "min_wager_cents", "cannot be above the maximum"),
    ({"max_wager_cents": 3000}, "max_wager_cents", "ND 99-01.3-08-09(1)"),
    ({"min_wager_cents": 150}, "min_wager_cents", "ND 99-01.3-08-09(1)"),
    ({"min_wager_cents": 0}, "min_wager_cents", "ND 99-01.3-08-09(1)"),
]


@pytest.fixture
def existing(site):
    return TableFactory(site=site, number=1, min_wager_cents=300, max_wager_cents=2500)


@pytest.mark.parametrize("overrides,field,text", BAD_TABLES)
def test_bad_table_is_refused_by_the_api_naming_field_and_rule(
    client_for, manager, site, existing, overrides, field, text
):
    before = (Table.objects.count(), AuditEvent.objects.count())
    response = client_for(manager).post("/api/v1/tables/", table_payload(site, **overrides), format="json")
    assert response.status_code == 400
    assert text in " ".join(response.json()[field])
    assert (Table.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize("overrides,field,text", BAD_TABLES)
def test_bad_table_shows_the_same_message_inline_in_the_browser(
    client, manager, site, existing, overrides, field, text
):
    client.force_login(manager.user)
    before = (Table.objects.count(), AuditEvent.objects.count())
    response = client.post("/setup/tables/new/", form_data(site, **overrides))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert text in " ".join(errors[field])
    assert f'id="error-{field}"' in response.content.decode() and escape(text) in response.content.decode()
    assert (Table.objects.count(), AuditEvent.objects.count()) == before and before[0] == 1


def test_nd_minimum_above_three_dollars_is_judged_at_play_not_at_configuration(client_for, manager, site):
    """ND 99-01.3-08-09(1) concerns *active* tables (a dealer and chips present): a table in service
    above $3 is configured without a low table (tests/floor/test_active_table.py plays it)."""
    response = client_for(manager).post("/api/v1/tables/", table_payload(site, min_wager_cents=500), format="json")
    assert response.status_code == 201, response.json()


def test_new_york_limits_the_maximum_bet_to_five_dollars(client_for, manager, site):
    site.jurisdiction = "NY"
    site.save()
    response = client_for(manager).post("/api/v1/tables/", table_payload(site, max_wager_cents=1000), format="json")
    assert response.status_code == 400
    assert "9 NYCRR 4620.5(f)(2)" in response.json()["max_wager_cents"][0]


def test_a_paddlewheel_table_is_not_held_to_the_twenty_one_wager_rule(client_for, manager, site):
    response = client_for(manager).post(
        "/api/v1/tables/", table_payload(site, game="PW", min_wager_cents=50, max_wager_cents=50), format="json"
    )
    assert response.status_code == 201


@pytest.mark.parametrize("value", [1000, 0, 25, 20000])
def test_a_chip_value_the_rule_does_not_allow_is_refused(client_for, manager, value):
    response = client_for(manager).post("/api/v1/chip-denominations/", {"value_cents": value}, format="json")
    assert response.status_code == 400
    assert "ND 99-01.3-08-03(1)" in " ".join(response.json()["value_cents"])
    assert not ChipDenomination.objects.exists()


def test_a_north_dakota_site_is_refused_while_the_organization_issues_a_chip_value_it_does_not_allow(
    client_for, manager, org, site
):
    """ND 99-01.3-08-03(1): "Chips may be issued in values of fifty cents, one dollar, two dollars,
    five dollars, twenty-five dollars, and one hundred dollars." A chip's value is checked when the
    chip is saved, against the packs of the organization's sites then; an organization whose only
    site is elsewhere may hold a $10 chip, and a North Dakota site added (or a site moved to North
    Dakota's rules) afterwards would issue it there. The site is refused, naming the chip, until the
    chip is retired."""
    from cardroom import services
    from cardroom.models import Site

    Site.objects.filter(pk=site.pk).update(jurisdiction="WA-HB")
    ten = services.create_chip_denomination(
        acting_user=manager.user, organization=org, value_cents=1000, primary_colour="blue", edge_spots="six"
    )
    api = client_for(manager)
    body = {"name": "Fargo Eagles", "jurisdiction": "ND", "time_zone": "America/Chicago"}
    refused = api.post("/api/v1/sites/", body, format="json")
    assert refused.status_code == 400, refused.content
    message = " ".join(refused.json()["jurisdiction"])
    assert message.startswith("ND 99-01.3-08-03(1): ") and "$10.00" in message, message
    assert not Site.objects.filter(name="Fargo Eagles").exists()
    moved = api.patch(f"/api/v1/sites/{site.pk}/", {"jurisdiction": "ND"}, format="json")
    assert moved.status_code == 400 and "ND 99-01.3-08-03(1)" in " ".join(moved.json()["jurisdiction"])
    services.update_chip_denomination(acting_user=manager.user, chip=ten, active=False)
    assert api.post("/api/v1/sites/", body, format="json").status_code == 201


def test_a_new_chip_takes_the_nd_colour_and_edge_spots(client_for, manager):
    response = client_for(manager).post(
        "/api/v1/chip-denominations/", {"value_cents": 2500, "marking": "Elks Charity"}, format="json"
    )
    assert response.status_code == 201
    assert (response.json()["primary_colour"], response.json()["edge_spots"]) == (
        "green",
        "eight or three white solid edge spots",
    )


def test_a_chip_value_cannot_be_defined_twice(client_for, manager, chips):
    response = client_for(manager).post("/api/v1/chip-denominations/", {"value_cents": 500}, format="json")
    assert response.status_code == 400
    assert "already defined" in response.json()["value_cents"][0]


def test_an_unknown_site_is_a_400_naming_the_site(client_for, manager):
    payload = {"site": 999999, "number": 5, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500}
    response = client_for(manager).post("/api/v1/tables/", payload, format="json")
    assert response.status_code == 400
    assert "site" in response.json()


@pytest.mark.parametrize(
    "payload,field",
    [
        ({"name": "X", "time_zone": "Mars/Olympus"}, "time_zone"),
        ({"name": "X", "business_day_start_hour": 24}, "business_day_start_hour"),
        ({"name": "X", "jurisdiction": "TX"}, "jurisdiction"),
        ({"name": "Elks Lodge"}, "name"),
    ],
)
def test_bad_site_values_are_refused_naming_the_field(client_for, manager, site, payload, field):
    response = client_for(manager).post("/api/v1/sites/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_a_table_cannot_move_to_another_site(client_for, manager, existing, other_site):
    response = client_for(manager).patch(f"/api/v1/tables/{existing.pk}/", {"site": other_site.pk}, format="json")
    assert response.status_code == 400
    assert "another site" in response.json()["site"][0]


@pytest.mark.parametrize(
    "body", ["not json", '{"number": "seven"}', '{"site": [1]}', "[]", '{"min_wager_cents": 1e400}']
)
def test_malformed_input_is_a_400_not_a_500(client_for, manager, site, body):
    response = client_for(manager).post("/api/v1/tables/", body, content_type="application/json")
    assert response.status_code == 400


def test_raising_the_limit_of_a_table_past_its_outage_deadline_is_refused(client_for, manager, site, time_machine):
    from datetime import UTC, datetime

    from surveillance.models import Outage

    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=200)
    Outage.objects.create(
        table=table,
        kind="camera",
        began_at=datetime(2026, 11, 10, tzinfo=UTC),
        description="dark",
        reported_by=manager.user,
        reported_at=datetime(2026, 11, 10, tzinfo=UTC),
    )
    response = client_for(manager).patch(f"/api/v1/tables/{table.pk}/", {"max_wager_cents": 500}, format="json")
    assert response.status_code == 400
    assert "ND 99-01.3-08-04(7)" in response.json()["max_wager_cents"][0]
    table.refresh_from_db()
    assert table.max_wager_cents == 200


def test_the_admin_cannot_raise_a_table_limit_past_its_outage_deadline_either(client, manager, site, time_machine):
    from datetime import UTC, datetime

    from surveillance.models import Outage

    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=200)
    Outage.objects.create(
        table=table,
        kind="camera",
        began_at=datetime(2026, 11, 10, tzinfo=UTC),
        description="dark",
        reported_by=manager.user,
        reported_at=datetime(2026, 11, 10, tzinfo=UTC),
    )
    client.force_login(manager.user)
    data = {
        "site": site.pk,
        "number": 1,
        "game": "21",
        "min_wager_cents": 100,
        "max_wager_cents": 500,
        "location": "regular",
        "active": "on",
        "decks": 6,
        "double_down": "equal",
        "tip_double_down": "not_permitted",
        "dealing_method": "no_peek",
        # ND 99-01.3-08-09(2)(c),(d): split again, split aces one card, double after a split
        "resplit_allowed": "on",
        "split_aces_one_card": "on",
        "double_after_split": "on",
        "jumbo_faced_cards": "on",  # ND 99-01.3-08-02(3)
    }
    response = client.post(f"/admin/cardroom/table/{table.pk}/change/", data)
    assert response.status_code == 400 and "ND 99-01.3-08-04(7)" in response.content.decode()
    table.refresh_from_db()
    assert table.max_wager_cents == 200


def test_washington_house_banked_limits_are_wac_230_15_140s_single_wager_limit(client_for, manager, site):
    """WAC 230-40-125(4)'s $25 maximum is the player-banked "Washington blackjack" game's; a
    house-banked table is held to WAC 230-15-140's single-wager limit ($300 as WSR 16-20-098
    records it): $300 is accepted, $10,000 refused naming WAC 230-15-140, and a part-dollar
    limit is refused as a house control."""
    site.jurisdiction = "WA-HB"
    site.save()
    record_controls(manager, site)  # the WSGC rules: the internal controls come first
    # WSGC rule 7: a 3 to 2 payout is posted with its rounding (packs/wa_hb/tables.py)
    ok = client_for(manager).post(
        "/api/v1/tables/", table_payload(site, max_wager_cents=30000, payout_rounding="down"), format="json"
    )
    assert ok.status_code == 201, ok.json()
    high = client_for(manager).post(
        "/api/v1/tables/",
        table_payload(site, number=6, max_wager_cents=1_000_000, payout_rounding="down"),
        format="json",
    )
    assert high.status_code == 400
    message = high.json()["max_wager_cents"][0]
    assert message.startswith("WAC 230-15-140") and "$300" in message
    assert "230-40-125" not in message and "99-01.3" not in message and "NYCRR" not in message
    bad = client_for(manager).post(
        "/api/v1/tables/", table_payload(site, number=7, max_wager_cents=5050, payout_rounding="down"), format="json"
    )
    assert bad.status_code == 400
    assert "whole dollars from $1: House control" in bad.json()["max_wager_cents"][0]


def test_a_chips_value_never_changes_through_the_api_the_setup_page_or_the_admin(client, client_for, manager, chips):
    """Its past tray counts, slips and inventories are counted at it: a new value is a new chip. The
    admin's form changed it (the service's check was the API's alone)."""
    chip = ChipDenomination.objects.get(organization=manager.organization, value_cents=500)
    events = AuditEvent.objects.count()
    response = client_for(manager).patch(f"/api/v1/chip-denominations/{chip.pk}/", {"value_cents": 600}, format="json")
    assert response.status_code == 400 and "cannot change" in response.json()["value_cents"][0]
    client.force_login(manager.user)
    url = f"/admin/cardroom/chipdenomination/{chip.pk}/change/"
    shown = client.get(url).context["adminform"].form
    data = {n: ("" if b.value() is None else b.value()) for n, b in shown._bound_items() if b.value() is not False}
    refused = client.post(url, {**data, "value_cents": "600", "active": "on"})
    assert refused.status_code == 400
    assert "House control: a chip&#x27;s value cannot change" in refused.content.decode()
    assert ChipDenomination.objects.get(pk=chip.pk).value_cents == 500 and AuditEvent.objects.count() == events
    assert client.post(url, {**data, "marking": "Elks", "active": "on"}).status_code == 302  # the rest still changes
    assert ChipDenomination.objects.get(pk=chip.pk).marking == "Elks"
