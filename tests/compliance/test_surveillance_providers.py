"""Surveillance-based rules on real surveillance and accounting rows."""

from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.models import Role
from compliance.engine import run_day_checks
from floor.models import DealerShift
from surveillance.models import (
    EquipmentChange,
    Outage,
    OutageRepair,
    ReviewLogEntry,
    SampleSubmission,
    SurveillanceStatus,
)
from tests.compliance.test_providers import make_day


@pytest.fixture
def surveillance_site(site, cast):
    SurveillanceStatus.objects.create(
        site=site,
        required=True,
        since=date(2026, 1, 1),
        operational_on=date(2026, 1, 1),
        reason="GP over $10,000",
        recorded_by=cast[Role.GAMING_MANAGER].user,
        recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    return site


def deal(day, table, dealer, start_hour=20, hours=4):
    started = datetime.combine(day.gaming_date, datetime.min.time(), tzinfo=UTC) + timedelta(hours=start_hour)
    return DealerShift.objects.create(
        table=table,
        dealer=dealer,
        gaming_day=day,
        started_at=started,
        ended_at=started + timedelta(hours=hours),
        started_by=dealer,
    )


def log(site, table, gaming_date, employee):
    ReviewLogEntry.objects.create(
        site=site,
        table=table,
        gaming_date=gaming_date,
        camera_recording=True,
        unobstructed_view=True,
        clear_picture=True,
        reviewed_by=employee,
        reviewed_at=datetime.combine(gaming_date, datetime.min.time(), tzinfo=UTC) + timedelta(days=1),
    )


def rules_fired(site, start=date(2026, 11, 1), end=date(2026, 11, 20)):
    return sorted(
        (a.rule, a.period_key, tuple(a.figures.get("tables", ())))
        for a in run_day_checks(site_ids=[site.pk], start=start, end=end).opened
    )


def test_a_dealt_table_without_a_review_log_is_flagged(surveillance_site, table, cast):
    from tests.factories import TableFactory

    second = TableFactory(site=surveillance_site, number=2)
    day = make_day(surveillance_site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])
    deal(day, second, cast[Role.DEALER])
    log(surveillance_site, table, day.gaming_date, cast[Role.SHIFT_MANAGER])
    assert [r for r in rules_fired(surveillance_site) if r[0] == "review_log_missing"] == [
        ("review_log_missing", "2026-11-10", (2,))
    ]


def test_no_review_log_is_needed_where_surveillance_is_not_required(site, table, cast):
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])
    assert [r for r in rules_fired(site) if r[0] == "review_log_missing"] == []


def test_a_special_event_table_is_exempt_from_the_review_log(surveillance_site, cast):
    from surveillance.services import record_special_event
    from tests.factories import TableFactory

    temporary = TableFactory(site=surveillance_site, number=7, location="special_event")
    record_special_event(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=surveillance_site,
        name="Fair",
        first_day=date(2026, 11, 9),
        last_day=date(2026, 11, 12),
    )
    day = make_day(surveillance_site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    deal(day, temporary, cast[Role.DEALER])
    assert [r for r in rules_fired(surveillance_site) if r[0] == "review_log_missing"] == []


def outage(table, began, manager, repaired=None):
    o = Outage.objects.create(
        table=table, kind="camera", began_at=began, description="blurred", reported_by=manager, reported_at=began
    )
    if repaired:
        OutageRepair.objects.create(
            outage=o, repaired_at=repaired, description="fixed", recorded_by=manager, recorded_at=repaired
        )
    return o


def test_an_unrepaired_outage_past_its_deadline_with_dealing_above_two_dollars_is_flagged(
    surveillance_site, table, cast, time_machine
):
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    outage(table, datetime(2026, 11, 1, 20, tzinfo=UTC), cast[Role.GAMING_MANAGER].user)
    day = make_day(surveillance_site, date(2026, 11, 9), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])  # dealt on the 9th, after the 4-calendar-day deadline
    fired = [r for r in rules_fired(surveillance_site) if r[0] == "outage_operating"]
    assert len(fired) == 1


