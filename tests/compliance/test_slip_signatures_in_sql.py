"""ND 99-01.3-08-05(5)/(6) judged in the database: a slip of a closed day comes back only when it
is flagged, its day's end being the close; a day not closed ends at the next business day's
start in the site's time zone (compliance.providers.slip_problems, issue 18)."""

import itertools
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.models import Role
from compliance import providers, rules
from compliance.thresholds import ThresholdBook
from floor.calculations import gaming_day_bounds
from floor.models import GamingDay, GamingDayClose, Slip, SlipStep
from floor.rules import unverified_note
from tests.factories import TableFactory

from .test_providers import make_day

UNVERIFIED_NOTE = unverified_note("ND")  # the receipt's note at the North Dakota sites of these tests

DAY = date(2026, 11, 10)
SIGNATURE_RULES = ("slip_unverified", "slip_unreceived")


def _slip(day, table, number, employee, steps: dict, kind="fill"):
    """A slip with steps {kind: (at, reason)}."""
    slip = Slip.objects.create(site=day.site, kind=kind, number=number, table=table, gaming_day=day, game="21",
                               table_number=table.number, prepared_at=day.opened_at + timedelta(hours=1),
                               prepared_by=employee, total_cents=10_000)  # fmt: skip
    SlipStep.objects.bulk_create(
        SlipStep(slip=slip, kind=step, employee=employee, initials=employee.initials, at=at, reason=reason)
        for step, (at, reason) in steps.items()
    )
    return slip


def _signature_findings(sites, start=date(2026, 11, 1), end=date(2026, 11, 20)):
    findings = providers.slip_problems(sites, start, end, ThresholdBook(end))
    return [f for f in findings if f.rule in SIGNATURE_RULES]


def _flags(sites):
    return sorted((f.rule, f.subject) for f in _signature_findings(sites))


@pytest.fixture
def closed_day(site, cast):
    return make_day(site, DAY, cast[Role.SHIFT_MANAGER])


def _closed_at(day):
    return day.close.closed_at


def test_a_slip_verified_after_the_close_is_flagged_unverified(closed_day, table, cast):
    end = _closed_at(closed_day)
    _slip(
        closed_day,
        table,
        1,
        cast[Role.PIT_BOSS],
        {"verify": (end + timedelta(minutes=1), ""), "receive": (end - timedelta(hours=1), "")},
    )
    _slip(
        closed_day, table, 2, cast[Role.PIT_BOSS], {"verify": (end, ""), "receive": (end, "")}
    )  # at the close: in time
    assert _flags([closed_day.site]) == [("slip_unverified", "fill:1")]


def test_a_voided_slip_is_not_flagged_even_when_voided_after_the_close(closed_day, table, cast):
    end = _closed_at(closed_day)
    _slip(closed_day, table, 1, cast[Role.PIT_BOSS], {"void": (end + timedelta(hours=2), "torn")})
    _slip(closed_day, table, 2, cast[Role.PIT_BOSS], {})
    assert _flags([closed_day.site]) == [("slip_unreceived", "fill:2"), ("slip_unverified", "fill:2")]


def test_an_exempt_receipt_is_not_flagged_unverified(closed_day, table, cast):
    end = _closed_at(closed_day)
    _slip(closed_day, table, 1, cast[Role.PIT_BOSS], {"receive": (end - timedelta(hours=1), UNVERIFIED_NOTE)})
    _slip(closed_day, table, 2, cast[Role.PIT_BOSS], {"receive": (end + timedelta(hours=1), UNVERIFIED_NOTE)})
    _slip(closed_day, table, 3, cast[Role.PIT_BOSS], {"receive": (end - timedelta(hours=1), "no one around")})
    assert _flags([closed_day.site]) == [("slip_unreceived", "fill:2"), ("slip_unverified", "fill:3")]


def test_a_day_not_closed_ends_at_the_next_business_days_start(site, table, cast, time_machine):
    # Elks Lodge: America/Chicago, gaming days from 06:00; 11 November 06:00 CST is 12:00 UTC.
    day = make_day(site, DAY, cast[Role.SHIFT_MANAGER], closed=False)
    end = datetime(2026, 11, 11, 12, tzinfo=UTC)
    assert gaming_day_bounds(DAY, site.time_zone, site.business_day_start_hour)[1] == end
    _slip(day, table, 1, cast[Role.PIT_BOSS], {"verify": (end - timedelta(minutes=1), ""), "receive": (end, "")})
    _slip(
        day,
        table,
        2,
        cast[Role.PIT_BOSS],
        {"verify": (end + timedelta(minutes=1), ""), "receive": (end - timedelta(hours=3), "")},
    )
    time_machine.move_to(end - timedelta(minutes=5), tick=False)
    assert _flags([site]) == []  # the day is still running
    time_machine.move_to(end + timedelta(hours=1), tick=False)
    assert _flags([site]) == [("slip_unverified", "fill:2")]


