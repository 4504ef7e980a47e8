"""The dealer percent-of-hold summary (SFN 18863) read back against the percent-of-hold API."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import date, timedelta

import pytest

from cardroom.models import Role
from core.money import format_money
from packs import revenue_words
from reports.kinds import dealer_hold
from tests.accounting.scenario import change_count, shift
from tests.factories import TableFactory, make_person
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    context,
    csv_ratio,
    csv_rows,
    dollars,
    download,
    pdf_tables,
    pdf_text,
    people,
    ratio,
    run_report,
    scenario,
)

FIRST = date(2026, 6, 1)
WEEKS_12 = (FIRST, FIRST + timedelta(weeks=12, days=-1))


def dealt_day(scenario, table, dealers, day, *, drops, change, closer, one_box=False):
    """Two shifts at the table: the tray counted at the change; boxes per shift unless `one_box`."""
    first = shift(scenario, table, dealers[0], day, 20, 23)
    second = shift(scenario, table, dealers[1], day, 23, 26)
    scenario.tray(table, day, "opener", 200_000)
    change_count(scenario, table, day, second, change)
    scenario.tray(table, day, "closer", closer)
    if one_box:
        scenario.drop(table, day, sum(drops))
    else:
        scenario.drop(table, day, drops[0], dealer_shift_id=first.pk)
        scenario.drop(table, day, drops[1], dealer_shift_id=second.pk)
    return first, second


@pytest.fixture
def dealers(org, site, cast):
    return cast[Role.DEALER], make_person(org, Role.DEALER, site)


@pytest.fixture
def weeks_of_play(scenario, site, dealers):
    table = TableFactory(site=site, number=1)
    for n, (drops, change, closer) in enumerate(
        [
            ((60_000, 30_000), 180_000, 190_000),
            ((50_000, 45_000), 210_000, 200_000),
            ((70_000, 20_000), 170_000, 185_000),
            ((40_000, 40_000), 205_000, 195_000),
        ]
    ):
        dealt_day(scenario, table, dealers, FIRST + timedelta(days=7 * n), drops=drops, change=change, closer=closer)
    dealt_day(
        scenario,
        table,
        dealers,
        FIRST + timedelta(days=40),
        drops=(30_000, 30_000),
        change=200_000,
        closer=200_000,
        one_box=True,
    )
    return table


def _percent_of_hold(api, dealer):
    start, end = WEEKS_12
    return api.get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/?start={start}&end={end}").json()


def test_each_dealers_hold_is_shown_beside_the_sites_as_the_api_gives_it(auditor_api, site, dealers, weeks_of_play):
    run = run_report(auditor_api, kind="dealer_hold", site=site.pk, start=str(WEEKS_12[0]), end=str(WEEKS_12[1]))
    grid = next(g for g in pdf_tables(download(auditor_api, run)) if g[0][0] == "Dealer")
    assert grid[0] == dealer_hold.header(revenue_words(site))
    rows = {row[0]: row for row in grid[1:-1]}
    assert len(rows) == 2
    for dealer in dealers:
        api = _percent_of_hold(auditor_api, dealer)
        assert rows[dealer.name] == [
            dealer.name,
            str(len(api["shifts"])),
            str(sum(s["separable"] for s in api["shifts"])),
            format_money(api["total"]["gross_proceeds_cents"]),
            format_money(api["total"]["agp_cents"]),
            ratio(api["total"]["hold_ratio"]),
            ratio(api["site_hold_ratio"]),
            api["z_score"] or "n/a",
        ]
        assert len(api["shifts"]) == 5 and sum(s["separable"] for s in api["shifts"]) == 4
    assert grid[-1][5] == ratio(_percent_of_hold(auditor_api, dealers[0])["site_hold_ratio"])


def test_the_dealer_hold_csv_holds_the_same_rows(auditor_api, site, dealers, weeks_of_play):
    run = run_report(auditor_api, kind="dealer_hold", site=site.pk, start=str(WEEKS_12[0]), end=str(WEEKS_12[1]))
    rows = csv_rows(auditor_api, run)
    assert rows[0] == dealer_hold.CSV_HEADER and len(rows) == 3
    for row in rows[1:]:
        dealer = next(d for d in dealers if d.name == row[0])
        api = _percent_of_hold(auditor_api, dealer)
        assert row[3:7] == [
            dollars(api["total"]["gross_proceeds_cents"]),
            dollars(api["total"]["agp_cents"]),
            csv_ratio(api["total"]["hold_ratio"]),
            csv_ratio(api["site_hold_ratio"]),
        ]
        assert row[7] == (api["z_score"] or "")


def test_a_period_without_dealer_shifts_still_gives_the_sites_hold(auditor_api, site, scenario):
    table = TableFactory(site=site, number=1)
    scenario.tray(table, FIRST, "opener", 200_000)
    scenario.tray(table, FIRST, "closer", 190_000)
    scenario.drop(table, FIRST, 40_000)
    run = run_report(auditor_api, kind="dealer_hold", site=site.pk, start=str(FIRST), end=str(FIRST))
    text = pdf_text(download(auditor_api, run))
    assert (
        "No dealer shift was recorded at this site in the period. Site twenty-one hold 75.00% on gross proceeds of $400.00."
        in " ".join(text.split())
    )


def test_a_period_without_play_says_no_shift_and_no_hold(auditor_api, site):
    """The walk's Spokane 2026Q3 summary read "0 dealers. Site blackjack hold n/a" over a table of headings."""
    run = run_report(auditor_api, kind="dealer_hold", site=site.pk, start=str(FIRST), end=str(FIRST))
    content = download(auditor_api, run)
    text = " ".join(pdf_text(content).split())
    assert "No dealer shift was recorded at this site in the period." in text and "n/a" not in text
    assert not [g for g in pdf_tables(content) if "Dealer" in (g[0] or [])]


