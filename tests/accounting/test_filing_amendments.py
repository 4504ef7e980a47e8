"""Filed means filed, for every figure on the return (issue 36). Each input that feeds a filed
quarter's return, entered after the filing, is either refused (a record dated in the filed
quarter: its books are closed) or recorded as an amendment of that filing (an adjustment
correcting one of its days, the organization's other games' AGP for the quarter): a
FilingAmendment pointing back at the filing with the change, the gaming manager flagged with
the filing rule of the site's pack, the page, the PDF and the API showing "Filed / Amendments
since / Figures now", and the filed figures and their SHA-256 unchanged."""

import hashlib
import json
from datetime import UTC, datetime

import pytest
import time_machine
from django.utils import timezone

from accounting import books, figures, services, summaries
from accounting.models import BooksClose, FilingAmendment, QuarterFiling
from cardroom.models import Role, Site
from compliance.models import Alert
from core.moments import gaming_date_of
from core.money import format_money
from core.periods import Quarter
from packs.nd.accounting import TAX_BRACKETS as ND_TAX_BRACKETS
from tests.accounting.scenario import Scenario
from tests.accounting.test_quarter_filing import DAY, ENTERED, LATER, Q3, file, play, post_drop_adjustment, text
from tests.factories import TableFactory, make_person
from tests.reports.test_kind_daily import download, pdf_tables, run_report


@pytest.fixture(autouse=True)
def _after_the_quarter():
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        yield


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1)


@pytest.fixture
def quarter_played(site, other_site, people, table, manager):
    """Two days at `site` and one at `other_site` in 2026Q3, every day's books closed (as in
    test_quarter_filing)."""
    scenario = Scenario(site, people)
    play(scenario, table, DAY)
    play(scenario, table, LATER, drop=150_000)
    play(Scenario(other_site, people), TableFactory(site=other_site, number=1), DAY, drop=7_000_000)
    for where, day in ((site, DAY), (site, LATER), (other_site, DAY)):
        services.close_books(acting_user=manager.user, site=where, gaming_date=day)
    return scenario


@pytest.fixture
def filed(quarter_played, manager, site):
    return file(manager, site, reference="GT-2026Q3-0042")


OTHER_GAMES = 80_000_000  # $800,000 of pull tabs and bingo: the organization's total moves up a bracket
FILED_RULE = "ND 99-01.3-08-16(1)(g)"


