"""The quarter rule's surveillance trigger and the day rules that follow from it
(ND 99-01.3-08-04): the status recorded by the rule, history across organizations, the
45-day deadline, special-event limits and recordings covering play (08-04(5)(b))."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from compliance.engine import FOLLOW_UPS, RunContext, run_day_checks, run_quarter_rules
from core.periods import Quarter
from floor.models import DealerShift
from surveillance import services
from surveillance.models import Recording, SurveillanceStatus
from surveillance.queries import statuses_by_site
from tests.accounting.scenario import Scenario, at
from tests.compliance.test_providers import make_day
from tests.factories import TableFactory

Q3 = Quarter(2026, 3)


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)


def play(scenario, table, day, *, drop):
    scenario.tray(table, day, "opener", 100_000)
    scenario.tray(table, day, "closer", 100_000)
    scenario.drop(table, day, drop)


def opened(result, rule):
    return [a for a in result.opened if a.rule == rule]


def required_by_hand(site, since=date(2026, 1, 1)):
    return SurveillanceStatus.objects.create(
        site=site, required=True, since=since, reason="required", recorded_at=timezone.now()
    )


# --- The quarter rule records the status ------------------------------------------------------


def test_the_quarter_rule_makes_the_site_require_surveillance_with_its_deadline(scenario, table, site):
    play(scenario, table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, table, date(2026, 8, 1), drop=800_000)
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    status = SurveillanceStatus.objects.get(site=site)
    assert (status.required, status.trigger, status.recorded_by) == (True, "quarter_rule", None)
    assert status.since == date(2026, 10, 1)
    assert status.operational_due_on == date(2026, 11, 14)  # 45 days from September 30
    assert status.reason.startswith("ND 99-01.3-08-04:")
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    assert SurveillanceStatus.objects.filter(site=site).count() == 1


def test_a_status_the_quarter_rule_records_is_read_afresh_later_in_the_same_run(scenario, table, site):
    """A follow-up declares what it writes (`engine.FollowUp.writes`): the run forgets the
    statuses it had read when the quarter rule's follow-up records one, so what a provider reads
    after it in the same run is the site required from October 1. Every name a follow-up
    declares is one the run computes (a misspelt name would forget nothing)."""
    play(scenario, table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, table, date(2026, 8, 1), drop=800_000)
    run = RunContext()
    run_day_checks(site_ids=[site.pk], start=date(2026, 11, 1), end=date(2026, 11, 20), run=run)
    assert {name for follow_up in FOLLOW_UPS.values() for name in follow_up.writes} <= set(run.computed)

    def statuses():
        return run.per_site("surveillance_statuses", None, [site.pk], statuses_by_site, default=[])[site.pk]

    assert statuses() == []
    assert opened(run_quarter_rules(site_ids=[site.pk], quarter=Q3, run=run), "surveillance_required")
    assert [(s.required, s.since) for s in statuses()] == [(True, date(2026, 10, 1))]


def test_a_level_below_the_average_records_no_status(scenario, table, site):
    play(scenario, table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, table, date(2026, 8, 1), drop=799_998)  # averages $9,999.99
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    assert not SurveillanceStatus.objects.filter(site=site).exists()


@pytest.mark.parametrize("succeeded", [True, False])
def test_history_at_the_premises_counts_regardless_of_the_organization(
    site, table, people, manager, stranger_site, succeeded
):
    """The previous organization took $12,000 in Q2 at the premises; the new one $8,000 in Q3:
    the premises averaged $10,000, but the new site alone did not."""
    before = TableFactory(site=stranger_site, number=1, max_wager_cents=2500)
    play(Scenario(stranger_site, people), before, date(2026, 5, 1), drop=1_200_000)
    play(Scenario(site, people), table, date(2026, 8, 1), drop=800_000)
    if succeeded:
        services.record_premises_succession(
            acting_user=manager.user, site=site, predecessor=stranger_site, acquired_on=date(2026, 7, 1)
        )
    result = run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    fired = opened(result, "surveillance_required")
    assert len(fired) == int(succeeded)
    if succeeded:
        assert fired[0].figures["gross_proceeds_cents"] == [1_200_000, 800_000]
        assert SurveillanceStatus.objects.get(site=site).trigger == "quarter_rule"


# --- The 45-day deadline ------------------------------------------------------------------------


@pytest.fixture
def due(site):
    services.require_surveillance_by_rule(
        site=site,
        since=date(2026, 4, 1),
        operational_due_on=date(2026, 5, 15),
        reason="ND 99-01.3-08-04: level reached",
    )
    return date(2026, 5, 15)


@pytest.mark.parametrize(("end", "fires"), [(date(2026, 5, 15), False), (date(2026, 5, 16), True)])
def test_a_site_without_a_system_after_day_45_is_flagged(due, site, table, end, fires):
    fired = opened(run_day_checks(site_ids=[site.pk], start=date(2026, 5, 1), end=end), "surveillance_not_operational")
    assert len(fired) == int(fires)
    if fires:
        alert = fired[0]
        assert alert.citation == "ND 99-01.3-08-04" and alert.figures["tables"] == [1]
        assert "limit wagers to $2.00" in alert.action_required


def test_a_system_for_every_table_clears_the_flag(due, site, table, manager):
    for kind, on_table in (("camera", table), ("recording_unit", None)):
        services.install_equipment(
            acting_user=manager.user,
            site=site,
            table=on_table,
            kind=kind,
            make_model="Axis",
            installed_on=date(2026, 5, 10),
        )
    fired = run_day_checks(site_ids=[site.pk], start=date(2026, 5, 1), end=date(2026, 5, 16))
    assert opened(fired, "surveillance_not_operational") == []


# --- Special-event tables -----------------------------------------------------------------------


def use(site, table, dealer, first: date, days: int, *, manager=None):
    """The table on the site for a special event of `days` consecutive days (recorded by the
    gaming manager through the service), dealt on each."""
    if manager is not None:
        from surveillance.services import record_special_event

        record_special_event(
            acting_user=manager.user,
            site=site,
            name=f"Event of {first}",
            first_day=first,
            last_day=first + timedelta(days=days - 1),
        )
    for n in range(days):
        day = (
            make_day(site, first + timedelta(days=n), dealer)
            if not site.gaming_days.filter(gaming_date=first + timedelta(days=n)).exists()
            else site.gaming_days.get(gaming_date=first + timedelta(days=n))
        )
        started = at(day.gaming_date, 20)
        DealerShift.objects.create(
            table=table,
            dealer=dealer,
            gaming_day=day,
            started_at=started,
            ended_at=started + timedelta(hours=3),
            started_by=dealer,
        )


@pytest.mark.parametrize(("days", "fires"), [(14, False), (15, True)])
def test_a_special_event_table_past_fourteen_consecutive_days_is_flagged(site, cast, days, fires):
    required_by_hand(site)
    temporary = TableFactory(site=site, number=9, location="special_event")
    use(site, temporary, cast[Role.DEALER], date(2026, 7, 1), days, manager=cast[Role.GAMING_MANAGER])
    result = run_day_checks(site_ids=[site.pk], start=date(2026, 7, 1), end=date(2026, 7, 20))
    fired = opened(result, "special_event_over_limit")
    assert len(fired) == int(fires)
    if fires:  # the whole event of 15 days, once
        assert fired[0].action_required.startswith(
            "ND 99-01.3-08-04: the special event of 2026-07-01 to 2026-07-15 runs 15 consecutive days"
        )
        assert fired[0].figures["event_start"] == "2026-07-01"


@pytest.mark.parametrize(("events", "fires"), [(2, False), (3, True)])
def test_a_third_special_event_in_a_quarter_is_flagged(site, cast, events, fires):
    required_by_hand(site)
    temporary = TableFactory(site=site, number=9, location="special_event")
    for first in [date(2026, 7, 3), date(2026, 8, 7), date(2026, 9, 4)][:events]:
        use(site, temporary, cast[Role.DEALER], first, 2, manager=cast[Role.GAMING_MANAGER])
    result = run_day_checks(site_ids=[site.pk], start=date(2026, 7, 1), end=date(2026, 9, 30))
    fired = opened(result, "special_event_over_limit")
    assert len(fired) == int(fires)
    if fires:
        assert "event 3 of" in fired[0].action_required and fired[0].period_key == "2026-09-04"


def test_special_event_tables_at_a_site_not_requiring_surveillance_are_not_flagged(site, cast):
    temporary = TableFactory(site=site, number=9, location="special_event")
    use(site, temporary, cast[Role.DEALER], date(2026, 7, 1), 16, manager=cast[Role.GAMING_MANAGER])
    result = run_day_checks(site_ids=[site.pk], start=date(2026, 7, 1), end=date(2026, 7, 20))
    assert opened(result, "special_event_over_limit") == []


def test_a_special_event_table_past_its_exemption_needs_the_daily_review_log(site, cast):
    """An event of 14 days is exempt; the table of an event of 15 consecutive days is not, on any of
    them, so each day it is dealt needs the camera check of ND 99-01.3-08-04(7)."""
    required_by_hand(site)
    temporary = TableFactory(site=site, number=9, location="special_event")
    use(site, temporary, cast[Role.DEALER], date(2026, 7, 1), 14, manager=cast[Role.GAMING_MANAGER])
    use(site, temporary, cast[Role.DEALER], date(2026, 8, 3), 15, manager=cast[Role.GAMING_MANAGER])
    result = run_day_checks(site_ids=[site.pk], start=date(2026, 7, 1), end=date(2026, 8, 20))
    missing = [(a.period_key, a.figures["tables"]) for a in opened(result, "review_log_missing")]
    assert missing == [(str(date(2026, 8, 3) + timedelta(days=n)), [9]) for n in range(15)]


# --- Recordings cover play (08-04(5)(b)) --------------------------------------------------------


def record(table, day, start, stop, employee):
    return Recording.objects.create(
        table=table,
        gaming_date=day,
        started_at=start,
        stopped_at=stop,
        release_on=day + timedelta(days=31),
        operated_by=employee,
        recorded_at=datetime(2026, 8, 2, tzinfo=UTC),
    )


DAY = date(2026, 8, 1)  # opener counted at 19:00 UTC, closer at 05:00 UTC the next morning


@pytest.mark.parametrize(
    ("start_minute", "stop_minute", "gap"),
    [
        (0, 0, None),
        (1, 0, "19:00-19:01"),
        (0, -1, "04:59-05:00"),
    ],
)
def test_recordings_are_compared_with_the_opener_and_the_closer(
    scenario, site, table, cast, start_minute, stop_minute, gap
):
    required_by_hand(site)
    play(scenario, table, DAY, drop=10_000)
    record(
        table,
        DAY,
        at(DAY, 19) + timedelta(minutes=start_minute),
        at(DAY, 29) + timedelta(minutes=stop_minute),
        cast[Role.SHIFT_MANAGER],
    )
    fired = opened(run_day_checks(site_ids=[site.pk], start=DAY, end=DAY), "recording_gap")
    if gap is None:
        assert fired == []
    else:
        assert len(fired) == 1 and fired[0].citation == "ND 99-01.3-08-04(5)(b)"
        assert fired[0].figures["minutes"] == 1
        assert fired[0].action_required.startswith("ND 99-01.3-08-04(5)(b): table 1's recordings on 2026-08-01")


def test_a_one_minute_gap_between_two_recorders_is_flagged(scenario, site, table, cast):
    required_by_hand(site)
    play(scenario, table, DAY, drop=10_000)
    record(table, DAY, at(DAY, 19), at(DAY, 23), cast[Role.SHIFT_MANAGER])
    record(table, DAY, at(DAY, 23) + timedelta(minutes=1), at(DAY, 29), cast[Role.SHIFT_MANAGER])
    fired = opened(run_day_checks(site_ids=[site.pk], start=DAY, end=DAY), "recording_gap")
    assert [a.figures["minutes"] for a in fired] == [1]


def test_a_table_with_no_recording_at_all_is_flagged_and_none_is_needed_without_surveillance(scenario, site, table):
    play(scenario, table, DAY, drop=10_000)
    assert opened(run_day_checks(site_ids=[site.pk], start=DAY, end=DAY), "recording_gap") == []
    required_by_hand(site)
    fired = opened(run_day_checks(site_ids=[site.pk], start=DAY, end=DAY), "recording_gap")
    assert [a.figures["minutes"] for a in fired] == [600]
