"""A Washington house-banked site (the cast's site), its house-blackjack internal controls and the
Double Down Madness approval."""

from datetime import date, timedelta

import pytest

from approvals import services
from approvals.demo import DDM_APPROVAL, DDM_CONTROLS, DDM_TABLE_SETTINGS, SHUFFLER
from approvals.models import PayTable
from approvals.queries import site_today
from cardroom.models import Role
from tests.factories import SiteFactory, TableFactory

HOUSE_CONTROLS = dict(
    dealer_hits_soft_17=[False],
    split_pairs=["identical", "any_pair"],
    double_on=["any_two"],
    insurance_allowed=[True],
    surrender=["none"],
    blackjack_payout=["3:2"],
    payout_rounding=["down"],
    # A factory's table takes the model's default (one card to each split ace, documented here), a
    # table added through the API the pack's (the rules' own play).
    resplit_allowed=[True],
    split_aces_one_card=[False, True],
    double_after_split=[True],
    double_down=["equal"],
    even_money_offered=[False],
)


@pytest.fixture
def site(org):
    """The cast's site: Washington house-banked."""
    return SiteFactory(
        organization=org, name="Spokane Card Room", jurisdiction="WA-HB", time_zone="America/Los_Angeles"
    )


@pytest.fixture
def manager(cast):
    return cast[Role.GAMING_MANAGER]


@pytest.fixture
def today(site) -> date:
    return site_today(site)


@pytest.fixture
def house_controls(manager, site, today):
    return services.record_internal_controls(
        acting_user=manager.user,
        site=site,
        effective_on=today - timedelta(days=30),
        approved_on=today - timedelta(days=40),
        approved_by="B. Lane, WSGC",
        **HOUSE_CONTROLS,
    )


@pytest.fixture
def wa_table(site, house_controls):
    return TableFactory(site=site, number=1, payout_rounding="down")


@pytest.fixture
def ddm(manager, org):
    return services.record_game_approval(acting_user=manager.user, organization=org, **DDM_APPROVAL)


@pytest.fixture
def ddm_controls(manager, site, ddm, today):
    return services.record_internal_controls(
        acting_user=manager.user,
        site=site,
        game_approval=ddm,
        effective_on=today - timedelta(days=10),
        approved_on=today - timedelta(days=20),
        approved_by="B. Lane, WSGC",
        **DDM_CONTROLS,
    )


def link_ddm(manager, table, ddm) -> None:
    """`table` linked to Double Down Madness through the service: pay tables 01 and Push 22's 1."""
    pay_tables = PayTable.objects.filter(approval=ddm)
    services.link_table_game(
        acting_user=manager.user,
        table=table,
        approval=ddm,
        blackjack_pay_table=pay_tables.get(side_bet="", code="01"),
        side_bet_pay_table=pay_tables.get(side_bet="Push 22", code="1"),
        shuffler_model=SHUFFLER,
        settings=DDM_TABLE_SETTINGS,
    )


@pytest.fixture
def ddm_table(manager, site, ddm, ddm_controls, house_controls):
    table = TableFactory(site=site, number=2, payout_rounding="down")
    link_ddm(manager, table, ddm)
    table.refresh_from_db()
    return table