def digest(filing) -> str:
    return hashlib.sha256(json.dumps(filing.figures, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def assert_filed_figures_unchanged(filed):
    now = QuarterFiling.objects.get(pk=filed.pk)
    assert now.figures == filed.figures
    assert now.figures_sha256 == filed.figures_sha256 == digest(now)


def filing_api(client, site) -> dict:
    response = client.get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3")
    assert response.status_code == 200
    return response.json()


def rows_by_figure(body) -> dict[str, tuple]:
    return {
        r["figure"]: (r["filed_cents"], r["amendments_since_cents"], r["now_cents"]) for r in body["filed_beside_now"]
    }


def page_row(page: str, label: str) -> list[str]:
    row = page[page.index(f'data-figure="{label}"') :].split("</tr>")[0]
    return [cell.split(">")[1].split("<")[0] for cell in row.split('<td class="text-end"')[1:]]


def pdf_grid(client, site) -> dict[str, list[str]]:
    content = download(client, run_report(client, kind="quarterly", site=site.pk, quarter="2026Q3"))
    grid = next(g for g in pdf_tables(content) if g[0] == ["", "Filed", "Amendments since", "Figures now"])
    return {row[0]: row[1:] for row in grid[1:]}, text(content)


def the_alert(filing) -> Alert:
    alert = Alert.objects.get(rule="filed_return_amended")
    assert (alert.site_id, alert.period_key) == (filing.site_id, "2026Q3")
    assert alert.citation == FILED_RULE and alert.action_required.startswith(f"{FILED_RULE}: ")
    assert filing.figures_sha256 in alert.action_required
    return alert


# --- Other games' AGP ------------------------------------------------------------------------------


def test_the_other_games_agp_recorded_after_filing_is_an_amendment_not_a_silent_change(
    filed, site, org, manager, client_for, client
):
    api = client_for(manager)
    tax_before = api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    response = api.post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": OTHER_GAMES, "note": "pull tabs, return GT-77"},
        format="json",
    )
    assert response.status_code == 201, response.json()

    assert_filed_figures_unchanged(filed)
    amendment = FilingAmendment.objects.get()
    assert (amendment.filing, amendment.source, amendment.figure, amendment.delta_cents) == (
        filed,
        "other_games_agp",
        "other_games_agp_cents",
        OTHER_GAMES,
    )
    assert amendment.other_games_agp_id == response.json()["id"]

    # The tax API: the tax as filed, the other games' AGP beside it as an amendment, the tax as amended.
    tax = api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert tax["tax_cents"] == tax_before["tax_cents"] == filed.figures["tax"]["tax_cents"]
    assert tax["other_games_agp_cents"] is None  # as the filing froze it
    brackets = figures.brackets_in_force(ND_TAX_BRACKETS, Q3.end)
    amended_tax = figures.gaming_tax_on_recorded(tax["agp_cents"], OTHER_GAMES, brackets)
    assert amended_tax != tax["tax_cents"]
    assert tax["return"]["other_games_amendment_cents"] == OTHER_GAMES
    assert tax["return"]["other_games_agp_now_cents"] == OTHER_GAMES
    assert tax["return"]["amended_tax_cents"] == amended_tax

    # Filed / Amendments since / Figures now: the API, the page, the PDF.
    body = filing_api(api, site)
    assert body["filing"]["figures_sha256"] == filed.figures_sha256 and body["check"]["state"] == "equal"
    assert body["check"]["statement"].endswith(
        "Amended since: 1 entry after the filing changed the return (Filed / Amendments since / Figures now)."
    )
    filed_tax = filed.figures["tax"]["tax_cents"]
    rows = rows_by_figure(body)
    assert rows["Other games' AGP"] == (0, OTHER_GAMES, OTHER_GAMES)
    assert rows["Gaming tax"] == (filed_tax, amended_tax - filed_tax, amended_tax)
    assert [a["source"] for a in body["filing_amendments"]] == ["other_games_agp"]
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert page_row(page, "Gaming tax") == [format_money(c) for c in (filed_tax, amended_tax - filed_tax, amended_tax)]
    assert 'id="other-games-amendment"' in page
    grid, report = pdf_grid(api, site)
    assert grid["Other games' AGP"] == [format_money(c) for c in (0, OTHER_GAMES, OTHER_GAMES)]
    assert grid["Gaming tax"] == [format_money(c) for c in (filed_tax, amended_tax - filed_tax, amended_tax)]
    assert "other games' AGP +" in report and "recorded after the filing" in report
    assert "Amended since: 1 entry after the filing changed the return" in report

    # The gaming manager is flagged, once, citing the filing rule of the site's pack.
    alert = the_alert(filed)
    assert alert.figures["delta_cents"] == OTHER_GAMES and alert.subject == f"amendment:{amendment.pk}"


def test_a_correction_of_the_other_games_agp_amends_by_its_difference(filed, org, manager, client_for):
    api = client_for(manager)
    url = f"/api/v1/organizations/{org.pk}/other-games-agp/"
    first = api.post(url, {"quarter": "2026Q3", "agp_cents": 1_000_000, "note": "ledger"}, format="json").json()
    second = api.post(
        url, {"quarter": "2026Q3", "agp_cents": 1_250_000, "note": "the return", "corrects": first["id"]}, format="json"
    )
    assert second.status_code == 201, second.json()
    assert list(FilingAmendment.objects.values_list("delta_cents", flat=True)) == [1_000_000, 250_000]
    assert_filed_figures_unchanged(filed)
    tax = api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert tax["return"]["other_games_amendment_cents"] == 1_250_000


def test_other_games_agp_recorded_before_filing_is_filed_not_amended(quarter_played, site, org, manager, client_for):
    api = client_for(manager)
    api.post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": OTHER_GAMES, "note": "pull tabs"},
        format="json",
    )
    filing = file(manager, site)
    assert filing.figures["tax"]["other_games_agp_cents"] == OTHER_GAMES
    assert not FilingAmendment.objects.exists() and not Alert.objects.filter(rule="filed_return_amended").exists()
    tax = api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert tax["other_games_agp_cents"] == OTHER_GAMES and tax["return"]["other_games_amendment_cents"] == 0


# --- Adjustments to the closed books of a filed quarter --------------------------------------------


