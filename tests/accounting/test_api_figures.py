from datetime import date, timedelta

import pytest

from cardroom.models import Role
from core.moments import gaming_day_bounds
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory
from tests.fees.test_api_cash import bank, quarter, summary
from tests.tournaments.conftest import announce
from tournaments import services as tournaments
from tournaments.models import FeeKind

DAY = date(2026, 8, 14)


@pytest.fixture
def day_of_play(site, people):
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 185_000)
    scenario.slip(table, DAY, "fill", 20_000, number=1)
    scenario.slip(table, DAY, "credit", 5_000, number=1)
    scenario.drop(table, DAY, 100_000)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 600_000, 285_000)
    return scenario


def test_the_daily_summary_api_gives_exact_figures(client_for, cast, site, day_of_play):
    body = client_for(cast[Role.AUDITOR]).get(f"/api/v1/sites/{site.pk}/daily-summary/?date=2026-08-14").json()
    assert body["total"]["gross_proceeds_cents"] == 100_000
    assert body["total"]["prizes_cents"] == 30_000
    assert body["total"]["agp_cents"] == 70_000
    assert body["total"]["hold_ratio"] == "0.700000"
    assert body["cash"]["cash_profit_cents"] == 200_000
    assert body["cash"]["long_short_cents"] == 130_000
    assert body["cash"]["deposit_due"] == "2026-08-19"


def test_the_quarter_summary_and_tax_apis(client_for, cast, site, org, day_of_play):
    api = client_for(cast[Role.GAMING_MANAGER])
    quarter = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    assert quarter["total"]["agp_cents"] == 70_000 and len(quarter["days"]) == 1
    tax = api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert (tax["agp_cents"], tax["tax_cents"]) == (70_000, 700)


@pytest.mark.parametrize(
    "url,field",
    [
        ("/api/v1/sites/{site}/daily-summary/?date=14-08-2026", "date"),
        ("/api/v1/sites/{site}/quarter-summary/?quarter=2026Q9", "quarter"),
        ("/api/v1/organizations/{org}/tax/?quarter=Q3", "quarter"),
        ("/api/v1/employees/{dealer}/percent-of-hold/?start=2026-08-10&end=2026-08-01", "end"),
    ],
)
def test_bad_parameters_name_the_parameter(client_for, cast, site, org, url, field):
    response = client_for(cast[Role.GAMING_MANAGER]).get(
        url.format(site=site.pk, org=org.pk, dealer=cast[Role.DEALER].pk)
    )
    assert response.status_code == 400 and field in response.json()


@pytest.mark.parametrize(
    "role,status",
    [
        (Role.GAMING_MANAGER, 200),
        (Role.AUDITOR, 200),
        (Role.SHIFT_MANAGER, 200),
        (Role.DEALER, 403),
        (Role.CASHIER, 403),
        (Role.COUNT_TEAM, 403),
    ],
)
def test_who_sees_the_daily_summary(client_for, cast, site, role, status):
    assert client_for(cast[role]).get(f"/api/v1/sites/{site.pk}/daily-summary/?date=2026-08-14").status_code == status


def test_figures_of_another_organization_are_not_found(client_for, cast, stranger_site):
    api = client_for(cast[Role.GAMING_MANAGER])
    assert api.get(f"/api/v1/sites/{stranger_site.pk}/daily-summary/?date=2026-08-14").status_code == 404
    assert api.get(f"/api/v1/organizations/{stranger_site.organization_id}/tax/?quarter=2026Q3").status_code == 404


def test_a_dealer_sees_their_own_percent_of_hold_but_not_anothers(client_for, cast, org, site):
    from tests.factories import make_person

    other = make_person(org, Role.DEALER, site)
    api = client_for(cast[Role.DEALER])
    assert (
        api.get(
            f"/api/v1/employees/{cast[Role.DEALER].pk}/percent-of-hold/?start=2026-08-01&end=2026-08-31"
        ).status_code
        == 200
    )
    assert api.get(f"/api/v1/employees/{other.pk}/percent-of-hold/?start=2026-08-01&end=2026-08-31").status_code == 403


