"""The twenty-one daily report (SFN 50079 + SFN 9924) read back against the daily-summary API.

Also holds the helpers the other test_kind_* modules share: the people of a scenario, the
auditor's API client, requesting a run and reading its PDF tables and CSV back."""

import csv
import io
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pdfplumber
import pytest

from cage.models import BankDeposit
from cardroom.models import Role
from core.money import cents_to_decimal, format_money, format_ratio
from packs import revenue_words
from reports.kinds import daily
from reports.registry import ReportContext
from reports.services import generate_report
from tests.accounting.scenario import Scenario, at
from tests.factories import TableFactory, make_person

DAY = date(2026, 8, 14)


@pytest.fixture
def people(org, site, cast):
    return {
        "shift": cast[Role.SHIFT_MANAGER],
        "cashier": cast[Role.CASHIER],
        "count1": make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
        "count2": cast[Role.COUNT_TEAM],
    }


@pytest.fixture
def scenario(site, people):
    return Scenario(site, people)


@pytest.fixture
def auditor_api(client_for, cast):
    return client_for(cast[Role.AUDITOR])


def run_report(api, **payload) -> dict:
    """Request a run; one queued for a worker (a large kind) is generated here, as the worker would."""
    created = api.post("/api/v1/reports/", payload, format="json")
    assert created.status_code == 201, created.content
    run = created.json()
    if run["status"] == "queued":
        assert generate_report(run["id"]) is True
    return run


def download(api, run: dict, fmt: str = "pdf") -> bytes:
    suffix = "" if fmt == "pdf" else f"?format={fmt}"
    response = api.get(f"/api/v1/reports/{run['id']}/download/{suffix}")
    assert response.status_code == 200
    return response.content


def pdf_text(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return "\n".join(page.extract_text() for page in pdf.pages)


def pdf_tables(content: bytes) -> list[list[list[str]]]:
    """Every grid of the PDF as rows of cell texts (line breaks inside a cell joined by spaces)."""
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return [
            [[" ".join((cell or "").split()) for cell in row] for row in grid]
            for page in pdf.pages
            for grid in page.extract_tables()
        ]


def csv_rows(api, run: dict) -> list[list[str]]:
    return list(csv.reader(io.StringIO(download(api, run, "csv").decode())))


def dollars(cents: int | None) -> str:
    """A money cell of the CSV: plain dollars with two decimals; empty when not known."""
    return "" if cents is None else str(cents_to_decimal(cents))


def csv_ratio(api_ratio: str | None) -> str:
    """A ratio cell of the CSV: the fraction with six decimals, as the API gives it."""
    return api_ratio or ""


def ratio(value: str | None) -> str:
    return format_ratio(None if value is None else Decimal(value))


def context(site, start, end) -> ReportContext:
    return ReportContext(site.organization, site, start, end, "x", end)


@pytest.fixture
def busy_days(scenario, site, people):
    """Four tables on DAY (the fourth continues on SFN 9924), one on the next day; the bank
    counted both days and DAY's deposit recorded."""
    tables = [TableFactory(site=site, number=n) for n in (1, 2, 3, 4)]
    for n, t in enumerate(tables):
        scenario.tray(t, DAY, "opener", 200_000)
        scenario.tray(t, DAY, "closer", 185_000 + n * 1_000)
        scenario.drop(t, DAY, 100_000 + n * 12_345)
    scenario.slip(tables[0], DAY, "fill", 20_000, number=1)
    scenario.slip(tables[0], DAY, "credit", 5_000, number=1)
    scenario.slip(tables[3], DAY, "fill", 7_500, number=2)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 900_000, 280_000)
    BankDeposit.objects.create(
        site=site,
        gaming_day=scenario.day(DAY),
        gaming_date=DAY,
        amount_cents=350_000,
        deposited_on=DAY + timedelta(days=1),
        due_on=date(2026, 8, 19),
        recorded_at=at(DAY, 40),
        recorded_by=people["cashier"],
        initials="CO",
    )
    nxt = DAY + timedelta(days=1)
    scenario.tray(tables[1], nxt, "opener", 200_000)
    scenario.tray(tables[1], nxt, "closer", 210_000)
    scenario.drop(tables[1], nxt, 40_000)
    scenario.bank(nxt, "start", 550_000, 280_000)
    scenario.bank(nxt, "end", 570_000, 270_000)
    return tables


