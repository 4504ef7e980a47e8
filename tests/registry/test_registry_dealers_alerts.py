"""The state auditor's cross-organization views: a dealer by the identifier the state issued
them, with their hold at every licensee (only where the agency's pack names such an identifier);
the alerts licensees shared, open and closed; a quarter's amended returns with the tax filed
beside the tax now. Each page, API and download is the agency's staff's, scoped to the agency."""

import csv
import io
import re
from datetime import date

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from openpyxl import load_workbook
from rest_framework.test import APIClient

from registry import services
from registry.models import Agency, Licensee, ReceivedDealerHold, Regulator, RegulatorRole

from .test_registry_alerts import ALERTS, alert
from .test_registry_api import package, post_filing

DEALERS_API, DEALERS_PAGE, ALERTS_PAGE = "/registry/api/v1/dealers/", "/registry/dealers/", "/registry/alerts/"
WA = "Washington State Gambling Commission"


def dealer(identifier="B-12345", agp=65_000, drop=100_000, game="21"):
    return {
        "identifier": identifier,
        "name": "Dana Dealer",
        "game": game,
        "shifts": 3,
        "separable_shifts": 2,
        "drop_cents": drop,
        "gross_proceeds_cents": drop,
        "prizes_cents": drop - agp,
        "agp_cents": agp,
        "hold_ratio": f"{agp / drop:.6f}" if drop else None,
    }


def wa_package(site_id, dealers, quarter="2026Q3", amends=None, licence="WSGC-1"):
    body = package(site_id=site_id, quarter=quarter, jurisdiction="WA-HB", amends=amends, licence=licence)
    return {**body, "dealers": dealers, "dealers_without_identifier": 0}


def licensee(agency, name, licence):
    row = Licensee.objects.create(agency=agency, name=name, licence_number=licence, expected_from=date(2026, 1, 1))
    issued = services.issue_credential(acting_user=None, licensee=row)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Licensee {issued.secret}")
    return client


def staff(agency, username):
    user = get_user_model().objects.create_user(username, password="x")
    Regulator.objects.create(user=user, agency=agency, role=RegulatorRole.STATE_AUDITOR)
    api, page = APIClient(), Client()
    api.force_authenticate(user)
    page.force_login(user)
    return api, page


@pytest.fixture
def washington(db):
    """Two licensees of the Washington agency; the same dealer dealt for both in 2026Q3."""
    agency = Agency.objects.create(name=WA, jurisdiction="WA-HB")
    river, coast = licensee(agency, "River Card Room", "WSGC-1"), licensee(agency, "Coast Casino", "WSGC-2")
    assert post_filing(river, wa_package(1, [dealer(agp=65_000), dealer("B-999", agp=1)]), "r-1").status_code == 201
    assert (
        post_filing(coast, wa_package(5, [dealer(agp=10_000, drop=50_000)], licence="WSGC-2"), "c-1").status_code == 201
    )
    return agency, river, coast


def test_a_dealer_is_found_at_every_licensee_by_their_licence_number(washington, django_assert_max_num_queries):
    agency, _river, _coast = washington
    api, page = staff(agency, "wsgc")
    with django_assert_max_num_queries(4):  # the login's agency, the dealer's rows, each place's latest return
        body = api.get(DEALERS_API, {"identifier": "B-12345"}).json()
    assert body["offered"] is True
    assert sorted((r["licensee"], r["agp_cents"], r["hold_ratio"]) for r in body["results"]) == [
        ("Coast Casino", 10_000, "0.200000"),
        ("River Card Room", 65_000, "0.650000"),
    ]
    # The percent-of-hold of the sums, never an average of the two ratios (0.425)
    assert body["total"] == {
        "drop_cents": 150_000,
        "gross_proceeds_cents": 150_000,
        "agp_cents": 75_000,
        "hold_ratio": "0.500000",
    }
    html = page.get(DEALERS_PAGE, {"identifier": "B-12345"}).content.decode()
    assert (
        "WSGC card room employee licence number (Class B) (WAC 230-03-265(3), not in the texts held: assumed)" in html
    )
    assert "Coast Casino (WSGC-2)" in html and "River Card Room (WSGC-1)" in html and "B-999" not in html
    assert html.count('<td class="game">Blackjack</td>') == 2 and "<td>21</td>" not in html  # the pack's name
    # A Washington agency reads the figures in its pack's words (packs.RevenueWords): drop and win,
    # not North Dakota's gross proceeds and AGP.
    head = html[html.index('id="dealer-rows"') :]
    head = head[: head.index("</thead>")]
    assert ">Drop<" in head and ">Win<" in head and "Gross proceeds" not in head and "AGP" not in head


