"""Per-dealer percent-of-hold (SFN 18862 / 18863)."""

from dataclasses import FrozenInstanceError, fields
from datetime import date, timedelta
from decimal import Decimal

import pytest

from accounting import dealer_hold
from accounting.dealer_hold import ShiftFigures
from accounting.figures import Custody
from cardroom.models import Role
from tests.accounting.scenario import Scenario, at, change_count, shift
from tests.factories import TableFactory, make_person

DAY = date(2026, 8, 14)


@pytest.fixture
def dealers(org, site, cast):
    return cast[Role.DEALER], make_person(org, Role.DEALER, site)


def test_each_shift_has_its_own_figures_when_boxes_and_trays_change_with_the_dealer(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000, dealer_shift_id=first.pk)
    scenario.drop(table, DAY, 30_000, dealer_shift_id=second.pk)
    scenario.slip(table, DAY, "fill", 10_000, number=1)  # prepared at 21:00, during the first shift
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    # first: drop 60,000 - fills 10,000 + closer 180,000 - opener 200,000 = 30,000
    assert rows[first.pk].custody.agp_cents == 30_000
    assert rows[first.pk].hold_ratio == Decimal("0.5")
    # second: 30,000 + 190,000 - 180,000 = 40,000
    assert rows[second.pk].custody.agp_cents == 40_000
    total = sum(r.custody.agp_cents for r in rows.values())
    from accounting.summaries import daily_summary

    assert total == daily_summary(site, DAY).total.agp_cents  # the shifts add up to the table-day


def test_a_slip_prepared_at_the_dealer_change_is_the_next_shifts_alone(scenario, site, dealers):
    """A shift's slips are those prepared in [start, end): the fill of 21:00 falls to the shift
    starting then, never to both, so the shifts still add up to the table-day (08-04(8))."""
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 21)
    second = shift(scenario, table, dealers[1], DAY, 21, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000, dealer_shift_id=first.pk)
    scenario.drop(table, DAY, 30_000, dealer_shift_id=second.pk)
    scenario.slip(table, DAY, "fill", 10_000, number=1)  # prepared at 21:00, the moment of the change
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    assert (rows[first.pk].custody.fills_cents, rows[second.pk].custody.fills_cents) == (0, 10_000)
    # first: 60,000 + 180,000 - 200,000; second: 30,000 - 10,000 + 190,000 - 180,000
    assert (rows[first.pk].custody.agp_cents, rows[second.pk].custody.agp_cents) == (40_000, 30_000)


def test_a_shift_without_its_own_box_says_so_instead_of_guessing(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 90_000)  # one box for the whole day
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    assert rows[first.pk].custody is None
    assert rows[first.pk].not_separable_because == dealer_hold.NO_BOX_EXCHANGE


def test_a_dealer_change_without_a_tray_count_is_not_separable(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000, dealer_shift_id=first.pk)
    scenario.drop(table, DAY, 30_000, dealer_shift_id=second.pk)
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    assert rows[first.pk].not_separable_because == dealer_hold.NO_TRAY_COUNT


