"""The dealer shift report (SFN 18862) read back against the percent-of-hold API's shifts."""

# ruff: noqa: F811  (pytest fixtures imported from other test modules are redefined as arguments)

from datetime import date

from core.money import format_money
from reports.kinds import dealer_shifts
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    context,
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
from tests.reports.test_kind_dealer_hold import FIRST, WEEKS_12, dealers, weeks_of_play  # noqa: F401

MONEY = ["drop_cents", "fills_cents", "credits_cents", "opener_cents", "closer_cents", "agp_cents"]


def _api_shifts(api, dealers):
    start, end = WEEKS_12
    shifts = []
    for dealer in dealers:
        body = api.get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/?start={start}&end={end}").json()
        shifts += [{**s, "dealer": dealer.name} for s in body["shifts"]]
    return sorted(shifts, key=lambda s: (s["gaming_date"], s["table_number"], s["started_at"]))


def test_each_shift_shows_its_figures_or_why_it_cannot_be_separated(auditor_api, site, dealers, weeks_of_play):
    run = run_report(auditor_api, kind="dealer_shifts", site=site.pk, start=str(WEEKS_12[0]), end=str(WEEKS_12[1]))
    content = download(auditor_api, run)
    grids = [g for g in pdf_tables(content) if g[0][0] == "Gaming date"]
    rows = [row for grid in grids for row in grid[1:]]
    expected = _api_shifts(auditor_api, dealers)
    assert len(rows) == len(expected) == 10
    reasons = list(dict.fromkeys(api["not_separable_because"] for api in expected if not api["separable"]))
    for row, api in zip(rows, expected, strict=True):
        assert row[:3] == [api["gaming_date"], str(api["table_number"]), api["dealer"]]
        if api["separable"]:
            assert row[5:11] == [format_money(api[name]) for name in MONEY]
            assert row[11] == ratio(api["hold_ratio"])
        else:
            assert row[5:11] == ["\u2014"] * 6
            assert row[11] == f"See note {reasons.index(api['not_separable_because']) + 1}"
    text = pdf_text(content)
    assert "10 dealer shifts, 8 with figures of their own. Times in America/Chicago." in text
    # Each reason is printed once, as a note under the table, not in every row.
    for number, reason in enumerate(reasons, start=1):
        assert " ".join(text.split()).count(reason) == 1
        assert f"Note {number}. Not separable from the table-day (ND 99-01.3-08-04(8)): " in text


def test_shift_times_are_written_with_am_and_pm_in_the_sites_time_zone(auditor_api, site, dealers, weeks_of_play):
    run = run_report(auditor_api, kind="dealer_shifts", site=site.pk, start=str(FIRST), end=str(FIRST))
    grid = next(g for g in pdf_tables(download(auditor_api, run)) if g[0][0] == "Gaming date")
    # 20:00 to 23:00 UTC and 23:00 to 02:00 UTC, in Central Daylight Time
    assert [row[3:5] for row in grid[1:]] == [["3:00 p.m.", "6:00 p.m."], ["6:00 p.m.", "9:00 p.m."]]


def test_the_dealer_shift_csv_holds_the_same_rows(auditor_api, site, dealers, weeks_of_play):
    run = run_report(auditor_api, kind="dealer_shifts", site=site.pk, start=str(WEEKS_12[0]), end=str(WEEKS_12[1]))
    rows = csv_rows(auditor_api, run)
    assert rows[0] == dealer_shifts.CSV_HEADER
    for row, api in zip(rows[1:], _api_shifts(auditor_api, dealers), strict=True):
        assert row[10] == (dollars(api["agp_cents"]) if api["separable"] else "")
        assert row[12] == api["not_separable_because"]


def test_building_the_dealer_shift_report_takes_bounded_queries_whatever_the_period(
    site, dealers, weeks_of_play, django_assert_max_num_queries
):
    # Closed days are read from their snapshots (accounting.day_figures); filling them is a
    # one-off write per day, so the reads are measured warm.
    dealer_shifts.build(context(site, date(2025, 1, 1), date(2027, 12, 31)))
    for start, end in ((FIRST, FIRST), (date(2025, 1, 1), date(2027, 12, 31))):
        with django_assert_max_num_queries(9):
            data = dealer_shifts.build(context(site, start, end))
    assert len(data.shifts) == 10


def test_a_period_with_no_shift_says_so_rather_than_a_bare_header(auditor_api, site):
    """The walk's dealer shift report of a day with no play (Bismarck 2026-12-06) was a column header alone."""
    quiet = str(date(2026, 5, 4))
    content = download(auditor_api, run_report(auditor_api, kind="dealer_shifts", site=site.pk, start=quiet, end=quiet))
    text = " ".join(pdf_text(content).split())
    assert "No dealer shift was recorded at this site in the period." in text
    assert not [g for g in pdf_tables(content) if "Dealer" in (g[0] or [])]
