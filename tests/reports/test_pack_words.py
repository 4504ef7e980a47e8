"""Each pack speaks only its own law in the books (issue 32): at a WA-HB, WA-BJ or NY site the
quarter page, the daily page, the dashboard, the figures API and every report kind's PDF, CSV
and XLSX carry no North Dakota words (99-01.3, SFN forms, N.D.C.C., North Dakota); at an ND site
no Washington or New York words, and ND's forms, tax and thresholds are there. Pages, API and
reports are driven through the client; the reports are read back."""

import io
from datetime import UTC, date, datetime

import pdfplumber
import pytest
import time_machine
from openpyxl import load_workbook

from cardroom.models import Role
from compliance.thresholds import ensure_seeded
from reports.services import generate_report
from tests.accounting.scenario import Scenario
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_person

DAY = date(2026, 8, 14)
QUARTER = "2026Q3"
OTHER_PACKS = ["WA-HB", "WA-BJ", "NY"]


def pdf_text(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def xlsx_text(content: bytes) -> str:
    sheet = load_workbook(io.BytesIO(content)).active
    return "\n".join(" ".join(str(v) for v in row if v is not None) for row in sheet.iter_rows(values_only=True))


def foreign(text: str, jurisdiction: str) -> list[str]:
    """Each foreign word found, with the text around it."""
    return law_words_in(text, OTHER_WORDS if jurisdiction == "ND" else ND_WORDS)


class House:
    """An organization with one site of `jurisdiction`, its gaming manager and auditor, and a
    day of play at two tables (twenty-one and paddlewheel) with the bank counted."""

    def __init__(self, jurisdiction: str):
        self.org = OrganizationFactory(name=f"House of {jurisdiction}")
        self.site = SiteFactory(organization=self.org, name=f"Hall {jurisdiction}", jurisdiction=jurisdiction)
        self.manager = make_person(self.org, Role.GAMING_MANAGER, None)
        self.auditor = make_person(self.org, Role.AUDITOR, None)
        self.people = {
            "shift": make_person(self.org, Role.SHIFT_MANAGER, self.site),
            "cashier": make_person(self.org, Role.CASHIER, self.site),
            "count1": make_person(self.org, Role.COUNT_TEAM, self.site, employment_type="independent"),
            "count2": make_person(self.org, Role.COUNT_TEAM, self.site),
        }

    def play(self):
        ensure_seeded()
        scenario = Scenario(self.site, self.people)
        # Twenty-one: the tray lost $200 (prizes), AGP $800; paddlewheel: AGP $1,000. No slips: an open
        # slip is the floor's item, cited by the floor's rules.
        for number, game, closer in ((1, "21", 80_000), (2, "PW", 100_000)):
            table = TableFactory(site=self.site, number=number, game=game)
            scenario.tray(table, DAY, "opener", 100_000)
            scenario.tray(table, DAY, "closer", closer)
            scenario.drop(table, DAY, 100_000)
        scenario.bank(DAY, "start", 500_000, 300_000)
        scenario.bank(DAY, "end", 667_000, 300_000)  # cash profit 367,000 - AGP 180,000: long 187,000
        return self


@pytest.fixture
def house(db):
    return lambda jurisdiction: House(jurisdiction).play()


def _report(api, house, kind) -> dict:
    """Request the report; a large one (queued for a worker) is generated here, as the worker would."""
    payload = {"kind": kind, "site": house.site.pk}
    payload |= {"quarter": QUARTER} if kind == "quarterly" else {"start": "2026-08-01", "end": "2026-08-20"}
    created = api.post("/api/v1/reports/", payload, format="json")
    assert created.status_code == 201, (kind, created.json())
    if created.json()["status"] == "queued":
        generate_report(created.json()["id"])
        return api.get(f"/api/v1/reports/{created.json()['id']}/").json()
    return created.json()


def _every_format(api, run_id) -> dict[str, str]:
    base = f"/api/v1/reports/{run_id}/download/"
    return {
        "pdf": pdf_text(api.get(base).content),
        "csv": api.get(f"{base}?format=csv").content.decode(),
        "xlsx": xlsx_text(api.get(f"{base}?format=xlsx").content),
    }


@pytest.mark.parametrize("jurisdiction", [*OTHER_PACKS, "ND"])
def test_every_report_kind_offered_at_a_site_speaks_only_its_packs_law(client_for, house, jurisdiction):
    here = house(jurisdiction)
    api = client_for(here.auditor)
    kinds = {k["kind"]: k for k in api.get("/api/v1/reports/kinds/").json()}
    assert kinds, "the site's pack offers reports"
    for kind, described in kinds.items():
        assert not foreign(f"{described['title']} {described['rule']}", jurisdiction), kind
        run = _report(api, here, kind)
        assert run["status"] == "done", (kind, run)
        for fmt, text in _every_format(api, run["id"]).items():
            assert not foreign(text, jurisdiction), (kind, fmt, foreign(text, jurisdiction))


@pytest.mark.parametrize("jurisdiction", OTHER_PACKS)
def test_the_daily_and_quarterly_reports_have_their_plain_titles_and_no_nd_tax(client_for, house, jurisdiction):
    here = house(jurisdiction)
    api = client_for(here.auditor)
    kinds = {k["kind"]: k for k in api.get("/api/v1/reports/kinds/").json()}
    assert (kinds["daily"]["title"], kinds["daily"]["rule"]) == ("Daily report", "House control")
    assert kinds["quarterly"]["title"] == "Quarterly summary"
    assert not {"house_rules"} & set(kinds)  # North Dakota's handout is not offered here
    quarterly = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'quarterly')['id']}/download/").content)
    assert "Quarterly summary" in quarterly and "gaming tax" not in quarterly and "Low-hold" not in quarterly
    daily = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'daily')['id']}/download/").content)
    assert "Daily report" in daily and "Low-hold threshold" not in daily
    # nor North Dakota's video review after a low-hold quarter (08-04(9)): not under the quarter's games, nor
    # the day's sentence that its threshold is the quarter's
    assert "video surveillance" not in quarterly and "low-hold" not in daily
    # the house's deposit deadline, as the CSV and the API give it, late once past it undeposited
    assert "Bank deposit due by 2026-08-19 (House control): not recorded (LATE)." in " ".join(daily.split())
    # nor in the files: no column of a tax or a threshold the pack's law has not, left empty
    run = _report(api, here, "quarterly")["id"]
    header = api.get(f"/api/v1/reports/{run}/download/?format=csv").content.decode().splitlines()[0].split(",")
    assert not {"Tax", "Rate", "Low hold threshold", "Below threshold"} & set(header), header
    assert ("Drop" in header) == (jurisdiction == "WA-HB")  # a fees or session site's figures are its own
    run = _report(api, here, "daily")["id"]
    rows = api.get(f"/api/v1/reports/{run}/download/?format=csv").content.decode().splitlines()
    # a game summary row only for the games the pack deals (Washington's tables deal no paddlewheel);
    # a fees or session site's file, as its PDF, has no drop-based rows or columns: each day's total
    if jurisdiction == "WA-HB":
        assert any(",blackjack," in r for r in rows) and not any(",paddlewheel," in r for r in rows)
    else:
        assert not any(",blackjack," in r or ",black_jack," in r or ",paddlewheel," in r for r in rows)
        assert "Drop" not in rows[0] and any(",total," in r for r in rows)
        # a session site's cash is the tables' custody all the same: its long (short) reconciled, a fees site's not
        assert ("Unexplained" in rows[0]) == (jurisdiction == "NY")


