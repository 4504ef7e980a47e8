"""Adding a pack is its folder plus one registry line (README, "Adding a pack"): a pack defined
in the tests (tests/core/example_pack) judges its site's tables and cites its own rules."""

import pytest

import packs.registry
from packs import HOUSE_CONTROL, Rule, all_packs, pack_for

from . import example_pack


@pytest.fixture
def example_site(site, monkeypatch):
    monkeypatch.setitem(packs.registry.PACKS, example_pack.CODE, example_pack.PACK)
    site.jurisdiction = example_pack.CODE
    site.save()
    return site


def post_table(client, site, **options):
    body = {"site": site.pk, "number": 1, "game": "21", "min_wager_cents": 200, "max_wager_cents": 5000, **options}
    return client.post("/api/v1/tables/", body, format="json")


def test_the_registry_line_makes_the_pack_the_sites_pack(example_site):
    assert pack_for(example_site) is example_pack.PACK
    assert example_pack.CODE in [p.code for p in all_packs()]


def test_the_packs_table_rules_refuse_through_the_api_naming_its_rule(example_site, client_for, manager):
    client = client_for(manager)
    refused = post_table(client, example_site, decks=6)
    assert refused.status_code == 400
    assert refused.json()["decks"] == [f"{example_pack.DECKS_RULE}: one or two decks (got 6)."]
    too_high = post_table(client, example_site, decks=2, max_wager_cents=10000)
    assert too_high.status_code == 400 and example_pack.WAGERS_RULE in str(too_high.json()["max_wager_cents"])
    assert post_table(client, example_site, decks=2).status_code == 201


def test_a_rule_is_cited_by_the_sites_pack_or_as_house_control(example_site):
    assert Rule("floor.slip_numbering").at(example_site) == example_pack.NUMBERING_RULE
    assert Rule("floor.slip_numbering").applies(example_site)
    assert Rule("accounting.gaming_tax").at(example_site) == HOUSE_CONTROL
    assert not Rule("accounting.gaming_tax").applies(example_site)


def test_a_rule_is_never_formatted_without_a_site():
    with pytest.raises(TypeError, match="use .at"):
        f"{Rule('floor.slip_numbering')}: refused"  # noqa: B018


def test_a_site_of_the_example_pack_is_created_through_the_api_with_no_choice_or_migration_added(
    client_for, manager, monkeypatch
):
    """Issue 32: the site's jurisdiction choices are the registry's: the registry line alone lets a
    site be of the new pack; a code no pack holds is refused naming the field, and nothing is made."""
    from cardroom.models import Site

    client = client_for(manager)
    body = {"name": "Example Hall", "time_zone": "America/Chicago", "jurisdiction": example_pack.CODE}
    refused = client.post("/api/v1/sites/", body, format="json")
    assert refused.status_code == 400 and "jurisdiction" in refused.json()
    assert not Site.objects.filter(name="Example Hall").exists()
    monkeypatch.setitem(packs.registry.PACKS, example_pack.CODE, example_pack.PACK)
    made = client.post("/api/v1/sites/", body, format="json")
    assert made.status_code == 201, made.json()
    site = Site.objects.get(pk=made.json()["id"])
    assert site.jurisdiction == example_pack.CODE and pack_for(site) is example_pack.PACK
    assert site.get_jurisdiction_display() == "Example State"
