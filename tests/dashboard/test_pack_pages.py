"""The figures pages, the dashboard, the menus and the figures API speak the site's own pack
(issue 32): ND's gaming tax, quarterly return (SFN 50901), low-hold thresholds (08-04(9)) and
deposit rule (03-10) only at North Dakota sites; a fees site shows its fees and no hold; an
organization sees only its packs' menus and reports."""

import json
import re
from datetime import UTC, datetime

import pytest
import time_machine

from accounting.models import QuarterFiling
from fees.rules import keeps_sessions
from tests.reports.test_pack_words import DAY, OTHER_PACKS, QUARTER, House, foreign

AFTER_THE_QUARTER = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
PAGES = (
    "/dashboard/daily/?site={site}&date=2026-08-14",
    "/dashboard/quarter/?site={site}&quarter=2026Q3",
    "/dashboard/?site={site}",
    "/reports/",
)


@pytest.fixture
def house(db):
    return lambda jurisdiction: House(jurisdiction).play()


def _pages(client, here, who) -> dict[str, str]:
    client.force_login(who.user)
    found = {}
    for page in PAGES:
        response = client.get(page.format(site=here.site.pk))
        assert response.status_code == 200, page
        found[page] = response.content.decode()
    return found


def _books_words(html: str) -> str:
    """The page without the floor's and counts' open items (each cited by its own app's rules)."""
    for list_id in ('<ul id="open-items">', '<ul id="carried-items">'):
        if list_id in html:
            start = html.index(list_id)
            html = html[:start] + html[html.index("</ul>", start) + 5 :]
    return html


@pytest.mark.parametrize("jurisdiction", [*OTHER_PACKS, "ND"])
def test_the_figures_pages_and_the_dashboard_speak_only_the_sites_pack(client, house, jurisdiction):
    here = house(jurisdiction)
    for who in (here.manager, here.auditor):
        for page, html in _pages(client, here, who).items():
            assert not foreign(_books_words(html), jurisdiction), (page, foreign(_books_words(html), jurisdiction))


@pytest.mark.parametrize("jurisdiction", OTHER_PACKS)
def test_the_quarter_page_has_no_nd_tax_return_or_thresholds_but_files_the_quarter(client, house, jurisdiction):
    here = house(jurisdiction)
    with time_machine.travel(AFTER_THE_QUARTER, tick=False):  # a quarter is filed once it has ended
        html = _pages(client, here, here.manager)[PAGES[1]]
    assert 'id="tax-heading"' not in html and 'id="other-games-form"' not in html
    assert '<th class="text-end">Threshold</th>' not in html and "gaming tax" not in html
    assert "Mark 2026Q3 filed" in html and 'Filing <small class="text-muted">(House control)</small>' in html
    assert 'id="bank-allocation"' not in html


def test_a_washington_house_banked_sites_figures_have_no_paddlewheel(client, house, client_for):
    """WA tables deal twenty-one only (Pack.games): the quarter page, its games and the figures API
    have no paddlewheel line, where an ND site has one (test_pack_words' ND house)."""
    for jurisdiction, dealt in (("WA-HB", ["21", "total"]), ("ND", ["21", "PW", "total"])):
        here = house(jurisdiction)
        html = _pages(client, here, here.manager)[PAGES[1]]
        games = html[html.index('id="games"') :].split("</table>")[0]
        assert [row.split('"')[1] for row in games.split("data-game=")[1:]] == dealt, jurisdiction
        assert ("<th>Paddlewheel</th>" in html) == ("PW" in dealt), jurisdiction
        api = client_for(here.manager).get(f"/api/v1/sites/{here.site.pk}/quarter-summary/?quarter={QUARTER}")
        assert api.status_code == 200, api.content
        assert [g["game"] for g in api.json()["games"]] == dealt, jurisdiction
        daily = client_for(here.manager).get(f"/api/v1/sites/{here.site.pk}/daily-summary/?date={DAY}").json()
        assert [g["game"] for g in daily["games"]] == dealt, jurisdiction