@pytest.mark.parametrize(
    ("field", "amount", "figure", "label", "delta"),
    [
        ("drop", 5_000, "agp_cents", "AGP", 5_000),  # a $50 bill found in the box after the count
        ("fills", 2_000, "agp_cents", "AGP", -2_000),  # a fill slip found late: AGP down
        ("cash", -1_500, "cash_profit_cents", "Cash profit", -1_500),  # the bank was short
    ],
)
def test_an_adjustment_after_filing_is_recorded_as_an_amendment_of_the_filing(
    filed, site, manager, client_for, client, table, field, amount, figure, label, delta
):
    api = client_for(manager)
    before = rows_by_figure(filing_api(api, site))
    response = api.post(
        "/api/v1/adjustments/",
        {
            "books_close": BooksClose.objects.get(site=site, gaming_date=DAY).pk,
            "table": None if field == "cash" else table.pk,
            "field": field,
            "amount_cents": amount,
            "reason": "found after the filing",
            "recorded_on": str(ENTERED),
        },
        format="json",
    )
    assert response.status_code == 201, response.json()

    assert_filed_figures_unchanged(filed)
    amendment = FilingAmendment.objects.get()
    assert (amendment.filing, amendment.source, amendment.figure, amendment.delta_cents) == (
        filed,
        "adjustment",
        figure,
        delta,
    )
    body = filing_api(api, site)
    filed_value = before[label][0]
    assert rows_by_figure(body)[label] == (filed_value, delta, before[label][2] + delta)
    assert [(a["source"], a["delta_cents"]) for a in body["filing_amendments"]] == [("adjustment", delta)]
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    shown = [format_money(filed_value), format_money(delta), format_money(before[label][2] + delta)]
    assert page_row(page, label) == shown
    # The reason quoted as written, then who approved it (not "reason.; approved GM").
    assert f"(“found after the filing”, approved by {manager.initials})" in page.replace("&#x27;", "'")
    grid, said = pdf_grid(api, site)
    assert grid[label] == shown
    # The site's corrections move its lines, not the return's (AGP of the organization's sites, the
    # tax): the page and the report say so under the grid, in the same words.
    note = books.filed_beside_now_note(taxed=True)
    assert f'id="filed-figures-note">{note}</p>' in page.replace("&#x27;", "'")
    assert note in " ".join(said.split())
    assert the_alert(filed).figures["amended_figure"] == label
    # The day it is counted on, in the words of the quarter page's own line ("counted on gaming day
    # ... (entered <when it was typed>, after filing)"): "entered on" that day read as a second entry date.
    adjustment = amendment.adjustment
    entry = f"adjustment {adjustment.pk} of {DAY}'s {field}, counted on gaming day {ENTERED}"
    assert the_alert(filed).figures["entry"] == entry and f"by {entry}" in page.replace("&#x27;", "'")