# North Dakota's deadline, cited as the daily page cites it (cage.rules.DEPOSIT_DAYS).
ND_DEADLINE = "(the third banking day after the gaming date, ND 99-01.3-03-10(1))"


@pytest.mark.parametrize(
    "jurisdiction, words",
    [
        ("WA-HB", "Bank deposit due by 2026-08-19 (House control): not yet deposited (not yet due)."),
        ("NY", "Bank deposit due by 2026-08-19 (House control): not yet deposited (not yet due)."),
        ("ND", f"Bank deposit due by 2026-08-19 {ND_DEADLINE}: not yet deposited (not yet due)."),
    ],
)
def test_the_daily_pdf_gives_the_deposits_due_date_not_late_before_it(client_for, house, jurisdiction, words):
    here = house(jurisdiction)
    api = client_for(here.auditor)
    with time_machine.travel(datetime(2026, 8, 19, 18, 0, tzinfo=UTC), tick=False):
        run = _report(api, here, "daily")["id"]
    daily = " ".join(pdf_text(api.get(f"/api/v1/reports/{run}/download/").content).split())
    assert words in daily and "LATE" not in daily


def test_north_dakotas_daily_pdf_says_late_once_the_third_banking_day_passed_undeposited(client_for, house):
    """ND 99-01.3-03-10(1): asked for after the due date with no deposit recorded, the day's deposit
    line says LATE in North Dakota's words, as the page and the "Bank deposit late" alert do."""
    here = house("ND")
    api = client_for(here.auditor)
    daily = " ".join(
        pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'daily')['id']}/download/").content).split()
    )
    assert f"Bank deposit due by 2026-08-19 {ND_DEADLINE}: not recorded (LATE)." in daily