@pytest.mark.parametrize("jurisdiction", OTHER_PACKS)
def test_the_daily_page_cites_no_deposit_deadline_of_another_state(client, house, jurisdiction):
    html = _pages(client, here := house(jurisdiction), here.manager)[PAGES[0]]
    assert "third banking day" not in html and 'Books <small class="text-muted">(House control)</small>' in html


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_the_daily_page_gives_the_houses_deposit_due_date_and_late_once_past_it(
    client, house, client_for, jurisdiction
):
    """The deposit's due date the CSV and the API give (the house's third banking day, judged by
    the compliance alert "Bank deposit late"), cited House control; late once past it undeposited."""
    here = house(jurisdiction)
    api = client_for(here.manager).get(f"/api/v1/sites/{here.site.pk}/daily-summary/?date={DAY}").json()
    assert api["cash"]["deposit_due"] == "2026-08-19"
    due = '<span id="deposit-due">due by 2026-08-19 (House control)</span>'
    with time_machine.travel(datetime(2026, 8, 19, 18, 0, tzinfo=UTC), tick=False):
        html = _pages(client, here, here.manager)[PAGES[0]]
    assert due in html and 'id="deposit-late"' not in html
    html = _pages(client, here, here.manager)[PAGES[0]]  # today, the deposit still not made
    assert due in html and '<span class="badge text-bg-danger" id="deposit-late">late</span>' in html
    assert not foreign(_books_words(html), jurisdiction)


def test_north_dakotas_daily_page_keeps_its_deposit_words_and_says_late_once_past_them(client, house):
    """ND 99-01.3-03-10(1): the deposit by the third banking day; once that day has passed with no
    deposit recorded, the page says late, as the compliance alert "Bank deposit late" does."""
    here = house("ND")
    words = "due by 2026-08-19 (the third banking day after the gaming date, ND 99-01.3-03-10(1))"
    with time_machine.travel(datetime(2026, 8, 19, 18, 0, tzinfo=UTC), tick=False):
        html = _pages(client, here, here.manager)[PAGES[0]]
    assert words in html and 'id="deposit-due"' not in html and 'id="deposit-late"' not in html
    html = _pages(client, here, here.manager)[PAGES[0]]  # today, the deposit still not made
    assert words in html and '<span class="badge text-bg-danger" id="deposit-late">late</span>' in html


@pytest.mark.parametrize("jurisdiction", ["WA-BJ", "NY"])
def test_the_daily_page_of_a_site_without_drop_speaks_of_no_drop_or_boxes(client, house, jurisdiction):
    """Issue 32: the words follow what the site records. A fees site (WA-BJ) has no drop and no
    boxes. A session site's revenue is its sessions, but the house's chips go to its tables and
    their boxes are counted (New York's demo night): its cash profit counts the drop, as its daily
    PDF says, and its books close once the boxes are counted (accounting.services.close_books)."""
    html = _pages(client, here := house(jurisdiction), here.manager)[PAGES[0]]
    at_tables = jurisdiction == "NY"
    assert ("ending cash − starting cash + drop, net of IOUs" in html) == at_tables
    assert ("every drop box removed and its count signed" in html) == at_tables
    assert ("ending cash − starting cash, net of IOUs" in html) == (not at_tables)


def test_a_fees_site_shows_its_fees_and_no_drop_win_or_hold(client, house):
    here = house("WA-BJ")
    pages = _pages(client, here, here.auditor)
    for page in PAGES[:2]:
        assert "Table fees" in pages[page] and "WAC 230-40-125(1)" in pages[page], page
        assert 'id="tables"' not in pages[page] and 'id="games"' not in pages[page], page
        assert 'id="long-short"' not in pages[page] and "Hold" not in pages[page], page
    assert "Table fees" in pages[PAGES[2]] and 'id="unusual"' not in pages[PAGES[2]]
    # The dashboard charts no table or dealer hold there, and says why (the site's revenue rule).
    dashboard = pages[PAGES[2]]
    assert 'id="chart-tables"' not in dashboard and 'id="chart-dealers"' not in dashboard
    # nor by site: none of the auditor's sites has a hold (an empty "hold %" chart was drawn)
    assert 'id="chart-sites"' not in dashboard and 'id="no-hold"' in dashboard
    no_hold = dashboard[dashboard.index('id="no-hold"') :].split("</p>")[0]
    assert "WAC 230-40-125(1)" in no_hold and f"the revenue of {here.site.name} is not a drop" in no_hold


