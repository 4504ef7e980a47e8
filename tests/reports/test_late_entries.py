"""Records entered late are marked on the daily report and the slip register, in the PDF and
the CSV, with both times; records entered in time are not (core.moments)."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import date, timedelta

import pytest
import time_machine

from cage import queries as cage_queries
from cage import services as cage
from core.moments import gaming_day_bounds
from floor import services as floor
from floor.models import Slip
from reports.kinds import daily, slip_register
from tests.accounting.scenario import at
from tests.factories import TableFactory
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    csv_rows,
    download,
    pdf_tables,
    pdf_text,
    people,
    run_report,
    scenario,
)

DAY = date(2026, 8, 14)


def slip(scenario, table, number, entered_after):
    """A fill prepared at 21:00 UTC on DAY, entered `entered_after` later."""
    day = scenario.day(DAY)
    prepared = at(DAY, 21)
    return Slip.objects.create(
        site=scenario.site,
        kind="fill",
        number=number,
        table=table,
        gaming_day=day,
        game=table.game,
        table_number=table.number,
        prepared_at=prepared,
        prepared_by=scenario.people["shift"],
        total_cents=10_000,
        entered_at=prepared + entered_after,
    )


@pytest.fixture
def slips(scenario, site):
    table = TableFactory(site=site, number=3)
    on_time = slip(scenario, table, 1, timedelta(minutes=60))  # at the threshold: not late
    late = slip(scenario, table, 2, timedelta(minutes=61))
    return on_time, late


def test_only_a_slip_entered_past_the_threshold_is_marked(slips):
    on_time, late = slips
    assert (on_time.entered_late, late.entered_late) == (False, True)


def test_the_slip_register_marks_the_late_slip_in_pdf_and_csv(auditor_api, site, slips):
    run = run_report(auditor_api, kind="slip_register", site=site.pk, start=str(DAY), end=str(DAY))
    grid = next(g for g in pdf_tables(download(auditor_api, run)) if g[0][0] == "Number")
    rows = {int(row[0]): " ".join(row[5].split()) for row in grid[1:]}
    assert "entered late 2026-08-14 5:01 p.m." in rows[2]  # 22:01 UTC = 5:01 p.m. CDT
    assert "entered late" not in rows[1]
    csv = csv_rows(auditor_api, run)
    late_column = csv[0].index("Entered late at")
    by_number = {row[1]: row[late_column] for row in csv[1:]}
    assert by_number["2"] == "2026-08-14T17:01:00-05:00" and by_number["1"] == ""  # as "Prepared at" is written


def test_the_daily_report_lists_the_days_late_entries(auditor_api, site, slips):
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    text = " ".join(pdf_text(content).split())
    assert "Entered late (" in text and "more than 60 minutes" in text
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Record")
    listed = [" ".join(row[0].split()) for row in grid[1:]]
    assert "Fill slip 2" in listed and "Fill slip 1" not in listed
    assert [" ".join(c.split()) for c in grid[listed.index("Fill slip 2") + 1][1:]] == [
        "2026-08-14 4:00 p.m. CDT",  # the site's time zone, named
        "2026-08-14 5:01 p.m. CDT",
    ]
    csv = csv_rows(auditor_api, run)
    total = next(row for row in csv[1:] if row[1] == "total")
    assert total[daily.HEADER.index("Entered late")] == str(
        sum(1 for row in listed if row)  # every late record of the day counted on the total line
    )
    assert slip_register.CSV_HEADER[-1] == "Entered late at"


def _bank_count(cashier, site, kind, hour, **correction):
    """A bank count of DAY counted at `hour` (UTC) and entered now, months later: through the cage's service."""
    return cage.record_bank_count(
        acting_user=cashier.user,
        site=site,
        gaming_date=DAY,
        kind=kind,
        cash={100: 10},
        chips={},
        at=at(DAY, hour),
        **correction,
    )


@pytest.mark.parametrize("jurisdiction", ["ND", "NY", "WA-BJ"])
def test_the_daily_report_lists_the_bank_counts_entered_late_with_the_others(
    auditor_api, site, people, jurisdiction, django_assert_num_queries
):
    site.jurisdiction = jurisdiction
    site.save(update_fields=["jurisdiction"])
    floor.open_gaming_day(acting_user=people["shift"].user, site=site, gaming_date=DAY, at=at(DAY, 12))
    first = _bank_count(people["cashier"], site, "start", 13)
    _bank_count(people["cashier"], site, "start", 14, corrects=first, reason="a strap miscounted")
    _bank_count(people["cashier"], site, "end", 23)
    with django_assert_num_queries(6):  # the cage's late entries: one query a kind (six), however many rows
        listed = cage_queries.late_entries(site, DAY, DAY)
    assert [e.what for e in listed] == ["Starting bank count", "Starting bank count (correction)", "Ending bank count"]
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    assert "Entered late: none" not in " ".join(pdf_text(content).split())
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Record")
    rows = [row[0] for row in grid[1:]]
    assert rows.count("Starting bank count") == 1 and "Starting bank count (correction)" in rows
    assert "Ending bank count" in rows
    started = grid[rows.index("Starting bank count") + 1]
    assert started[1].startswith("2026-08-14") and not started[2].startswith("2026-08-14")  # counted, then entered
    csv = csv_rows(auditor_api, run)  # its columns are the pack's
    total = next(row for row in csv[1:] if row[1] == "total")
    assert int(total[csv[0].index("Entered late")]) == len([r for r in rows if r])


def test_a_day_with_nothing_late_says_the_list_is_of_the_books_and_where_an_announcement_shows(
    auditor_api, site, people
):
    with time_machine.travel(at(DAY, 12), tick=False):  # entered as it happens: nothing late
        floor.open_gaming_day(acting_user=people["shift"].user, site=site, gaming_date=DAY)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    text = " ".join(pdf_text(download(auditor_api, run)).split())
    assert "Entered late: none (no record of the day's books was entered more than" in text
    assert "a tournament's announcement, outside the books, shows when it was entered on the tournament's page" in text


def test_a_count_made_after_its_day_ended_says_its_lateness_runs_from_that_end(auditor_api, site, people):
    """A bank count of a day gone, counted and entered at one moment (the walk's Tacoma fee and bank
    counts): late from the day's end (core.moments.EnteredRecord.day_field), and the report says so
    rather than listing a "happened" equal to its "entered" as more than 60 minutes before it."""
    with time_machine.travel(at(DAY, 12), tick=False):
        floor.open_gaming_day(acting_user=people["shift"].user, site=site, gaming_date=DAY)
    ended = gaming_day_bounds(site, DAY)[1]
    counted = ended + timedelta(hours=2)
    with time_machine.travel(counted, tick=False):
        cage.record_bank_count(
            acting_user=people["cashier"].user, site=site, gaming_date=DAY, kind="end", cash={100: 10}, chips={}
        )
    content = download(auditor_api, run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY)))
    text = " ".join(pdf_text(content).split())
    assert "or after their gaming day ended where they happened after it" in text
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Record")
    row = next(r for r in grid[1:] if r[0] == "Ending bank count")
    happened = " ".join(row[1].split())
    assert happened.startswith(" ".join(row[2].split())) and "after its gaming day ended (" in happened
