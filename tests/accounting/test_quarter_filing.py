"""Filing a site's quarterly summary (SFN 50901): a gaming manager, once every day with
figures has closed books; the figures frozen with their SHA-256; nothing entered in the
quarter afterwards; a later adjustment shown as an amendment beside the filed figures and on
the next quarter's report, never as a silent change; every report saying whether its figures
equal the closed or filed snapshot."""

import hashlib
import json
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, connection, transaction

from accounting import books, figures, services, summaries
from accounting.models import BooksClose, QuarterFiling
from cage import services as cage
from cardroom.models import Role
from core import closing
from core.audit import AuditEvent
from core.money import format_money
from core.periods import Quarter
from floor import services as floor_services
from packs import get_pack
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory
from tests.reports.test_kind_daily import download, pdf_tables, pdf_text, run_report

ND_BRACKETS = get_pack("ND").tax_brackets  # N.D.C.C. 53-06.1-12, the ND pack's effective-dated data

Q3 = Quarter(2026, 3)
DAY, LATER = date(2026, 8, 14), date(2026, 9, 3)
ENTERED = date(2026, 10, 2)  # a gaming date of 2026Q4


def text(content: bytes) -> str:
    return " ".join(pdf_text(content).split())


@pytest.fixture(autouse=True)
def _after_the_quarter():
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        yield


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1)


def play(scenario, table, day, *, drop=100_000, closer=185_000):
    scenario.tray(table, day, "opener", 200_000)
    scenario.tray(table, day, "closer", closer)
    scenario.slip(table, day, "fill", 20_000, number=day.toordinal())
    scenario.drop(table, day, drop)
    scenario.bank(day, "start", 500_000, 300_000)
    scenario.bank(day, "end", 600_000, 280_000)


@pytest.fixture
def quarter_played(site, other_site, people, table, manager):
    """Two days at `site` and one at `other_site` in 2026Q3, every day's books closed."""
    scenario = Scenario(site, people)
    play(scenario, table, DAY)
    play(scenario, table, LATER, drop=150_000)
    elsewhere = Scenario(other_site, people)
    play(elsewhere, TableFactory(site=other_site, number=1), DAY, drop=7_000_000)
    for where, day in ((site, DAY), (site, LATER), (other_site, DAY)):
        services.close_books(acting_user=manager.user, site=where, gaming_date=day)
    return scenario


def post_drop_adjustment(api, site, table, amount_cents: int = 2_000, reason: str = "found after the filing"):
    """A drop correction of the filed quarter's first day (DAY), entered in the next quarter
    (ENTERED), through the API: the input every amendment test starts from."""
    response = api.post(
        "/api/v1/adjustments/",
        {
            "books_close": BooksClose.objects.get(site=site, gaming_date=DAY).pk,
            "table": table.pk,
            "field": "drop",
            "amount_cents": amount_cents,
            "reason": reason,
            "recorded_on": str(ENTERED),
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response


def file(employee, site, quarter=Q3, **extra):
    return services.file_quarter(acting_user=employee.user, site=site, quarter=quarter, **extra)


@pytest.fixture
def filed(quarter_played, manager, site):
    return file(manager, site, reference="GT-2026Q3-0042")


# --- Who files, and when --------------------------------------------------------------------------


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.AUDITOR, Role.CASHIER])
def test_only_a_gaming_manager_files_a_quarter(quarter_played, cast, client_for, site, role):
    with pytest.raises(PermissionDenied):
        file(cast[role], site)
    response = client_for(cast[role]).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json"
    )
    assert response.status_code == 403
    assert not QuarterFiling.objects.exists()


def test_a_quarter_with_a_day_whose_books_are_open_is_not_filed(site, people, table, manager, client_for):
    scenario = Scenario(site, people)
    play(scenario, table, DAY)
    play(scenario, table, LATER)
    services.close_books(acting_user=manager.user, site=site, gaming_date=DAY)
    response = client_for(manager).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json"
    )
    assert response.status_code == 400
    message = response.json()["quarter"][0]
    assert message.startswith("ND 99-01.3-08-16(1)(g)") and f"close the books of {LATER} first" in message
    assert str(DAY) not in message
    assert not QuarterFiling.objects.exists()