@pytest.mark.parametrize("jurisdiction", ["WA-BJ", "NY"])
def test_the_chart_by_site_is_drawn_where_one_of_the_users_sites_has_a_hold(client, house, jurisdiction):
    """At a fees or session site the dashboard draws no chart by site when none of the user's
    sites has a hold (an empty "hold %" chart stood there); with a North Dakota site beside it in
    the organization, the chart by site is drawn for that site while the detail says why there is none."""
    from tests.factories import SiteFactory

    here = house(jurisdiction)
    alone = _pages(client, here, here.auditor)[PAGES[2]]
    assert 'id="chart-sites"' not in alone and 'class="col-12"' in alone
    SiteFactory(organization=here.org, name="Hall ND beside", jurisdiction="ND")
    beside = _pages(client, here, here.auditor)[PAGES[2]]
    assert 'id="chart-sites"' in beside and 'id="no-hold"' in beside and 'id="chart-tables"' not in beside
    client.force_login(here.auditor.user)
    charted = client.get(f"/dashboard/data.json?site={here.site.pk}").json()
    assert [row["name"] for row in charted["sites"]] == ["Hall ND beside"]


def test_a_session_site_shows_its_session_net(client, house):
    here = house("NY")
    pages = _pages(client, here, here.auditor)
    html = pages[PAGES[1]]
    assert 'id="sessions-net"' in html and "9 NYCRR 4620.5" in html and 'id="games"' not in html
    # The daily page leads to the day's sessions (the records behind its figures); the quarter's does not.
    assert '<a href="/fees/sessions/?date=2026-08-14" id="pack-records">' in pages[PAGES[0]]
    assert 'id="pack-records"' not in html
    # the dashboard says why there is no hold without putting words in 4620.5's mouth
    no_hold = pages[PAGES[2]][pages[PAGES[2]].index('id="no-hold"') :].split("</p>")[0]
    assert f"The revenue of {here.site.name} is its games-of-chance sessions, not a drop" in no_hold
    assert "(9 NYCRR 4620.5 sets the game; recording it a session at a time is House control)" in no_hold
    assert "Weekly hold" not in pages[PAGES[2]]  # no chart of a hold it has not, nor its caption


def test_a_fees_sites_daily_page_leads_to_its_fee_records(client, house):
    here = house("WA-BJ")
    daily = _pages(client, here, here.auditor)[PAGES[0]]
    assert '<a href="/fees/" id="pack-records">' in daily


@pytest.mark.parametrize("jurisdiction", ["NY", "WA-HB"])
def test_the_daily_pages_dealer_shifts_carry_a_hold_only_where_the_revenue_is_a_drop(client, house, jurisdiction):
    from cardroom.models import Role, Table
    from floor.models import DealerShift, GamingDay
    from tests.accounting.scenario import at
    from tests.factories import make_person

    here = house(jurisdiction)
    dealer = make_person(here.org, Role.DEALER, here.site)
    DealerShift.objects.create(
        table=Table.objects.get(site=here.site, number=1), dealer=dealer,
        gaming_day=GamingDay.objects.get(site=here.site, gaming_date=DAY),
        started_at=at(DAY, 19), ended_at=at(DAY, 23), started_by=here.people["shift"],
    )  # fmt: skip
    html = _pages(client, here, here.auditor)[PAGES[0]]
    shifts = html[html.index('id="shifts"') :].split("</ul>")[0]
    assert shifts.count("<li>") == 1 and dealer.name in shifts, shifts  # the day's dealer is listed either way
    figures = "AGP " in shifts or "not separable" in shifts or "hold " in shifts
    assert figures == (jurisdiction == "WA-HB"), shifts
    # Linked to the dealer's percent-of-hold only where there is one (the NY page said only why not).
    assert ("<li><a " in shifts) == (jurisdiction == "WA-HB"), shifts


def test_at_a_north_dakota_site_the_quarter_page_keeps_the_return_the_tax_and_the_thresholds(client, house):
    here = house("ND")
    html = _pages(client, here, here.manager)[PAGES[1]]
    assert "(SFN 50901, ND 99-01.3-08-16(1)(g))" in html and 'id="tax-heading"' in html
    assert "N.D.C.C. 53-06.1-12" in html and "ND 99-01.3-08-04(9)" in html and 'id="other-games-form"' in html
    daily = _pages(client, here, here.manager)[PAGES[0]]
    assert "(the third banking day after the gaming date, ND 99-01.3-03-10(1))" in daily
    assert "Model: SFN 50079." in daily and "ending cash − starting cash + drop" in daily