def test_a_wheel_operators_figures_are_asked_only_where_a_paddlewheel_is_dealt(client_for, cast, site, other_site):
    """A Washington house-banked room deals blackjack only: its wheel operators' figures are a
    bad request naming the game and what its tables deal, not an empty answer; asked of every
    site, the paddlewheel figures are those of the sites that deal it."""
    other_site.jurisdiction = "WA-HB"
    other_site.save()
    api = client_for(cast[Role.GAMING_MANAGER])
    url = f"/api/v1/employees/{cast[Role.DEALER].pk}/percent-of-hold/?start=2026-08-01&end=2026-08-31&game=PW"
    refused = api.get(f"{url}&site={other_site.pk}")
    assert refused.status_code == 400
    assert refused.json()["game"] == [
        "No site here deals paddlewheel (House control: Washington house-banked blackjack tables deal blackjack)."
    ]
    assert api.get(f"{url}&site={other_site.pk}".replace("game=PW", "game=21")).status_code == 200
    every = api.get(url)
    assert every.status_code == 200 and every.json()["game"] == "PW"
    assert api.get(f"{url}&site={site.pk}").status_code == 200


@pytest.mark.parametrize("jurisdiction", ["NY", "WA-BJ"])
def test_no_percent_of_hold_is_answered_where_the_revenue_is_not_a_drop(
    client_for, cast, site, other_site, jurisdiction
):
    """The dealers' pages of a session (NY) or fees (WA-BJ) site say no dealer has a
    percent-of-hold there; the API answers the same, not the shifts' holds: asked only of such a
    site, a 400 on `site`; asked of every site, the drop sites' figures alone."""
    other_site.jurisdiction = jurisdiction
    other_site.save()
    api = client_for(cast[Role.GAMING_MANAGER])
    url = f"/api/v1/employees/{cast[Role.DEALER].pk}/percent-of-hold/?start=2026-08-01&end=2026-08-31"
    refused = api.get(f"{url}&site={other_site.pk}")
    assert refused.status_code == 400
    message = refused.json()["site"][0]
    assert message.startswith("No dealer has a hold here: the revenue of these sites is not a drop")
    assert other_site.name in message
    every = api.get(url)
    assert every.status_code == 200 and other_site.pk not in {s["site"] for s in every.json()["sites"]}


def test_at_a_north_dakota_site_the_cash_long_short_is_reconciled_as_before(day_under_way, client_for, cast, site):
    """A tournament's entry fee in the cage's bank at a drop pack's site: the API's long (short) is
    the cash profit less the AGP of the tables and the tournament (ND 99-01.3-08-15, 08-16(1)(g):
    the bank's cash is the tournament's too), as the daily page and PDF show it; a fees or session
    site's is null (tests/fees/test_api_cash.py)."""
    boss = cast[Role.SHIFT_MANAGER]
    tournament = announce(boss, site)
    tournaments.collect_fee(acting_user=boss.user, tournament=tournament, kind=FeeKind.ENTRY, player_name="Ann Lee")
    # The bank counted in the tournament's own gaming day (three hours old at least: day_under_way).
    start = gaming_day_bounds(site, tournament.gaming_date)[0] + timedelta(hours=1)
    bank(boss, site, tournament.gaming_date, (start, start + timedelta(hours=1)), (1_000, 11_000))
    api = client_for(cast[Role.AUDITOR])
    day = summary(api, site, tournament.gaming_date)
    cash = day["cash"]
    assert cash["cash_profit_cents"] == 10_000
    assert cash["long_short_cents"] == 10_000 - day["total"]["agp_cents"] - day["tournaments"]["agp_cents"] == 0
    assert cash["unexplained_cents"] is not None
    q = quarter(api, site, tournament.gaming_date)
    assert (q["long_short_cents"], q["unexplained_cents"]) == (cash["long_short_cents"], cash["unexplained_cents"])
