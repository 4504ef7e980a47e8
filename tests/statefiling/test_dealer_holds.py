"""Dealers' hold in the filing package: keyed by the identifier the state issued each dealer,
where the site's pack names one (Washington: the WSGC card room employee licence, WAC
230-03-265) and its games have a percent-of-hold; none where its texts name none (North
Dakota). The identifier is set through the employee API, like any employee field."""

from datetime import date

import pytest

from cardroom.models import Employee, Role
from core import filing_package
from core.periods import Quarter
from packs import get_pack
from statefiling import delivery, returns
from statefiling.models import Submission
from tests.accounting.scenario import Scenario, shift
from tests.accounting.test_quarter_filing import play
from tests.factories import TableFactory, make_person

Q3 = Quarter.parse("2026Q3")
DAY, LATER = date(2026, 8, 14), date(2026, 8, 15)


def set_identifier(api, employee, value):
    return api.patch(f"/api/v1/employees/{employee.pk}/", {"state_identifier": value}, format="json")


@pytest.fixture
def washington(site):
    site.jurisdiction = "WA-HB"
    site.save()
    return site


def test_the_package_carries_each_dealers_hold_under_their_licence_number(washington, org, people, manager, client_for):
    table = TableFactory(site=washington, number=1)
    scenario = Scenario(washington, people)
    licensed, unlicensed = (make_person(org, Role.DEALER, washington) for _ in range(2))
    api = client_for(manager)
    assert set_identifier(api, licensed, "B-12345").status_code == 200
    play(scenario, table, DAY)  # drop $1,000, fill $200, opener $2,000, closer $1,850
    shift(scenario, table, licensed, DAY, 18, 26)  # the whole day: the day's box and trays are hers
    play(scenario, table, LATER, drop=150_000)
    shift(scenario, table, unlicensed, LATER, 18, 26)

    holds = returns.dealer_holds(washington, Q3)

    assert holds.without_identifier == 1  # counted, not sent: the state knows no number for them
    [dealer] = holds.dealers
    assert dealer["identifier"] == "B-12345" and dealer["game"] == "21"
    assert (dealer["shifts"], dealer["separable_shifts"]) == (1, 1)
    # prizes = fills - credits + opener - closer = 200 + 2,000 - 1,850 = $350; AGP = 1,000 - 350 = $650
    assert (dealer["drop_cents"], dealer["prizes_cents"], dealer["agp_cents"]) == (100_000, 35_000, 65_000)
    assert dealer["hold_ratio"] == "0.650000"
    assert filing_package.dealer_problems(holds.dealers) == {}


def test_a_pack_whose_texts_name_no_identifier_sends_no_dealers_and_says_why(site):
    assert site.jurisdiction == "ND"
    assert returns.dealer_holds(site, Q3).dealers is None
    assert "names no state-issued number" in get_pack("ND").dealer_view_absent()
    assert get_pack("WA-HB").dealer_view_absent() == ""
    assert "not a drop" in get_pack("WA-BJ").dealer_view_absent()  # a fee game has no percent-of-hold


@pytest.mark.usefixtures("quarter_played")
def test_a_north_dakota_filing_is_a_version_2_package_without_dealers(linked, client_for, manager, site):
    response = client_for(manager).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json"
    )
    assert response.status_code == 201, response.content
    queued = Submission.objects.get(filing_id=response.json()["id"])
    assert queued.package["format"] == "cardroom.filing/2" and queued.package["dealers"] is None
    assert delivery.deliver(queued.pk) == "delivered"


@pytest.mark.parametrize(
    ("value", "message"),
    [("B 123", "letters, digits and hyphens"), ("B-" + "9" * 40, "no more than 40")],
)
def test_a_bad_identifier_is_refused_naming_the_field(org, washington, manager, client_for, value, message):
    dealer = make_person(org, Role.DEALER, washington)
    response = set_identifier(client_for(manager), dealer, value)
    assert response.status_code == 400 and message in str(response.json()["state_identifier"])
    assert Employee.objects.get(pk=dealer.pk).state_identifier == ""


def test_two_employees_of_one_organization_never_share_an_identifier(org, washington, manager, client_for):
    first, second = (make_person(org, Role.DEALER, washington) for _ in range(2))
    api = client_for(manager)
    assert set_identifier(api, first, "B-1").status_code == 200
    response = set_identifier(api, second, "B-1")
    assert response.status_code == 400 and "another employee" in str(response.json()["state_identifier"])


def test_the_employee_form_names_the_identifier_as_each_pack_of_the_organization_calls_it(
    washington, org, manager, client
):
    from tests.factories import SiteFactory

    SiteFactory(organization=org, jurisdiction="ND")
    client.force_login(manager.user)
    html = client.get("/setup/employees/new/").content.decode()
    notes = html[html.index('id="identifier-notes"') :].split("</ul>")[0]
    assert (
        "Washington house-banked blackjack: WSGC card room employee licence number (Class B) (WAC 230-03-265(3), not in the texts held: assumed)"
        in notes
    )
    assert "names no state-issued number for a dealer" in notes  # North Dakota's text names none
    assert 'name="state_identifier"' in html