# --- the same findings as the pass in Python it replaced -------------------------------------------


def _python_pass(sites, start, end, now):
    """The judgement as it was made in Python before issue 18 (every slip and step fetched)."""
    by_id = {s.pk: s for s in sites}
    slips = Slip.objects.filter(site_id__in=by_id, gaming_day__gaming_date__range=(start, end)).values_list(
        "pk", "site_id", "kind", "number", "gaming_day__gaming_date", "gaming_day__close__closed_at"
    )
    steps, exempt = defaultdict(dict), set()
    rows = SlipStep.objects.filter(slip__site_id__in=by_id, slip__gaming_day__gaming_date__range=(start, end))
    for slip_id, kind, at, reason in rows.values_list("slip_id", "kind", "at", "reason"):
        steps[slip_id][kind] = at
        if kind == "receive" and reason == UNVERIFIED_NOTE:
            exempt.add(slip_id)
    found = []
    for slip_id, site_id, slip_kind, number, gaming_date, closed_at in slips:
        site = by_id[site_id]
        day_end = closed_at or gaming_day_bounds(gaming_date, site.time_zone, site.business_day_start_hour)[1]
        done = steps[slip_id]
        if "void" in done or day_end > now:
            continue
        for kind, problem in (("verify", "unverified"), ("receive", "unreceived")):
            if kind == "verify" and slip_id in exempt:
                continue
            if kind not in done or done[kind] > day_end:
                found.append(rules.SlipException(site_id, gaming_date, slip_kind, number, problem))
    return rules.slip_exceptions(found, at=by_id)


STEP_TIMES = {"none": None, "before": -timedelta(hours=1), "at": timedelta(0), "after": timedelta(hours=1)}


def test_the_database_judges_the_same_slips_as_the_python_pass_did(site, other_site, table, cast, time_machine):
    now = datetime(2026, 11, 12, 1, tzinfo=UTC)
    time_machine.move_to(now, tick=False)
    other_site.time_zone, other_site.business_day_start_hour = "America/Denver", 10
    other_site.save()
    tables = {site.pk: table, other_site.pk: TableFactory(site=other_site, number=1)}
    manager, boss = cast[Role.SHIFT_MANAGER], cast[Role.PIT_BOSS]
    days = [
        make_day(s, d, manager, closed=closed)
        for s in (site, other_site)
        for d, closed in (
            (date(2026, 11, 7), False),
            (date(2026, 11, 8), True),
            (date(2026, 11, 10), True),
            (date(2026, 11, 11), False),
        )
    ]
    late_close = make_day(site, date(2026, 11, 9), manager, closed=False)
    GamingDayClose.objects.create(gaming_day=late_close, closed_by=manager, closed_at=now + timedelta(hours=1))
    numbers = defaultdict(int)
    combinations = list(itertools.product(STEP_TIMES, STEP_TIMES, (False, True), (False, True), ("fill", "credit")))
    for day in GamingDay.objects.filter(pk__in=[d.pk for d in (*days, late_close)]).select_related("close", "site"):
        site_of, closed = day.site, getattr(day, "close", None)
        end = (
            closed.closed_at
            if closed
            else gaming_day_bounds(day.gaming_date, site_of.time_zone, site_of.business_day_start_hour)[1]
        )
        for verify, receive, noted, voided, kind in combinations:
            steps = {}
            if STEP_TIMES[verify] is not None:
                steps["verify"] = (end + STEP_TIMES[verify], "")
            if STEP_TIMES[receive] is not None:
                steps["receive"] = (end + STEP_TIMES[receive], UNVERIFIED_NOTE if noted else "")
            if voided:
                steps["void"] = (end + timedelta(minutes=30), "torn")
            numbers[site_of.pk, kind] += 1
            _slip(day, tables[site_of.pk], numbers[site_of.pk, kind], boss, steps, kind=kind)
    start, last = date(2026, 11, 1), date(2026, 11, 20)
    expected = _python_pass([site, other_site], start, last, now)
    assert len(expected) > 100 and {f.rule for f in expected} == set(SIGNATURE_RULES)
    assert _signature_findings([site, other_site], start, last) == expected