def test_the_quarter_page_allocates_a_combined_banks_long_short_to_twenty_one(client, house):
    here = house("ND")
    html = _pages(client, here, here.auditor)[PAGES[1]]
    assert "Combined twenty-one/paddlewheel cash bank" in html and "ND 99-01.3-08-16(4)" in html
    assert 'id="allocated-21">$1,870.00<' in html and 'id="allocated-pw">$0.00<' in html


@pytest.mark.parametrize(
    ("jurisdiction", "shown", "hidden"),
    [
        ("ND", {"Dealer percent-of-hold"}, {"Table fees", "Approvals and licences", "Dealer hold<"}),
        ("WA-HB", {"Approvals and licences", "Dealer hold<"}, {"Table fees", "Dealer percent-of-hold"}),
        ("WA-BJ", {"Table fees"}, {"Approvals and licences", "Dealer percent-of-hold", "Dealer hold<"}),
        ("NY", {"Approvals and licences"}, {"Table fees", "Dealer percent-of-hold", "Dealer hold<"}),
    ],
)
def test_an_organization_sees_only_its_packs_menus(client, house, jurisdiction, shown, hidden):
    here = house(jurisdiction)
    html = _pages(client, here, here.manager)[PAGES[3]]
    assert all(label in html for label in shown), shown
    assert not [label for label in hidden if label in html]


# The menu entries of fill and credit slips, slip books, the drop count, the day sheet (which
# holds openers, slips, closers and the count) and the house's chips (their denominations under
# Setup, redemptions, tips, the inventory log): (url name, kwargs).
HOUSE_CHIP_ENTRIES = (
    ("floor:prepare_slip", {"kind": "fill"}),
    ("floor:prepare_slip", {"kind": "credit"}),
    ("floor:queues", {}),
    ("floor:register", {}),
    ("floor:slip_books", {}),
    ("counts:sessions", {}),
    ("counts:boxes", {}),
    ("counts:drop_boxes", {}),
    ("accounting:day_sheet", {}),
    ("setup_list", {"kind": "chips"}),
    ("cage:redemptions", {}),
    ("cage:tips", {}),
    ("cage:inventory", {}),
)


@pytest.mark.parametrize("jurisdiction", ["ND", "WA-HB", "WA-BJ", "NY"])
def test_slip_tray_and_count_entries_are_offered_only_where_the_pack_has_house_chips(jurisdiction):
    """A fees-only pack (WA-BJ: the house's revenue is its fees, WAC 230-40-125(1)) has no fill
    or credit slip, slip book, tray count or drop count, so its sites' menus offer none (the pack
    is asked through `navigation.register(..., offered=)`); every other pack offers them all."""
    from cardroom.models import Role
    from cardroom.navigation import menu_for

    everyone = set(Role)
    offered = {(i.url_name, i.kwargs) for items in menu_for(everyone, [jurisdiction]).values() for i in items}
    wanted = {(name, tuple(sorted(kwargs.items()))) for name, kwargs in HOUSE_CHIP_ENTRIES}
    if jurisdiction == "WA-BJ":
        assert offered & wanted == set() and ("fees:page", ()) in offered
    else:
        assert wanted <= offered and ("fees:page", ()) not in offered


@pytest.mark.parametrize("jurisdiction", ["ND", "WA-BJ"])
@pytest.mark.parametrize("role", ["gaming_manager", "cashier", "auditor"])
def test_the_navigation_bar_is_the_menu_written_once_per_roles_and_jurisdictions(jurisdiction, role):
    """Issue 37: base.html draws the menu from `menu_html`, written once per process for each set of
    roles and jurisdictions: the same entries, in the same order, as the loop over `menu_for`."""
    import re

    from django.template import engines
    from django.utils.html import escape

    from cardroom.navigation import menu_for, menu_html

    written = menu_html({role}, [jurisdiction])
    assert menu_html({role}, {jurisdiction}) is written  # not written again
    sections = menu_for({role}, [jurisdiction])
    loop = engines["django"].from_string(
        '{% for section, items in menu.items %}<li class="nav-item dropdown"><a class="nav-link dropdown-toggle" '
        'href="#" role="button" data-bs-toggle="dropdown" aria-expanded="false">{{ section }}</a><ul '
        'class="dropdown-menu">{% for item in items %}<li><a class="dropdown-item" href="{{ item.url }}">'
        "{{ item.label }}</a></li>{% endfor %}</ul></li>{% endfor %}"
    )
    assert re.sub(r">\s+<", "><", str(written)) == loop.render({"menu": sections})
    assert sections and all(escape(i.label) in written for items in sections.values() for i in items)