def test_a_fees_site_reports_its_fees_and_no_drop_win_or_hold(client_for, house):
    here = house("WA-BJ")
    api = client_for(here.auditor)
    kinds = {k["kind"] for k in api.get("/api/v1/reports/kinds/").json()}
    assert not {"dealer_hold", "dealer_shifts", "count_sheets", "slip_register"} & kinds
    daily = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'daily')['id']}/download/").content)
    quarterly = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'quarterly')['id']}/download/").content)
    for text in (" ".join(daily.split()), " ".join(quarterly.split())):
        assert "Table fees" in text and "WAC 230-40-125(1)" in text
        assert "Hold (win / drop)" not in text and "Cash long (short)" not in text and "21 hold" not in text


def test_a_session_site_reports_its_session_net(client_for, house):
    here = house("NY")
    api = client_for(here.auditor)
    quarterly = " ".join(
        pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'quarterly')['id']}/download/").content).split()
    )
    assert "Games-of-chance sessions" in quarterly and "9 NYCRR 4620.5" in quarterly and "Net" in quarterly
    assert "21 hold" not in quarterly
    # The daily PDF's late entries name no tournament's page: New York keeps no tournament register.
    daily = " ".join(
        pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'daily')['id']}/download/").content).split()
    )
    assert "Entered late" in daily and "tournament" not in daily.lower()


def test_at_a_north_dakota_site_the_reports_keep_the_forms_the_tax_and_the_thresholds(client_for, house):
    here = house("ND")
    api = client_for(here.auditor)
    kinds = {k["kind"]: k for k in api.get("/api/v1/reports/kinds/").json()}
    assert kinds["daily"]["title"] == "Twenty-one daily report"
    assert kinds["daily"]["rule"] == "ND 99-01.3-08-16(1)(g); SFN 50079"
    assert kinds["quarterly"]["title"] == "Quarterly summary (twenty-one and paddlewheel)"
    assert "house_rules" in kinds and not [k for k in kinds if k.startswith("house_rules_")]
    quarterly = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'quarterly')['id']}/download/").content)
    assert "SFN 50901" in quarterly and "N.D.C.C. 53-06.1-12" in quarterly and "ND 99-01.3-08-04(9)" in quarterly
    daily = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'daily')['id']}/download/").content)
    assert "Twenty-one daily report" in daily and "due by" in daily
    run = _report(api, here, "quarterly")["id"]
    header = api.get(f"/api/v1/reports/{run}/download/?format=csv").content.decode().splitlines()[0].split(",")
    assert {"Tax", "Rate", "Low hold threshold", "Below threshold", "Gross proceeds", "AGP"} <= set(header)
    run = _report(api, here, "daily")["id"]
    rows = api.get(f"/api/v1/reports/{run}/download/?format=csv").content.decode().splitlines()
    assert any(",twenty_one," in r for r in rows) and any(",paddlewheel," in r for r in rows)


def test_the_quarterly_pdf_allocates_a_combined_banks_long_short_to_twenty_one(client_for, house):
    """ND 99-01.3-08-16(4): the site's one bank took both games' drop, so its long is twenty-one's."""
    here = house("ND")
    api = client_for(here.auditor)
    text = pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'quarterly')['id']}/download/").content)
    section = text[text.index("Combined twenty-one/paddlewheel cash bank (ND 99-01.3-08-16(4))") :]
    lines = section.splitlines()
    assert any(line.startswith("Twenty-one $800.00 $1,870.00") for line in lines), lines[:6]
    assert any(line.startswith("Paddlewheel $1,000.00 $0.00") for line in lines), lines[:6]
    assert "allocated to twenty-one" in section