def _day_grids(grids, api_day):
    """The grids of one day, in order: tables 1-3, the continuation, then the site totals."""
    first = f"Table {api_day['tables'][0]['table_number']}"
    start = next(i for i, g in enumerate(grids) if g[0][1:2] == [first])
    return grids[start:]


def test_the_daily_report_shows_each_tables_figures_as_the_api_does(auditor_api, site, busy_days):
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    api_day = auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    grids = _day_grids(pdf_tables(content), api_day)
    form, continuation, totals = grids[0], grids[1], grids[2]
    assert form[0] == ["", "Table 1", "Table 2", "Table 3"]
    assert continuation[0] == ["", "Table 4"]
    fields = [attribute for _, attribute in daily.LINES]
    for grid, tables in ((form, api_day["tables"][:3]), (continuation, api_day["tables"][3:])):
        for row, field in zip(grid[1:], fields, strict=False):
            assert row[1:] == [format_money(t[field]) for t in tables], row[0]
        assert grid[-1][1:] == [ratio(t["hold_ratio"]) for t in tables]
    assert totals[0] == ["", "Twenty-one", "Paddlewheel", "Total"]
    assert totals[7][3] == format_money(api_day["total"]["agp_cents"])
    assert totals[8][3] == ratio(api_day["total"]["hold_ratio"])
    assert "Continuation (SFN 9924): table 4" in pdf_text(content)


def test_a_day_is_never_judged_against_the_quarters_low_hold_threshold(auditor_api, site, scenario):
    """ND 99-01.3-08-04(9) judges percent-of-hold "for a quarter": the daily report's games show a
    day's figures and hold with no threshold and no "below" (as the daily page shows none), and say
    plainly, citing the rule, that the threshold is the quarter's; the API's day carries none either.
    Twenty-one held 5% on the day: before, the report printed "below" for it."""
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 105_000)
    scenario.drop(table, DAY, 100_000)  # AGP $50.00 on GP $1,000.00
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    api_day = auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    games = {line["game"]: line for line in api_day["games"]}
    assert games["21"]["hold_ratio"] == "0.050000"  # under twenty-one's 10%, were a day judged
    totals = next(g for g in pdf_tables(content) if g[0] == ["", "Twenty-one", "Paddlewheel", "Total"])
    assert [row[0] for row in totals[1:]] == [label for label, _ in daily.figure_lines(revenue_words(site))] + [
        "Percent-of-hold (AGP / GP)"
    ]
    assert not any("below" in cell or "threshold" in cell for row in totals for cell in row)
    text = " ".join(pdf_text(content).split())
    assert "Quarter's low-hold threshold" not in text and "not below" not in text
    assert (
        "ND 99-01.3-08-04(9): a game's low-hold threshold applies to its percent-of-hold for a quarter, at a site "
        "that requires video surveillance, never to a day's: a day's percent-of-hold below it starts no video "
        "review (the quarterly summary compares each game's quarter with its threshold)." in text
    )
    for line in [*api_day["games"], *(g for d in _quarter_days(auditor_api, site) for g in d["games"])]:
        assert (line["low_hold_threshold"], line["threshold_citation"], line["below_threshold"]) == (None,) * 3


def _quarter_days(api, site) -> list[dict]:
    return api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()["days"]


def test_the_daily_report_shows_cash_long_short_with_its_reconciling_line_and_the_deposit(
    auditor_api, client, cast, site, busy_days
):
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    cash = auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()["cash"]
    grid = next(g for g in pdf_tables(content) if g[0] == ["", "Amount"])
    amounts = {row[0]: row[1] for row in grid[1:]}
    assert amounts["Cash profit (ending - starting cash + drop, net of IOUs)"] == format_money(
        cash["cash_profit_cents"]
    )
    assert amounts["Cash long (short) = cash profit - AGP"] == format_money(cash["long_short_cents"])
    assert amounts["Reconciling line: change in chips outside the house"] == format_money(
        cash["chips_outside_change_cents"]
    )
    assert amounts["Unexplained remainder"] == format_money(cash["unexplained_cents"])
    assert amounts["Bank deposit expected"] == format_money(cash["deposit_expected_cents"])
    assert amounts["Bank deposit recorded"] == format_money(350_000)
    # The deposit recorded is not the one expected (the day's cash profit): the line says by how much.
    difference = 350_000 - max(cash["deposit_expected_cents"], 0)
    assert difference != 0
    said = f"{'SHORT' if difference < 0 else 'OVER'} {format_money(abs(difference))} against the expected deposit"
    assert (
        f"Bank deposit due by {cash['deposit_due']} (the third banking day after the gaming date, ND 99-01.3-03-10(1)): deposited 2026-08-15, not yet verified, {said}."
        in " ".join(pdf_text(content).split())
    )
    # The daily page says it beside the deposit recorded, as the report does.
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    assert f'id="deposit-difference">{said.replace("SHORT", "short").replace("OVER", "over")}</span>' in html