def test_a_dealer_with_the_table_all_day_uses_the_days_box(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    only = shift(scenario, table, dealers[0], DAY, 20, 26)
    scenario.tray(table, DAY, "opener", 100_000)
    scenario.tray(table, DAY, "closer", 100_000)
    scenario.drop(table, DAY, 25_000)
    row = dealer_hold.shift_figures([site.pk], DAY, DAY)[0]
    assert (row.shift_id, row.custody.agp_cents) == (only.pk, 25_000)


def test_the_dealer_summary_sums_shifts_and_shows_the_site_beside_it(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    for offset in range(5):
        day = DAY + timedelta(days=offset)
        shift(scenario, table, dealers[offset % 2], day, 20, 26)
        scenario.tray(table, day, "opener", 100_000)
        scenario.tray(table, day, "closer", 100_000 + offset * 1_000)
        scenario.drop(table, day, 50_000)
    summaries = {s.dealer_id: s for s in dealer_hold.dealer_summaries([site.pk], DAY, DAY + timedelta(days=4))}
    first = summaries[dealers[0].pk]
    assert first.separable_shifts == 3
    assert first.total.agp_cents == 3 * 50_000 + (0 + 2_000 + 4_000)
    assert first.site_total.agp_cents == 5 * 50_000 + 10_000
    assert first.z_score is not None


def test_shift_figures_take_bounded_queries(scenario, site, dealers, django_assert_max_num_queries):
    tables = [TableFactory(site=site, number=n) for n in range(1, 4)]
    for offset in range(6):
        day = DAY + timedelta(days=offset)
        for table in tables:
            if table.number == 1:
                shift(scenario, table, dealers[0], day, 18, 21)
                shift(scenario, table, dealers[1], day, 21, 24)
            scenario.tray(table, day, "opener", 100_000)
            scenario.tray(table, day, "closer", 100_000)
            scenario.drop(table, day, 10_000)
    # Gaming days, shifts, drops, tray counts, slips, tables and dealers' names: 7 whatever the period.
    with django_assert_max_num_queries(7):
        rows = dealer_hold.shift_figures([site.pk], DAY, DAY + timedelta(days=5))
    assert len(rows) == 12


def _unsigned_drop(scenario, table, gaming_date, *, dealer_shift_id):
    """A box used for the shift and removed, whose count is not agreed and signed yet."""
    from counts.models import Drop, DropBox

    box, _ = DropBox.objects.get_or_create(site=scenario.site, table=table, number=table.number)
    return Drop.objects.create(
        site=scenario.site,
        drop_box=box,
        table=table,
        gaming_date=gaming_date,
        dealer_shift_id=dealer_shift_id,
        placed_at=at(gaming_date, 18),
        placed_by=scenario.people["shift"],
    )


def test_counted_boxes_not_tied_to_a_shift_mean_the_box_was_not_exchanged(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000)  # two boxes, both counted and signed, neither tied to a shift
    scenario.drop(table, DAY, 30_000)
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    for one in (first, second):
        assert rows[one.pk].custody is None
        assert rows[one.pk].not_separable_because == dealer_hold.NO_BOX_EXCHANGE


def test_a_shifts_own_box_without_a_signed_count_waits_for_the_count(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    first = shift(scenario, table, dealers[0], DAY, 20, 23)
    second = shift(scenario, table, dealers[1], DAY, 23, 26)
    scenario.tray(table, DAY, "opener", 200_000)
    change_count(scenario, table, DAY, second, 180_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 60_000, dealer_shift_id=first.pk)
    _unsigned_drop(scenario, table, DAY, dealer_shift_id=second.pk)
    rows = {r.shift_id: r for r in dealer_hold.shift_figures([site.pk], DAY, DAY)}
    assert rows[first.pk].custody is not None and rows[first.pk].not_separable_because == ""
    assert rows[second.pk].custody is None
    assert rows[second.pk].not_separable_because == dealer_hold.NO_COUNT


def test_the_only_shifts_day_box_without_a_signed_count_waits_for_the_count(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    only = shift(scenario, table, dealers[0], DAY, 20, 26)
    scenario.tray(table, DAY, "opener", 100_000)
    scenario.tray(table, DAY, "closer", 100_000)
    _unsigned_drop(scenario, table, DAY, dealer_shift_id=None)
    row = dealer_hold.shift_figures([site.pk], DAY, DAY)[0]
    assert (row.shift_id, row.not_separable_because) == (only.pk, dealer_hold.NO_COUNT)


def _whole_day(scenario, table, dealer, day, *, drop, closer):
    shift(scenario, table, dealer, day, 20, 26)
    scenario.tray(table, day, "opener", 100_000)
    scenario.tray(table, day, "closer", closer)
    scenario.drop(table, day, drop)


def test_the_site_hold_beside_a_dealer_is_the_dealers_own_sites(site, other_site, people, dealers):
    here, there = Scenario(site, people), Scenario(other_site, people)
    table_here, table_there = TableFactory(site=site, number=1), TableFactory(site=other_site, number=1)
    for offset in range(3):
        day = DAY + timedelta(days=offset)
        _whole_day(here, table_here, dealers[0], day, drop=50_000, closer=100_000 + offset * 1_000)
        _whole_day(there, table_there, dealers[1], day, drop=50_000, closer=60_000 + offset * 5_000)
    both = {s.dealer_id: s for s in dealer_hold.dealer_summaries([site.pk, other_site.pk], DAY, DAY + timedelta(2))}
    alone = dealer_hold.dealer_summaries([site.pk], DAY, DAY + timedelta(2))
    mine = both[dealers[0].pk]
    assert mine.site_id == site.pk
    # Site here: GP 150,000, AGP 150,000 + 3,000; the other site's days do not enter.
    assert (mine.site_total.gross_proceeds_cents, mine.site_total.agp_cents) == (150_000, 153_000)
    assert (mine.site_hold_ratio, mine.z_score) == (alone[0].site_hold_ratio, alone[0].z_score)
    assert both[dealers[1].pk].site_total.agp_cents == 150_000 - 3 * 40_000 + 15_000


def test_a_dealer_at_two_sites_has_a_summary_at_each(site, other_site, people, dealers):
    here, there = Scenario(site, people), Scenario(other_site, people)
    table_here, table_there = TableFactory(site=site, number=1), TableFactory(site=other_site, number=1)
    _whole_day(here, table_here, dealers[0], DAY, drop=50_000, closer=100_000)
    _whole_day(there, table_there, dealers[0], DAY, drop=40_000, closer=90_000)
    found = dealer_hold.dealer_summaries([site.pk, other_site.pk], DAY, DAY)
    assert sorted((s.site_id, s.total.agp_cents, s.site_total.agp_cents) for s in found) == sorted(
        [(site.pk, 50_000, 50_000), (other_site.pk, 30_000, 30_000)]
    )


def _two_sites_of_play(site, other_site, people, dealers) -> tuple[list[int], date]:
    """Five days at two sites, both games, shifts that cannot be separated, the last day under way."""
    here, there = Scenario(site, people), Scenario(other_site, people)
    tables = {
        "here": TableFactory(site=site, number=1),
        "wheel": TableFactory(site=site, number=7, game="PW"),
        "there": TableFactory(site=other_site, number=1),
    }
    last = DAY + timedelta(days=4)
    here.day(last, closed=False)  # the last day is under way: computed live
    for offset in range(5):
        day = DAY + timedelta(days=offset)
        _whole_day(here, tables["here"], dealers[offset % 2], day, drop=50_000 + offset, closer=100_000 + offset * 7)
        _whole_day(there, tables["there"], dealers[1], day, drop=40_000, closer=60_000 + offset * 5_000)
        if offset % 2:
            _whole_day(here, tables["wheel"], dealers[0], day, drop=9_000, closer=101_000 - offset)
        else:  # two shifts and one box: not separable
            shift(here, tables["wheel"], dealers[1], day, 20, 22)
            shift(here, tables["wheel"], dealers[0], day, 22, 26)
            here.tray(tables["wheel"], day, "opener", 100_000)
            here.tray(tables["wheel"], day, "closer", 99_000)
            here.drop(tables["wheel"], day, 8_000)
    return [site.pk, other_site.pk], last


def _assert_the_summaries_sums(sites, last, found) -> None:
    from accounting import day_figures

    days, shifts = day_figures.table_days_and_shifts(sites, DAY, last)
    for game in ("21", "PW"):
        expected = dealer_hold.summarize_dealers(shifts, days, game)
        assert [
            (d.dealer_id, d.dealer_name, len(d.shifts), d.separable_shifts, d.total, d.site_total, d.z_score, d.site_id)
            for d in expected
        ] == [
            (d.dealer_id, d.dealer_name, d.shifts, d.separable_shifts, d.total, d.site_total, d.z_score, d.site_id)
            for d in found[game].dealers
        ]
        complete = [d for d in days if d.complete and d.game == game]
        assert found[game].site_totals == {
            s: sum((d.custody for d in complete if d.site_id == s), dealer_hold.figures.ZERO)
            for s in {d.site_id for d in complete}
        }
    assert {d.separable_shifts < d.shifts for d in found["PW"].dealers} == {True}
    assert any(d.z_score is not None for d in found["21"].dealers)


def test_the_dealers_totals_are_the_summaries_sums_from_closed_days_and_a_day_under_way(
    site, other_site, people, dealers, monkeypatch
):
    """`day_figures.dealer_totals` sums the closed days' per-dealer sums as snapshotted (the
    percent-of-hold report reads it) and the day under way's as read (`dealer_hold.dealer_sums`,
    no ShiftFigures a shift): the same dealers, sums, site totals and z-scores as
    `summarize_dealers` of the shifts' figures, for both games, two sites, shifts that cannot be
    separated and a live day."""
    from accounting import day_figures
    from accounting.models import DayFigures

    sites, last = _two_sites_of_play(site, other_site, people, dealers)
    assert day_figures.fill(sites, DAY, last) == 9  # the last day at the first site is open
    stored = DayFigures.objects.filter(site_id__in=sites, computed_at__isnull=False)
    assert stored.count() == 9 and not stored.filter(dealer_sums__isnull=True).exists()

    def no_shift_figures(*args):
        raise AssertionError("the dealers' totals made each live shift's figures")

    with monkeypatch.context() as patched:
        patched.setattr(dealer_hold._Custody, "figures", no_shift_figures)
        found = day_figures.dealer_totals(sites, DAY, last, ("21", "PW"))
    _assert_the_summaries_sums(sites, last, found)


def test_a_day_snapshotted_by_an_older_version_is_summed_again_for_the_dealers_totals(
    site, other_site, people, dealers
):
    """Snapshots stored before `dealer_sums` existed (day_figures.VERSION "1": table days and shift
    rows, no dealer sums) are computed again on their next read, dealer sums with them."""
    from accounting import day_figures
    from accounting.models import DayFigures

    sites, last = _two_sites_of_play(site, other_site, people, dealers)
    day_figures.fill(sites, DAY, last)
    closed = DayFigures.objects.filter(site_id__in=sites, computed_at__isnull=False)
    assert closed.update(version="1", dealer_sums=None) == 9  # as the old code left them
    found = day_figures.dealer_totals(sites, DAY, last, ("21", "PW"))
    assert {(row.version, row.dealer_sums is None) for row in closed} == {(day_figures.VERSION, False)}
    _assert_the_summaries_sums(sites, last, found)
    # A day summed wrong would show: one closed day's dealer sums, as stored, feed the totals.
    day = closed.filter(site_id=other_site.pk).order_by("gaming_date").first()
    row = day.dealer_sums[0]
    day.dealer_sums = [[*row[:4], row[4] + 1, *row[5:]]]  # one cent more drop
    day.save(update_fields=["dealer_sums"])
    again = day_figures.dealer_totals(sites, DAY, last, ("21", "PW"))
    drops = {(d.dealer_id, d.site_id): d.total.drop_cents for d in again["21"].dealers}
    assert drops != {(d.dealer_id, d.site_id): d.total.drop_cents for d in found["21"].dealers}


def _totals(summaries) -> list[dealer_hold.DealerTotals]:
    """`DealerSummary`s as `DealerTotals`: the number of their shifts for the shifts."""
    return [
        dealer_hold.DealerTotals(
            d.dealer_id, d.dealer_name, len(d.shifts), d.separable_shifts, d.total, d.site_total, d.z_score,
            d.site_id, d.game,
        )
        for d in summaries
    ]  # fmt: skip


def test_the_live_summaries_hold_the_sites_beside_them_as_the_table_days_do(site, other_site, people, dealers):
    """`dealer_summaries` takes each site's hold and spread from the table-day totals it read with
    the shifts (`site_holds_of_totals`): the same summaries as `summarize_dealers` of the live shifts
    and the live table-days, for both games, two sites and shifts that cannot be separated."""
    from accounting import table_days

    sites, last = _two_sites_of_play(site, other_site, people, dealers)
    shifts, days = dealer_hold.shift_figures(sites, DAY, last), table_days.table_days(sites, DAY, last)
    for game in ("21", "PW"):
        expected = _totals(dealer_hold.summarize_dealers(shifts, days, game))
        assert dealer_hold.dealer_summaries(sites, DAY, last, game=game) == expected
    assert any(d.z_score is not None for d in dealer_hold.summarize_dealers(shifts, days, "21"))
    mine = dealer_hold.dealer_summaries(sites, DAY, last, dealer_ids=[dealers[0].pk])
    assert mine == _totals(d for d in dealer_hold.summarize_dealers(shifts, days) if d.dealer_id == dealers[0].pk)


def test_the_live_summaries_are_a_dealers_totals_without_each_shifts_figures(
    site, other_site, people, dealers, monkeypatch
):
    """The live `dealer_summaries` sum the shifts as read, into each dealer's `DealerTotals` (the
    number of shifts, not the shifts): no ShiftFigures and Custody a shift (issue 37: the bench's
    quarter made 1,656 of each for 12 dealers), the same seven statements, the same cents as the
    shifts' figures summed, the separable and the not separable shifts counted."""
    sites, last = _two_sites_of_play(site, other_site, people, dealers)
    by_shift = {
        game: _totals(dealer_hold._summaries(dealer_hold.shift_figures(sites, DAY, last), {}, game))
        for game in ("21", "PW")
    }

    def no_shift_figures(*args):
        raise AssertionError("the live summaries made each shift's figures")

    monkeypatch.setattr(dealer_hold._Custody, "figures", no_shift_figures)
    for game in ("21", "PW"):
        found = dealer_hold.dealer_summaries(sites, DAY, last, game=game)
        assert [type(d) for d in found] == [dealer_hold.DealerTotals] * len(found)
        assert [(d.dealer_id, d.site_id, d.shifts, d.separable_shifts, d.total) for d in found] == [
            (d.dealer_id, d.site_id, d.shifts, d.separable_shifts, d.total) for d in by_shift[game]
        ]
    assert {d.separable_shifts < d.shifts for d in found} == {True}  # the wheel's shifts without one box each


def test_shift_figures_made_without_their_init_are_the_dataclasses_own(site, other_site, people, dealers):
    """`_Custody._table_day` makes each ShiftFigures and Custody without its frozen __init__: the
    same values, equality, hash, repr and __dict__ as the dataclass's own, and still frozen."""
    sites, last = _two_sites_of_play(site, other_site, people, dealers)
    found = dealer_hold.shift_figures(sites, DAY, last)
    assert {f.custody is None for f in found} == {True, False}
    for made in found:
        custody = made.custody and dealer_hold.Custody(*[getattr(made.custody, f.name) for f in fields(Custody)])
        values = [custody if f.name == "custody" else getattr(made, f.name) for f in fields(ShiftFigures)]
        built = dealer_hold.ShiftFigures(*values)
        assert (made, hash(made), repr(made), vars(made)) == (built, hash(built), repr(built), vars(built))
        assert made.custody is None or vars(made.custody) == vars(custody)
    with pytest.raises(FrozenInstanceError):
        found[0].game = "PW"