def _csv_rows(api, run_id, row: str) -> list[dict]:
    import csv

    text = api.get(f"/api/v1/reports/{run_id}/download/?format=csv").content.decode()
    # The headers are as people read them ("Long short"); keyed here by the columns' names.
    rows = [
        {key.lower().replace(" ", "_"): value for key, value in r.items()} for r in csv.DictReader(io.StringIO(text))
    ]
    return [r for r in rows if r["row"] == row]


def test_the_quarterly_csv_carries_the_same_allocation_as_the_page_and_the_pdf(client_for, house):
    """ND 99-01.3-08-16(4) in the CSV, read back: twenty-one carries the combined bank's long of
    $1,870.00 (as on the quarter page and in the PDF), paddlewheel none; each row cites the rule."""
    here = house("ND")
    api = client_for(here.auditor)
    rows = _csv_rows(api, _report(api, here, "quarterly")["id"], "bank_allocation")
    assert [(r["game"], r["agp"], r["long_short"]) for r in rows] == [
        ("21", "800.00", "1870.00"),
        ("PW", "1000.00", "0.00"),
        ("total", "1800.00", "1870.00"),
    ]
    assert all(r["note"].startswith("ND 99-01.3-08-16(4): ") for r in rows)
    quarter = api.get(f"/api/v1/sites/{here.site.pk}/quarter-summary/?quarter={QUARTER}").json()
    assert rows[0]["long_short"] == f"{quarter['long_short_cents'] / 100:.2f}"


@pytest.mark.parametrize("jurisdiction", OTHER_PACKS)
def test_no_combined_bank_allocation_where_the_pack_does_not_state_it(client_for, house, jurisdiction):
    here = house(jurisdiction)
    api = client_for(here.auditor)
    run_id = _report(api, here, "quarterly")["id"]
    text = pdf_text(api.get(f"/api/v1/reports/{run_id}/download/").content)
    assert "Combined twenty-one/paddlewheel" not in text
    assert _csv_rows(api, run_id, "bank_allocation") == []


@pytest.mark.parametrize("jurisdiction", ["NY", "WA-BJ", "ND"])
def test_a_report_kind_not_given_or_unknown_is_refused_naming_only_the_sites_kinds(
    client, client_for, house, jurisdiction
):
    """Found walking the demo: the Reports form sent with no kind at Kingston was refused with
    "Unknown report kind ''; one of: ..." listing every pack's kinds (house_rules_wa_bj,
    tournament_record ...) and no rule. It now cites House control and lists the site's own kinds,
    on the page and in the API."""
    import html

    here = house(jurisdiction)
    api = client_for(here.auditor)
    offered = ", ".join(sorted(k["kind"] for k in api.get(f"/api/v1/reports/kinds/?site={here.site.pk}").json()))
    refused = api.post(
        "/api/v1/reports/", {"kind": "nonsense", "site": here.site.pk, "end": "2026-08-20"}, format="json"
    )
    assert refused.status_code == 400, refused.content
    message = refused.json()["kind"][0]
    assert message == f"House control: unknown report kind 'nonsense'; the reports at {here.site.name} are: {offered}."
    assert not foreign(message, jurisdiction), message
    client.force_login(here.manager.user)
    page = client.post("/reports/", {"kind": "", "site": here.site.pk, "quarter": QUARTER})
    assert page.status_code == 400
    said = html.unescape(page.content.decode())
    assert f"House control: no report kind given; the reports at {here.site.name} are: {offered}." in said


@pytest.mark.parametrize("jurisdiction", OTHER_PACKS)
def test_another_packs_report_is_refused_in_the_sites_own_words(client_for, house, jurisdiction):
    here = house(jurisdiction)
    refused = client_for(here.auditor).post(
        "/api/v1/reports/", {"kind": "house_rules", "site": here.site.pk, "end": "2026-08-20"}, format="json"
    )
    assert refused.status_code == 400
    message = refused.json()["kind"][0]
    assert message.startswith("House control: ") and not foreign(message, jurisdiction)