def test_a_date_range_has_one_section_per_day_and_the_csv_the_same_rows(auditor_api, site, busy_days):
    end = DAY + timedelta(days=1)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(end))
    text = pdf_text(download(auditor_api, run))
    assert "Gaming date 2026-08-14 (gaming day closed)" in text and "Gaming date 2026-08-15" in text
    rows = csv_rows(auditor_api, run)
    assert rows[0] == [h for h in daily.HEADER if h != "Count"]  # no count beside a drop pack's figures
    for day in (DAY, end):
        api_day = auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={day}").json()
        mine = [r for r in rows[1:] if r[0] == str(day)]
        labels = [str(t["table_number"]) for t in api_day["tables"]] + ["twenty_one", "paddlewheel", "total"]
        assert [r[1] for r in mine] == labels
        games = [api_day["twenty_one"], api_day["paddlewheel"], api_day["total"]]
        for row, figures in zip(mine, [*api_day["tables"], *games], strict=True):
            assert row[10] == dollars(figures["agp_cents"]) and row[11] == csv_ratio(figures["hold_ratio"])
        assert mine[-1][13] == dollars(api_day["cash"]["cash_profit_cents"])
        assert mine[-1][14] == dollars(api_day["cash"]["long_short_cents"])


def test_a_date_range_ends_with_its_period_summed_as_the_csv_gives_it(auditor_api, site, busy_days):
    """The walk's Bismarck range (34 pages of days) ended with no figure of the period: it now sums
    its days, each game and the total, with the cash profit of the days counted."""
    end = DAY + timedelta(days=1)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(end))
    text = " ".join(pdf_text(download(auditor_api, run)).split())
    days = [auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={d}").json() for d in (DAY, end)]
    agp = sum(d["total"]["agp_cents"] for d in days)
    cash = sum(d["cash"]["cash_profit_cents"] for d in days)
    assert (
        f"Period {DAY} to {end}" in text and "The 2 days of the period summed; hold is the ratio of the sums." in text
    )
    assert f"Cash profit of the 2 days with both bank counts: {format_money(cash)}." in text
    rows = csv_rows(auditor_api, run)
    period = next(r for r in rows[1:] if r[1] == "period")
    assert period[0] == "" and period[10] == dollars(agp) and period[13] == dollars(cash)
    twenty_one = next(r for r in rows[1:] if r[1] == "period_twenty_one")
    assert twenty_one[10] == dollars(sum(d["twenty_one"]["agp_cents"] for d in days))
    one_day = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    assert "Period " not in pdf_text(download(auditor_api, one_day))


def test_a_period_without_play_says_so(auditor_api, site):
    run = run_report(auditor_api, kind="daily", site=site.pk, start="2026-01-01", end="2026-01-02")
    assert "No gaming day at this site in the period." in pdf_text(download(auditor_api, run))


def test_building_the_daily_report_takes_bounded_queries_whatever_the_period(
    site, scenario, busy_days, django_assert_max_num_queries
):
    for n in range(2, 40):
        scenario.tray(busy_days[0], DAY + timedelta(days=n), "opener", 100_000)
        scenario.drop(busy_days[0], DAY + timedelta(days=n), 10_000)
    for start, end in ((DAY, DAY), (DAY, DAY + timedelta(days=60))):
        # 13 + the closed books + 18 for the records entered late (one per kind: the floor's six, the cage's
        # six, the drop's and the count's four, the tournaments' fees and prizes) + tournament fees and prizes
        # + the open items carried past each day's close + the slips received unverified + the dates a
        # gaming day was opened on (a day of the books may have none) + the openers that differ from their
        # table's last count, with their reasons (floor.queries.opener_variances) + the tournament fees and
        # prizes found after their day's books closed (tournaments.queries.found_late) + the deposits'
        # corrections (cage.queries.deposit_corrections); no hold thresholds: a day is not judged against the
        # quarter's (ND 99-01.3-08-04(9))
        with django_assert_max_num_queries(40):
            data = daily.build(context(site, start, end))
        daily.render(data)
    assert len(data.days) == 40


def test_a_day_without_a_bank_count_shows_cash_profit_not_known_never_zero(auditor_api, site, scenario):
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 190_000)
    scenario.drop(table, DAY, 40_000)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    grid = next(g for g in pdf_tables(content) if g[0] == ["", "Amount"])
    amounts = {row[0]: row[1] for row in grid[1:]}
    assert amounts["Cash profit (ending - starting cash + drop, net of IOUs)"] == daily.NOT_KNOWN
    assert amounts["Cash long (short) = cash profit - AGP"] == daily.NOT_KNOWN
    assert "$0.00" not in (amounts["Cash profit (ending - starting cash + drop, net of IOUs)"],)
    total = next(r for r in csv_rows(auditor_api, run) if r[1] == "total")
    assert total[13:15] == ["", ""]  # not known: empty, never 0