def test_a_fees_sites_pages_link_to_no_slip_or_count_entry(client, house):
    from django.urls import reverse

    for jurisdiction in ("WA-BJ", "ND"):
        here = house(jurisdiction)
        html = _pages(client, here, here.manager)[PAGES[3]]
        links = [f'href="{reverse(name, kwargs=kwargs)}"' for name, kwargs in HOUSE_CHIP_ENTRIES]
        shown = [link for link in links if link in html]
        # A gaming manager prepares no slip (house control): the other entries are theirs at ND.
        expected = [] if jurisdiction == "WA-BJ" else [link for link in links if "/slips/new/" not in link]
        assert shown == expected, (jurisdiction, shown)


def test_an_nd_auditors_report_list_offers_no_wa_or_ny_handouts(client, house):
    here = house("ND")
    html = _pages(client, here, here.auditor)[PAGES[3]]
    assert "Blackjack house rules" not in html and "Black Jack rules" not in html and "House and player rules" in html


def _record_the_days_session(here) -> None:
    """The session of the House's night: its receipts the drop ($2,000), its prizes the tables' payout ($200)."""
    from zoneinfo import ZoneInfo

    from fees import services as fees

    zone = ZoneInfo(here.site.time_zone)
    fees.record_session(
        acting_user=here.people["shift"].user, site=here.site, licence_number="NY-1",
        started_at=datetime(DAY.year, DAY.month, DAY.day, 19, tzinfo=zone),
        ended_at=datetime(DAY.year, DAY.month, DAY.day, 22, tzinfo=zone), receipts_cents=200_000, prizes_cents=20_000,
    )  # fmt: skip


@pytest.mark.parametrize("jurisdiction", OTHER_PACKS)
def test_the_figures_api_has_no_thresholds_tax_or_tax_in_a_filing_elsewhere(client_for, house, jurisdiction):
    here = house(jurisdiction)
    api = client_for(here.manager)
    quarter = api.get(f"/api/v1/sites/{here.site.pk}/quarter-summary/?quarter={QUARTER}").json()
    assert all(g["low_hold_threshold"] is None and g["threshold_citation"] is None for g in quarter["games"])
    # nor North Dakota's statement of its video review (08-04(9)) beside the games, nor any of its words
    assert quarter["low_hold_review"] == "" and not foreign(json.dumps(quarter), jurisdiction)
    daily = api.get(f"/api/v1/sites/{here.site.pk}/daily-summary/?date={DAY}").json()
    assert all(g["threshold_citation"] is None for g in daily["games"])
    assert api.get(f"/api/v1/organizations/{here.org.pk}/tax/?quarter={QUARTER}").status_code == 404
    assert api.get(f"/api/v1/organizations/{here.org.pk}/other-games-agp/?quarter={QUARTER}").status_code == 404
    if keeps_sessions(here.site):  # the night's session, recorded before its books close (9 NYCRR 4620.5)
        _record_the_days_session(here)
    closed = api.post(f"/api/v1/sites/{here.site.pk}/close-books/", {"date": str(DAY)}, format="json")
    assert closed.status_code == 201, closed.json()
    with time_machine.travel(AFTER_THE_QUARTER, tick=False):
        filed = api.post(f"/api/v1/sites/{here.site.pk}/quarter-filing/", {"quarter": QUARTER}, format="json")
    assert filed.status_code == 201, filed.json()
    assert "tax" not in QuarterFiling.objects.get(site=here.site).figures  # no gaming tax to freeze here