def test_a_quarter_with_a_gaming_day_still_open_is_not_filed(site, people, table, manager):
    Scenario(site, people).day(LATER, closed=False)
    with pytest.raises(ValidationError) as caught:
        file(manager, site)
    assert f"close the gaming day {LATER} first" in caught.value.message_dict["quarter"][0]


def test_a_quarter_is_filed_only_once_it_has_ended(site, manager):
    with pytest.raises(ValidationError) as caught:
        file(manager, site, Quarter(2026, 4))
    assert "it is filed once it has ended" in caught.value.message_dict["quarter"][0]


# --- The snapshot ----------------------------------------------------------------------------------


def test_the_filing_freezes_the_quarter_and_the_tax_with_their_digest(filed, site, org, client_for, manager):
    summary = summaries.quarter_summary(site, Q3)
    closes = BooksClose.objects.filter(site=site).order_by("gaming_date")
    assert filed.figures["summary"] == books.quarter_figures(summary, books.quarter_closes(summary))
    assert [d["books_sha256"] for d in filed.figures["summary"]["days"]] == [c.figures_sha256 for c in closes]
    assert filed.figures["summary"]["total"]["agp_cents"] == summary.total.agp_cents
    assert filed.figures["tax"]["agp_cents"] == summaries.organization_tax(org, Q3).agp_cents
    assert filed.figures["tax"]["filed_sites"] == [site.name]
    canonical = json.dumps(filed.figures, sort_keys=True, separators=(",", ":")).encode()
    assert filed.figures_sha256 == hashlib.sha256(canonical).hexdigest()
    assert (filed.quarter, filed.start, filed.end, filed.filed_by) == ("2026Q3", Q3.start, Q3.end, manager)
    event = AuditEvent.objects.get(action="quarter.filed")
    assert (event.object_id, event.site_id, event.actor) == (str(filed.pk), site.pk, manager.user)
    read = client_for(manager).get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3").json()
    assert read["filing"]["figures_sha256"] == filed.figures_sha256 and read["filing"]["reference"] == "GT-2026Q3-0042"
    assert read["check"]["state"] == "equal" and read["figures_now"] == filed.figures["summary"]


def test_a_quarter_is_filed_once_and_its_filing_is_append_only_in_the_database(filed, manager, site):
    with pytest.raises(ValidationError) as caught:
        file(manager, site)
    assert "was filed on" in caught.value.message_dict["quarter"][0]
    for sql in ("UPDATE accounting_quarterfiling SET figures_sha256 = 'x'", "DELETE FROM accounting_quarterfiling"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert QuarterFiling.objects.get().figures_sha256 == filed.figures_sha256


def test_the_gaming_manager_files_through_the_api(quarter_played, client_for, manager, site):
    response = client_for(manager).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3", "reference": "R-1"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["quarter"] == "2026Q3" and body["filed_by_initials"] == manager.initials
    assert body["figures_sha256"] == QuarterFiling.objects.get().figures_sha256


def test_the_schema_documents_the_filing_endpoints(client_for, manager):
    schema = json.loads(client_for(manager).get("/api/schema/", HTTP_ACCEPT="application/json").content)
    operations = schema["paths"]["/api/v1/sites/{id}/quarter-filing/"]
    assert set(operations) >= {"get", "post"}
    assert "FiledFigures" in schema["components"]["schemas"] and "Filing" in schema["components"]["schemas"]


# --- Nothing is entered in a filed quarter ---------------------------------------------------------


def test_nothing_is_entered_in_a_filed_quarter_afterwards(filed, site, cast, manager, table):
    quiet = date(2026, 9, 20)  # no gaming day: still inside the filed quarter
    with pytest.raises(ValidationError) as opening:
        floor_services.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=quiet)
    with pytest.raises(ValidationError) as counting:
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=quiet, kind="start", cash={100: 1}, chips={}
        )
    for caught in (opening, counting):
        message = caught.value.message_dict["gaming_date"][0]
        assert message.startswith("House control (closed books") and "quarterly summary of 2026Q3 is filed" in message
    with pytest.raises(ValidationError) as adjusting:
        services.record_adjustment(
            acting_user=manager.user,
            books_close=BooksClose.objects.get(site=site, gaming_date=DAY),
            table=table,
            field="drop",
            amount_cents=100,
            reason="late find",
            recorded_on=quiet,
        )
    assert "quarterly summary of 2026Q3 is filed" in adjusting.value.message_dict["recorded_on"][0]
    assert summaries.quarter_summary(site, Q3).total.agp_cents == filed.figures["summary"]["total"]["agp_cents"]


