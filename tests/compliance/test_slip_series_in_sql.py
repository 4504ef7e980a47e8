"""The slip-series check (ND 99-01.3-08-05(2)) is judged by the database (window functions over
each series, compliance.slip_series._JUDGE_SQL); these random series are judged by the plain
reading of the rule as well, and both must agree, from all history and from a checkpoint."""

import random
from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.models import Role
from compliance import slip_series
from compliance.models import SlipSeriesCheckpoint
from floor.calculations import check_series
from floor.models import Slip, SlipBook
from tests.factories import TableFactory, make_person

from .test_providers import make_day
from .test_slip_checkpoint import _later

FIRST_DAY = date(2026, 11, 2)


def _series(rng: random.Random, first: int, count: int) -> list[int]:
    """Numbers first..first+count-1 with some left out (gaps), in an order of use that mostly
    rises, with some numbers used after higher ones."""
    numbers = [n for n in range(first, first + count) if rng.random() > 0.15]
    for _ in range(rng.randint(0, 4)):
        i, j = sorted(rng.sample(range(len(numbers)), 2))
        numbers[i], numbers[j] = numbers[j], numbers[i]
    return numbers


def _book(site, kind, employee) -> SlipBook:
    """The site's book of pre-printed slips of `kind`: a printed number is used when its paper
    says (an electronic number when it is drawn, floor.queries.NUMBER_USED_AT)."""
    book = SlipBook.objects.filter(site=site, kind=kind).first()
    return book or SlipBook.objects.create(site=site, kind=kind, first_number=1, last_number=10_000,
                                           registered_at=timezone.now(), registered_by=employee)  # fmt: skip