TWELVE_HOUR = re.compile(r"\b\d{1,2}:\d{2} [ap]\.m\.")
ANY_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")


def test_the_daily_report_writes_the_books_close_in_its_slips_12_hour_clock_as_every_time_it_shows(
    auditor_api, site, scenario, people, time_machine
):
    """One document, one clock: the report's slips and its "Generated" line write 12-hour a.m./p.m.
    times (the slip rule's format); the closed books' statement wrote 24-hour ("16:31 PST") beside
    them, in the PDF and the CSV.
    A page keeps the site's 24-hour clock, as its other times do (`Snapshot.when`)."""
    from accounting.services import close_books

    table = TableFactory(site=site, number=1)
    scenario.played(DAY, table)
    afternoon = datetime(2026, 8, 15, 16, 31, tzinfo=ZoneInfo(site.time_zone))
    time_machine.move_to(afternoon, tick=False)
    close_books(acting_user=people["shift"].user, site=site, gaming_date=DAY)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    pdf = pdf_text(download(auditor_api, run))
    statement = f"books closed on 2026-08-15 4:31 p.m. {afternoon.tzname()} by"
    assert statement in " ".join(pdf.split()), pdf
    assert len(TWELVE_HOUR.findall(pdf)) == len(ANY_CLOCK.findall(pdf)), ANY_CLOCK.findall(pdf)
    books_cells = [cell for row in csv_rows(auditor_api, run) for cell in row if "books closed on" in cell]
    assert books_cells and all(statement in cell for cell in books_cells), books_cells


def test_the_deposit_expected_over_the_cash_profit_says_why_in_the_pdf_and_the_csv(auditor_api, site, cast):
    """A tournament's $45.00 jacket, paid from no cash bank, is out of the cash profit ($5.00) and
    back in the deposit expected ($50.00): the daily page says so beside the cash profit; the PDF
    printed the two figures with no reason, and the CSV too. Both now say it (cited at the pack's
    deposit rule, ND 99-01.3-03-10), the CSV on the day's total row with the amount."""
    from tests.accounting.test_tournament_cash import DAY, play_tournament_night

    play_tournament_night(cast, site)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    why = (
        "Bank deposit expected = cash profit + the tournaments' merchandise prizes ($45.00): paid from no cash "
        "bank, they go back into the deposit, as a prize paid by check does (ND 99-01.3-03-10)."
    )
    assert why in " ".join(pdf_text(download(auditor_api, run)).split())
    rows = list(csv.DictReader(io.StringIO(download(auditor_api, run, "csv").decode())))
    (total,) = [r for r in rows if r["Table"] == "total"]
    assert (total["Cash profit"], total["Deposit expected"]) == ("5.00", "50.00")
    assert (total["Figure"], total["Amount"]) == (why, "45.00")