def test_which_of_several_dates_are_closed_is_what_each_dates_reason_says(filed, site, django_assert_num_queries):
    """core.closing.closed_dates (the fees page's question) answers as closed_reason of each date:
    a day whose books were closed, a quiet day of the filed quarter, not a day of the next."""
    dates = [DAY, LATER, date(2026, 9, 20), ENTERED, date(2026, 12, 31)]
    with django_assert_num_queries(2):
        closed = closing.closed_dates(site.pk, dates)
    assert closed == {d for d in dates if closing.closed_reason(site.pk, d) is not None}
    assert closed == {DAY, LATER, date(2026, 9, 20)}
    assert closing.closed_dates(site.pk, []) == set()


# --- Amendments ---------------------------------------------------------------------------------------


@pytest.fixture
def amended(filed, manager, site, table):
    """$50 found in DAY's box after the filing, entered on a gaming date of 2026Q4."""
    return services.record_adjustment(
        acting_user=manager.user,
        books_close=BooksClose.objects.get(site=site, gaming_date=DAY),
        table=table,
        field="drop",
        amount_cents=5_000,
        reason="A $50 bill found in box 1 after the count.",
        recorded_on=ENTERED,
    )


def test_an_adjustment_after_filing_is_an_amendment_beside_the_filed_figures(amended, filed, manager, site, client_for):
    api = client_for(manager)
    read = api.get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3").json()
    filed_agp = filed.figures["summary"]["total"]["agp_cents"]
    assert read["check"]["state"] == "equal"  # the filed quarter's figures did not move
    assert [
        (a["corrected_date"], a["recorded_on"], a["agp_effect_cents"], a["quarter_filed"]) for a in read["amendments"]
    ] == [(str(DAY), str(ENTERED), 5_000, True)]
    assert read["amended_total"]["agp_cents"] == filed_agp + 5_000
    quarter = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    assert quarter["total"]["agp_cents"] == filed_agp and quarter["filing"]["state"] == "equal"
    next_quarter = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q4").json()
    assert [(a["amends_quarter"], a["quarter_filed"]) for a in next_quarter["amending_earlier"]] == [("2026Q3", True)]
    assert next_quarter["total"]["agp_cents"] == 5_000  # counted once, in the quarter it was entered


def test_the_tax_of_a_filed_quarter_reports_the_filed_figures_with_the_amendment_beside(
    amended, filed, manager, org, client_for
):
    tax = client_for(manager).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    filed_agp = summaries.organization_tax(org, Q3).agp_cents
    assert tax["agp_cents"] == filed_agp and tax["agp_cents"] > 5_000_000  # the 12% bracket
    assert tax["return"]["amendment_agp_cents"] == 5_000
    assert tax["return"]["amended_agp_cents"] == filed_agp + 5_000
    brackets = figures.brackets_in_force(ND_BRACKETS, Q3.end)
    # The $50 is counted, and taxed, in 2026Q4, where it was entered: the quarter's tax as its
    # return now stands is on the AGP filed, not taxed a second time here (it was: 12% of $50).
    assert tax["return"]["amended_tax_cents"] == figures.gaming_tax(filed_agp, brackets) == tax["tax_cents"]
    q4 = client_for(manager).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q4").json()
    assert q4["agp_cents"] == 5_000 and q4["tax_cents"] == figures.gaming_tax(5_000, brackets) == 50
    assert tax["return"]["filed_sites"] == ["Elks Lodge"] and tax["return"]["unfiled_sites"] == ["Eagles Club"]