def _enter(site, table, employee, days, kind, numbers, rng, hour0=0):
    """Printed slips of `numbers` entered in that order, spread over `days`; some prepared at the
    same moment as the one before. Returned in their order of use: by preparation, and slips of
    the same moment by their printed numbers (never by the order they were entered)."""
    entered, hour, book = [], hour0, _book(site, kind, employee)
    for i, number in enumerate(numbers):
        day = days[min(len(days) - 1, i * len(days) // len(numbers))]
        hour += 0 if rng.random() < 0.1 else 1
        prepared_at = day.opened_at + timedelta(minutes=hour)
        Slip.objects.create(site=site, kind=kind, number=number, table=table, gaming_day=day, game="21",
                            table_number=table.number, prepared_at=prepared_at, slip_book=book,
                            prepared_by=employee, total_cents=10_000)  # fmt: skip
        entered.append((prepared_at, number, day.gaming_date))
    return [(number, day) for _, number, day in sorted(entered)]


def _reference(
    used: list[tuple[int, date]], start: date, end: date, *, high: int | None = None, before: list[int] = ()
) -> set:
    """The rule read plainly: `used` the new slips in order of use, `high` the checkpoint's
    highest (None: the whole series is new) and `before` the numbers used before the checkpoint."""
    day_of = dict(used)
    above = [n for n, _ in used if high is None or n > high]
    found = set()
    ordered = sorted(above) if high is None else [high, *sorted(above)]
    low = start if high is None else date.min
    for a, b in zip(ordered, ordered[1:], strict=False):
        found |= {(n, "missing", day_of[b]) for n in range(a + 1, b) if low <= day_of[b] <= end}
    late = set(check_series(above).out_of_order)
    # a new number below the checkpoint's highest: out of order if a higher number was used before it
    seen = list(before)
    for n, _ in used:
        if high is not None and n < high and any(m > n for m in seen):
            late.add(n)
        seen.append(n)
    found |= {(n, "out_of_order", day_of[n]) for n in late if low <= day_of[n] <= end}
    return found


def _judged(site, start, end) -> dict[str, set]:
    """The run's findings by series (one run judges both series, and moves their checkpoints)."""
    found = {"fill": set(), "credit": set()}
    for f in slip_series.series_problems({site.pk: site}, start, end):
        found[f.series].add((f.number, f.problem, f.gaming_date))
    return found


@pytest.mark.parametrize("seed", range(8))
def test_random_series_are_judged_as_the_rule_reads(seed, site, table, cast):
    rng = random.Random(seed)
    manager, boss = cast[Role.SHIFT_MANAGER], cast[Role.PIT_BOSS]
    days = [make_day(site, FIRST_DAY + timedelta(days=n), manager) for n in range(8)]
    first = {
        kind: _enter(site, table, boss, days[:4], kind, _series(rng, 1, rng.randint(5, 30)), rng)
        for kind in ("fill", "credit")
    }
    start, end = FIRST_DAY + timedelta(days=1), FIRST_DAY + timedelta(days=3)  # the first day is outside
    with _later():
        judged = _judged(site, start, end)
    for kind, used in first.items():
        assert judged[kind] == _reference(used, start, end), kind
    for kind, used in first.items():
        checkpoint = SlipSeriesCheckpoint.objects.get(site=site, kind=kind)
        assert checkpoint.highest_number == max(n for n, _ in used)

    # From the checkpoint: new numbers above it (gaps, one straddling it), and some below it.
    later = {}
    for kind, used in first.items():
        high = max(n for n, _ in used)
        unused_below = [n for n in range(1, high) if n not in dict(used)]
        numbers = _series(rng, high + rng.randint(1, 3), rng.randint(3, 20))
        for n in rng.sample(unused_below, min(len(unused_below), 2)):
            numbers.insert(rng.randrange(len(numbers) + 1), n)
        later[kind] = (high, [n for n, _ in used], _enter(site, table, boss, days[4:], kind, numbers, rng, 500))
    end = FIRST_DAY + timedelta(days=7)
    with _later(2):
        judged = _judged(site, end, end)
    for kind, (high, before, used) in later.items():
        assert judged[kind] == _reference(used, end, end, high=high, before=before), kind


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the read per series is PostgreSQL's (LATERAL)")
@pytest.mark.parametrize("seed", range(3))
def test_the_read_per_series_returns_the_rows_of_the_read_of_all_series(seed, site, stranger_site, table, cast):
    """With no checkpoint, PostgreSQL reads each series on its own (_JUDGE_BY_SERIES_SQL): the
    same rows as _JUDGE_SQL over all the series at once, for two sites of random series."""
    rng = random.Random(seed)
    other_table = TableFactory(site=stranger_site, number=1)
    for where, on_table in ((site, table), (stranger_site, other_table)):
        boss = make_person(where.organization, Role.PIT_BOSS, where)
        days = [
            make_day(where, FIRST_DAY + timedelta(days=n), make_person(where.organization, Role.SHIFT_MANAGER, where))
            for n in range(3)
        ]
        for kind in ("fill", "credit"):
            _enter(where, on_table, boss, days, kind, _series(rng, 1, rng.randint(5, 30)), rng)
    by_id, end = {site.pk: site, stranger_site.pk: stranger_site}, FIRST_DAY + timedelta(days=rng.randint(1, 2))
    with CaptureQueriesContext(connection) as queries:
        per_series = slip_series._judged_rows(by_id, end, {})
    assert "LATERAL" in queries.captured_queries[-1]["sql"]
    sql, params = slip_series._judge_sql(by_id, end, {}, timezone.now() - slip_series.SETTLE)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        together = cursor.fetchall()
    assert len(per_series) == len(together) > 4
    assert sorted(per_series) == sorted(slip_series._judged(together))


def test_a_series_with_nothing_wrong_comes_back_as_one_row_and_its_totals(site, table, cast):
    """Only the slips that start a series, follow a gap or were used out of order come back, and
    the last (the series' totals)."""
    days = [make_day(site, FIRST_DAY, cast[Role.SHIFT_MANAGER])]
    _enter(site, table, cast[Role.PIT_BOSS], days, "fill", list(range(1, 41)), random.Random(1))
    rows = slip_series._judged_rows({site.pk: site}, FIRST_DAY, slip_series._checkpoints({site.pk: site}, FIRST_DAY))
    assert [(r.number, r.flagged, r.last) for r in rows] == [(1, True, False), (40, False, True)]
    assert rows[1].high_id_before < rows[1].id


@pytest.mark.parametrize(("entered", "late"), [
    ((1, 3, 2, 4), set()),  # #3 and #2 prepared together, #3 entered first
    ((1, 4, 2, 3), set()),  # #4 entered first of three prepared together
    ((1, 2, 3, 4), set()),  # prepared together, entered in order
])  # fmt: skip
def test_slips_prepared_at_the_same_moment_are_judged_by_their_printed_numbers(site, table, cast, entered, late):
    """Paper slips of one minute are entered table by table, in any order: slips prepared at the
    same moment are judged by their printed numbers, not by the order they were entered, so no
    slip of the minute is flagged out of order (ND 99-01.3-08-05(2))."""
    day = make_day(site, FIRST_DAY, cast[Role.SHIFT_MANAGER])
    together, book = day.opened_at + timedelta(hours=1), _book(site, "fill", cast[Role.PIT_BOSS])
    for number in entered:
        Slip.objects.create(site=site, kind="fill", number=number, table=table, gaming_day=day, game="21",
                            table_number=table.number, prepared_by=cast[Role.PIT_BOSS], total_cents=10_000,
                            prepared_at=day.opened_at if number == 1 else together, slip_book=book)  # fmt: skip
    with _later():
        judged = _judged(site, FIRST_DAY, FIRST_DAY)
    assert judged["fill"] == {(n, "out_of_order", FIRST_DAY) for n in late}
