"""A Washington blackjack (player-banked) site as the cast's site, with its table 1, and a New
York site of the same organization."""

import pytest

from cardroom.models import Role
from tests.factories import SiteFactory, TableFactory, make_person


@pytest.fixture
def site(org):
    return SiteFactory(
        organization=org, name="Tacoma Blackjack Room", jurisdiction="WA-BJ", time_zone="America/Los_Angeles"
    )


@pytest.fixture
def bj_table(site):
    return TableFactory(
        site=site,
        number=1,
        decks=2,
        banker="player",
        min_bank_cents=30_000,
        min_wager_cents=100,
        max_wager_cents=2500,
        max_players=7,
        betting_spaces=7,
    )


@pytest.fixture
def ny_site(org):
    return SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")


@pytest.fixture
def ny_shift(org, ny_site):
    return make_person(org, Role.SHIFT_MANAGER, ny_site)


@pytest.fixture
def fee_payload(bj_table):
    return {
        "table": bj_table.pk,
        "basis": "per_seat",
        "period_minutes": 30,
        "rate_cents": 300,
        "count": 5,
        "amount_cents": 1500,
    }