def test_the_filed_quarters_page_shows_filed_figures_beside_figures_now(amended, filed, manager, client, site):
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    filed_agp = filed.figures["summary"]["total"]["agp_cents"]
    assert 'id="filed"' in page and "Figures equal the quarterly summary filed on" in page
    assert filed.figures_sha256 in page
    row = page[page.index('data-figure="AGP"') :].split("</tr>")[0]
    assert [format_money(c) for c in (filed_agp, 5_000, filed_agp + 5_000)] == [
        cell.split(">")[1].split("<")[0] for cell in row.split('<td class="text-end"')[1:]
    ]
    assert 'id="amendments"' in page and "A $50 bill found in box 1 after the count." in page
    assert 'id="file-quarter"' not in page
    # The gaming day it is entered on (2026-10-02, its books still open) is before the filing; the
    # moment it was entered is after it: the line says both, "after filing" beside the moment.
    line = page[page.index(f'data-adjustment="{amended.pk}"') :].split("</li>")[0]
    entered = amended.recorded_at.astimezone(ZoneInfo(site.time_zone))
    assert amended.recorded_at >= filed.filed_at and amended.recorded_on < filed.filed_at.date()
    assert f"{DAY} corrected, counted on gaming day {ENTERED} (entered {entered:%Y-%m-%d %H:%M} C" in line
    assert ", after filing)" in line and f"corrected on {ENTERED}" not in line
    # The quarter it counts in lists it the same way.
    q4 = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q4").content.decode()
    line = q4[q4.index('id="amending-earlier"') :].split("</li>")[0]
    assert (
        f"amends 2026Q3 (filed): {DAY} corrected, counted on gaming day {ENTERED} (entered {entered:%Y-%m-%d %H:%M} C"
        in line
    )
    assert 'id="tax-amendment"' in page


def test_the_next_quarters_report_and_the_filed_quarters_report_show_the_amendment(
    amended, filed, site, cast, client_for
):
    auditor = client_for(cast[Role.AUDITOR])
    content = download(auditor, run_report(auditor, kind="quarterly", site=site.pk, quarter="2026Q4"))
    assert "Corrections entered this quarter that amend an earlier quarter (counted here)" in text(content)
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Corrects")
    assert grid[0][:3] == ["Corrects", "Counted on", "Quarter"]  # the gaming day it counts in, as the page says
    assert grid[1][:6] == [str(DAY), str(ENTERED), "2026Q3 (filed)", "drop table 1", "$50.00", "$50.00"]
    assert grid[1][6].startswith("A $50 bill found in box 1 after the count.")
    content = download(auditor, run_report(auditor, kind="quarterly", site=site.pk, quarter="2026Q3"))
    report = text(content)
    assert "Figures equal the quarterly summary filed on" in report and filed.figures_sha256 in report
    assert "Amendments: corrections of this quarter entered in a later quarter (counted there)" in report
    grid = next(g for g in pdf_tables(content) if g[0] == ["", "Filed", "Amendments since", "Figures now"])
    filed_agp = filed.figures["summary"]["total"]["agp_cents"]
    assert grid[3] == ["AGP", format_money(filed_agp), format_money(5_000), format_money(filed_agp + 5_000)]


def test_a_gaming_manager_files_from_the_quarter_page(quarter_played, manager, client, site):
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert 'id="file-quarter"' in page and "Not filed. Books closed for 2 of 2 days" in page
    response = client.post(
        f"/dashboard/quarter/file/?site={site.pk}", {"quarter": "2026Q3", "reference": "GT-1"}, follow=True
    )
    assert 'id="filed"' in response.content.decode()
    assert QuarterFiling.objects.get().reference == "GT-1"