def test_a_washington_room_reads_its_figures_as_drop_and_win_and_has_no_wheel_operators(client, client_for, house):
    """North Dakota's names of a table's figures (gross proceeds, prizes, AGP: ND 99-01.3-08-01(3))
    are its own (packs.RevenueWords): a Washington house-banked room reads the trade's drop, paid
    to players and win, in its PDFs, its CSV headers and its pages; and it deals no paddlewheel, so
    its dealer percent-of-hold summary has no wheel operators' section, and its dealers page no
    switch to them (asked for them, it shows the dealers)."""
    here = house("WA-HB")
    api = client_for(here.auditor)
    daily = _every_format(api, _report(api, here, "daily")["id"])
    assert "Paid out (fills - credits + opener - closer)" in daily["pdf"]
    assert "Hold (win / drop)" in daily["pdf"] and "Cash long (short) = cash profit - win" in daily["pdf"]
    header = daily["csv"].splitlines()[0].split(",")
    assert header.count("Drop") == 1 and "Paid out" in header and "Win" in header  # no second drop column
    assert not {"Gross proceeds", "Prizes", "AGP"} & set(header)
    held = _every_format(api, _report(api, here, "dealer_hold")["id"])
    assert "Wheel operator" not in held["pdf"] and "paddlewheel" not in held["pdf"].lower()
    # No dealer shift in this house: the summary says so, the site's hold on its drop in the trade's words.
    assert "No dealer shift was recorded at this site in the period. Site blackjack hold" in " ".join(
        held["pdf"].split()
    )
    assert " on drop of $" in " ".join(held["pdf"].split()) and "gross proceeds" not in held["pdf"].lower()
    client.force_login(here.manager.user)
    page = client.get(f"/dashboard/dealers/?site={here.site.pk}&game=PW").content.decode()
    assert 'id="game-switch"' not in page and "Wheel operators" not in page and "<th>Dealer</th>" in page
    daily_page = client.get(f"/dashboard/daily/?site={here.site.pk}&date={DAY}").content.decode()
    assert "Paid out = fills − credits + opener − closer; win = drop − paid out; hold = win / drop." in daily_page


def test_a_north_dakota_site_keeps_its_own_names_of_the_figures(client, client_for, house):
    """The same reports and page at an ND site name the figures as its text does."""
    here = house("ND")
    api = client_for(here.auditor)
    daily = _every_format(api, _report(api, here, "daily")["id"])
    assert "Drop (gross proceeds)" in daily["pdf"] and "Adjusted gross proceeds (AGP)" in daily["pdf"]
    assert "Percent-of-hold (AGP / GP)" in daily["pdf"] and "Prizes (fills - credits + opener - closer)" in daily["pdf"]
    header = daily["csv"].splitlines()[0].split(",")
    assert {"Drop", "Gross proceeds", "Prizes", "AGP"} <= set(header)
    held = _every_format(api, _report(api, here, "dealer_hold")["id"])
    assert "Wheel operators (paddlewheel)" in held["pdf"]
    client.force_login(here.manager.user)
    daily_page = client.get(f"/dashboard/daily/?site={here.site.pk}&date={DAY}").content.decode()
    assert "GP = drop; prizes = fills − credits + opener − closer; AGP = GP − prizes; hold = AGP / GP." in daily_page


def test_the_kinds_offered_at_one_site_are_that_sites_as_its_page_lists_them(client_for, db):
    # An organization-wide auditor of a house-banked and a fees site reads, without ?site=, the
    # kinds of both packs; with ?site=, only those offered at that site (the Reports page's list,
    # `kinds_at`) in its own pack's words; a site not theirs, or not a number, is a 400 naming it.
    org = OrganizationFactory(name="Two halls")
    banked = SiteFactory(organization=org, name="Banked hall", jurisdiction="WA-HB")
    fees = SiteFactory(organization=org, name="Fees hall", jurisdiction="WA-BJ")
    stranger = SiteFactory(name="Someone else's hall", jurisdiction="WA-BJ")
    api = client_for(make_person(org, Role.AUDITOR, None))
    both = {k["kind"] for k in api.get("/api/v1/reports/kinds/").json()}
    at_fees = api.get(f"/api/v1/reports/kinds/?site={fees.pk}").json()
    at_banked = {k["kind"] for k in api.get(f"/api/v1/reports/kinds/?site={banked.pk}").json()}
    assert {"count_sheets", "slip_register"} <= at_banked <= both
    assert not {"count_sheets", "slip_register", "dealer_hold"} & {k["kind"] for k in at_fees}
    assert {k["kind"] for k in at_fees} < both
    assert {"house_rules_wa_hb", "house_rules_wa_bj"} <= both  # each pack's own handout
    assert "house_rules_wa_hb" not in {k["kind"] for k in at_fees} and "house_rules_wa_bj" not in at_banked
    for wrong in (stranger.pk, "x", "99999999999999"):
        refused = api.get(f"/api/v1/reports/kinds/?site={wrong}")
        assert refused.status_code == 400 and "site" in refused.json(), wrong