def test_an_nd_filing_still_freezes_the_tax(client_for, house):
    here = house("ND")
    api = client_for(here.manager)
    closed = api.post(f"/api/v1/sites/{here.site.pk}/close-books/", {"date": str(DAY)}, format="json")
    assert closed.status_code == 201, closed.json()
    with time_machine.travel(AFTER_THE_QUARTER, tick=False):
        filed = api.post(f"/api/v1/sites/{here.site.pk}/quarter-filing/", {"quarter": QUARTER}, format="json")
    assert filed.status_code == 201, filed.json()
    assert QuarterFiling.objects.get(site=here.site).figures["tax"]["tax_label"].startswith("ND gaming tax")


@pytest.mark.parametrize(
    ("jurisdiction", "label"), [("WA-HB", "Tables and dealers of"), ("WA-BJ", "Figures of"), ("NY", "Figures of")]
)
def test_the_dashboards_site_chooser_is_labelled_by_what_the_page_shows_of_the_site(client, house, jurisdiction, label):
    """Where the site's law has a hold the page charts its tables and dealers; a fees or session
    site's shows the pack's own figures instead, and the chooser says so."""
    here = house(jurisdiction)
    dashboard = _pages(client, here, here.auditor)[PAGES[2]]
    assert f'<label class="form-label" for="detail-site">{label}</label>' in dashboard
    assert ('id="chart-dealers"' in dashboard) == (label == "Tables and dealers of")


@pytest.mark.parametrize(("jurisdiction", "hold"), [("ND", "percent-of-hold"), ("WA-HB", "hold"), ("NY", "hold")])
def test_the_hold_ratio_is_named_in_the_packs_words_in_the_menu_reports_dashboard_and_counts(
    client, client_for, house, jurisdiction, hold
):
    """North Dakota's text names the ratio AGP / GP "percent-of-hold" (ND 99-01.3-08-01(3)); the
    texts of Washington and New York name none, so their sites say the trade's "hold" (win / drop):
    the menu's dealers entry and the dealers pages, the dealer hold summary's title (the report list
    and its PDF), the dashboard's caption and charts, and the box exchange's help on the counts
    page. A session site (NY) has no dealer hold, and says so in the same word."""
    import html

    from tests.reports.test_pack_words import _report, pdf_text

    here = house(jurisdiction)
    holds = jurisdiction != "NY"
    pages = _pages(client, here, here.manager)
    dealers = client.get(f"/dashboard/dealers/?site={here.site.pk}&start={DAY}&end={DAY}").content.decode()
    boxes = html.unescape(client.get("/counts/boxes/").content.decode())
    dashboard, reports_page = pages[PAGES[2]], pages[PAGES[3]]
    if holds:
        assert f'<a class="dropdown-item" href="/dashboard/dealers/">Dealer {hold}</a>' in reports_page
        assert f"<title>Dealer {hold}" in dealers and f'<h1 class="h3">Dealer {hold} · {here.site.name}' in dealers
        assert re.search(f">Dealer {hold} summary( \\(|</option>)", reports_page)  # the report list's choice
        api = client_for(here.auditor)
        pdf = " ".join(
            pdf_text(api.get(f"/api/v1/reports/{_report(api, here, 'dealer_hold')['id']}/download/").content).split()
        )
        assert f"Dealer {hold} summary" in pdf
        assert f"Weekly {hold} over the last" in dashboard
        assert all(f'aria-label="{hold.capitalize()} by {what}"' in dashboard for what in ("site", "table", "dealer"))
        assert f"At each dealer change, each dealer's {hold} can be separated." in boxes
    else:
        assert "/dashboard/dealers/" not in reports_page and "dealer_hold" not in reports_page
        assert f"so no dealer has a {hold} here." in dealers
        assert f"so it has no {hold} by table or dealer to chart" in dashboard
        assert f"House control: no dealer has a {hold} at {here.site.name} (its revenue is not a drop)" in boxes
    said = " ".join([*pages.values(), dealers, boxes]).lower()
    assert ("percent-of-hold" in said) == (jurisdiction == "ND") and "percent of hold" not in said


