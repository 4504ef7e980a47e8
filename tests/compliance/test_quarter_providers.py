"""The quarter rules on real records: prizes over GP, low hold (opening the review program),
surveillance required, and the 12 weeks of dealer records."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cardroom.models import Role
from compliance.engine import run_day_checks, run_quarter_rules
from core.periods import Quarter
from surveillance import services as surveillance_services
from surveillance.models import ReviewProgram, SurveillanceStatus
from tests.accounting.scenario import shift
from tests.factories import TableFactory

Q3 = Quarter(2026, 3)


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)


def play(scenario, table, day, *, drop, fills=0, opener=100_000, closer=100_000, number=1):
    scenario.tray(table, day, "opener", opener)
    scenario.tray(table, day, "closer", closer)
    if fills:
        scenario.slip(table, day, "fill", fills, number=number)
    scenario.drop(table, day, drop)


def rules_of(result):
    return sorted(a.rule for a in result.opened)


def test_a_quarter_with_prizes_over_gross_proceeds_opens_the_attorney_general_alert(scenario, table, site):
    play(scenario, table, date(2026, 8, 1), drop=50_000, fills=80_000)
    result = run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    alert = next(a for a in result.opened if a.rule == "prizes_over_gp")
    assert alert.due_date == date(2026, 10, 30)
    assert alert.figures["agp_cents"] == -30_000
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []


def test_a_profitable_quarter_opens_nothing(scenario, table, site):
    play(scenario, table, date(2026, 8, 1), drop=50_000)
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []


def surveillance(site, manager):
    SurveillanceStatus.objects.create(
        site=site,
        required=True,
        since=date(2026, 1, 1),
        operational_on=date(2026, 1, 1),
        reason="required",
        recorded_by=manager.user,
        recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_low_hold_at_a_surveillance_site_opens_the_review_program(scenario, table, site, cast, time_machine):
    time_machine.move_to(datetime(2026, 10, 5, 12, tzinfo=UTC))
    surveillance(site, cast[Role.GAMING_MANAGER])
    play(scenario, table, date(2026, 8, 1), drop=100_000, opener=100_000, closer=1_000)  # AGP 1,000: hold 1%
    result = run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    assert rules_of(result) == ["low_hold_21"]
    program = ReviewProgram.objects.get(site=site)
    assert program.start_date == date(2026, 10, 5) and program.opened_by is None
    assert program.tasks.count() == 6
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    assert ReviewProgram.objects.count() == 1


def test_a_review_begun_since_the_quarter_ended_is_not_started_again_when_the_check_finds_the_low_hold(
    scenario, table, site, cast, time_machine
):
    """The gaming manager began the quarter's six weeks of review on October 1 and closed them with
    the reason documented; the check first run on December 1 opens the alert, not a second review."""
    time_machine.move_to(datetime(2026, 12, 1, 12, tzinfo=UTC))
    manager = cast[Role.GAMING_MANAGER]
    surveillance(site, manager)
    play(scenario, table, date(2026, 8, 1), drop=100_000, opener=100_000, closer=1_000)  # hold 1%
    begun = surveillance_services.open_review_program(manager.user, site, date(2026, 10, 1), "Q3 hold below 10%")
    surveillance_services.close_review_program(
        acting_user=manager.user,
        program=begun,
        closed_on=date(2026, 10, 20),
        low_hold_reason="a player's run, reviewed",
    )
    assert rules_of(run_quarter_rules(site_ids=[site.pk], quarter=Q3)) == ["low_hold_21"]
    assert list(ReviewProgram.objects.values_list("pk", flat=True)) == [begun.pk]


def test_hold_of_exactly_ten_percent_is_not_low(scenario, table, site, cast):
    surveillance(site, cast[Role.GAMING_MANAGER])
    play(scenario, table, date(2026, 8, 1), drop=100_000, opener=100_000, closer=10_000)  # AGP = 10,000
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []


def test_two_quarters_averaging_ten_thousand_dollars_require_surveillance(scenario, table, site):
    play(scenario, table, date(2026, 5, 1), drop=1_200_000)
    play(scenario, table, date(2026, 8, 1), drop=800_000)
    result = run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    alert = next(a for a in result.opened if a.rule == "surveillance_required")
    assert alert.due_date == date(2026, 9, 30) + timedelta(days=45)


def test_a_week_of_review_short_of_an_hour_is_flagged(scenario, table, site, cast, time_machine):
    time_machine.move_to(datetime(2026, 10, 5, 12, tzinfo=UTC))
    surveillance(site, cast[Role.GAMING_MANAGER])
    play(scenario, table, date(2026, 8, 1), drop=100_000, opener=100_000, closer=1_000)
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    time_machine.move_to(datetime(2026, 10, 20, 12, tzinfo=UTC))
    fired = [
        a
        for a in run_day_checks(site_ids=[site.pk], start=date(2026, 10, 1), end=date(2026, 10, 19)).opened
        if a.rule == "review_week_short"
    ]
    assert sorted(a.period_key for a in fired) == ["2026-10-05..2026-10-11", "2026-10-12..2026-10-18"]
    assert {a.figures["table"] for a in fired} == {table.number}  # the list tells them apart by table and week


def test_dealer_shifts_without_their_own_figures_are_flagged_after_prizes_over_gp(scenario, table, site, cast):
    play(scenario, table, date(2026, 8, 1), drop=50_000, fills=80_000)
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    day = date(2026, 10, 10)
    first = shift(scenario, table, cast[Role.DEALER], day, 20, 23)
    shift(scenario, table, cast[Role.PIT_BOSS], day, 23, 26)
    play(scenario, table, day, drop=10_000, number=2)  # one box for both dealers
    fired = [
        a
        for a in run_day_checks(site_ids=[site.pk], start=date(2026, 10, 1), end=date(2026, 10, 31)).opened
        if a.rule == "dealer_hold_missing"
    ]
    assert f"shift:{first.pk}" in {a.subject for a in fired}
    assert {a.figures["table"] for a in fired} == {table.number}


def test_a_run_starting_on_the_windows_last_day_still_flags_that_days_shifts(scenario, table, site, cast, time_machine):
    """ND 99-01.3-08-01(3): twelve continuous weeks, 1 October to 23 December after Q3; a run of
    the day checks from 23 December on still judges that last day's shifts."""
    play(scenario, table, date(2026, 8, 1), drop=50_000, fills=80_000)
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    time_machine.move_to(datetime(2027, 1, 5, 12, tzinfo=UTC))
    day = date(2026, 12, 23)
    first = shift(scenario, table, cast[Role.DEALER], day, 20, 23)
    shift(scenario, table, cast[Role.PIT_BOSS], day, 23, 26)
    play(scenario, table, day, drop=10_000, number=2)  # one box for both dealers
    fired = [
        a.subject
        for a in run_day_checks(site_ids=[site.pk], start=day, end=date(2026, 12, 31)).opened
        if a.rule == "dealer_hold_missing"
    ]
    assert f"shift:{first.pk}" in fired


