"""The chip inventory log (SFN 17930): receipts, destruction, physical counts, outstanding."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cage import queries, services
from cage.models import ChipMovement
from cardroom.models import Role


@pytest.fixture
def received(org, chips, manager):
    return services.receive_chips(
        acting_user=manager.user,
        organization=org,
        received_on=date(2026, 10, 1),
        reference="Invoice 4471",
        chips={500: 1000, 2500: 200},
    )


def test_receipts_add_to_the_book_and_destruction_takes_off_it(org, received, manager):
    services.destroy_chips(
        acting_user=manager.user,
        organization=org,
        destroyed_on=date(2026, 10, 15),
        reference="Witness: AT",
        chips={500: 40},
    )
    assert queries.chip_book(org, date(2026, 10, 14)) == {500: 1000, 2500: 200}
    assert queries.chip_book(org, date(2026, 10, 15)) == {500: 960, 2500: 200}


def test_destroying_more_chips_than_the_book_owns_is_refused(org, received, manager):
    with pytest.raises(ValidationError, match="the book owns 200"):
        services.destroy_chips(
            acting_user=manager.user,
            organization=org,
            destroyed_on=date(2026, 10, 15),
            reference="W",
            chips={2500: 201},
        )
    assert ChipMovement.objects.count() == 1


def test_chips_outstanding_are_the_book_minus_every_location_counted(org, site, other_site, received, manager):
    services.record_chip_inventory_count(
        acting_user=manager.user,
        organization=org,
        counted_on=date(2026, 11, 1),
        locations=[
            {"location": "bank", "site": site.pk, "chips": {500: 400, 2500: 100}},
            {"location": "trays", "site": site, "chips": {500: 300}},
            {"location": "bank", "site": other_site.pk, "chips": {500: 200}},
            {"location": "storage", "chips": {2500: 95}},
        ],
    )
    result = queries.chips_outstanding(org, date(2026, 11, 2))
    assert result.outstanding == {500: 100, 2500: 5}
    assert result.outstanding_cents == 100 * 500 + 5 * 2500
    assert result.counted_on == date(2026, 11, 1)
    assert queries.chips_outstanding(org, date(2026, 10, 31)).counted_on is None


@pytest.mark.parametrize(
    "locations,words",
    [
        ([], "give the chips counted"),
        ([{"location": "bank", "chips": {500: 1}}], "say which site"),
        ([{"location": "attic", "chips": {500: 1}}], "each location is one of"),
        ([{"location": "storage", "chips": {500: -1}}], "cannot be negative"),
        ([{"location": "storage", "chips": {700: 1}}], "not a chip value"),
    ],
)
def test_a_bad_inventory_count_is_refused_naming_locations(org, chips, manager, locations, words):
    with pytest.raises(ValidationError) as caught:
        services.record_chip_inventory_count(
            acting_user=manager.user, organization=org, counted_on=date(2026, 11, 1), locations=locations
        )
    assert words in caught.value.message_dict["locations"][0]


def test_a_count_at_another_organizations_site_is_refused(org, chips, manager, stranger_site):
    with pytest.raises(ValidationError, match="not a site of the organization"):
        services.record_chip_inventory_count(
            acting_user=manager.user,
            organization=org,
            counted_on=date(2026, 11, 1),
            locations=[{"location": "bank", "site": stranger_site.pk, "chips": {500: 1}}],
        )


@pytest.mark.parametrize("role", [Role.CASHIER, Role.SHIFT_MANAGER, Role.AUDITOR])
def test_only_the_gaming_manager_keeps_the_inventory_book(org, chips, cast, role):
    with pytest.raises(PermissionDenied):
        services.receive_chips(
            acting_user=cast[role].user, organization=org, received_on=date(2026, 10, 1), reference="x", chips={500: 1}
        )


def test_the_gaming_manager_of_another_organization_cannot_touch_the_book(org, chips, stranger_site):
    from tests.factories import make_person

    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    with pytest.raises(PermissionDenied):
        services.receive_chips(
            acting_user=stranger.user, organization=org, received_on=date(2026, 10, 1), reference="x", chips={500: 1}
        )


def test_a_fees_sites_bank_and_trays_are_no_location_of_the_house_chips(org, site, chips, manager, client):
    # Where the house's revenue is its fees (Washington blackjack with time fees), it holds no
    # house chips: its bank is counted in cash only and the chips at its tables are not the
    # house's. Neither is offered on the count form, and a count naming either is refused citing
    # the pack's rule; the other sites' banks and trays are still counted.
    from tests.factories import SiteFactory

    fees = SiteFactory(organization=org, name="Tacoma hall", jurisdiction="WA-BJ", time_zone="America/Los_Angeles")
    for location in ("trays", "bank"):
        with pytest.raises(ValidationError) as caught:
            services.record_chip_inventory_count(
                acting_user=manager.user,
                organization=org,
                counted_on=date(2026, 11, 1),
                locations=[{"location": location, "site": fees.pk, "chips": {500: 1}}],
            )
        message = caught.value.message_dict["locations"][0]
        assert message.startswith("WAC 230-40-125") and "Tacoma hall is the fees collected at its tables" in message
    services.record_chip_inventory_count(
        acting_user=manager.user,
        organization=org,
        counted_on=date(2026, 11, 1),
        locations=[
            {"location": "bank", "site": site.pk, "chips": {500: 1}},
            {"location": "trays", "site": site.pk, "chips": {500: 2}},
        ],
    )
    client.force_login(manager.user)
    page = client.get("/cage/inventory/").content.decode()
    assert "Tacoma hall: chip bank" not in page and "Tacoma hall: table trays" not in page
    assert f"{site.name}: chip bank" in page and f"{site.name}: table trays" in page


def test_a_chip_count_is_dated_by_the_latest_of_the_organizations_sites_dates(org, chips, manager, time_machine):
    """00:30 Friday in New York is 23:30 Thursday in Chicago (the server's zone): an organization
    with a New York site may date a receipt Friday, not Saturday."""
    from tests.factories import SiteFactory

    SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    time_machine.move_to(datetime(2026, 11, 20, 0, 30, tzinfo=ZoneInfo("America/New_York")), tick=False)
    receipt = {"acting_user": manager.user, "organization": org, "reference": "Invoice 4472", "chips": {500: 10}}
    assert services.receive_chips(**receipt, received_on=date(2026, 11, 20)).occurred_on == date(2026, 11, 20)
    with pytest.raises(ValidationError, match="not a future one"):
        services.receive_chips(**receipt, received_on=date(2026, 11, 21))


def test_an_organization_in_the_pacific_counts_no_chips_on_a_date_its_sites_have_not_reached(db, time_machine):
    """23:30 Thursday in Washington is 01:30 Friday in Chicago: Friday is in the future at every
    site of an organization whose sites are all in Washington."""
    from tests.factories import OrganizationFactory, fees_site, make_person

    organization = OrganizationFactory(name="Puget Sound Blackjack")
    fees_site(organization)
    keeper = make_person(organization, Role.GAMING_MANAGER)
    time_machine.move_to(datetime(2026, 11, 19, 23, 30, tzinfo=ZoneInfo("America/Los_Angeles")), tick=False)
    with pytest.raises(ValidationError, match="not a future one"):
        services.record_chip_inventory_count(
            acting_user=keeper.user, organization=organization, counted_on=date(2026, 11, 20), locations=[]
        )


def test_the_page_shows_no_outstanding_figure_before_the_first_physical_count(client, org, received, manager):
    """Outstanding is what a physical count finds missing from the book: never counted, the page
    shows the book and says there is no count, not the whole book outstanding."""
    client.force_login(manager.user)
    page = client.get("/cage/inventory/").content.decode()
    line = page[page.index('<p id="outstanding">') :].split("</p>")[0]
    assert "book $10,000.00" in line and "no physical count yet, so no outstanding figure" in line
    assert "counted $0.00" not in line and "<strong>$10,000.00</strong>" not in line
    assert queries.chips_outstanding(org, date(2026, 11, 2)).outstanding_cents is None
