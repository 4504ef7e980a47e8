"""ND 99-01.3-08-03: $25 chips wherever $25 wagers are accepted (08-03(1)); the colour
specification once a surveillance system is installed, regardless of wagers (08-03(2)-(3));
colours from a list; a reversed primary/secondary pair refused."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from cardroom import services as cardroom_services
from cardroom.chip_colours import ChipColours
from cardroom.chip_colours import colour_spec_problems as _problems
from cardroom.models import ChipDenomination, Role
from compliance.engine import run_day_checks
from floor import services
from packs.nd.chips import LAW
from surveillance.models import Equipment
from tests.factories import TableFactory, make_chips
from tests.floor.conftest import TRAY, today

pytestmark = pytest.mark.unshared  # a test creates the chips another asks the fixture for


def colour_spec_problems(chips):
    return _problems(chips, LAW)


ND_SET = [
    ChipColours(50, "mustard yellow", ()),
    ChipColours(100, "white", ("blue",)),
    ChipColours(200, "pink", ("white",)),
    ChipColours(500, "red", ("white",)),
    ChipColours(2500, "green", ("white",)),
    ChipColours(10000, "black", ("white",)),
]


def test_the_default_chip_set_meets_the_specification():
    assert colour_spec_problems(ND_SET) == []


@pytest.mark.parametrize(
    "chip, expected",
    [
        (ChipColours(500, "orange", ("white",)), "the $5.00 chip must be red (it is orange)"),
        (ChipColours(2500, "green", ("black",)), "the $25.00 chip must have eight or three white solid edge spots"),
        (ChipColours(100, "white", ()), "the $1.00 chip needs one or two contrasting edge spot colours"),
        (ChipColours(100, "white", ("white",)), "must contrast with its primary colour"),
        (ChipColours(50, "mustard yellow", ("red",)), "the $0.50 chip has no edge spots"),
    ],
)
def test_each_way_of_missing_the_specification_is_named(chip, expected):
    chips = [c for c in ND_SET if c.value_cents != chip.value_cents] + [chip]
    problems = colour_spec_problems(chips)
    assert len(problems) == 1 and expected in problems[0] and problems[0].startswith("ND 99-01.3-08-03(3)")


def test_a_reversed_pair_is_found():
    chips = [ChipColours(100, "white", ("red",)), ChipColours(500, "red", ("white",))]
    assert any("reversed combination" in p for p in colour_spec_problems(chips))
    assert not any(
        "reversed" in p
        for p in colour_spec_problems([ChipColours(100, "white", ("red",)), ChipColours(500, "red", ("black",))])
    )


# --- refusals at entry ------------------------------------------------------------------------


def test_a_reversed_pair_is_refused_naming_the_field_and_rule(client_for, manager):
    api = client_for(manager)
    red = {"value_cents": 500, "marking": "Elks Charity"}
    assert api.post("/api/v1/chip-denominations/", red, format="json").status_code == 201  # red/white
    response = api.post(
        "/api/v1/chip-denominations/",
        {"value_cents": 100, "edge_colour": "red", "marking": "Elks Charity"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["edge_colour"][0].startswith("ND 99-01.3-08-03(3):")
    assert "reversed combination" in response.json()["edge_colour"][0]
    ok = api.post(
        "/api/v1/chip-denominations/",
        {"value_cents": 100, "edge_colour": "black", "marking": "Elks Charity"},
        format="json",
    )
    assert ok.status_code == 201


def test_a_new_chip_defaults_to_the_prescribed_edge_colour(client_for, manager):
    response = client_for(manager).post(
        "/api/v1/chip-denominations/", {"value_cents": 10000, "marking": "Elks Charity"}, format="json"
    )
    assert response.json()["edge_colour"] == "white"


def test_a_colour_outside_the_list_is_refused_as_a_house_control(client_for, manager):
    response = client_for(manager).post(
        "/api/v1/chip-denominations/", {"value_cents": 500, "primary_colour": "crimson"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["primary_colour"][0].startswith("House control: a chip colour is one of")
    assert not ChipDenomination.objects.exists()


# --- $25 chips where $25 wagers are accepted ---------------------------------------------------


@pytest.fixture
def no_quarter_chips(org):
    chips = make_chips(org)
    chips[2500].delete()
    return chips


TRAY_WITHOUT_25 = [line for line in TRAY if line["denomination"] != 2500]


def test_a_table_taking_25_dollar_wagers_cannot_open_without_25_dollar_chips(site, cast, no_quarter_chips):
    table = TableFactory(site=site, number=1, max_wager_cents=2500)
    manager = cast[Role.SHIFT_MANAGER].user
    services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    with pytest.raises(ValidationError) as refused:
        services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY_WITHOUT_25)
    assert refused.value.message_dict["table"][0].startswith("ND 99-01.3-08-03(1):")
    with pytest.raises(ValidationError, match=r"ND 99-01.3-08-03\(1\)"):
        services.start_dealer_shift(acting_user=manager, table=table, dealer=cast[Role.DEALER])


def test_a_table_whose_maximum_is_below_25_dollars_opens_without_them(site, cast, no_quarter_chips):
    table = TableFactory(site=site, number=1, max_wager_cents=2400)
    manager = cast[Role.SHIFT_MANAGER].user
    services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY_WITHOUT_25)


def test_with_25_dollar_chips_the_table_opens(site, cast, chips):
    table = TableFactory(site=site, number=1, max_wager_cents=2500)
    manager = cast[Role.SHIFT_MANAGER].user
    services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY)


def test_another_states_table_is_not_held_to_it(site, cast, no_quarter_chips):
    site.jurisdiction = "WA-HB"
    site.save()
    table = TableFactory(site=site, number=1, max_wager_cents=2500)
    manager = cast[Role.SHIFT_MANAGER].user
    services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY_WITHOUT_25)


@pytest.mark.parametrize("max_wager_cents, refused", [(2500, True), (2400, False)])
def test_the_25_dollar_chip_cannot_be_withdrawn_while_a_table_takes_25_dollar_wagers(
    client_for, manager, site, chips, max_wager_cents, refused
):
    TableFactory(site=site, number=1, max_wager_cents=max_wager_cents)
    response = client_for(manager).patch(
        f"/api/v1/chip-denominations/{chips[2500].pk}/", {"active": False}, format="json"
    )
    if refused:
        assert response.status_code == 400
        assert response.json()["active"][0].startswith("ND 99-01.3-08-03(1):")
        assert ChipDenomination.objects.get(pk=chips[2500].pk).active
    else:
        assert response.status_code == 200


# --- the specification once surveillance is installed -------------------------------------------


def chip_alerts(site, day):
    return [a for a in run_day_checks(site_ids=[site.pk], start=day, end=day).opened if a.rule == "chip_colours"]


def install_camera(site, on):
    Equipment.objects.create(site=site, kind=Equipment.Kind.CAMERA, make_model="Dome 1", installed_on=on)


def test_installing_surveillance_triggers_the_colour_specification_even_at_two_dollar_tables(site, chips, manager):
    TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=200)
    cardroom_services.update_chip_denomination(acting_user=manager.user, chip=chips[500], primary_colour="orange")
    install_camera(site, date(2026, 11, 10))
    assert chip_alerts(site, date(2026, 11, 9)) == []  # the day before installation
    [alert] = chip_alerts(site, date(2026, 11, 10))
    assert alert.citation == "ND 99-01.3-08-03(2)"
    assert "a video surveillance system is installed" in alert.action_required
    assert "the $5.00 chip must be red (it is orange)" in alert.action_required


def test_conforming_chips_at_a_surveillance_site_raise_nothing(site, chips):
    install_camera(site, date(2026, 11, 10))
    assert chip_alerts(site, date(2026, 11, 10)) == []


def test_without_surveillance_the_specification_does_not_apply(site, chips, manager):
    cardroom_services.update_chip_denomination(acting_user=manager.user, chip=chips[500], primary_colour="orange")
    assert chip_alerts(site, date(2026, 11, 10)) == []