def test_a_week_with_exactly_an_hour_of_review_is_not_short(scenario, table, site, cast, time_machine):
    """ND 99-01.3-08-04(9): "at least one hour per week" for each active table; an hour is enough."""
    time_machine.move_to(datetime(2026, 10, 5, 12, tzinfo=UTC))
    manager = cast[Role.GAMING_MANAGER]
    surveillance(site, manager)
    play(scenario, table, date(2026, 8, 1), drop=100_000, opener=100_000, closer=1_000)
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)
    task = ReviewProgram.objects.get(site=site).tasks.get(week_start=date(2026, 10, 5))
    evening = datetime(2026, 10, 6, 19, tzinfo=ZoneInfo(site.time_zone))
    time_machine.move_to(datetime(2026, 10, 7, 12, tzinfo=UTC))
    surveillance_services.record_review_entry(
        acting_user=manager.user,
        task=task,
        gaming_date=date(2026, 10, 6),
        shift_started_at=evening,
        shift_ended_at=evening + timedelta(hours=3),
        footage_start_at=evening,
        footage_end_at=evening + timedelta(minutes=60),
        reviewer=manager,
        findings="Nothing unusual",
    )
    time_machine.move_to(datetime(2026, 10, 20, 12, tzinfo=UTC))
    fired = [
        a.period_key
        for a in run_day_checks(site_ids=[site.pk], start=date(2026, 10, 1), end=date(2026, 10, 19)).opened
        if a.rule == "review_week_short"
    ]
    assert fired == ["2026-10-12..2026-10-18"]  # the week of the hour is not flagged, the next one is
