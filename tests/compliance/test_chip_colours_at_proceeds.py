"""ND 99-01.3-08-03(2): "If a site had twenty-one gross proceeds averaging ten thousand dollars or
more for two consecutive quarters ... or an organization installs a video surveillance system at a
site, regardless of the value of wagers accepted at the site, the chips must meet the
specifications of subsection 3." The proceeds alone trigger it, at $2 tables too, where the
surveillance rule (08-04: wagers above $2) never requires a system. Judged by the quarter rules,
the chips changed through the cardroom's service."""

from datetime import date

import pytest

from cardroom import services as cardroom_services
from compliance.engine import DAY_PROVIDERS, QUARTER_PROVIDERS, run_day_checks, run_quarter_rules, runs_at
from compliance.models import Alert
from core.periods import Quarter
from surveillance.models import Equipment
from tests.compliance.test_surveillance_trigger import play
from tests.factories import TableFactory

Q3 = Quarter(2026, 3)


@pytest.fixture
def two_dollar_table(site):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=200)


def orange_fives(chips, manager):
    cardroom_services.update_chip_denomination(acting_user=manager.user, chip=chips[500], primary_colour="orange")


def chip_alerts(site):
    return list(Alert.objects.filter(site=site, rule="chip_colours"))


def test_the_proceeds_alone_make_the_specification_apply_at_two_dollar_tables(
    scenario, two_dollar_table, site, chips, manager
):
    play(scenario, two_dollar_table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, two_dollar_table, date(2026, 8, 1), drop=800_000)  # averaging $10,000.00 exactly
    orange_fives(chips, manager)
    opened = run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened
    assert [a.rule for a in opened] == ["chip_colours"]  # no surveillance requirement: wagers of $2 or less
    [alert] = opened
    assert alert.citation == "ND 99-01.3-08-03(2)" and alert.period_key == "2026Q3"
    assert alert.action_required.startswith(
        "ND 99-01.3-08-03(2): twenty-one gross proceeds averaged $10,000.00 per quarter in 2026Q2 and 2026Q3 "
        "(at least $10,000.00), whatever the wagers accepted, so the chips must meet ND 99-01.3-08-03(3):"
    )
    assert "the $5.00 chip must be red (it is orange)" in alert.action_required
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []  # judged again: the same alert
    assert chip_alerts(site) == [alert]


def test_a_cent_below_the_level_or_chips_that_meet_it_raise_nothing(scenario, two_dollar_table, site, chips, manager):
    play(scenario, two_dollar_table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, two_dollar_table, date(2026, 8, 1), drop=799_999)
    orange_fives(chips, manager)
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []
    play(scenario, two_dollar_table, date(2026, 8, 2), drop=1)
    cardroom_services.update_chip_denomination(acting_user=manager.user, chip=chips[500], primary_colour="red")
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []  # the level reached, the chips right


def test_the_level_is_the_two_quarters_average_as_the_surveillance_rule_reads_it(
    scenario, two_dollar_table, site, chips, manager
):
    """*Reading* (as compliance.rules.surveillance_required): "averaging ... for two consecutive
    quarters" is the mean of the two, a quarter without play counting as nothing."""
    play(scenario, two_dollar_table, date(2026, 8, 1), drop=1_999_999)  # 2026Q2 had no play
    orange_fives(chips, manager)
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []
    play(scenario, two_dollar_table, date(2026, 8, 2), drop=1)
    [alert] = run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened
    assert "averaged $10,000.00 per quarter in 2026Q2 and 2026Q3" in alert.action_required


def test_the_quarter_and_the_installed_system_open_one_alert_for_the_quarter(
    scenario, two_dollar_table, site, chips, manager
):
    play(scenario, two_dollar_table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, two_dollar_table, date(2026, 8, 1), drop=800_000)
    orange_fives(chips, manager)
    Equipment.objects.create(site=site, kind=Equipment.Kind.CAMERA, make_model="Dome 1", installed_on=date(2026, 9, 1))
    [by_system] = run_day_checks(site_ids=[site.pk], start=date(2026, 9, 30), end=date(2026, 9, 30)).opened
    assert "a video surveillance system is installed" in by_system.action_required
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []
    assert chip_alerts(site) == [by_system]


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_no_such_rule_where_the_pack_states_none(code, scenario, two_dollar_table, site, chips, manager):
    [provider] = [p for p in QUARTER_PROVIDERS if p.__name__ == "chip_colours_at_proceeds"]
    assert runs_at(provider, code) is False
    assert runs_at(provider, "ND") is True
    assert [p for p in DAY_PROVIDERS if p.__name__ == "chip_colour_spec"]