def test_an_adjustment_of_a_quarter_not_filed_amends_nothing(quarter_played, site, manager, client_for, table):
    response = client_for(manager).post(
        "/api/v1/adjustments/",
        {
            "books_close": BooksClose.objects.get(site=site, gaming_date=DAY).pk,
            "table": table.pk,
            "field": "drop",
            "amount_cents": 5_000,
            "reason": "found before the filing",
            "recorded_on": str(ENTERED),
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert not FilingAmendment.objects.exists() and not Alert.objects.filter(rule="filed_return_amended").exists()


# --- Records dated in the filed quarter: refused, the correction is an adjustment ----------------


def _late_count_session(api, site, people):
    return api.post(
        "/api/v1/count-sessions/",
        {"site": site.pk, "gaming_date": str(DAY), "members": [people["count1"].pk, people["count2"].pk]},
        format="json",
    )


def _late_bank_count(api, site, people):
    return api.post(
        "/api/v1/cage/bank-counts/",
        {"site": site.pk, "gaming_date": "2026-09-20", "kind": "start", "cash": {"10000": 1}, "chips": {}},
        format="json",
    )


def _late_gaming_day(api, site, people):
    return api.post("/api/v1/gaming-days/", {"site": site.pk, "gaming_date": "2026-09-20"}, format="json")


LATE_ENTRIES = {
    "a late drop count": (_late_count_session, "count1"),
    "a late bank count (cash profit)": (_late_bank_count, "cashier"),
    "a late gaming day (slips, trays, tips, tournaments of a day)": (_late_gaming_day, "shift"),
}


@pytest.mark.parametrize("entry", list(LATE_ENTRIES))
def test_a_record_dated_in_the_filed_quarter_is_refused_and_the_filing_stands(
    filed, site, people, client_for, manager, entry
):
    post, who = LATE_ENTRIES[entry]
    response = post(client_for(people[who]), site, people)
    assert response.status_code == 400, response.content
    message = json.dumps(response.json())
    assert "House control (closed books" in message
    assert "is filed" in message or "are closed" in message
    assert "adjustment" in message  # the way to correct a filed quarter: an amendment
    assert_filed_figures_unchanged(filed)
    assert summaries.quarter_summary(site, Q3).total.agp_cents == filed.figures["summary"]["total"]["agp_cents"]
    assert not FilingAmendment.objects.exists()
    assert filing_api(client_for(manager), site)["check"]["state"] == "equal"


def test_the_schema_documents_the_three_figures_and_the_amendments(client_for, manager):
    schema = json.loads(client_for(manager).get("/api/schema/", HTTP_ACCEPT="application/json").content)
    filed_figures = schema["components"]["schemas"]["FiledFigures"]["properties"]
    assert {"filed_beside_now", "filing_amendments"} <= set(filed_figures)
    amendment = schema["components"]["schemas"]["FilingAmendmentOut"]["properties"]
    assert {"tournament_fee", "tournament_prize"} <= set(amendment)  # the void that amended the return
    source = schema["components"]["schemas"][amendment["source"]["$ref"].rsplit("/", 1)[1]]
    assert "tournament_void" in source["enum"]


def test_a_filing_amendment_is_append_only_in_the_database(filed, org, manager, client_for):
    from django.db import DatabaseError, connection, transaction

    client_for(manager).post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": OTHER_GAMES, "note": "pull tabs"},
        format="json",
    )
    for sql in ("UPDATE accounting_filingamendment SET delta_cents = 0", "DELETE FROM accounting_filingamendment"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert FilingAmendment.objects.get().delta_cents == OTHER_GAMES


def test_the_filed_return_amended_alert_names_the_rule_at_the_gaming_managers_alert_list(
    filed, org, manager, client_for, cast
):
    client_for(manager).post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": OTHER_GAMES, "note": "pull tabs"},
        format="json",
    )
    alerts = client_for(manager).get("/api/v1/alerts/").json()
    listed = alerts["results"] if isinstance(alerts, dict) else alerts
    assert [(a["rule"], a["citation"]) for a in listed if a["rule"] == "filed_return_amended"] == [
        ("filed_return_amended", FILED_RULE)
    ]


def _tax_return(org):
    every_site = summaries.organization_quarter(org, Q3)
    return books.tax_return(org, Q3, every_site, books.filings([s.site_id for s in every_site], [Q3]))


def test_an_adjustment_entered_on_the_quarters_last_day_is_in_its_figures_not_an_amendment(
    quarter_played, site, org, manager, table
):
    """An adjustment counts on the day it is entered (shared/docs/domain.md section 3): entered on
    30 September for a day of the same quarter, it is in 2026Q3's figures, never also beside them
    as an amendment (which would count it twice in the amended AGP)."""
    before = _tax_return(org).figures.agp_cents
    services.record_adjustment(
        acting_user=manager.user, books_close=BooksClose.objects.get(site=site, gaming_date=DAY), table=table,
        field="drop", amount_cents=5_000, reason="Recounted on the last day.", recorded_on=Q3.end,
    )  # fmt: skip
    tax = _tax_return(org)
    assert tax.figures.agp_cents == before + 5_000
    assert tax.amendments == () and tax.amended_agp_cents == tax.figures.agp_cents


def test_the_return_is_filed_only_when_every_site_with_figures_has_filed(
    quarter_played, site, other_site, org, manager
):
    """ND 99-01.3-08-16(1)(g): the quarter's summaries reconcile to one return; while a site with
    figures in the quarter has not filed, the return is not filed."""
    file(manager, site)
    tax = _tax_return(org)
    assert (tax.filed_sites, tax.unfiled_sites, tax.filed) == ((site.name,), (other_site.name,), False)
    file(manager, other_site)
    assert _tax_return(org).filed


def test_the_return_takes_the_other_games_agp_of_the_latest_filing(
    quarter_played, site, other_site, org, manager, client_for
):
    """N.D.C.C. 53-06.1-12 on the organization's total: the other games' AGP corrected after one
    site filed, then frozen by the next site's filing, is the return's figure, with nothing amended."""
    api = client_for(manager)
    url = f"/api/v1/organizations/{org.pk}/other-games-agp/"
    first = api.post(url, {"quarter": "2026Q3", "agp_cents": 1_000_000, "note": "ledger"}, format="json").json()
    file(manager, site)
    api.post(
        url, {"quarter": "2026Q3", "agp_cents": 1_250_000, "note": "the return", "corrects": first["id"]}, format="json"
    )
    file(manager, other_site)
    tax = _tax_return(org)
    assert (tax.figures.other_games_agp_cents, tax.other_games_amendment_cents) == (1_250_000, 0)


@pytest.fixture
def washington_filed(request, site):
    """The quarter played and filed at a Washington house-banked site (its texts name no gross
    proceeds, prizes nor AGP: the trade's drop, paid out and win)."""
    site.jurisdiction = "WA-HB"
    site.save(update_fields=["jurisdiction"])
    request.getfixturevalue("quarter_played")
    return file(request.getfixturevalue("manager"), site, reference="WA-2026Q3-7")


def test_a_washington_filed_return_names_its_lines_in_the_packs_words_on_the_api_page_and_pdf(
    washington_filed, site, manager, client_for, client
):
    api = client_for(manager)
    labels = list(rows_by_figure(filing_api(api, site)))
    assert labels[:3] == ["Drop", "Paid out", "Win"], labels
    assert not {"Gross proceeds", "Prizes", "AGP"} & set(labels)
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert 'data-figure="Win"' in page and 'data-figure="AGP"' not in page
    grid, _ = pdf_grid(api, site)
    assert {"Drop", "Paid out", "Win"} <= set(grid) and not {"Gross proceeds", "Prizes", "AGP"} & set(grid)
    # The filing package keeps the format's names (a registry reads its lines by them).
    from statefiling.returns import return_now

    assert [line["figure"] for line in return_now(washington_filed).lines][:3] == ["Gross proceeds", "Prizes", "AGP"]


def test_a_washington_amendment_alert_names_the_win_not_agp(washington_filed, site, manager, client_for, table):
    post_drop_adjustment(client_for(manager), site, table)
    alert = Alert.objects.get(rule="filed_return_amended", site=site)
    assert alert.citation == "House control"  # Washington's texts state no quarterly summary
    assert alert.figures["amended_figure"] == "Win"
    assert "changes its Win by" in alert.action_required and "AGP" not in alert.action_required


def _amend_a_filed_day(client, table, site) -> None:
    """A $20 drop correction of the filed quarter's first day, entered in the next quarter."""
    post_drop_adjustment(client, site, table)


def _quarter_text(client, site, quarter: str) -> str:
    from tests.conformance.words import visible_text

    # The Washington site made current, as the conformance walk reads a site: the menu is the current
    # site's pack's (an ND site's says "percent-of-hold", North Dakota's word).
    assert client.post("/switch-site/", {"site": site.pk}).status_code == 302
    return visible_text(client.get(f"/dashboard/quarter/?site={site.pk}&quarter={quarter}").content.decode())


def test_a_washington_quarters_amendments_and_filed_figures_speak_washingtons_words_not_north_dakotas(
    washington_filed, site, manager, client_for, client, table
):
    """The filed quarter's amendment list and the note under its filed figures, and the next
    quarter's list of the corrections it counts, on the page and in both quarters' reports: the
    win, not AGP; no gaming tax, which Washington's pack does not levy."""
    from tests.conformance.words import ND_WORDS, law_words_in

    api = client_for(manager)
    _amend_a_filed_day(api, table, site)
    client.force_login(manager.user)
    q3, q4 = _quarter_text(client, site, "2026Q3"), _quarter_text(client, site, "2026Q4")
    assert "drop table 1 $20.00, win $20.00" in q3 and "drop table 1 $20.00, win $20.00" in q4
    assert "those corrections are counted in the quarter they were entered: a correction is never counted twice" in q3
    found = {}
    for where, shown in (("2026Q3 page", q3), ("2026Q4 page", q4)):
        found[where] = law_words_in(shown, ND_WORDS) + (["gaming tax"] if "gaming tax" in shown.lower() else [])
    for quarter in ("2026Q3", "2026Q4"):
        run = run_report(api, kind="quarterly", site=site.pk, quarter=quarter)
        for fmt in ("pdf", "csv"):
            content = download(api, run, fmt)
            shown = text(content) if fmt == "pdf" else content.decode()
            found[f"{quarter} {fmt}"] = law_words_in(shown, ND_WORDS) + (
                ["gaming tax"] if "gaming tax" in shown.lower() else []
            )
    assert not any(found.values()), {where: hits for where, hits in found.items() if hits}


def test_a_north_dakota_quarters_amendments_still_name_the_agp_and_the_tax(
    filed, site, manager, client_for, client, table
):
    _amend_a_filed_day(client_for(manager), table, site)
    client.force_login(manager.user)
    q3, q4 = _quarter_text(client, site, "2026Q3"), _quarter_text(client, site, "2026Q4")
    assert "drop table 1 $20.00, AGP $20.00" in q3 and "drop table 1 $20.00, AGP $20.00" in q4
    assert "so the gaming tax now is this quarter's on its filed AGP" in q3


# --- A void of a tournament fee or prize of a filed day --------------------------------------------


def a_tournament_on_the_return(site, people, cast, table, manager, *, filed=True):
    """2026Q3 played at `site` on DAY with a tournament there: Ann Lee's $100.00 entry fee and her
    $50.00 cash prize, through the services; the day's books closed and (`filed`) the quarter filed.
    Returns (the filing or None, the fee, the prize)."""
    from zoneinfo import ZoneInfo

    from tests.tournaments.conftest import announce
    from tournaments import services as tournaments
    from tournaments.models import FeeKind

    def at(hour):
        return datetime(DAY.year, DAY.month, DAY.day, hour, tzinfo=ZoneInfo("America/Chicago"))

    boss, cashier = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    played = announce(boss, site, gaming_date=DAY, at=at(18))
    fee = tournaments.collect_fee(
        acting_user=cashier.user, tournament=played, kind=FeeKind.ENTRY, at=at(19), player_name="Ann Lee"
    )
    prize = tournaments.award_prize(acting_user=boss.user, tournament=played, player=fee.player,
                                    round_name="Final", kind="cash", amount_cents=5000, at=at(22))  # fmt: skip
    play(Scenario(site, people), table, DAY)
    services.close_books(acting_user=manager.user, site=site, gaming_date=DAY)
    return (file(manager, site) if filed else None), fee, prize


@pytest.mark.parametrize(("what", "path", "delta"), [("fee", "entries", -10_000), ("prize", "prizes", 5_000)])
def test_a_fee_or_prize_on_a_filed_return_is_voided_later_and_the_return_amended(
    site, people, cast, table, manager, client_for, client, what, path, delta
):
    """A void counts on the day it is made: voided in 2026Q4, a fee or prize on the filed 2026Q3
    return is counted there, and the filed return is amended beside it by what its tournament AGP
    would have been without the row (until 2026-12-04 the void was refused, so a mistake on a filed
    return could never be corrected): the filed figures and their SHA-256 stand, the gaming manager
    is flagged, and the quarter page, the figures API and the PDF name the void."""
    filing, fee, prize = a_tournament_on_the_return(site, people, cast, table, manager)
    row = fee if what == "fee" else prize
    answer = client_for(cast[Role.SHIFT_MANAGER]).post(
        f"/api/v1/tournaments/{row.tournament_id}/{path}/{row.pk}/void/",
        {"reason": "rung up by mistake"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    void = type(row).objects.get(voids=row)
    today = gaming_date_of(site, timezone.now())
    assert void.gaming_date == today and Quarter.containing(today) == Quarter(2026, 4)  # counted where it is made
    assert summaries.quarter_summary(site, Quarter(2026, 4)).tournaments.agp_cents == delta

    amendment = FilingAmendment.objects.get()
    assert (amendment.filing, amendment.source, amendment.figure, amendment.delta_cents) == (
        filing,
        "tournament_void",
        "tournament_agp_cents",
        delta,
    )
    assert (amendment.tournament_fee, amendment.tournament_prize) == ((void, None) if what == "fee" else (None, void))
    played = filing.figures["summary"]["tournaments"]  # the tournament figures the return carries
    fee_cents, prize_cents = (fee.fee_cents, 0) if what == "fee" else (0, prize.amount_cents)
    without = (played["gross_proceeds_cents"] - fee_cents) - (played["prizes_cents"] - prize_cents)
    assert played["agp_cents"] + amendment.delta_cents == without  # the figure filed, had the row not been recorded
    assert_filed_figures_unchanged(filing)

    entry = f"void of tournament {what} {row.pk} of {DAY}, counted on gaming day {today}"
    alert = the_alert(filing)
    assert (alert.figures["amended_figure"], alert.figures["delta_cents"], alert.figures["entry"]) == (
        "Tournament AGP",
        delta,
        entry,
    )
    assert f"{entry} changes its Tournament AGP by {format_money(delta, signed=True)}" in alert.action_required

    api = client_for(manager)
    body = filing_api(api, site)
    assert body["check"]["state"] == "equal"  # the filed quarter's figures now still equal the filing
    assert [(a["source"], a[f"tournament_{what}"], a["delta_cents"]) for a in body["filing_amendments"]] == [
        ("tournament_void", void.pk, delta)
    ]
    # The return's grid says it beside the filed figure: Filed / Amendments since / Figures now.
    grid = {
        row["figure"]: (row["filed_cents"], row["amendments_since_cents"], row["now_cents"])
        for row in body["filed_beside_now"]
    }
    assert grid["Tournament AGP"] == (played["agp_cents"], delta, without)
    # and the fees or the prizes it moves with it: the fee less, or the prize back
    assert grid["Tournament gross proceeds"] == (
        played["gross_proceeds_cents"], -fee_cents, played["gross_proceeds_cents"] - fee_cents
    )  # fmt: skip
    assert grid["Tournament prizes"] == (played["prizes_cents"], -prize_cents, played["prizes_cents"] - prize_cents)
    statement = body["filing_amendments"][0]["statement"]
    assert statement.startswith(
        f"Amendment {amendment.pk}: Tournament AGP {format_money(delta, signed=True)}, by {entry}"
    )
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert f'<li data-amendment="{amendment.pk}">' in page and entry in page
    printed, report = pdf_grid(api, site)
    assert entry in report
    assert [printed[line] for line in ("Tournament gross proceeds", "Tournament prizes", "Tournament AGP")] == [
        [format_money(filed), format_money(since), format_money(now)]
        for filed, since, now in (
            grid[line] for line in ("Tournament gross proceeds", "Tournament prizes", "Tournament AGP")
        )
    ]


def test_a_fee_voided_before_its_quarter_is_filed_amends_nothing(site, people, cast, table, manager):
    """The quarter not filed, a void later is counted on its own day and nothing is amended."""
    from tournaments import services as tournaments
    from tournaments.models import TournamentFee

    _, fee, _ = a_tournament_on_the_return(site, people, cast, table, manager, filed=False)
    void = tournaments.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=fee, reason="rung up by mistake")
    assert TournamentFee.objects.get(voids=fee) == void and void.fee_cents == -fee.fee_cents
    assert not FilingAmendment.objects.exists() and not Alert.objects.filter(rule="filed_return_amended").exists()


# --- Another site's filing of the quarter ----------------------------------------------------------


def a_site_set_up_after_the_filing_takes_fees_in_the_quarter(api, org, manager, client_for) -> dict:
    """Through the API: a new North Dakota site of the organization (the gaming manager's), a
    tournament of 2026Q3 there with two $100 entries (its AGP: $200) collected by its shift
    manager, the day's books closed."""
    from tests.tournaments.test_api import BODY

    created = api.post("/api/v1/sites/", {"name": "Moose Lodge", "jurisdiction": "ND", "time_zone": "America/Chicago"})
    assert created.status_code == 201, created.json()
    new = created.json()
    there = Site.objects.get(pk=new["id"])
    shift, cashier = make_person(org, Role.SHIFT_MANAGER, there), make_person(org, Role.CASHIER, there)
    floor = client_for(shift)  # one client: logged in as each in turn
    tournament = floor.post("/api/v1/tournaments/", {**BODY, "site": new["id"], "gaming_date": str(DAY)}, format="json")
    assert tournament.status_code == 201, tournament.json()
    for name in ("Ann Lee", "Bo Diaz"):
        fee = floor.post(
            f"/api/v1/tournaments/{tournament.json()['id']}/entries/",
            {"kind": "entry", "player_name": name, "collected_at": f"{DAY}T20:00"},
            format="json",
        )
        assert fee.status_code == 201, fee.json()
    cage = client_for(cashier)
    for kind, twenties in (("start", 50), ("end", 60)):  # the fees came to the cage
        count = {
            "site": new["id"],
            "gaming_date": str(DAY),
            "kind": kind,
            "cash": [{"value_cents": 2000, "quantity": twenties}],
            "chips": [],
        }
        counted = cage.post("/api/v1/cage/bank-counts/", count, format="json")
        assert counted.status_code == 201, counted.json()
    closed = client_for(shift).post(f"/api/v1/sites/{new['id']}/close-books/", {"date": str(DAY)}, format="json")
    assert closed.status_code == 201, closed.json()
    client_for(manager)
    return new


def test_a_site_filing_after_the_return_changes_the_organizations_agp_amends_it(
    filed, site, org, manager, client_for, client
):
    """Each site's return carries the organization's whole tax: a site set up after `site` filed,
    with figures dated in the quarter, changes the AGP recorded at the sites; its filing amends
    `site`'s return by the difference (never a silent change of the tax `site` filed)."""
    api = client_for(manager)
    tax_filed = filed.figures["tax"]
    new = a_site_set_up_after_the_filing_takes_fees_in_the_quarter(api, org, manager, client_for)

    # While the new site has not filed, the organization's return is not filed (its figures now).
    tax = api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert tax["agp_cents"] == tax_filed["agp_cents"] + 20_000
    assert not FilingAmendment.objects.exists()
    # ... and `site`'s filed return stands as filed: nothing since, until the new site files.
    before = rows_by_figure(filing_api(api, site))
    assert before["Gaming tax"] == (tax_filed["tax_cents"], 0, tax_filed["tax_cents"])
    assert before["AGP of the organization's sites"] == (tax_filed["agp_cents"], 0, tax_filed["agp_cents"])

    response = api.post(f"/api/v1/sites/{new['id']}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert response.status_code == 201, response.json()
    theirs = QuarterFiling.objects.get(site_id=new["id"])
    assert theirs.figures["tax"]["agp_cents"] == tax_filed["agp_cents"] + 20_000

    assert_filed_figures_unchanged(filed)
    amendment = FilingAmendment.objects.get()  # the new site's own filing froze the tax as it stands: not amended
    assert (amendment.filing, amendment.source, amendment.figure, amendment.delta_cents, amendment.site_filing) == (
        filed,
        "site_filing",
        "sites_agp_cents",
        20_000,
        theirs,
    )

    brackets = figures.brackets_in_force(ND_TAX_BRACKETS, Q3.end)
    tax_now = figures.gaming_tax_on_recorded(tax_filed["agp_cents"] + 20_000, None, brackets)
    assert tax_now != tax_filed["tax_cents"]
    body = filing_api(api, site)
    assert body["check"]["statement"].endswith(
        "Amended since: 1 entry after the filing changed the return (Filed / Amendments since / Figures now)."
    )
    rows = rows_by_figure(body)
    assert rows["Gaming tax"] == (tax_filed["tax_cents"], tax_now - tax_filed["tax_cents"], tax_now)
    sites = tax_filed["agp_cents"]
    assert rows["AGP of the organization's sites"] == (sites, 20_000, sites + 20_000)
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert page_row(page, "AGP of the organization&#x27;s sites") == [
        format_money(c) for c in (sites, 20_000, sites + 20_000)
    ]
    said = f"Amendment {amendment.pk}: AGP of the organization's sites +$200.00, by the filing of 2026Q3 at Moose Lodge on "
    assert said.replace("'", "&#x27;") in page[page.index('id="filing-amendments"') :]
    grid, report = pdf_grid(api, site)
    assert grid["Gaming tax"] == [
        format_money(c) for c in (tax_filed["tax_cents"], tax_now - tax_filed["tax_cents"], tax_now)
    ]
    assert said in report
    assert body["filing_amendments"][0]["statement"].startswith(said)
    assert [(a["source"], a["site_filing"]) for a in body["filing_amendments"]] == [("site_filing", theirs.pk)]
    alert = the_alert(filed)
    assert alert.figures["delta_cents"] == 20_000
    assert "the filing of 2026Q3 at Moose Lodge on " in alert.action_required
    assert "changes its AGP of the organization's sites by +$200.00" in alert.action_required


def test_a_site_filing_the_figures_the_earlier_return_froze_amends_nothing(filed, other_site, manager):
    """`site` filed with `other_site`'s figures as they read; filed unchanged, they amend nothing."""
    theirs = file(manager, other_site)
    assert theirs.figures["tax"]["agp_cents"] == filed.figures["tax"]["agp_cents"]
    assert not FilingAmendment.objects.exists() and not Alert.objects.filter(rule="filed_return_amended").exists()


def test_each_earlier_return_is_amended_from_where_it_stands(filed, other_site, org, manager, client_for):
    """Two sites filed; a third files later with figures of the quarter: both returns are amended
    by its AGP, once each."""
    other = file(manager, other_site)
    api = client_for(manager)
    new = a_site_set_up_after_the_filing_takes_fees_in_the_quarter(api, org, manager, client_for)
    assert (
        api.post(f"/api/v1/sites/{new['id']}/quarter-filing/", {"quarter": "2026Q3"}, format="json").status_code == 201
    )
    found = FilingAmendment.objects.order_by("filing_id")
    assert [(a.filing_id, a.delta_cents) for a in found] == [(filed.pk, 20_000), (other.pk, 20_000)]
    from accounting.amendments import sites_agp_as_it_stands

    theirs = QuarterFiling.objects.get(site_id=new["id"])
    assert {sites_agp_as_it_stands(f) for f in (filed, other, theirs)} == {theirs.figures["tax"]["agp_cents"]}


def test_a_schedule_released_later_in_force_inside_the_filed_quarter_leaves_the_filed_returns_tax(
    filed, site, manager, client_for, monkeypatch
):
    """A filed return's tax as it now stands is under the brackets it froze: a release that adds a
    schedule in force inside the filed quarter changes no filed return (the tax of an unfiled
    quarter follows it, tests/accounting/test_games_and_tax.py)."""
    from dataclasses import replace
    from datetime import date
    from decimal import Decimal

    from packs import TaxBracket, get_pack, registry

    nd = get_pack("ND")
    later = TaxBracket(date(2026, 7, 1), 0, Decimal("0.05"), 0, "N.D.C.C. 53-06.1-12 (a later schedule)")
    monkeypatch.setitem(registry.PACKS, "ND", replace(nd, tax_brackets=(*nd.tax_brackets, later)))
    tax_filed = filed.figures["tax"]["tax_cents"]
    api = client_for(manager)
    rows = rows_by_figure(filing_api(api, site))
    assert rows["Gaming tax"] == (tax_filed, 0, tax_filed)
    assert not FilingAmendment.objects.exists()
    # ... and the organization's tax of the quarter, on the filed figures, under the same brackets
    tax = api.get(f"/api/v1/organizations/{site.organization_id}/tax/?quarter=2026Q3").json()
    assert tax["tax_cents"] == tax_filed and later.citation not in {b["citation"] for b in tax["brackets"]}
