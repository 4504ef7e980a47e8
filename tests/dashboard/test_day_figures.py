"""Per-site, per-day figure snapshots (accounting.day_figures, issue 18): closed days read from
their snapshot give exactly the live figures, and a write to one day changes that day's
snapshot (and the figures built on it) and no other."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from accounting import day_figures, dealer_hold, services, summaries
from accounting.models import BooksClose, DayFigures
from cardroom.models import Role
from core import figure_days
from core.periods import Quarter
from counts.models import CountAgreement, CountEntry
from floor.models import Slip, SlipStep
from tests.accounting.scenario import at

from .conftest import FIRST_DAY, TODAY

pytestmark = pytest.mark.django_db

START = TODAY - timedelta(weeks=13)


def _live(site):
    shifts = dealer_hold.shift_figures([site.pk], START, TODAY)
    return summaries.table_days([site.pk], START, TODAY), sorted(shifts, key=lambda s: (s.table_id, s.started_at))


def _from_snapshots(site):
    return day_figures.table_days([site.pk], START, TODAY), day_figures.shift_figures([site.pk], START, TODAY)


def _stored(site) -> dict:
    return {f.gaming_date: f for f in DayFigures.objects.filter(site=site)}


def test_closed_days_read_from_their_snapshots_equal_the_live_figures(site, make_play):
    play = make_play(3, 5)
    play.scenario.day(TODAY, closed=False)  # today's day is open: computed live beside the snapshots
    play.scenario.slip(play.tables[0], TODAY, "fill", 3_000, number=9_000)
    play.scenario.drop(play.tables[1], FIRST_DAY - timedelta(days=1), 4_000)  # a date never opened: live
    live = _live(site)
    assert live[0] and live[1]
    first = _from_snapshots(site)  # fills the snapshots
    assert first == live
    stored = _stored(site)
    assert {d for d, f in stored.items() if f.table_days is not None} == {
        FIRST_DAY + timedelta(days=i) for i in range(5)
    }
    assert _from_snapshots(site) == live  # read back from the stored snapshots
    assert summaries.daily_summaries([site], START, TODAY, snapshots=True) == summaries.daily_summaries(
        [site], START, TODAY
    )
    quarter = Quarter.containing(FIRST_DAY)
    assert summaries.quarter_summaries([site], quarter, snapshots=True) == summaries.quarter_summaries([site], quarter)


def test_a_late_slip_a_void_and_a_count_correction_change_only_their_days_snapshot(site, make_play, people):
    play = make_play(2, 4)
    _from_snapshots(site)
    before = _stored(site)
    day = FIRST_DAY + timedelta(days=2)
    table = play.tables[0]

    # A late fill on the closed day, a void of one of its credits, a count corrected after signing.
    play.scenario.slip(table, day, "fill", 7_500, number=9_001)
    credit = Slip.objects.get(gaming_day__gaming_date=day, table=table, kind="credit")
    SlipStep.objects.create(slip=credit, kind="void", employee=people["shift"], initials="SM", at=at(day, 27))
    agreement = CountAgreement.objects.filter(drop__gaming_date=day, drop__table=table).first()
    entry = CountEntry.objects.create(
        session=agreement.session,
        drop=agreement.drop,
        kind="adjustment",
        entered_by=people["count1"],
        entered_at=at(day, 40),
        total_cents=agreement.total_cents + 1_000,
    )
    CountAgreement.objects.create(
        session=agreement.session,
        drop=agreement.drop,
        entry=entry,
        source="adjustment",
        total_cents=agreement.total_cents + 1_000,
        supersedes=agreement,
        reason="recount",
        approved_by=people["shift"],
        agreed_at=at(day, 41),
    )

    after = _stored(site)
    assert after[day].table_days is None and after[day].token != before[day].token
    for other in set(before) - {day}:
        assert (after[other].token, after[other].table_days) == (before[other].token, before[other].table_days)

    live = _live(site)
    assert _from_snapshots(site) == live  # the day is computed again, the others read as stored
    refilled = _stored(site)
    row = refilled[day].table_days[str(table.pk)]
    old = before[day].table_days[str(table.pk)]
    assert row[0] == old[0] + 1_000  # drop: the corrected count
    assert row[1] == [old[1][0] + 7_500, old[1][1] - 5_000]  # fills: the late one; credits: the void one gone
    for other in set(before) - {day}:
        assert refilled[other].computed_at == before[other].computed_at


def test_an_adjustment_counts_on_the_day_it_is_recorded_without_touching_any_snapshot(site, make_play, cast, people):
    play = make_play(2, 4)
    corrected, recorded_on = FIRST_DAY, FIRST_DAY + timedelta(days=3)
    BooksClose.objects.create(
        site=site,
        gaming_date=corrected,
        closed_at=at(corrected, 40),
        closed_by=people["shift"],
        figures={},
        figures_sha256="0" * 64,
    )
    before_summary = summaries.daily_summaries([site], recorded_on, recorded_on, snapshots=True)[0]
    before = _stored(site)
    services.record_adjustment(
        acting_user=cast[Role.GAMING_MANAGER].user,
        books_close=BooksClose.objects.get(site=site, gaming_date=corrected),
        field="drop",
        amount_cents=2_500,
        table=play.tables[0],
        reason="a box found after the count",
        recorded_on=recorded_on,
    )
    assert {d: f.token for d, f in _stored(site).items()} == {d: f.token for d, f in before.items()}
    after_summary = summaries.daily_summaries([site], recorded_on, recorded_on, snapshots=True)[0]
    assert after_summary.total.drop_cents == before_summary.total.drop_cents + 2_500
    assert after_summary == summaries.daily_summaries([site], recorded_on, recorded_on)[0]


def test_a_fill_that_started_before_a_write_does_not_store_what_it_computed(site, make_play):
    make_play(1, 2)
    key = (site.pk, FIRST_DAY)
    day_figures.mark_stale(*key)
    token = DayFigures.objects.get(site=site, gaming_date=FIRST_DAY)
    computed = day_figures._compute([site.pk], FIRST_DAY, FIRST_DAY, {key})
    figure_days.day_changed(*key)  # a write commits while the read computes (the lower layers' hook)
    day_figures._forget({key})
    figure_days.day_changed(*key)
    day_figures._store(computed, {key: (token.pk, token.token)})
    stored = DayFigures.objects.get(pk=token.pk)
    assert stored.table_days is None and stored.token != token.token
    assert _from_snapshots(site) == _live(site)


def test_ending_a_dealer_shift_without_a_save_still_marks_its_day(site, make_play, cast, dealers):
    from floor.services.dealer_shifts import end_dealer_shift
    from tests.accounting.scenario import shift

    play = make_play(1, 1)
    play.scenario.day(TODAY, closed=False)
    on_shift = shift(play.scenario, play.tables[0], dealers[0], TODAY, 18, 18)
    type(on_shift).objects.filter(pk=on_shift.pk).update(ended_at=None)  # still dealing
    on_shift.refresh_from_db()
    day_figures._forget({(site.pk, TODAY)})  # as in a later transaction
    before = DayFigures.objects.get(site=site, gaming_date=TODAY).token
    end_dealer_shift(acting_user=cast[Role.SHIFT_MANAGER].user, shift=on_shift)
    assert DayFigures.objects.get(site=site, gaming_date=TODAY).token != before


def test_table_days_and_shifts_read_together_equal_each_read_alone(site, make_play):
    play = make_play(2, 4)
    play.scenario.day(TODAY, closed=False)
    together = day_figures.table_days_and_shifts([site.pk], START, TODAY)  # fills every missing snapshot once
    assert together == _from_snapshots(site) == _live(site)
    assert all(f.table_days is not None and f.shifts is not None for f in _stored(site).values())


def test_marking_a_day_stale_empties_its_snapshot_and_replaces_both_tokens_in_one_statement(site, other_site):
    """mark_stale's two upserts (the day's snapshot, the site's figures token) are one statement
    on PostgreSQL and two elsewhere; either way the same rows result, and a second mark in the
    same transaction writes nothing."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from accounting.models import DayFigures, FiguresVersion

    day = date(2026, 11, 3)
    DayFigures.objects.create(
        site=site,
        gaming_date=day,
        token="old",
        version=day_figures.VERSION,
        table_days=[],
        shifts=[],
        dealer_sums=[],
        computed_at=timezone.now(),
    )
    FiguresVersion.objects.create(site=other_site, token="theirs")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        day_figures.mark_stale(site.pk, day)
        day_figures.mark_stale(site.pk, day)  # once per site-day and transaction
    writes = [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(writes) == (1 if connection.vendor == "postgresql" else 2)
    row = DayFigures.objects.get(site=site, gaming_date=day)
    assert row.token not in ("", "old") and len(row.token) == 32
    assert (row.version, row.table_days, row.shifts, row.dealer_sums, row.computed_at) == ("", None, None, None, None)
    first = FiguresVersion.objects.get(site=site).token
    assert len(first) == 32 and FiguresVersion.objects.get(site=other_site).token == "theirs"
    day_figures.mark_stale(site.pk, day + timedelta(days=1))  # a new day: inserted, the site's token replaced
    assert DayFigures.objects.filter(site=site).count() == 2 and FiguresVersion.objects.get(site=site).token != first