# Game 21 in the daily report's files and on the daily page, in the pack's words: a game's total
# row is keyed by the pack's word for it (ND's "twenty_one" as before), and the Game column holds
# the code only where the pack asks for that reference (ND 99-01.3-08-05(3)(a)), else the name.
# (A fees or session site's files and page have no tables' rows.)
GAME_ROWS = {"ND": ("twenty_one", "21"), "WA-HB": ("blackjack", "Blackjack")}


@pytest.mark.parametrize("jurisdiction", GAME_ROWS)
def test_the_daily_files_name_game_21_in_the_packs_words(client_for, house, jurisdiction):
    here = house(jurisdiction)
    api = client_for(here.auditor)
    run = _report(api, here, "daily")["id"]
    base = f"/api/v1/reports/{run}/download/"
    rows = [line.split(",") for line in api.get(f"{base}?format=csv").content.decode().splitlines()]
    day = [row for row in rows if row[0] == str(DAY)]
    key, game = GAME_ROWS[jurisdiction]
    assert [row[2] for row in day if row[1] == "1"] == [game]  # table 1 deals game 21
    assert [row[2] for row in day if row[1] == key] == [game]  # its game total
    if jurisdiction != "ND":
        assert not [row for row in rows if "twenty_one" in row or row[2] == "21"]
    sheet = xlsx_text(api.get(f"{base}?format=xlsx").content)
    assert f"{key} {game} " in sheet and (("twenty_one" in sheet) == (jurisdiction == "ND"))


@pytest.mark.parametrize("jurisdiction", GAME_ROWS)
def test_the_daily_page_names_the_tables_game_in_the_packs_words(client, house, jurisdiction):
    here = house(jurisdiction)
    client.force_login(here.manager.user)
    page = client.get(f"/dashboard/daily/?site={here.site.pk}&date={DAY}").content.decode()
    assert f'<tr data-table="1"><td>1</td><td>{GAME_ROWS[jurisdiction][1]}</td>' in page


@pytest.mark.parametrize("jurisdiction", GAME_ROWS)
def test_the_dealer_hold_files_name_game_21_in_the_packs_words(client_for, house, jurisdiction):
    """The dealer percent-of-hold summary's Game column, as the daily files': "21" where the pack
    asks for that reference (ND 99-01.3-08-05(3)(a)), else the pack's name ("Blackjack")."""
    from tests.reports.test_kind_dealer_hold import dealt_day

    here = house(jurisdiction)
    dealers = [make_person(here.org, Role.DEALER, here.site) for _ in range(2)]
    dealt_day(Scenario(here.site, here.people), here.site.tables.get(number=1), dealers, date(2026, 8, 15),
              drops=(60_000, 30_000), change=180_000, closer=190_000)  # fmt: skip
    api = client_for(here.auditor)
    base = f"/api/v1/reports/{_report(api, here, 'dealer_hold')['id']}/download/"
    rows = [line.split(",") for line in api.get(f"{base}?format=csv").content.decode().splitlines()]
    game = GAME_ROWS[jurisdiction][1]
    assert rows[0][-1] == "Game" and [row[-1] for row in rows[1:]] == [game, game]  # table 1 deals game 21
    sheet = load_workbook(io.BytesIO(api.get(f"{base}?format=xlsx").content)).active
    assert [row[-1] for row in sheet.iter_rows(min_row=2, values_only=True)] == [game, game]


def test_a_quarters_report_requested_before_it_ends_says_it_is_in_progress(client_for, house):
    """A quarter still under way printed "Period: 2026Q3" and its books' statement under its
    sign-off, as if final; it now says it is in progress through the date it was requested. The
    same report requested after the quarter ended says nothing of the kind."""
    here = house("ND")
    api = client_for(here.auditor)
    with time_machine.travel(datetime(2026, 9, 10, 18, 0, tzinfo=UTC), tick=False):
        during = _report(api, here, "quarterly")
    text = " ".join(pdf_text(api.get(f"/api/v1/reports/{during['id']}/download/").content).split())
    assert "Period: 2026Q3" in text
    assert (
        "The period is in progress: its figures are those through 2026-09-10, the date the report was requested."
        in text
    )
    after = _report(api, here, "quarterly")
    assert "in progress" not in " ".join(pdf_text(api.get(f"/api/v1/reports/{after['id']}/download/").content).split())


