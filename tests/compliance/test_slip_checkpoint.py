"""The nightly slip-series check (ND 99-01.3-08-05(2)) reads from its checkpoint, not all history."""

from datetime import date, timedelta

import pytest
import time_machine
from django.utils import timezone

from cardroom.models import Role
from compliance import slip_series
from compliance.models import Alert, SlipSeriesCheckpoint

from .test_providers import make_day, make_slip, run
from .test_slip_order_and_tips import _slip_at


def _later(hours=1):
    """Past the settling time of the slips just entered (slip_series.SETTLE)."""
    return time_machine.travel(timezone.now() + slip_series.SETTLE + timedelta(hours=hours), tick=False)


@pytest.fixture
def boss(cast):
    return cast[Role.PIT_BOSS]


@pytest.fixture
def first_night(site, table, cast, boss):
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    for number in range(1, 6):
        make_slip(day, table, number, boss)
    with _later():
        assert run(site).opened == []
    checkpoint = SlipSeriesCheckpoint.objects.get(site=site, kind="fill")
    assert (checkpoint.highest_number, checkpoint.checked_through) == (5, date(2026, 11, 20))
    return make_day(site, date(2026, 11, 11), cast[Role.SHIFT_MANAGER])


def _missing():
    return sorted(a.subject for a in Alert.objects.filter(rule="slip_missing"))


def test_a_gap_straddling_the_checkpoint_is_found(first_night, site, table, boss):
    make_slip(first_night, table, 8, boss)
    with _later(2):
        run(site)
    assert _missing() == ["fill:6", "fill:7"]


def test_a_gap_after_the_checkpoint_is_found(first_night, site, table, boss):
    for number in (6, 7, 10):
        make_slip(first_night, table, number, boss)
    with _later(2):
        run(site)
    assert _missing() == ["fill:8", "fill:9"]


def test_the_check_reads_only_the_slips_after_the_checkpoint(first_night, site, table, boss):
    for number in (6, 7):
        make_slip(first_night, table, number, boss)
    checkpoints = slip_series._checkpoints({site.pk: site}, date(2026, 11, 20))
    read = slip_series._new_slips_query({site.pk: site}, date(2026, 11, 20), checkpoints).values_list(
        "number", flat=True
    )
    assert sorted(read) == [6, 7]


def test_the_read_bounds_each_series_by_its_loaded_checkpoint_without_a_subquery_per_row(
    first_night, site, table, boss
):
    make_slip(first_night, table, 6, boss)
    end = date(2026, 11, 20)
    checkpoints = slip_series._checkpoints({site.pk: site}, end)
    query = slip_series._new_slips_query({site.pk: site}, end, checkpoints)
    assert "slipseriescheckpoint" not in str(query.query).lower()  # the checkpoints are already loaded
    # the checkpoint as loaded decides: moved back in memory only, slips 4 and 5 are read again
    # (below its highest number, 5, so judged by the subquery: 4 was prepared before 5, not late)
    fill = checkpoints[slip_series.series_key(site.pk, "fill")]
    fill.last_slip_id = site.slips.get(kind="fill", number=3).pk
    read = slip_series._new_slips_query({site.pk: site}, end, checkpoints).values_list("number", "late_low")
    assert sorted(read) == [(4, False), (5, False), (6, False)]


def test_a_late_slip_below_the_checkpoint_prepared_after_a_higher_number_is_out_of_order(
    first_night, site, table, boss
):
    day = first_night
    _slip_at(day, table, 6, boss, 1)
    with _later(2):
        run(site)
    _slip_at(day, table, 9, boss, 3)  # entered later, prepared after 6
    _slip_at(day, table, 7, boss, 4)  # 7 used after 9
    _slip_at(day, table, 8, boss, 5)
    with _later(3):
        run(site)
    flagged = sorted(a.subject for a in Alert.objects.filter(rule="slip_out_of_order"))
    assert flagged == ["fill:7", "fill:8"]
    assert _missing() == []


def test_a_past_period_reads_the_whole_series_and_leaves_the_checkpoint(first_night, site, table, boss):
    before = SlipSeriesCheckpoint.objects.get(site=site, kind="fill").last_slip_id
    with _later(2):
        run(site, start=date(2026, 11, 1), end=date(2026, 11, 12))
    assert SlipSeriesCheckpoint.objects.get(site=site, kind="fill").last_slip_id == before


def test_a_number_below_the_checkpoint_used_after_a_higher_one_is_out_of_order(site, table, cast, boss):
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    for hours, number in ((1, 1), (2, 2), (3, 4), (4, 5)):
        _slip_at(day, table, number, boss, hours)
    with _later():
        run(site)
    assert _missing() == ["fill:3"]
    _slip_at(make_day(site, date(2026, 11, 11), cast[Role.SHIFT_MANAGER]), table, 3, boss, 1)
    with _later(2):
        run(site)
    assert [a.subject for a in Alert.objects.filter(rule="slip_out_of_order")] == ["fill:3"]


def test_a_checkpoint_does_not_pass_slips_entered_moments_ago(site, table, cast, boss):
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    slips = [make_slip(day, table, number, boss) for number in (1, 2, 3)]
    run(site)
    assert not SlipSeriesCheckpoint.objects.filter(site=site).exists()  # their ids may still have gaps in flight
    with _later():
        run(site)
    assert SlipSeriesCheckpoint.objects.get(site=site, kind="fill").last_slip_id == slips[-1].pk