def test_the_dealer_view_downloads_as_csv_and_xlsx(washington):
    agency, _river, _coast = washington
    _api, page = staff(agency, "wsgc")
    text = page.get(DEALERS_PAGE, {"identifier": "B-12345", "format": "csv"}).content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    # Washington's words: the win and the paid out, the drop once (no gross proceeds beside it)
    assert sorted((r["licence_number"], r["win_cents"]) for r in rows) == [("WSGC-1", "65000"), ("WSGC-2", "10000")]
    assert not {"agp_cents", "prizes_cents", "gross_proceeds_cents"} & set(rows[0]) and "paid_out_cents" in rows[0]
    response = page.get(DEALERS_PAGE, {"identifier": "B-12345", "format": "xlsx"})
    sheet = load_workbook(io.BytesIO(response.content)).active
    header = [c.value for c in sheet[1]]
    agp = [row[header.index("win_cents")] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert sorted(agp) == [10_000, 65_000]  # typed cells: integers, not text


def test_an_amendment_restates_the_dealers_hold_and_the_view_shows_the_latest(washington):
    agency, river, _coast = washington
    api, _page = staff(agency, "wsgc")
    first = api.get("/registry/api/v1/filings/", {"quarter": "2026Q3"}).json()["results"]
    original = next(f["receipt_number"] for f in first if f["licensee"]["name"] == "River Card Room")
    amended = post_filing(river, wa_package(1, [dealer(agp=70_000)], amends=original), "r-2")
    assert amended.status_code == 201
    rows = api.get(DEALERS_API, {"identifier": "B-12345"}).json()["results"]
    river_rows = [r for r in rows if r["licensee"] == "River Card Room"]
    assert [(r["agp_cents"], r["receipt_number"]) for r in river_rows] == [(70_000, amended.json()["receipt_number"])]
    assert api.get(DEALERS_API, {"identifier": "B-999"}).json()["results"] == []  # the amendment no longer names them


def test_an_amendment_with_no_dealers_now_leaves_none_shown_and_an_older_package_leaves_them_as_sent(washington):
    """The latest return of River's quarter states no dealers' hold now (an empty list): the older
    rows were still shown as current. A package without `dealers` at all (format 1) sent none, so
    the latest return that sent them stands."""
    agency, river, _coast = washington
    api, page = staff(agency, "wsgc")
    first = api.get("/registry/api/v1/filings/", {"quarter": "2026Q3"}).json()["results"]
    original = next(f["receipt_number"] for f in first if f["licensee"]["name"] == "River Card Room")
    older = {k: v for k, v in wa_package(1, [], amends=original).items() if not k.startswith("dealers")}
    older = {**older, "format": "cardroom.filing/1", "tax": None}
    assert post_filing(river, older, "r-2").status_code == 201
    rows = api.get(DEALERS_API, {"identifier": "B-12345"}).json()["results"]
    assert [r["receipt_number"] for r in rows if r["licensee"] == "River Card Room"] == [original]
    assert post_filing(river, wa_package(1, [], amends=original), "r-3").status_code == 201
    rows = api.get(DEALERS_API, {"identifier": "B-12345"}).json()["results"]
    assert [r["licensee"] for r in rows] == ["Coast Casino"]
    assert api.get(DEALERS_API, {"identifier": "B-999"}).json()["results"] == []
    assert "River Card Room" not in page.get(DEALERS_PAGE, {"identifier": "B-12345"}).content.decode()


def test_the_dealer_view_is_scoped_to_the_agency_and_its_staff(washington, manager):
    agency, river, _coast = washington
    other = Agency.objects.create(name="Another Washington office", jurisdiction="WA-HB")
    other_api, other_page = staff(other, "other")
    assert other_api.get(DEALERS_API, {"identifier": "B-12345"}).json()["results"] == []  # another agency
    assert "Coast Casino" not in other_page.get(DEALERS_PAGE, {"identifier": "B-12345"}).content.decode()
    assert river.get(DEALERS_API, {"identifier": "B-12345"}).status_code == 403  # a licensee's credential
    org_api, org_page = APIClient(), Client()
    org_api.force_authenticate(manager.user)
    org_page.force_login(manager.user)
    assert org_api.get(DEALERS_API, {"identifier": "B-12345"}).status_code == 403  # an organization's login
    assert org_page.get(DEALERS_PAGE, {"identifier": "B-12345"}).status_code == 403
    # A state auditor of another jurisdiction, whose pack names no identifier: not offered, and why
    nd = Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
    nd_api, nd_page = staff(nd, "state")
    body = nd_api.get(DEALERS_API, {"identifier": "B-12345"}).json()
    assert body["offered"] is False and body["results"] == [] and "names no state-issued number" in body["reason"]
    html = nd_page.get(DEALERS_PAGE, {"identifier": "B-12345"}).content.decode()
    assert 'id="dealer-view-absent"' in html and "Coast Casino" not in html


@pytest.mark.parametrize(
    ("jurisdiction", "offered", "why"),
    [
        ("ND", False, "names no state-issued number"),
        ("WA-HB", True, ""),
        ("WA-BJ", False, "revenue is not a drop"),
        ("NY", False, "names no state-issued identifier"),
    ],
)
def test_the_menu_offers_the_dealer_view_only_to_an_agency_whose_pack_offers_it(db, jurisdiction, offered, why):
    """The demo's state, wastate, wabjstate and nystate: the menu leads to the dealer view only where
    the page is offered (`Pack.dealer_view_absent`); opened by address elsewhere, it says why not."""
    agency = Agency.objects.create(name=f"{jurisdiction} agency", jurisdiction=jurisdiction)
    _api, page = staff(agency, f"auditor-{jurisdiction}")
    menu = page.get("/registry/").content.decode().split("</nav>")[0]
    assert "Alerts shared" in menu  # the registry's menu is drawn
    assert ("A dealer across licensees" in menu) is offered
    assert (f'href="{DEALERS_PAGE}"' in menu) is offered
    html = page.get(DEALERS_PAGE).content.decode()
    assert ('id="dealer-view-absent"' in html) is not offered
    assert why in html


def test_a_bad_identifier_is_a_400_naming_the_field_and_a_pack_without_one_refuses_dealers(washington):
    agency, _river, _coast = washington
    api, page = staff(agency, "wsgc")
    response = api.get(DEALERS_API, {"identifier": "B 1; drop"})
    assert response.status_code == 400 and "letters, digits and hyphens" in str(response.json()["identifier"])
    assert page.get(DEALERS_PAGE, {"identifier": "B 1"}).status_code == 400
    nd = Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
    elks = licensee(nd, "Elks", "G-1")
    refused = post_filing(elks, {**package(), "dealers": [dealer()]}, "e-1")
    assert refused.status_code == 400 and "ND 99-01.3-08-05(3)" in str(refused.json()["dealers"])
    bad = post_filing(elks, {**package(), "dealers": [{**dealer(), "agp_cents": "65000"}]}, "e-2")
    assert bad.status_code == 400 and "dealers[0].agp_cents" in bad.json()
    assert ReceivedDealerHold.objects.filter(licensee__agency=nd).count() == 0


# --- Shared alerts ------------------------------------------------------------------------------


@pytest.fixture
def north_dakota(db):
    agency = Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
    elks, eagles = licensee(agency, "Elks", "G-1"), licensee(agency, "Eagles", "G-2")
    resolved = "2026-11-21T09:00:00+00:00"
    assert elks.post(ALERTS, {"alerts": [alert(41), alert(42)]}, format="json").status_code == 201
    assert elks.post(ALERTS, {"alerts": [alert(42, resolved_at=resolved)]}, format="json").status_code == 201
    other = alert(7, title="Count team not independent", citation="ND 99-01.3-08-14(2)")
    assert eagles.post(ALERTS, {"alerts": [other]}, format="json").status_code == 201
    return agency, elks, eagles


def test_the_alerts_page_lists_each_alert_in_its_latest_state_per_licensee(north_dakota, django_assert_max_num_queries):
    agency, _elks, _eagles = north_dakota
    _api, page = staff(agency, "state")
    with django_assert_max_num_queries(12):  # the session and menu, the agency, its licensees, one page of alerts
        html = page.get(ALERTS_PAGE).content.decode()
    table = html[html.index('id="alerts"') :]
    assert table.count("<tr><td") == 3 and "ND 99-01.3-08-14(2)" in table and "Count team not independent" in table
    elks_id = Licensee.objects.get(name="Elks").pk
    assert f'href="/registry/alerts/?licensee={elks_id}"' in page.get("/registry/").content.decode()
    closed = page.get(ALERTS_PAGE, {"licensee": elks_id, "state": "closed"}).content.decode()
    rows = closed[closed.index('id="alerts"') :]
    assert rows.count("<tr><td") == 1 and "2026-11-21" in rows and "Eagles" not in rows
    opened = page.get(ALERTS_PAGE, {"state": "open"}).content.decode()
    assert opened[opened.index('id="alerts"') :].count("Closed") == 0


def test_the_alerts_page_tells_two_alerts_of_one_rule_apart_and_writes_times_as_every_page(north_dakota):
    """The same rule and period twice (a week short at two tables) reads as two alerts, each with
    the licensee's own number for it; times as the pages write them, not ISO text with an offset."""
    agency, elks, _eagles = north_dakota
    assert elks.post(ALERTS, {"alerts": [alert(43), alert(44)]}, format="json").status_code == 201
    _api, page = staff(agency, "state")
    html = page.get(ALERTS_PAGE, {"licensee": Licensee.objects.get(name="Elks").pk, "state": "open"}).content.decode()
    table = html[html.index('id="alerts"') :]
    assert "(their alert 43)" in table and "(their alert 44)" in table
    opened = re.findall(r'data-label="Opened" class="text-nowrap">([^<]*)<', table)
    assert opened and all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d [A-Z]{3,4}", o) for o in opened), opened


def test_the_alerts_download_as_csv_and_xlsx_with_the_rule_cited(north_dakota):
    agency, _elks, _eagles = north_dakota
    _api, page = staff(agency, "state")
    rows = list(csv.DictReader(io.StringIO(page.get(ALERTS_PAGE, {"format": "csv"}).content.decode())))
    assert sorted((r["licence_number"], r["alert"], r["state"], r["citation"]) for r in rows) == [
        ("G-1", "41", "open", "ND 99-01.3-08-16(1)(g)"),
        ("G-1", "42", "closed", "ND 99-01.3-08-16(1)(g)"),
        ("G-2", "7", "open", "ND 99-01.3-08-14(2)"),
    ]
    sheet = load_workbook(io.BytesIO(page.get(ALERTS_PAGE, {"format": "xlsx", "state": "open"}).content)).active
    assert sheet.max_row == 3  # the header and the two open alerts


def test_the_alerts_page_is_scoped_and_refuses_a_bad_filter(north_dakota, manager):
    agency, elks, _eagles = north_dakota
    other_api, other_page = staff(Agency.objects.create(name=WA, jurisdiction="WA-HB"), "wsgc")
    assert "Elks" not in other_page.get(ALERTS_PAGE).content.decode()  # another agency, another jurisdiction
    assert other_api.get(ALERTS).json()["results"] == []
    elks_id = Licensee.objects.get(name="Elks").pk
    assert other_page.get(ALERTS_PAGE, {"licensee": elks_id}).status_code == 400  # not its licensee
    org_page = Client()
    org_page.force_login(manager.user)
    assert org_page.get(ALERTS_PAGE).status_code == 403  # an organization's login
    _api, page = staff(agency, "state")
    response = page.get(ALERTS_PAGE, {"state": "resolved"})
    assert response.status_code == 400 and "state is open or closed" in response.content.decode()
    assert staff(agency, "state2")[0].get(ALERTS, {"state": "resolved"}).status_code == 400


# --- An amended return's tax --------------------------------------------------------------------


def test_the_quarter_shows_an_amendments_tax_now_beside_the_tax_filed(north_dakota):
    agency, elks, _eagles = north_dakota
    original = {**package(), "tax": {"tax_cents": 500, "organization_tax_cents": 500}}
    filed = post_filing(elks, original, "q-1").json()["receipt_number"]
    amendment = {**package(agp=55_000, amends=filed), "tax": {"filed_cents": 500, "now_cents": 550}}
    amended = post_filing(elks, amendment, "q-2").json()["receipt_number"]
    _api, page = staff(agency, "state")
    rows = {
        r["receipt_number"]: r
        for r in csv.DictReader(io.StringIO(page.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode()))
    }
    assert (rows[filed]["tax_filed_cents"], rows[filed]["tax_now_cents"]) == ("500", "")
    # The tax filed once, on the return's row; the amendment names that row and restates the tax now
    assert (rows[amended]["tax_filed_cents"], rows[amended]["tax_now_cents"]) == ("", "550")
    assert (rows[amended]["tax_scope"], rows[amended]["tax_as_receipt"]) == ("amendment", filed)
    html = page.get("/registry/quarter/?quarter=2026Q3").content.decode()
    line = html[html.index(amended) :].split("</tr>")[0]
    assert f"as filed, receipt {filed} above" in line and "$5.50" in line and "changed" in line
    assert "$5.00" not in line


def test_an_agency_whose_law_levies_no_tax_reads_its_quarter_without_tax_columns(washington):
    """Washington's texts we hold levy no gaming tax on the win (only North Dakota's pack has tax
    brackets): its quarter page and downloads carry no tax column, not a column of dashes, and no
    gross proceeds column beside the drop; North Dakota's keep both (the test above)."""
    agency, _river, _coast = washington
    _api, page = staff(agency, "wsgc")
    html = page.get("/registry/quarter/?quarter=2026Q3").content.decode()
    head = html[html.index('id="quarter-rows"') :]
    head, body = head[: head.index("</thead>")], head[head.index("</thead>") : head.index("</table>")]
    assert "tax" not in head.lower() and "Gross proceeds" not in head and ">Win<" in head
    assert "tax-filed" not in body and "tax-now" not in body
    assert head.count("</th>") == body.split("</tr>")[0].count("</td>")  # each row's cells under their headers
    assert "organization's tax" not in html
    header = next(csv.reader(io.StringIO(page.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode())))
    assert "drop_cents" in header and not [c for c in header if "tax" in c or "gross" in c]
    # the download speaks Washington's words, as the page does: never North Dakota's prizes and AGP
    assert {"paid_out_cents", "win_cents"} <= set(header) and not {"prizes_cents", "agp_cents"} & set(header)
    sheet = load_workbook(io.BytesIO(page.get("/registry/quarter/?quarter=2026Q3&format=xlsx").content)).active
    assert [c.value for c in sheet[1]] == header


def quarter_head_and_download(page) -> tuple[str, list[str], list[str]]:
    """The quarter page's table head, and the header of its CSV and of its XLSX."""
    html = page.get("/registry/quarter/?quarter=2026Q3").content.decode()
    table = html[html.index('id="quarter-rows"') :]
    head = table[: table.index("</thead>")]
    assert head.count("</th>") == table[table.index("</thead>") :].split("</tr>")[0].count("</td>")
    header = next(csv.reader(io.StringIO(page.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode())))
    sheet = load_workbook(io.BytesIO(page.get("/registry/quarter/?quarter=2026Q3&format=xlsx").content)).active
    return head, header, [c.value for c in sheet[1]]


def test_only_an_agency_whose_law_states_tournaments_reads_tournament_columns_in_its_quarter(washington, north_dakota):
    """Tournaments are North Dakota's (ND 99-01.3-08-15): Washington's house-banked rules define
    none, so its quarter page and downloads carry no tournament column; North Dakota's keep them."""
    wa_head, wa_csv, wa_xlsx = quarter_head_and_download(staff(washington[0], "wsgc")[1])
    assert "Tournament" not in wa_head and 'class="text-end tournament"' not in wa_head
    assert not [c for c in wa_csv if "tournament" in c] and wa_xlsx == wa_csv
    assert post_filing(north_dakota[1], package(), "t-1").status_code == 201
    nd_head, nd_csv, nd_xlsx = quarter_head_and_download(staff(north_dakota[0], "state")[1])
    assert "Tournament gross proceeds" in nd_head and "Tournament AGP" in nd_head
    assert {"tournament_gross_proceeds_cents", "tournament_prizes_cents", "tournament_agp_cents"} <= set(nd_csv)
    assert nd_xlsx == nd_csv


def test_a_version_1_package_is_still_received(north_dakota):
    _agency, elks, _eagles = north_dakota
    response = post_filing(elks, {**package(quarter="2026Q2"), "format": "cardroom.filing/1"}, "v-1")
    assert response.status_code == 201


def test_the_quarter_page_shows_each_returns_hold_as_a_percentage(north_dakota):
    from core import filing_package

    agency, elks, _eagles = north_dakota
    body = package()
    total = {"drop_cents": 100_000, "gross_proceeds_cents": 100_000, "agp_cents": 5_667, "hold_ratio": "0.056670"}
    figures = {"summary": {**body["figures"]["summary"], "total": total}}
    body = {**body, "figures": figures, "figures_sha256": filing_package.digest(figures)}
    receipt = post_filing(elks, body, "h-1").json()["receipt_number"]
    _api, page = staff(agency, "state")
    html = page.get("/registry/quarter/?quarter=2026Q3").content.decode()
    line = html[html.index(receipt) :].split("</tr>")[0]
    assert ">5.67%</td>" in line and "0.056670" not in line


def test_the_ratio_filter_reads_a_ratio_given_as_text_and_shows_other_text_as_it_is():
    from decimal import Decimal

    from cardroom.templatetags.cardroom import ratio

    assert ratio("0.056670") == "5.67%" == ratio(Decimal("0.05667"))
    assert ratio("-0.062518") == "-6.25%"
    assert ratio(None) == "n/a" == ratio("")
    assert ratio("not a number") == "not a number"  # never a 500 on a page


def test_a_losing_days_expected_deposit_reads_none_with_the_shortfall_never_a_negative_deposit():
    """A day whose cash fell makes up the bank rather than depositing: the daily page and PDF say
    "none" and by how much; the daily report's CSV and XLSX expect 0.00 (core.money.deposit_cents),
    the day's negative cash profit beside it; the figures API keeps the signed number."""
    from cardroom.templatetags.cardroom import deposit_money
    from core.money import deposit_cents, deposit_text

    assert (
        deposit_money(-3000)
        == "none: the bank's cash fell by $30.00 (a losing day; not a cash short)"
        == deposit_text(-3000)
    )
    assert deposit_money(0) == "$0.00" and deposit_text(0) is None
    assert deposit_money(125_050) == "$1,250.50"
    assert deposit_money(None) == "not known"
    assert deposit_cents(-3000) == 0 and deposit_cents(125_050) == 125_050 and deposit_cents(None) is None


# --- The quarter's receipt times and the organization's tax once ------------------------------------

RECEIVED = "2026-12-01T02:01:26+00:00"  # 2026-11-30 20:01 in North Dakota's (Bismarck's) zone


def site_package(site_id, name, tax_cents, licence="G-1"):
    from core import filing_package

    filed = package(site_id=site_id, licence=licence)
    figures = {"summary": {**filed["figures"]["summary"], "total": {"agp_cents": 5_667, "hold_ratio": "0.056673"}}}
    return {
        **filed,
        "site": {"id": site_id, "name": name, "jurisdiction": "ND"},
        "figures": figures,
        "figures_sha256": filing_package.digest(figures),
        "tax": {"tax_cents": tax_cents, "organization_tax_cents": tax_cents, "organization_agp_cents": 60_000},
    }


def test_the_quarter_writes_the_receipt_time_as_the_filings_page_and_each_organizations_tax_once(north_dakota):
    agency, elks, eagles = north_dakota
    with time_machine.travel(RECEIVED, tick=False):
        elks_receipts = [
            post_filing(elks, site_package(n, name, 7_310), f"e-{n}").json()["receipt_number"]
            for n, name in ((1, "Bismarck"), (2, "Fargo"), (3, "Minot"))
        ]
        eagles_receipt = post_filing(eagles, site_package(9, "Mandan", 1_000, licence="G-2"), "g-9").json()[
            "receipt_number"
        ]
    _api, page = staff(agency, "state")
    html = page.get("/registry/quarter/?quarter=2026Q3").content.decode()
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = {number: body[body.index(number) :].split("</tr>")[0] for number in [*elks_receipts, eagles_receipt]}

    assert all(">2026-11-30 20:01 CST</td>" in row for row in rows.values())  # the agency's zone named
    # The filings page writes the same moment the same way, the zone named as the alerts page names
    # it (North Dakota's agency: Central).
    assert page.get("/registry/filings/").content.decode().count(">2026-11-30 20:01 CST</td>") == 4
    assert "2026-11-30T" not in html and "2026-12-01" not in html
    first, *others = elks_receipts
    assert body.count("$73.10") == 2  # the organization's tax and the tax filed, once for Elks
    assert '<td class="text-end tax-filed">$73.10</td>' in rows[first]
    for number in others:
        assert "$73.10" not in rows[number] and f"as receipt {first} above" in rows[number]
    assert '<td class="text-end tax-filed">$10.00</td>' in rows[eagles_receipt]  # another organization's own

    downloaded = list(csv.DictReader(io.StringIO(page.get("/registry/quarter/?quarter=2026Q3&format=csv").text)))
    # Each organization's tax once, on its first return's row; the later sites' rows leave the
    # organization's AGP and tax empty and name the receipt whose row holds them: a column sums once.
    for column in ("tax_cents", "tax_filed_cents"):
        assert [r[column] for r in downloaded] == ["1000", "7310", "", ""]
    assert [r["organization_agp_cents"] for r in downloaded] == ["60000", "60000", "", ""]
    assert [r["tax_scope"] for r in downloaded] == ["organization", "organization", *["see tax_as_receipt"] * 2]
    assert [r["tax_as_receipt"] for r in downloaded] == ["", "", first, first]
    assert sum(int(r["tax_cents"] or 0) for r in downloaded) == 1_000 + 7_310
    assert all(re.fullmatch(r"2026-11-30T20:01:26-06:00", r["received_at"]) for r in downloaded)
    assert {r["hold_ratio"] for r in downloaded} == {"0.056673"}

    sheet = load_workbook(io.BytesIO(page.get("/registry/quarter/?quarter=2026Q3&format=xlsx").content)).active
    header, *cells = list(sheet.values)
    book = [dict(zip(header, row, strict=True)) for row in cells]
    assert [r["tax_cents"] for r in book] == [1_000, 7_310, None, None]  # typed, and once
    assert sum(r["tax_filed_cents"] or 0 for r in book) == 1_000 + 7_310
    assert [r["tax_as_receipt"] or "" for r in book] == ["", "", first, first]
    ratios = [r["hold_ratio"] for r in book]
    assert all(isinstance(x, int | float) and not isinstance(x, bool) for x in ratios)  # a number, not text
    assert [round(x * 1_000_000) for x in ratios] == [56_673] * 4


def test_a_washington_quarter_says_how_many_dealers_dealt_with_no_identifier(washington):
    """A return's dealers' hold leaves out the dealers with no state-issued identifier recorded; the
    quarter says how many, where the pack's dealers hold one (WA-HB), so the state can ask."""
    agency, river, _coast = washington
    package = {**wa_package(1, [dealer()], quarter="2026Q4"), "dealers_without_identifier": 2}
    assert post_filing(river, package, "r-2").status_code == 201
    _api, page = staff(agency, "wsgc")
    html = page.get("/registry/quarter/?quarter=2026Q4").content.decode()
    assert ">Dealers without identifier</th>" in html and '<td class="text-end unidentified">2</td>' in html
    head = html[html.index('id="quarter-rows"') :]
    head, body = head[: head.index("</thead>")], head[head.index("</thead>") : head.index("</table>")]
    assert head.count("</th>") == body.split("</tr>")[0].count("</td>")
    rows = list(csv.DictReader(io.StringIO(page.get("/registry/quarter/?quarter=2026Q4&format=csv").content.decode())))
    assert [r["dealers_without_identifier"] for r in rows] == ["2"]