def test_building_the_dealer_hold_summary_takes_bounded_queries_whatever_the_period(
    site, scenario, dealers, weeks_of_play, django_assert_max_num_queries
):
    # Closed days are read from their snapshots (accounting.day_figures); filling them is a
    # one-off write per day, so the reads are measured warm.
    dealer_hold.build(context(site, date(2025, 1, 1), date(2027, 12, 31)))
    for start, end in ((FIRST, FIRST), (date(2025, 1, 1), date(2027, 12, 31))):
        with django_assert_max_num_queries(24):  # both games from one read of the snapshots
            data = dealer_hold.build(context(site, start, end))
    assert sum(d.shifts for d in data.dealers) == 10


def test_the_api_and_the_pdf_agree_when_the_reader_sees_another_site(
    auditor_api, site, other_site, people, dealers, weeks_of_play
):
    from tests.accounting.scenario import Scenario

    there = Scenario(other_site, people)
    table = TableFactory(site=other_site, number=1)
    for n in range(3):  # the other site holds far less: a blend would move the site hold
        day = FIRST + timedelta(days=7 * n + 1)
        shift(there, table, dealers[1], day, 20, 26)
        there.tray(table, day, "opener", 200_000)
        there.tray(table, day, "closer", 150_000 + n * 10_000)
        there.drop(table, day, 60_000)
    run = run_report(auditor_api, kind="dealer_hold", site=site.pk, start=str(WEEKS_12[0]), end=str(WEEKS_12[1]))
    grid = next(g for g in pdf_tables(download(auditor_api, run)) if g[0][0] == "Dealer")
    rows = {row[0]: row for row in grid[1:-1]}
    start, end = WEEKS_12
    for dealer in dealers:
        api = auditor_api.get(
            f"/api/v1/employees/{dealer.pk}/percent-of-hold/?start={start}&end={end}&site={site.pk}"
        ).json()
        assert api["site"] == site.pk
        assert rows[dealer.name][6:8] == [ratio(api["site_hold_ratio"]), api["z_score"] or "n/a"]
        assert rows[dealer.name][3] == format_money(api["total"]["gross_proceeds_cents"])
        every = _percent_of_hold(auditor_api, dealer)  # no site given: one entry per site, each its own
        here = next(s for s in every["sites"] if s["site"] == site.pk)
        assert (here["site_hold_ratio"], here["z_score"]) == (api["site_hold_ratio"], api["z_score"])
    both = _percent_of_hold(auditor_api, dealers[1])
    assert len(both["sites"]) == 2 and both["site_hold_ratio"] is None
    there_line = next(s for s in both["sites"] if s["site"] == other_site.pk)
    assert there_line["site_total"]["agp_cents"] == 3 * 60_000 - 3 * 50_000 + 30_000


def test_a_bad_game_or_site_parameter_is_a_400_naming_it(auditor_api, dealers):
    start, end = WEEKS_12
    url = f"/api/v1/employees/{dealers[0].pk}/percent-of-hold/?start={start}&end={end}"
    assert "game" in auditor_api.get(url + "&game=XX").json()
    assert auditor_api.get(url + "&site=abc").status_code == 400


def test_wheel_operators_hold_is_in_the_summary_beside_the_sites_paddlewheel_hold(
    auditor_api, site, scenario, dealers, weeks_of_play
):
    wheel = TableFactory(site=site, number=7, game="PW")
    for n in range(3):  # the same two people run the wheel on other nights
        dealt_day(
            scenario,
            wheel,
            dealers,
            FIRST + timedelta(days=7 * n + 2),
            drops=(20_000, 10_000),
            change=195_000 - n * 1_000,
            closer=200_000 - n * 2_000,
        )
    run = run_report(auditor_api, kind="dealer_hold", site=site.pk, start=str(WEEKS_12[0]), end=str(WEEKS_12[1]))
    content = download(auditor_api, run)
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Wheel operator")
    rows = {row[0]: row for row in grid[1:-1]}
    start, end = WEEKS_12
    for person in dealers:
        api = auditor_api.get(
            f"/api/v1/employees/{person.pk}/percent-of-hold/?start={start}&end={end}&site={site.pk}&game=PW"
        ).json()
        assert {s["game"] for s in api["shifts"]} == {"PW"} and len(api["shifts"]) == 3
        assert rows[person.name] == [
            person.name,
            "3",
            "3",
            format_money(api["total"]["gross_proceeds_cents"]),
            format_money(api["total"]["agp_cents"]),
            ratio(api["total"]["hold_ratio"]),
            ratio(api["site_hold_ratio"]),
            api["z_score"] or "n/a",
        ]
    twenty_one = next(g for g in pdf_tables(content) if g[0][0] == "Dealer")
    assert all(row[1] == "5" for row in twenty_one[1:-1])  # the wheel shifts are not dealers' twenty-one shifts
    assert "2 wheel operators. Site paddlewheel hold" in pdf_text(content)
    csv = csv_rows(auditor_api, run)
    assert sorted(r[8] for r in csv[1:]) == ["21", "21", "PW", "PW"]
