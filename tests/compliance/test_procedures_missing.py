"""ND 99-01.3-08-06(2): "An organization shall adopt a procedure on redeeming a player's chips";
ND 99-01.3-08-08(1): "For a site with a video surveillance system, an organization shall
standardize its dealers' procedures for shuffling and cutting cards." Each night an ND site whose
organization has no such procedure in force (approvals.WrittenProcedure) is flagged, the shuffle
only where a system is installed at the site or video surveillance is required, once a site and quarter; never at a WA or NY
site. Through the approvals and surveillance services and the scheduled task."""

from datetime import timedelta

import pytest

from approvals.queries import site_today
from approvals.services import record_written_procedure
from cardroom.models import Role
from compliance import tasks
from compliance.engine import DAY_PROVIDERS, run_day_checks, runs_at
from compliance.models import Alert
from surveillance.models import Equipment
from surveillance.services import install_equipment, set_surveillance_status

RULES = ("chip_redemption_procedure_missing", "shuffle_procedure_missing")


@pytest.fixture
def manager(cast):
    return cast[Role.GAMING_MANAGER]


@pytest.fixture
def today(site):
    return site_today(site)


def nightly(site, today):
    tasks.run_daily_checks(str(today - timedelta(days=1)))
    return {rule: list(Alert.objects.filter(site=site, rule=rule).order_by("id")) for rule in RULES}


def adopt(manager, org, kind, on, **extra):
    return record_written_procedure(
        acting_user=manager.user, organization=org, kind=kind, text="As adopted.", effective_on=on, **extra
    )


def surveillance_required(manager, site, since):
    set_surveillance_status(manager.user, site, True, since, None, "twenty-one wagers above $2")


def test_no_chip_redemption_procedure_is_flagged_once_a_quarter_until_one_is_in_force(
    site, org, manager, today, time_machine
):
    flagged = nightly(site, today)
    [alert] = flagged["chip_redemption_procedure_missing"]
    assert flagged["shuffle_procedure_missing"] == []  # the site requires no video surveillance
    assert alert.citation == "ND 99-01.3-08-06(2)" and alert.title == "No chip redemption procedure adopted"
    assert alert.action_required.startswith(
        "ND 99-01.3-08-06(2): the organization has no procedure on redeeming a player's chips in force"
    )
    assert nightly(site, today)["chip_redemption_procedure_missing"] == [alert]  # re-run: no second alert

    adopt(manager, org, "chip_redemption", today)
    later = today + timedelta(days=100)  # a later quarter, the procedure in force
    time_machine.move_to(later, tick=False)
    assert nightly(site, later)["chip_redemption_procedure_missing"] == [alert]


def test_a_procedure_taking_effect_after_the_night_does_not_count_for_it(site, org, manager, today):
    adopt(manager, org, "chip_redemption", today)  # in force from today, not last night
    assert len(nightly(site, today)["chip_redemption_procedure_missing"]) == 1


def test_a_surveillance_site_with_no_shuffle_procedure_is_flagged(site, org, manager, today):
    adopt(manager, org, "chip_redemption", today - timedelta(days=30))
    surveillance_required(manager, site, today - timedelta(days=20))
    flagged = nightly(site, today)
    assert flagged["chip_redemption_procedure_missing"] == []
    [alert] = flagged["shuffle_procedure_missing"]
    assert alert.citation == "ND 99-01.3-08-08(1)" and alert.title == "No standard shuffle and cut procedure"
    assert alert.action_required.startswith("ND 99-01.3-08-08(1): the site requires video surveillance")
    assert nightly(site, today)["shuffle_procedure_missing"] == [alert]  # re-run: no second alert


def test_a_site_with_a_system_installed_it_does_not_require_is_flagged_too(site, org, manager, today):
    """08-08(1) asks it "for a site with a video surveillance system": one installed by choice (its
    wagers not above $2, so not required) counts as one required does, the alert saying which."""
    adopt(manager, org, "chip_redemption", today - timedelta(days=30))
    install_equipment(
        acting_user=manager.user,
        site=site,
        kind=Equipment.Kind.CAMERA,
        make_model="Dome 1",
        installed_on=today - timedelta(days=20),
    )
    [alert] = nightly(site, today)["shuffle_procedure_missing"]
    assert alert.action_required.startswith(
        "ND 99-01.3-08-08(1): a video surveillance system is installed at the site, and the organization has no "
        "standard procedure"
    )
    adopt(manager, org, "shuffle_and_cut", today - timedelta(days=10))
    later = nightly(site, today)["shuffle_procedure_missing"]
    assert later == [alert]  # the quarter's one alert, not another


def test_nothing_is_flagged_where_both_procedures_are_in_force(site, org, manager, today):
    surveillance_required(manager, site, today - timedelta(days=20))
    adopt(manager, org, "chip_redemption", today - timedelta(days=30))
    adopt(manager, org, "shuffle_and_cut", today - timedelta(days=30), reshuffle_idle_minutes=30)
    assert nightly(site, today) == {rule: [] for rule in RULES}


def test_a_past_range_is_not_judged(site, today):
    past = today - timedelta(days=20)
    opened = run_day_checks(site_ids=[site.pk], start=past, end=past).opened
    assert [a for a in opened if a.rule in RULES] == []


@pytest.mark.parametrize("code,judged", [("ND", True), ("WA-HB", False), ("WA-BJ", False), ("NY", False)])
@pytest.mark.parametrize("name", ["chip_redemption_procedure", "shuffle_procedure"])
def test_the_rules_run_only_where_north_dakota_is_the_law(name, code, judged):
    [provider] = [p for p in DAY_PROVIDERS if p.__name__ == name]
    assert runs_at(provider, code) == judged


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_site_of_another_pack_opens_none(site, org, code):
    from tests.factories import SiteFactory

    elsewhere = SiteFactory(organization=org, name="Elsewhere", jurisdiction=code)
    nightly(elsewhere, site_today(elsewhere))
    assert not Alert.objects.filter(site=elsewhere, rule__in=RULES).exists()
