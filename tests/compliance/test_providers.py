"""Providers turn other apps' records into rule inputs, for many sites in bounded queries."""

from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.models import Role
from compliance.engine import run_day_checks
from compliance.models import Alert
from core.periods import Quarter
from floor.models import GamingDay, GamingDayClose, Slip, SlipStep


def make_day(site, gaming_date, employee, closed=True):
    day = GamingDay.objects.create(
        site=site,
        gaming_date=gaming_date,
        opened_by=employee,
        opened_at=datetime.combine(gaming_date, datetime.min.time(), tzinfo=UTC) + timedelta(hours=20),
    )
    if closed:
        GamingDayClose.objects.create(gaming_day=day, closed_by=employee, closed_at=day.opened_at + timedelta(hours=6))
    return day


def make_slip(day, table, number, employee, kind="fill", steps=("verify", "receive"), late=False):
    slip = Slip.objects.create(
        site=day.site,
        kind=kind,
        number=number,
        table=table,
        gaming_day=day,
        game="21",
        table_number=table.number,
        prepared_at=day.opened_at + timedelta(hours=1),
        prepared_by=employee,
        total_cents=10_000,
    )
    for offset, step in enumerate(steps):
        at = day.opened_at + timedelta(hours=2 + offset + (24 if late else 0))
        SlipStep.objects.create(slip=slip, kind=step, employee=employee, initials=employee.initials, at=at)
    return slip


@pytest.fixture
def day(site, cast):
    return make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])


class SlipRun:
    """The slip alerts a run opened (other rules may fire on the same bare gaming days)."""

    def __init__(self, result):
        self.opened = [a for a in result.opened if a.rule.startswith("slip_")]


def run(site, *, start=date(2026, 11, 1), end=date(2026, 11, 20)):
    return SlipRun(run_day_checks(site_ids=[site.pk], start=start, end=end))


def test_a_fully_signed_slip_raises_nothing(day, table, cast):
    make_slip(day, table, 1, cast[Role.PIT_BOSS])
    assert run(day.site).opened == []


def test_an_unverified_and_unreceived_slip_is_flagged_once(day, table, cast):
    make_slip(day, table, 1, cast[Role.PIT_BOSS], steps=())
    result = run(day.site)
    assert sorted(a.rule for a in result.opened) == ["slip_unreceived", "slip_unverified"]
    assert {a.citation for a in result.opened} == {"ND 99-01.3-08-05(5)", "ND 99-01.3-08-05(6)"}
    assert run(day.site).opened == [] and Alert.objects.filter(rule__startswith="slip_").count() == 2


def test_a_step_signed_after_the_gaming_day_closed_is_late(day, table, cast):
    make_slip(day, table, 1, cast[Role.PIT_BOSS], late=True)
    assert {a.rule for a in run(day.site).opened} == {"slip_unverified", "slip_unreceived"}


def test_a_voided_slip_needs_no_verification(day, table, cast):
    make_slip(day, table, 1, cast[Role.PIT_BOSS], steps=("void",))
    assert run(day.site).opened == []


def test_a_gap_in_the_numbers_is_flagged_per_missing_number(day, table, cast):
    for number in (1, 2, 5):
        make_slip(day, table, number, cast[Role.PIT_BOSS])
    make_slip(day, table, 1, cast[Role.PIT_BOSS], kind="credit")
    missing = sorted((a.subject, a.citation) for a in run(day.site).opened)
    assert missing == [("fill:3", "ND 99-01.3-08-05(2)"), ("fill:4", "ND 99-01.3-08-05(2)")]


def test_a_day_still_running_is_not_judged_yet(site, table, cast, time_machine):
    time_machine.move_to(datetime(2026, 11, 10, 23, tzinfo=UTC))
    open_day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER], closed=False)
    make_slip(open_day, table, 1, cast[Role.PIT_BOSS], steps=())
    assert run(site).opened == []


def test_the_slip_check_costs_the_same_queries_for_one_site_or_many(
    django_assert_num_queries, site, other_site, table, cast
):
    from tests.factories import TableFactory

    other_table = TableFactory(site=other_site, number=1)
    for s, t in ((site, table), (other_site, other_table)):
        d = make_day(s, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
        for n in range(1, 6):
            make_slip(d, t, n, cast[Role.PIT_BOSS], steps=("verify",) if n == 3 else ("verify", "receive"))
        left_open = make_day(s, date(2026, 11, 11), cast[Role.SHIFT_MANAGER], closed=False)
        make_slip(left_open, t, 6, cast[Role.PIT_BOSS], steps=())
    from compliance import providers
    from compliance.thresholds import ThresholdBook

    book = ThresholdBook(date(2026, 11, 20))
    # 2 for the signatures (the closed days judged in SQL, the days left open), 3 for the series
    # (their checkpoints, the new slips, the later ones); the checkpoints' upsert, a sixth, waits
    # until the slips settle (compliance.slip_series.SETTLE)
    with django_assert_num_queries(5):
        found = list(providers.slip_problems([site, other_site], date(2026, 11, 1), date(2026, 11, 20), book))
    assert sorted((f.site_id, f.rule, f.subject) for f in found) == sorted(
        (s.pk, rule, subject) for s in (site, other_site)
        for rule, subject in (("slip_unreceived", "fill:3"), ("slip_unreceived", "fill:6"), ("slip_unverified", "fill:6"))
    )  # fmt: skip
    assert Quarter.containing(date(2026, 11, 10)) == Quarter(2026, 4)