def test_an_outage_repaired_in_time_raises_nothing(surveillance_site, table, cast, time_machine):
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    outage(
        table,
        datetime(2026, 11, 1, 20, tzinfo=UTC),
        cast[Role.GAMING_MANAGER].user,
        repaired=datetime(2026, 11, 2, 20, tzinfo=UTC),
    )
    day = make_day(surveillance_site, date(2026, 11, 9), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])
    assert [r for r in rules_fired(surveillance_site) if r[0] == "outage_operating"] == []


def test_a_shift_ending_at_the_outage_deadline_did_not_deal_after_it(surveillance_site, table, cast, time_machine):
    """ND 99-01.3-08-04(7): the deadline is four calendar days after the outage began (1 November
    20:00 UTC, so 5 November 20:00); a shift that ends at that moment dealt nothing after it."""
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    outage(table, datetime(2026, 11, 1, 20, tzinfo=UTC), cast[Role.GAMING_MANAGER].user)
    day = make_day(surveillance_site, date(2026, 11, 5), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER], start_hour=16, hours=4)  # 16:00 to 20:00 UTC
    assert [r for r in rules_fired(surveillance_site) if r[0] == "outage_operating"] == []
    deal(day, table, cast[Role.DEALER], start_hour=20, hours=1)  # one more hour: past the deadline
    assert [r[0] for r in rules_fired(surveillance_site)].count("outage_operating") == 1


def test_a_shift_starting_at_the_late_repair_did_not_deal_before_it(surveillance_site, table, cast, time_machine):
    """ND 99-01.3-08-04(7): repaired late (9 November 20:00 UTC, past the 5 November deadline), but
    the table dealt only from the repair on: it never operated with the equipment down."""
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    outage(
        table,
        datetime(2026, 11, 1, 20, tzinfo=UTC),
        cast[Role.GAMING_MANAGER].user,
        repaired=datetime(2026, 11, 9, 20, tzinfo=UTC),
    )
    day = make_day(surveillance_site, date(2026, 11, 9), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])  # from 20:00 UTC, the moment of the repair
    assert [r for r in rules_fired(surveillance_site) if r[0] == "outage_operating"] == []


def test_a_table_limited_to_two_dollars_after_the_deadline_is_allowed(surveillance_site, table, cast, time_machine):
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    type(table).objects.filter(pk=table.pk).update(min_wager_cents=100, max_wager_cents=200)
    outage(table, datetime(2026, 11, 1, 20, tzinfo=UTC), cast[Role.GAMING_MANAGER].user)
    day = make_day(surveillance_site, date(2026, 11, 9), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])
    assert [r for r in rules_fired(surveillance_site) if r[0] == "outage_operating"] == []


@pytest.mark.parametrize("submitted_after_days,fires", [(14, False), (15, True), (None, True)])
def test_a_video_sample_later_than_fourteen_days_is_flagged(
    surveillance_site, table, cast, time_machine, submitted_after_days, fires
):
    time_machine.move_to(datetime(2026, 11, 30, 12, tzinfo=UTC))
    manager = cast[Role.GAMING_MANAGER].user
    change = EquipmentChange.objects.create(
        site=surveillance_site,
        table=table,
        kind="installed",
        changed_on=date(2026, 11, 2),
        sample_due_on=date(2026, 11, 16),
        recorded_by=manager,
        recorded_at=datetime(2026, 11, 2, tzinfo=UTC),
    )
    if submitted_after_days is not None:
        SampleSubmission.objects.create(
            change=change,
            submitted_on=date(2026, 11, 2) + timedelta(days=submitted_after_days),
            recorded_by=manager,
            recorded_at=datetime(2026, 11, 20, tzinfo=UTC),
        )
    fired = [r for r in rules_fired(surveillance_site, end=date(2026, 11, 29)) if r[0] == "sample_late"]
    assert bool(fired) == fires


def test_a_gaming_day_without_a_deposit_is_flagged_after_the_third_banking_day(site, table, cast, time_machine):
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    make_day(site, date(2026, 11, 18), cast[Role.SHIFT_MANAGER])  # due the 23rd: not late yet
    late = [
        a
        for a in run_day_checks(site_ids=[site.pk], start=date(2026, 11, 1), end=date(2026, 11, 19)).opened
        if a.rule == "deposit_late"
    ]
    assert [(a.period_key, a.due_date) for a in late] == [("2026-11-10", date(2026, 11, 16))]  # Veterans Day skipped
    assert late[0].citation == "ND 99-01.3-03-10(1)"