def _pdf_amounts(content: bytes) -> dict[str, str]:
    """The daily PDF's cash grid (headed "", "Amount", with the deposit), label to amount, as printed."""
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        grids = [t for page in pdf.pages for t in page.extract_tables()]
    grid = next(g for g in grids if g[0] == ["", "Amount"] and any(r[0] == "Bank deposit expected" for r in g))
    return {" ".join(row[0].split()): row[1] for row in grid[1:]}


def _csv_table_rows(api, run_id, table: str) -> list[dict]:
    import csv

    text = api.get(f"/api/v1/reports/{run_id}/download/?format=csv").content.decode()
    rows = [{k.lower().replace(" ", "_"): v for k, v in r.items()} for r in csv.DictReader(io.StringIO(text))]
    return [r for r in rows if r["table"] == table]


def _cents(amount: str) -> int:
    return int(amount.replace("$", "").replace(",", "").replace(".", ""))


def test_a_session_sites_daily_report_reconciles_its_cash_with_the_tables_win(client_for, house):
    """New York: the house's chips go to its tables, so the daily PDF shows the tables' win and the
    cash long (short) against it with its reconciling chips line, and they add up on the page; the
    CSV's day total carries the same long (short), chips line and remainder."""
    here = house("NY")
    api = client_for(here.auditor)
    run = _report(api, here, "daily")["id"]
    amounts = _pdf_amounts(api.get(f"/api/v1/reports/{run}/download/").content)
    profit = _cents(amounts["Cash profit (ending - starting cash + drop, net of IOUs)"])
    win = _cents(amounts["Win of the tables (drop counted - paid out at the tables)"])
    long_short = _cents(amounts["Cash long (short) = cash profit - the tables' win"])
    chips = _cents(amounts["Reconciling line: change in chips outside the house"])
    unexplained = _cents(amounts["Unexplained remainder"])
    assert (profit, win, long_short, chips, unexplained) == (367_000, 180_000, 187_000, 20_000, 167_000)
    assert profit - win == long_short and chips + unexplained == long_short
    (total,) = [r for r in _csv_table_rows(api, run, "total") if r["gaming_date"] == str(DAY)]
    assert (total["win"], total["cash_long_short"], total["chips_outside_change"], total["unexplained"]) == (
        "1800.00",
        "1870.00",
        "200.00",
        "1670.00",
    )


def test_a_session_sites_quarterly_report_reconciles_its_cash_with_the_tables_win(client_for, house):
    """New York's quarterly PDF and CSV: the tables' win, the cash long (short) against it, the chips
    line and the remainder, adding up; a fees site's quarter has none of them."""
    here = house("NY")
    api = client_for(here.auditor)
    run = _report(api, here, "quarterly")["id"]
    text = " ".join(pdf_text(api.get(f"/api/v1/reports/{run}/download/").content).split())
    lines = {
        "Cash profit (days with a bank count)": "$3,670.00",
        "Win of the tables (drop counted - paid out at the tables)": "$1,800.00",
        "Cash long (short) = cash profit - the tables' win of those days": "$1,870.00",
        "Reconciling line: change in chips outside the house": "$200.00",
        "Unexplained remainder": "$1,670.00",
        "Long (short) of days without a chip count": "$0.00",
    }
    for label, amount in lines.items():
        assert f"{label} {amount}" in text, label
    cash = {r["label"]: r["amount"] for r in _csv_rows(api, run, "cash") if r["label"]}
    assert cash == {label: amount.replace("$", "").replace(",", "") for label, amount in lines.items()}
    fees = House("WA-BJ").play()
    fees_api = client_for(fees.auditor)
    fees_text = pdf_text(
        fees_api.get(f"/api/v1/reports/{_report(fees_api, fees, 'quarterly')['id']}/download/").content
    )
    assert "Cash long (short)" not in fees_text and "of the tables" not in fees_text
