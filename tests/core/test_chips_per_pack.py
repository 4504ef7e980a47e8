"""Chips are the organization's, and the chip law is a pack's (issue 32): an organization with a
North Dakota site holds ND 99-01.3-08-03 (values, colours, reversed pairs, $25 chips); one whose
sites are all Washington or New York records any value above zero in any colour (house control),
and no refusal there speaks North Dakota's words."""

import pytest

from cardroom.models import ChipDenomination, Role
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_person


def said(response) -> str:
    return str(response.json())


@pytest.fixture(params=["WA-HB", "WA-BJ", "NY"])
def elsewhere(request, db):
    """(organization, site, gaming manager) of an organization whose only site is of another pack."""
    org = OrganizationFactory(name=f"{request.param} Charity")
    site = SiteFactory(organization=org, name=f"{request.param} Hall", jurisdiction=request.param)
    return org, site, make_person(org, Role.GAMING_MANAGER)


def test_any_positive_value_in_any_colour_is_accepted_elsewhere(client_for, elsewhere):
    org, _site, manager = elsewhere
    api = client_for(manager)
    response = api.post(
        "/api/v1/chip-denominations/",
        {"value_cents": 300, "primary_colour": "teal", "edge_spots": "six", "edge_colour": "crimson"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    # A "reversed pair" is North Dakota's rule, not this house's.
    pair = api.post(
        "/api/v1/chip-denominations/",
        {"value_cents": 1000, "primary_colour": "crimson", "edge_spots": "four", "edge_colour": "teal"},
        format="json",
    )
    assert pair.status_code == 201, pair.json()
    assert set(ChipDenomination.objects.filter(organization=org).values_list("value_cents", flat=True)) == {300, 1000}


def test_a_chip_of_no_value_is_refused_as_a_house_control_elsewhere(client_for, elsewhere):
    _org, _site, manager = elsewhere
    response = client_for(manager).post(
        "/api/v1/chip-denominations/", {"value_cents": 0, "primary_colour": "teal", "edge_spots": "none"}, format="json"
    )
    assert response.status_code == 400
    text = said(response)
    assert "House control: a chip's value is more than $0.00." in text
    assert not law_words_in(text, ND_WORDS)


def test_the_25_dollar_chip_may_be_withdrawn_elsewhere(client_for, elsewhere):
    org, site, manager = elsewhere
    api = client_for(manager)
    chip = api.post(
        "/api/v1/chip-denominations/",
        {"value_cents": 2500, "primary_colour": "green", "edge_spots": "eight"},
        format="json",
    ).json()
    TableFactory(site=site, number=1, max_wager_cents=2500)
    response = api.patch(f"/api/v1/chip-denominations/{chip['id']}/", {"active": False}, format="json")
    assert response.status_code == 200, response.json()


def test_an_organization_with_a_north_dakota_site_holds_its_chip_law(client_for, elsewhere):
    """Chips belong to the organization: one North Dakota site brings 08-03 to all of its chips."""
    org, _site, manager = elsewhere
    SiteFactory(organization=org, name="Elks Lodge", jurisdiction="ND")
    api = client_for(manager)
    value = api.post(
        "/api/v1/chip-denominations/",
        {"value_cents": 300, "primary_colour": "teal", "edge_spots": "six"},
        format="json",
    )
    assert value.status_code == 400
    assert value.json()["value_cents"][0].startswith("ND 99-01.3-08-03(1): chips may be issued only in values of")
    colour = api.post("/api/v1/chip-denominations/", {"value_cents": 500, "primary_colour": "teal"}, format="json")
    assert colour.status_code == 400
    assert colour.json()["primary_colour"][0].startswith("House control: a chip colour is one of")
    assert not law_words_in(said(value) + " " + said(colour), OTHER_WORDS)


def test_north_dakota_defaults_and_refusals_are_unchanged(client_for, manager):
    api = client_for(manager)
    created = api.post("/api/v1/chip-denominations/", {"value_cents": 2500, "marking": "Elks Charity"}, format="json")
    assert created.status_code == 201 and created.json()["primary_colour"] == "green"
    refused = api.post("/api/v1/chip-denominations/", {"value_cents": 300}, format="json")
    assert refused.json()["value_cents"][0].startswith("ND 99-01.3-08-03(1):")
    assert not law_words_in(said(refused), OTHER_WORDS)
