"""The daily surveillance review log and video review documentation, read back against the
surveillance API (ND 99-01.3-08-04(7),(9); 08-16(1)(d),(h))."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import dataclasses
import io
import re
from datetime import date, datetime, timedelta

import pytest
from reportlab.lib.pagesizes import landscape, letter
from reportlab.platypus import SimpleDocTemplate

from cardroom.models import Role
from core.moments import site_zone
from reports.kinds import surveillance_log
from surveillance import services
from surveillance.models import ReviewLogEntry
from tests.factories import TableFactory, make_person
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    context,
    csv_rows,
    download,
    pdf_tables,
    pdf_text,
    run_report,
)
from tests.surveillance.conftest import add_shift, local

START = date(2026, 4, 6)  # a Monday: the program's first day


@pytest.fixture
def tables(site):
    return [TableFactory(site=site, number=n) for n in (1, 2)]


@pytest.fixture
def logged(site, manager, tables, cast):
    """Both tables dealt on START; table 2's picture was first logged unclear, then corrected."""
    for t in tables:
        add_shift(t, cast[Role.DEALER], local(2026, 4, 6, 18), local(2026, 4, 7, 2))
    log = {
        t.number: services.add_review_log_entry(
            acting_user=manager.user,
            table=t,
            gaming_date=START,
            camera_recording=True,
            unobstructed_view=True,
            clear_picture=t.number == 1,
            field_of_view=True,
            notes="" if t.number == 1 else "Glare on the layout",
        )
        for t in tables
    }
    log["correction"] = services.add_review_log_entry(
        acting_user=manager.user,
        table=tables[1],
        gaming_date=START,
        camera_recording=True,
        unobstructed_view=True,
        clear_picture=True,
        field_of_view=True,
        notes="Glare was the monitor, not the recording",
        corrects=log[2],
    )
    return log


def review(manager, task, reviewer, start_hour, minutes, findings="Procedures followed", corrects=None):
    day = local(START.year, START.month, START.day)
    return services.record_review_entry(
        acting_user=manager.user,
        task=task,
        gaming_date=START,
        shift_started_at=day + timedelta(hours=18),
        shift_ended_at=day + timedelta(hours=26),
        footage_start_at=day + timedelta(hours=start_hour),
        footage_end_at=day + timedelta(hours=start_hour, minutes=minutes),
        reviewer=reviewer,
        findings=findings,
        corrects=corrects,
    )


@pytest.fixture
def program(site, manager, org, logged):
    """Week 1: table 1 has 40 + 30 minutes, the 30 corrected to 10 (50 of 60); table 2 has 60."""
    program = services.open_review_program(manager.user, site, START, "Q1 hold 7.2% (below 10%)")
    reviewer = make_person(org, Role.SHIFT_MANAGER, site)
    first, second = (program.tasks.get(week=1, table__number=n) for n in (1, 2))
    review(manager, first, reviewer, 20, 40)
    wrong = review(manager, first, reviewer, 21, 30)
    review(manager, first, reviewer, 21, 10, "Footage was 10 minutes", corrects=wrong)
    review(manager, second, reviewer, 22, 60, "Payout error on a blackjack, reported")
    return program


def test_the_log_lists_each_day_and_table_with_the_correction_pointing_back(auditor_api, site, logged):
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(START), end=str(START))
    content = download(auditor_api, run)
    api = auditor_api.get(f"/api/v1/surveillance/review-log/?site={site.pk}").json()
    api_rows = api["results"] if isinstance(api, dict) else api
    grid = next(g for g in pdf_tables(content) if g[0][:2] == ["#", "Gaming date"])
    assert len(grid) - 1 == len(api_rows) == 3
    assert [(row[2], row[5]) for row in grid[1:]] == [("1", "yes"), ("2", "NO"), ("2", "yes")]
    first, correction = logged[2].pk, logged["correction"].pk
    assert [row[6] for row in grid[1:]] == ["yes"] * 3  # the field of view (ND 99-01.3-08-04(1)(c))
    assert grid[2][10] == f"REPLACED by #{correction}"
    assert grid[3][10] == f"corrects #{first}"
    assert grid[2][7] == "Glare on the layout"
    assert "No video review program at this site in the period." in pdf_text(content)


def test_each_weeks_task_shows_the_reviewed_minutes_as_the_api_does_and_every_entry(auditor_api, site, program):
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(START), end=str(START))
    content = download(auditor_api, run)
    text = " ".join(pdf_text(content).split())
    tasks = auditor_api.get(f"/api/v1/surveillance/review-tasks/?program={program.pk}&week=1").json()
    tasks = tasks["results"] if isinstance(tasks, dict) else tasks
    minutes = {t["table"]: (t["reviewed_minutes"], t["done"]) for t in tasks}
    for t in program.tasks.filter(week=1):
        reviewed, done = minutes[t.table_id]
        status = "done" if done else "NOT DONE"
        assert f"table {t.table.number}: {reviewed} of 60 minutes reviewed ({status})" in text
    assert "table 1: 50 of 60 minutes reviewed (NOT DONE)" in text
    assert "Week 2" not in text  # only the weeks overlapping the period
    grids = [g for g in pdf_tables(content) if g[0][:3] == ["#", "Gaming date", "Reviewer"]]
    entries = [row for g in grids for row in g[1:]]
    assert [row[5] for row in entries] == ["40", "30", "10", "60"]
    assert entries[1][7].startswith("REPLACED by #") and entries[2][7].startswith("corrects #")
    assert entries[0][4] == "2026-04-06 8:00 p.m.-8:40 p.m."  # 12-hour, as the footer writes "Generated"
    assert "Payout error on a blackjack, reported" in entries[3][6]


