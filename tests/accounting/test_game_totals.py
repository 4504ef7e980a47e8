"""A quarter's totals per site and game summed by the database (summaries.game_totals) equal the
quarter summary's `twenty_one` and `paddlewheel`, built day by day, to the cent."""

from datetime import UTC, date, datetime

import pytest

from accounting import figures, services, summaries
from accounting.figures import Custody
from accounting.models import BooksClose
from cardroom.models import Role
from core.periods import Quarter
from tests.factories import TableFactory

Q3 = Quarter(2026, 3)
BEFORE = date(2026, 6, 30)  # closed in Q2, corrected in Q3
DAY = date(2026, 8, 14)  # closed, corrected in Q3 and in Q4
PARTIAL = date(2026, 8, 20)  # a missing closer, a missing opener, voided slips
UNSIGNED = date(2026, 9, 3)  # a count not signed
AFTER = date(2026, 10, 1)


@pytest.fixture
def tables(site):
    return TableFactory(site=site, number=1), TableFactory(site=site, number=2, game="PW")


def closed_day(scenario, cast, day, plays, *, first_number):
    """A day of play at each (table, drop) whose books are then closed."""
    for number, (table, drop) in enumerate(plays, start=first_number):
        scenario.tray(table, day, "opener", 200_000)
        scenario.tray(table, day, "closer", 185_000)
        scenario.slip(table, day, "fill", 20_000, number=number)
        scenario.slip(table, day, "credit", 5_000, number=number)
        scenario.drop(table, day, drop)
    scenario.bank(day, "start", 500_000, 300_000)
    scenario.bank(day, "end", 500_000, 300_000)
    return services.close_books(acting_user=cast[Role.SHIFT_MANAGER].user, site=scenario.site, gaming_date=day)


def adjust(manager, books, recorded_on, field, cents, table=None):
    return services.record_adjustment(
        acting_user=manager.user, books_close=books, table=table, field=field, amount_cents=cents,
        reason="Recounted.", recorded_on=recorded_on,
    )  # fmt: skip


@pytest.fixture
def quarter_of_play(scenario, tables, cast, manager, time_machine):
    time_machine.move_to(datetime(2026, 10, 5, 12, tzinfo=UTC))
    t21, pw = tables
    before = closed_day(scenario, cast, BEFORE, [(t21, 70_000)], first_number=1)
    day = closed_day(scenario, cast, DAY, [(t21, 100_000), (pw, 30_000)], first_number=2)
    scenario.tray(t21, PARTIAL, "opener", 150_000)  # no closer
    scenario.slip(t21, PARTIAL, "fill", 7_000, number=10)
    scenario.slip(t21, PARTIAL, "fill", 99_900, number=11, void=True)
    scenario.slip(pw, PARTIAL, "credit", 88_800, number=10, void=True)
    scenario.tray(pw, PARTIAL, "closer", 40_000)  # no opener
    scenario.drop(pw, PARTIAL, 12_000)
    scenario.drop(t21, UNSIGNED, 66_600, signed=False)
    scenario.drop(t21, AFTER, 500_000)
    adjust(manager, before, date(2026, 7, 2), "drop", 5_000, t21)  # recorded in Q3: counts
    adjust(manager, day, date(2026, 8, 15), "fills", 3_000, pw)
    adjust(manager, day, date(2026, 8, 15), "cash", 700)
    adjust(manager, day, AFTER, "closer", -4_000, t21)  # recorded in Q4: not in Q3


def test_game_totals_equal_the_quarter_summaries(quarter_of_play, site, other_site):
    totals = summaries.game_totals([site.pk, other_site.pk], Q3.start, Q3.end)
    for summary in summaries.quarter_summaries([site, other_site], Q3):
        assert totals[(summary.site_id, "21")] == summary.twenty_one
        assert totals[(summary.site_id, "PW")] == summary.paddlewheel


def test_game_totals_count_what_the_days_count_and_nothing_else(quarter_of_play, site, other_site):
    totals = summaries.game_totals([site.pk, other_site.pk], Q3.start, Q3.end)
    # Drops: DAY's 100,000 + the Q2 day's 5,000 adjustment (the unsigned 66,600 and October's left out);
    # fills: DAY's 20,000 + PARTIAL's 7,000 (the voided 99,900 left out); trays: DAY's, PARTIAL's opener.
    assert totals[(site.pk, "21")] == Custody(105_000, 27_000, 5_000, 350_000, 185_000)
    # The voided 88,800 credit left out, the 3,000 fills adjustment in, PARTIAL's closer without opener.
    assert totals[(site.pk, "PW")] == Custody(42_000, 23_000, 5_000, 200_000, 225_000)
    assert totals[(other_site.pk, "21")] == totals[(other_site.pk, "PW")] == figures.ZERO


def test_an_adjustment_entered_on_the_quarters_last_day_counts_in_that_quarter(quarter_of_play, site, tables, manager):
    """An adjustment counts on the day it is entered (shared/docs/domain.md section 3): entered on
    30 September, it is in Q3's totals and its summary, to the cent."""
    books = BooksClose.objects.get(site=site, gaming_date=DAY)
    before = summaries.game_totals([site.pk], Q3.start, Q3.end)[(site.pk, "21")]
    adjust(manager, books, Q3.end, "drop", 1_234, tables[0])
    after = summaries.game_totals([site.pk], Q3.start, Q3.end)[(site.pk, "21")]
    assert after == before + Custody(1_234, 0, 0, 0, 0)
    assert summaries.quarter_summary(site, Q3).twenty_one == after


def test_game_totals_take_five_queries_whatever_the_number_of_sites(
    quarter_of_play, site, other_site, django_assert_num_queries
):
    with django_assert_num_queries(5):
        summaries.game_totals([site.pk], Q3.start, Q3.end)
    with django_assert_num_queries(5):
        summaries.game_totals([site.pk, other_site.pk], Q3.start, Q3.end)


def test_quarter_game_totals_equal_each_quarters_game_totals_in_the_same_five_queries(
    quarter_of_play, site, other_site, django_assert_num_queries
):
    """The scan's consecutive quarters in one read: Q2 (a closed day), Q3 and Q4 (October's drop
    and the closer adjustment recorded in it), each as its own window gives it."""
    first, last = Q3.previous(), Q3.next()
    with django_assert_num_queries(5):
        by_quarter = summaries.quarter_game_totals([site.pk, other_site.pk], first, last)
    assert list(by_quarter) == [first, Q3, last]
    for quarter, totals in by_quarter.items():
        assert totals == summaries.game_totals([site.pk, other_site.pk], quarter.start, quarter.end), quarter
    assert by_quarter[last][(site.pk, "21")].closer_cents == -4_000  # recorded in Q4
    assert by_quarter[first][(site.pk, "21")].drop_cents == 70_000
