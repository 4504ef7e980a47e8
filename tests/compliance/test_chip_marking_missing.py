"""ND 99-01.3-08-03(2): "Each chip must be permanently impressed, engraved, or imprinted on one side
with an organization's name ... The name may be represented by a unique identification". A chip is
refused without its marking when made or changed at an ND organization; a chip recorded without one
(before the field was kept, or while the organization's sites were all of a pack that does not ask
it) is flagged by the nightly checks at each of its ND sites, once a site and quarter, and never at
another pack's site. Through the API and the scheduled task."""

from datetime import timedelta

import pytest

from approvals.queries import site_today
from cardroom.models import Role
from compliance import tasks
from compliance.models import Alert
from packs.nd.chips import SPECS
from tests.factories import OrganizationFactory, SiteFactory, make_person

RULE = "chip_marking_missing"


def spec(value_cents: int) -> dict:
    """A chip as ND's colours ask it (08-03(3)), so that only the marking is in question."""
    chip = SPECS[value_cents]
    return {"value_cents": value_cents, "primary_colour": chip.primary_colour, "edge_spots": chip.edge_spots,
            "edge_colour": chip.default_edge_colour}  # fmt: skip


@pytest.fixture
def washington_first(db, client_for):
    """An organization whose chips were recorded while its only site was Washington's (no marking
    asked there), which then opens a North Dakota site: (api, ND site, WA site, {value: chip id})."""
    org = OrganizationFactory(name="Prairie Charities")
    wa_site = SiteFactory(organization=org, name="Spokane Hall", jurisdiction="WA-HB")
    api = client_for(make_person(org, Role.GAMING_MANAGER))
    chips = {}
    for value in (500, 2500, 10000):
        created = api.post("/api/v1/chip-denominations/", spec(value), format="json")
        assert created.status_code == 201, created.json()
        chips[value] = created.json()["id"]
    api.patch(f"/api/v1/chip-denominations/{chips[10000]}/", {"marking": "PC"}, format="json")
    nd_site = SiteFactory(organization=org, name="Fargo Hall", jurisdiction="ND")
    return api, nd_site, wa_site, chips


def nightly(site):
    tasks.run_daily_checks(str(site_today(site) - timedelta(days=1)))
    return list(Alert.objects.filter(site=site, rule=RULE).order_by("id"))


def test_unmarked_active_chips_are_flagged_at_the_north_dakota_site_naming_each(washington_first):
    api, nd_site, wa_site, chips = washington_first
    [alert] = nightly(nd_site)
    assert alert.citation == "ND 99-01.3-08-03(2)" and alert.title == "Chips with no marking recorded"
    assert alert.action_required == (
        "ND 99-01.3-08-03(2): each chip must bear the organization's name, or a unique identification of its "
        "chips, on one side; no marking is recorded for the active chips $5.00 (red), $25.00 (green). Record each "
        "chip's marking in the chips' setup (or retire a chip no longer issued)."
    )
    assert alert.figures["chips"] == ["$5.00 (red)", "$25.00 (green)"]  # the marked $100 chip is not named
    assert nightly(nd_site) == [alert]  # re-run: no second alert
    assert nightly(wa_site) == []  # Washington's pack does not ask it
    assert not Alert.objects.filter(site=wa_site, citation__startswith="ND").exists()


def test_nothing_is_flagged_once_each_active_chip_is_marked_or_retired(washington_first, time_machine):
    api, nd_site, wa_site, chips = washington_first
    # A chip is changed at an ND organization only with its marking: the refusal says so.
    refused = api.patch(f"/api/v1/chip-denominations/{chips[500]}/", {"edge_colour": "white"}, format="json")
    assert refused.status_code == 400 and "ND 99-01.3-08-03(2)" in refused.json()["marking"][0]
    marked = api.patch(f"/api/v1/chip-denominations/{chips[500]}/", {"marking": "Prairie Charities"}, format="json")
    assert marked.status_code == 200, marked.json()
    retired = api.patch(f"/api/v1/chip-denominations/{chips[2500]}/", {"active": False}, format="json")
    assert retired.status_code == 200, retired.json()
    time_machine.move_to(site_today(nd_site) + timedelta(days=100), tick=False)  # a later quarter
    assert nightly(nd_site) == []


def test_the_chips_still_unmarked_are_the_ones_named(washington_first):
    api, nd_site, wa_site, chips = washington_first
    api.patch(f"/api/v1/chip-denominations/{chips[2500]}/", {"marking": "PC"}, format="json")
    [alert] = nightly(nd_site)
    assert alert.figures["chips"] == ["$5.00 (red)"]
    assert "for the active chip $5.00 (red)." in alert.action_required