def test_a_closed_program_ends_at_its_documented_reason(auditor_api, site, manager, program):
    services.close_review_program(
        acting_user=manager.user, program=program, closed_on=date(2026, 4, 15), low_hold_reason="A big winner"
    )
    end = START + timedelta(weeks=6)
    data = surveillance_log.build(context(site, START, end))
    (shown,) = data.programs
    assert shown.ended_on == date(2026, 4, 15) and shown.closure == "Ended 2026-04-15: A big winner"
    assert sorted({t.week for t in shown.tasks}) == [1, 2]
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(START), end=str(end))
    rows = csv_rows(auditor_api, run)
    assert rows[0] == surveillance_log.HEADER
    assert [r[0] for r in rows[1:]].count("log") == 3
    week_one = [r for r in rows[1:] if r[0] == "review" and r[14] == "1"]
    assert [(r[3], r[20], r[21]) for r in week_one] == [("1", "50", "no")] * 3 + [("2", "60", "yes")]


def test_building_the_log_takes_bounded_queries_whatever_the_period(
    site, manager, program, tables, django_assert_max_num_queries
):
    reviewer = manager
    for n in range(1, 40):
        for t in tables:
            ReviewLogEntry.objects.create(
                site=site,
                table=t,
                gaming_date=START + timedelta(days=n),
                camera_recording=True,
                unobstructed_view=True,
                clear_picture=True,
                reviewed_by=reviewer,
                reviewed_at=local(2026, 4, 6, 23) + timedelta(days=n),
            )
    for start, end in ((START, START), (START, START + timedelta(days=60))):
        with django_assert_max_num_queries(8):
            data = surveillance_log.build(context(site, start, end))
        surveillance_log.render(data)
    assert len(data.log) == 81 and len(data.programs[0].tasks) == 12


TWENTY_FOUR_HOUR = re.compile(r"(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?!\s*[ap]\.m\.)(?![\d:])")


def test_the_log_writes_its_times_on_the_12_hour_clock_as_its_footer_does(auditor_api, site, logged, program):
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(START), end=str(START))
    content = download(auditor_api, run)
    text = " ".join(pdf_text(content).split())
    assert re.search(r"Generated \d{4}-\d\d-\d\d \d{1,2}:\d\d [ap]\.m\.", text)
    assert TWENTY_FOUR_HOUR.findall(text) == [], text  # "21:30" beside a footer's "9:32 p.m." before
    grid = next(g for g in pdf_tables(content) if g[0][:2] == ["#", "Gaming date"])
    reviewed = ReviewLogEntry.objects.get(pk=logged[1].pk).reviewed_at.astimezone(site_zone(site))
    hour = reviewed.hour % 12 or 12
    meridiem = "a.m." if reviewed.hour < 12 else "p.m."
    assert grid[1][9] == f"{reviewed:%Y-%m-%d} {hour}:{reviewed:%M} {meridiem}"


def test_the_log_csv_gives_the_review_moment_in_iso_8601_with_the_sites_offset(auditor_api, site, logged):
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(START), end=str(START))
    rows = csv_rows(auditor_api, run)
    at = rows[0].index("Reviewed at")
    first = next(r for r in rows[1:] if r[0] == "log" and r[1] == str(logged[1].pk))
    reviewed = ReviewLogEntry.objects.get(pk=logged[1].pk).reviewed_at
    moment = datetime.fromisoformat(first[at])
    assert moment.utcoffset() == reviewed.astimezone(site_zone(site)).utcoffset()
    assert moment == reviewed.replace(microsecond=0) and "." not in first[at]  # to the second


def test_an_entry_number_of_many_digits_prints_whole_in_its_column(site, logged, program):
    data = surveillance_log.build(context(site, START, START))
    big = dataclasses.replace(data, log=(dataclasses.replace(data.log[0], number=12345678), *data.log[1:]))
    task = big.programs[0].tasks[0]
    entries = (dataclasses.replace(task.entries[0], number=87654321), *task.entries[1:])
    tasks = (dataclasses.replace(task, entries=entries), *big.programs[0].tasks[1:])
    big = dataclasses.replace(big, programs=(dataclasses.replace(big.programs[0], tasks=tasks),))
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=landscape(letter)).build(surveillance_log.render(big))
    cells = [row[0] for grid in pdf_tables(out.getvalue()) for row in grid]
    assert "#12345678" in cells and "#87654321" in cells  # never "#1234" over "5678"


def test_an_empty_log_says_surveillance_was_not_required_where_it_was_not(auditor_api, site, manager):
    """The walk's Spokane log read "No review log entry at this site in the period" for a week of two
    tables in play, with no reason, where the surveillance page says it is not required."""
    quiet = date(2026, 5, 4)
    content = download(
        auditor_api, run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(quiet), end=str(quiet))
    )
    text = " ".join(pdf_text(content).split())
    assert (
        f"No review log entry at this site in the period: video surveillance was not required at this site on {quiet}."
        in text
    )
    services.set_surveillance_status(manager.user, site, True, quiet, None, "gross proceeds averaged over the trigger")
    content = download(
        auditor_api, run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(quiet), end=str(quiet))
    )
    assert "No review log entry at this site in the period." in " ".join(pdf_text(content).split())