def test_the_day_rules_cost_the_same_queries_for_one_site_or_many(
    surveillance_site, other_site, table, cast, django_assert_max_num_queries
):
    from compliance.engine import DAY_PROVIDERS
    from compliance.thresholds import ThresholdBook
    from tests.factories import TableFactory

    book = ThresholdBook(date(2026, 11, 20))
    for s, t in ((surveillance_site, table), (other_site, TableFactory(site=other_site, number=1))):
        day = make_day(s, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
        deal(day, t, cast[Role.DEALER])
        outage(t, datetime(2026, 11, 1, 20, tzinfo=UTC), cast[Role.GAMING_MANAGER].user)

    def count(sites):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            for provider in DAY_PROVIDERS:
                list(provider(sites, date(2026, 11, 1), date(2026, 11, 20), book))
        return len(captured)

    assert count([surveillance_site]) == count([surveillance_site, other_site])


def test_count_exceptions_are_flagged_once_their_time_has_passed(site, table, cast, time_machine):
    from counts.models import CountEntry, CountSession, Drop, DropBox, DropRemoval
    from tests.factories import make_person

    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    shift_manager, count1 = cast[Role.SHIFT_MANAGER], cast[Role.COUNT_TEAM]
    count2 = make_person(site.organization, Role.COUNT_TEAM, site, employment_type="independent")
    box = DropBox.objects.create(site=site, table=table, number=table.number)
    day = date(2026, 11, 10)
    placed = datetime(2026, 11, 10, 20, tzinfo=UTC)
    Drop.objects.create(
        site=site, drop_box=box, table=table, gaming_date=day, placed_at=placed, placed_by=shift_manager
    )
    disputed = Drop.objects.create(
        site=site,
        drop_box=box,
        table=table,
        gaming_date=date(2026, 11, 11),
        placed_at=placed + timedelta(days=1),
        placed_by=shift_manager,
    )
    DropRemoval.objects.create(
        drop=disputed,
        removed_at=placed + timedelta(days=1, hours=6),
        transported_by=shift_manager,
        sole_employee_on_duty=True,
        storage_place="safe",
        key_holder=count1,
        recorded_at=placed + timedelta(days=1, hours=6),
    )
    session = CountSession.objects.create(
        site=site,
        gaming_date=date(2026, 11, 11),
        first_member=count1,
        second_member=count2,
        opened_by=count1,
        opened_at=placed + timedelta(days=2),
    )
    for member, total in ((count1, 10_000), (count2, 12_000)):
        CountEntry.objects.create(
            session=session,
            drop=disputed,
            kind="member",
            entered_by=member,
            entered_at=placed + timedelta(days=2),
            total_cents=total,
        )
    fired = sorted(
        (a.rule, a.period_key)
        for a in run_day_checks(site_ids=[site.pk], start=date(2026, 11, 1), end=date(2026, 11, 19)).opened
        if a.rule.startswith("count_")
    )
    assert fired == [
        ("count_not_counted", "2026-11-10"),
        ("count_not_removed", "2026-11-10"),
        ("count_unresolved", "2026-11-11"),
    ]


def test_an_outage_alert_gives_its_days_and_deadline_in_the_sites_time_zone(
    surveillance_site, table, cast, time_machine
):
    """An outage reported at 21:00 on 1 November in Chicago (03:00 on the 2nd in UTC): the alert's
    period begins on the 1st and its words give the deadline on the site's clock."""
    from compliance.models import Alert

    assert surveillance_site.time_zone == "America/Chicago"
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    outage(table, datetime(2026, 11, 2, 3, tzinfo=UTC), cast[Role.GAMING_MANAGER].user)
    day = make_day(surveillance_site, date(2026, 11, 9), cast[Role.SHIFT_MANAGER])
    deal(day, table, cast[Role.DEALER])
    assert [r[0] for r in rules_fired(surveillance_site)].count("outage_operating") == 1
    alert = Alert.objects.get(rule="outage_operating")
    assert alert.period_start == date(2026, 11, 1)
    assert "not repaired by 2026-11-05 09:00 PM" in alert.action_required