# --- Every report says whether its figures equal the snapshot -------------------------------------


def test_the_daily_report_says_whether_its_figures_equal_the_closed_books(
    quarter_played, site, cast, client_for, table
):
    auditor = client_for(cast[Role.AUDITOR])
    close = BooksClose.objects.get(site=site, gaming_date=DAY)
    Scenario(site, quarter_played.people).day(date(2026, 9, 10))  # a gaming day whose books are open
    run = run_report(auditor, kind="daily", site=site.pk, start=str(DAY), end="2026-09-10")
    report = text(download(auditor, run))
    assert "Figures equal the books closed on" in report and f"(SHA-256 {close.figures_sha256})" in report
    assert "Books not closed: these figures may still change." in report
    # A row written behind the books (an attacker with write access to the database).
    quarter_played.slip(table, DAY, "fill", 50_000, number=999)
    run = run_report(auditor, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    report = text(download(auditor, run))
    assert "Figures differ from the books closed on" in report
    assert "table 1 fills: $200.00 closed, $700.00 now" in report and "total AGP" in report
    assert auditor.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()["books"]["state"] == "differ"


def test_the_quarterly_report_says_whether_its_figures_equal_the_filed_summary(
    quarter_played, site, cast, client_for, manager, table
):
    auditor = client_for(cast[Role.AUDITOR])
    report = text(download(auditor, run_report(auditor, kind="quarterly", site=site.pk, quarter="2026Q3")))
    # as at its generation: a filed return's package carries the reports generated before its filing
    assert (
        "Not filed when this report was generated. Books closed for 2 of 2 days; the figures of every closed" in report
    )
    filing = file(manager, site)
    report = text(download(auditor, run_report(auditor, kind="quarterly", site=site.pk, quarter="2026Q3")))
    assert "Figures equal the quarterly summary filed on" in report and filing.figures_sha256 in report
    quarter_played.slip(table, LATER, "fill", 50_000, number=999)  # behind the books
    report = text(download(auditor, run_report(auditor, kind="quarterly", site=site.pk, quarter="2026Q3")))
    assert "Figures differ from the quarterly summary filed on" in report and "total AGP" in report
    body = auditor.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    assert body["filing"]["state"] == "differ" and body["filing"]["days_differing"] == [str(LATER)]


def test_the_quarter_page_and_the_filing_api_take_the_same_queries_however_many_days(
    amended, site, people, table, manager, client, client_for
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(manager.user)
    api = client_for(manager)
    urls = (
        (client, f"/dashboard/quarter/?site={site.pk}&quarter=2026Q4"),
        (api, f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q4"),
        (api, f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q4"),
    )

    def counts():
        found = []
        for who, url in urls:
            with CaptureQueriesContext(connection) as queries:
                assert who.get(url).status_code == 200
            found.append(len(queries))
        return found

    scenario = Scenario(site, people)

    def closed_day(n):
        play(scenario, table, date(2026, 10, n))
        services.close_books(acting_user=manager.user, site=site, gaming_date=date(2026, 10, n))

    closed_day(3)
    before = counts()
    for n in range(4, 10):
        closed_day(n)
    assert counts() == before
    # The first visit after a close also fills the closed days' figure snapshots (a fixed number
    # of queries whatever the days: accounting.day_figures).
    assert max(before) <= 44


def test_a_filed_sites_line_on_the_return_carries_its_filed_tournaments(org, site):
    """ND 99-01.3-08-16(1)(g): all twenty-one activity reconciles to the tax return, so a filed
    site's line is its filed tables' figures plus its filed tournaments' (GP, prizes, AGP)."""
    filed = QuarterFiling(
        site=site,
        quarter=str(Q3),
        filed_at=datetime(2026, 10, 5, tzinfo=UTC),
        figures={
            "summary": {
                "total": {"gross_proceeds_cents": 100_000, "prizes_cents": 20_000, "agp_cents": 80_000},
                "tournaments": {"gross_proceeds_cents": 30_001, "prizes_cents": 19_500, "agp_cents": 10_501},
                "cash_profit_cents": 75_000,
            }
        },
    )
    summary = summaries.quarter_summary(site, Q3)  # nothing played: the filed figures are the line
    tax = books.tax_return(org, Q3, [summary], {(site.pk, str(Q3)): filed})
    assert tax.figures.sites == ((site.name, 130_001, 39_500, 90_501, 75_000),)
    assert tax.figures.agp_cents == 90_501 and tax.filed_sites == (site.name,)


def test_other_games_agp_recorded_after_the_filing_is_shown_beside_the_figure_as_filed(
    filed, manager, site, other_site, client_for, client
):
    """The tax table is the return as filed: its other games' AGP, not recorded when filed, says so,
    and the one recorded since (an amendment) stands beside it, not contradicted by it."""
    file(manager, other_site, reference="GT-2026Q3-0043")
    org = site.organization
    recorded = client_for(manager).post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": -100, "note": "bingo night lost"},
        format="json",
    )
    assert recorded.status_code == 201, recorded.json()
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    row = page[page.index("Other games' AGP as filed") :].split("</tr>")[0]
    assert 'id="other-games-agp">not recorded when filed<' in row
    assert 'id="other-games-now">now -$1.00, recorded after the filing: an amendment (below)<' in row
    assert "Organization's AGP, all games, as filed" in page


# --- A table read by a filed adjustment -------------------------------------------------------------


QUIET = date(2026, 9, 10)  # a day of 2026Q3 with no gaming day: its only record is an adjustment


@pytest.fixture
def filed_with_an_adjustment_at_a_spare_table(quarter_played, manager, site):
    """$50 of DAY's drop put on table 2 (set up, never played) by an adjustment entered on QUIET,
    whose books close on it; then 2026Q3 is filed. The adjustment is the table's only record."""
    spare = TableFactory(site=site, number=2)
    services.record_adjustment(
        acting_user=manager.user,
        books_close=BooksClose.objects.get(site=site, gaming_date=DAY),
        table=spare,
        field="drop",
        amount_cents=5_000,
        reason="A $50 bill found in the box of table 2.",
        recorded_on=QUIET,
    )
    services.close_books(acting_user=manager.user, site=site, gaming_date=QUIET)
    return spare, file(manager, site, reference="GT-2026Q3-0044")


@pytest.mark.parametrize("field, value", [("game", "PW"), ("number", 7)])
def test_the_table_of_a_filed_adjustment_keeps_its_game_and_number(
    filed_with_an_adjustment_at_a_spare_table, manager, site, client_for, field, value
):
    """The adjustment counts on its table's game line (the filed return's twenty-one and
    paddlewheel figures) and its closed day names the table by number: once a table has one, its
    game and number stay, as with any other record of it (house control,
    cardroom.services.refuse_renaming_the_records). Before, an adjustment was no record of its
    table: made paddlewheel, it moved the filed quarter's $50 from the twenty-one line with no
    amendment."""
    from cardroom import services as cardroom_services
    from cardroom.models import Table

    spare, filing = filed_with_an_adjustment_at_a_spare_table
    answer = client_for(manager).patch(f"/api/v1/tables/{spare.pk}/", {field: value}, format="json")
    now = summaries.quarter_summary(site, Q3)
    assert now.twenty_one.drop_cents == filing.figures["summary"]["twenty_one"]["drop_cents"]  # the return as filed
    assert answer.status_code == 400, answer.content
    assert f"its {field} cannot be changed" in answer.json()[field][0]
    with pytest.raises(ValidationError) as refused:
        cardroom_services.update_table(acting_user=manager.user, table=Table.objects.get(pk=spare.pk), **{field: value})
    message = refused.value.message_dict[field][0]
    assert message.startswith("House control: Twenty-one table 2 has records (adjustments among them)"), message
    assert (Table.objects.get(pk=spare.pk).game, Table.objects.get(pk=spare.pk).number) == ("21", 2)