@pytest.mark.parametrize("jurisdiction", ["WA-BJ", "NY"])
def test_the_quarter_page_of_a_fees_or_session_site_gives_the_cash_profit_its_reports_give(
    client, client_for, house, jurisdiction
):
    """Found walking the demo (Kingston's and Tacoma's 2026Q4): the quarterly PDF and CSV of a fees
    or session site give the quarter's "Cash profit (days with a bank count)"; its quarter page gave
    no cash figure at all. The page now gives the same figure, and "not known" without a bank count."""
    from decimal import Decimal

    from core.money import format_money
    from tests.reports.test_pack_words import _csv_rows, _report

    here = house(jurisdiction)
    api = client_for(here.auditor)
    # first: a session site's cash lines go on to the long (short) against the tables' win
    cash = _csv_rows(api, _report(api, here, "quarterly")["id"], "cash")[0]
    assert cash["label"] == "Cash profit (days with a bank count)" and cash["amount"], cash
    html = _pages(client, here, here.manager)[PAGES[1]]
    section = html[html.index('id="cash"') :].split("</table>")[0]
    assert "Cash profit (days with a bank count)" in section
    assert f'id="cash-profit">{format_money(round(Decimal(cash["amount"]) * 100))}<' in section


@pytest.mark.parametrize("jurisdiction", ["WA-BJ", "NY", "ND"])
def test_the_daily_page_heads_the_records_behind_its_figures_only_where_it_lists_some(client, house, jurisdiction):
    """Found walking the demo (Tacoma's daily page): "Behind these figures" headed nothing at a fees
    site, which has no slips, counts or dealer shifts (its fee records are linked under its fees)."""
    html = _pages(client, here := house(jurisdiction), here.manager)[PAGES[0]]
    assert ('id="behind"' in html) == (jurisdiction != "WA-BJ")
    if jurisdiction == "WA-BJ":
        assert "Behind these figures" not in html and 'id="pack-records"' in html


def _cell(html: str, cell_id: str) -> str:
    return re.search(rf'id="{cell_id}">([^<]*)<', html).group(1)


def test_a_session_sites_daily_page_reconciles_its_cash_with_the_tables_win(client, house):
    """Found walking Kingston (NY): the sessions' net and the cash profit disagreed with nothing
    explaining it. The house's chips go to its tables, so its cash is the tables' custody: the cash
    long (short) is the cash profit less the tables' win (drop $2,000 - paid out $200), shown above
    it, and the chips the players took home ($200 of the $200 the trays paid out) reconcile it."""
    html = _pages(client, here := house("NY"), here.manager)[PAGES[0]]
    assert _cell(html, "tables-win") == "$1,800.00"
    assert "cash profit − the tables’ win (drop counted − paid out at the tables)" in html
    assert _cell(html, "cash-profit") == "$3,670.00" and _cell(html, "long-short") == "$1,870.00"
    assert _cell(html, "chips-line") == "$200.00" and _cell(html, "unexplained") == "$1,670.00"


def test_a_fees_sites_daily_page_has_no_long_short_nor_tables_win(client, house):
    html = _pages(client, here := house("WA-BJ"), here.manager)[PAGES[0]]
    assert 'id="tables-win"' not in html and 'id="long-short"' not in html and 'id="chips-line"' not in html


def test_a_drop_sites_daily_page_keeps_its_cash_rows_without_a_tables_win_row(client, house):
    html = _pages(client, here := house("ND"), here.manager)[PAGES[0]]
    assert 'id="tables-win"' not in html and _cell(html, "long-short") == "$1,870.00"
    assert "cash profit − AGP" in html


def test_a_session_sites_quarter_page_reconciles_its_cash_with_the_tables_win(client, house):
    """As its day: New York's quarter shows the tables' win, the cash long (short) against it and
    the chips line that reconciles it, beside the cash profit; a fees site's quarter none of them."""
    html = _pages(client, here := house("NY"), here.manager)[PAGES[1]]
    assert _cell(html, "cash-profit") == "$3,670.00" and _cell(html, "tables-win") == "$1,800.00"
    assert _cell(html, "long-short") == "$1,870.00" and _cell(html, "chips-line") == "$200.00"
    assert _cell(html, "unexplained") == "$1,670.00" and _cell(html, "without-chip-count") == "$0.00"
    assert "cash profit − the tables’ win of those days (drop counted − paid out at the tables)" in html
    fees = _pages(client, there := house("WA-BJ"), there.manager)[PAGES[1]]
    assert 'id="tables-win"' not in fees and 'id="long-short"' not in fees and 'id="chips-line"' not in fees
