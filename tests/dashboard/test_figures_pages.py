"""The figures pages through the client: the same figures as the figures API, 403 for roles
that may not see them, 404 for sites that are not the user's, a fixed number of queries."""

from datetime import timedelta
from decimal import Decimal

import pytest

from cardroom.models import Role
from core.money import format_money, format_ratio
from tests.factories import TableFactory

from .conftest import FIRST_DAY

DAY = FIRST_DAY.isoformat()


def _page(client, employee, url):
    client.force_login(employee.user)
    return client.get(url)


def _row(html: str, marker: str) -> str:
    return html.split(marker, 1)[1].split("</tr>", 1)[0]


def _cells(custody: dict) -> list[str]:
    keys = [
        "drop_cents",
        "fills_cents",
        "credits_cents",
        "opener_cents",
        "closer_cents",
        "gross_proceeds_cents",
        "prizes_cents",
        "agp_cents",
    ]
    ratio = custody["hold_ratio"]
    return [format_money(custody[k]) for k in keys] + [format_ratio(Decimal(ratio) if ratio else None)]


def _in_order(row: str, cells: list[str]) -> bool:
    position = 0
    for cell in cells:
        found = row.find(f">{cell}</td>", position)
        if found < 0:
            return False
        position = found + 1
    return True


@pytest.mark.parametrize("role", [Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER])
def test_the_daily_page_shows_the_apis_figures_for_each_table_and_the_total(client, client_for, cast, site, play, role):
    api = client_for(cast[role]).get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    html = _page(client, cast[role], f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    for table in api["tables"]:
        assert _in_order(_row(html, f'data-table="{table["table_number"]}"'), _cells(table))
    assert _in_order(_row(html, 'id="total"'), _cells(api["total"]))
    cash = api["cash"]
    assert f'id="cash-profit">{format_money(cash["cash_profit_cents"])}<' in html
    assert f'id="long-short">{format_money(cash["long_short_cents"])}<' in html
    assert f'id="chips-line">{format_money(cash["chips_outside_change_cents"])}<' in html
    assert f'id="deposit-expected">{format_money(cash["deposit_expected_cents"])}<' in html
    assert f"due by {cash['deposit_due']}" in html


def test_the_daily_page_links_to_the_slips_counts_and_shifts_behind_it(client, cast, site, play):
    html = _page(client, cast[Role.AUDITOR], f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    slip = play.scenario.site.slips.filter(gaming_day__gaming_date=FIRST_DAY).first()
    assert f"/floor/slips/{slip.pk}/" in html
    assert "/counts/sessions/" in html
    assert "not separable because the drop box was not exchanged at the dealer change" in html


def test_the_daily_page_defaults_to_the_latest_gaming_day(client, cast, site, play):
    response = _page(client, cast[Role.SHIFT_MANAGER], "/dashboard/daily/")
    assert (
        response.status_code == 200
        and response.context["day"] == play.scenario.days[max(play.scenario.days)].gaming_date
    )


def test_a_bad_date_is_named(client, cast, site):
    response = _page(client, cast[Role.AUDITOR], f"/dashboard/daily/?site={site.pk}&date=14-08-2026")
    assert (
        response.status_code == 400
        and b"House control: write date as YYYY-MM-DD (got &#x27;14-08-2026&#x27;)" in response.content
    )


def test_an_impossible_date_is_said_to_be_no_date_as_the_api_says(client, cast, site):
    response = _page(client, cast[Role.AUDITOR], f"/dashboard/daily/?site={site.pk}&date=2026-02-30")
    assert (
        response.status_code == 400
        and b"<li>date: House control: date names no day of the calendar (2026-02-30 is not a date).</li>"
        in response.content
    )


def test_a_bad_quarter_is_named_inline_as_a_bad_date_is(client, cast, site):
    response = _page(client, cast[Role.AUDITOR], f"/dashboard/quarter/?site={site.pk}&quarter=2026Q9")
    html = response.content.decode()
    assert response.status_code == 400
    assert (
        "<li>quarter: House control: write quarter as YYYYQn, for example 2026Q3 (got &#x27;2026Q9&#x27;).</li>" in html
    )
    assert "[" not in html.split('id="errors"')[1].split("</div>")[0]


def test_the_quarter_page_shows_the_apis_days_totals_and_the_organizations_tax(
    client, client_for, cast, site, org, play
):
    api = client_for(cast[Role.AUDITOR]).get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    tax = client_for(cast[Role.AUDITOR]).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    html = _page(client, cast[Role.AUDITOR], f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    for day in api["days"]:
        assert _in_order(_row(html, f'data-date="{day["gaming_date"]}"'), _cells(day["total"]))
    total = _row(html, 'id="total"')
    assert _in_order(total, _cells(api["total"]))
    assert f'id="cash-profit">{format_money(api["cash_profit_cents"])}<' in total
    # the quarter's hold is the ratio of the sums
    assert api["total"]["hold_ratio"] == str(
        (Decimal(api["total"]["agp_cents"]) / api["total"]["gross_proceeds_cents"]).quantize(Decimal("0.000001"))
    )
    assert f'id="tax-due">{format_money(tax["tax_cents"])}<' in html
    assert f'id="org-agp">{format_money(tax["agp_cents"])}<' in html


def test_the_dealer_page_puts_each_dealer_beside_the_sites_hold(client, client_for, cast, site, play, dealers):
    start, end = "2026-05-29", "2026-08-20"  # the default: the last 12 weeks up to today
    response = _page(client, cast[Role.SHIFT_MANAGER], "/dashboard/dealers/")
    assert (str(response.context["start"]), str(response.context["end"])) == (start, end)
    html = response.content.decode()
    for dealer in dealers:
        api = (
            client_for(cast[Role.SHIFT_MANAGER])
            .get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/?start={start}&end={end}")
            .json()
        )
        row = _row(html, f'data-dealer="{dealer.pk}"')
        hold = Decimal(api["total"]["hold_ratio"])
        site_hold = Decimal(api["site_hold_ratio"])
        assert _in_order(row, [format_money(api["total"]["agp_cents"]), format_ratio(hold), format_ratio(site_hold)])
        assert f">{api['z_score'] or 'n/a'}</td>" in row


def test_the_dealers_page_counts_each_dealers_shifts_without_making_each_shifts_figures(
    client, client_for, cast, site, play, dealers, monkeypatch
):
    """The dealers' list shows totals only (`published.dealer_totals`: the closed days' sums as
    snapshotted, an open day's summed as read), so it makes no ShiftFigures a shift (issue 37); the
    same shifts, separable shifts and win as the API's, which lists each shift."""
    from accounting import day_figures, dealer_hold

    start, end = "2026-05-29", "2026-08-20"
    api = {
        dealer.pk: client_for(cast[Role.SHIFT_MANAGER])
        .get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/?start={start}&end={end}")
        .json()
        for dealer in dealers
    }

    def no_shift_figures(*args):
        raise AssertionError("the dealers' list made each shift's figures")

    monkeypatch.setattr(dealer_hold._Custody, "figures", no_shift_figures)
    monkeypatch.setattr(day_figures, "_shifts_from_rows", no_shift_figures)
    html = _page(client, cast[Role.SHIFT_MANAGER], "/dashboard/dealers/").content.decode()
    for dealer in dealers:
        (figures,) = api[dealer.pk]["sites"]
        assert figures["shifts"] == len(api[dealer.pk]["shifts"]) > 0
        cells = [str(figures["shifts"]), str(figures["separable_shifts"]), format_money(figures["total"]["agp_cents"])]
        assert _in_order(_row(html, f'data-dealer="{dealer.pk}"'), cells)


def test_a_dealers_shifts_say_why_they_cannot_be_separated(client, cast, site, play, dealers):
    url = f"/dashboard/dealers/{dealers[1].pk}/?site={site.pk}&start={DAY}&end={DAY}"  # table 2, one box
    html = _page(client, cast[Role.AUDITOR], url).content.decode()
    assert "Not separable because the drop box was not exchanged at the dealer change." in html
    # The site's hold beside the dealer's is its tables' counted days, without the adjusting entries
    # the daily summary counts (a $20 correction made Bismarck's 12.16% there 12.53%): it says so.
    basis = html.split('id="site-hold-basis">')[1].split("</span>")[0]
    assert "the adjusting entries, which correct a day's figure and are no dealer's, are not in it" in basis


@pytest.mark.parametrize(
    "jurisdiction, rule", [("NY", "9 NYCRR 4620.5"), ("WA-BJ", "WAC 230-40-125(1) (1999 proposed amendment)")]
)
def test_a_dealers_page_where_the_revenue_is_not_a_drop_shows_no_hold_and_says_why_as_the_list_does(
    client, cast, site, play, dealers, jurisdiction, rule
):
    """The shifts were dealt with a drop; the site now runs a pack whose revenue is its fees or
    sessions (packs are read at the site), so neither page shows a hold."""
    site.jurisdiction = jurisdiction
    site.save(update_fields=["jurisdiction"])
    period = f"site={site.pk}&start={DAY}&end=2026-08-20"
    listed = _page(client, cast[Role.AUDITOR], f"/dashboard/dealers/?{period}").content.decode()
    html = _page(client, cast[Role.AUDITOR], f"/dashboard/dealers/{dealers[0].pk}/?{period}").content.decode()
    said = html.split('id="no-hold">')[1].split("</div>")[0]
    assert said == listed.split('id="no-hold">')[1].split("</div>")[0]
    if jurisdiction == "WA-BJ":  # the fees rule says the revenue is its fees
        assert said.startswith(f"{rule}: the revenue of {site.name} is not a drop")
    else:  # 9 NYCRR 4620.5 defines the game only: the session record is ours, and said so
        assert said.startswith(f"The revenue of {site.name} is its games-of-chance sessions, not a drop")
        assert f"({rule} sets the game; recording it a session at a time is House control)" in said
    body = html.split("<main")[1] if "<main" in html else html
    assert 'id="dealer-hold"' not in html and 'id="shifts"' not in html and "%" not in body.split('id="no-hold"')[1]


@pytest.mark.parametrize("jurisdiction", ["NY", "WA-BJ"])
def test_the_dealer_pages_and_the_dashboard_say_why_there_is_no_hold_in_one_wording(
    client, cast, site, dealers, jurisdiction
):
    """The sentence is written once (dashboard.views.no_hold): the dealers' list, a dealer's page
    and the dashboard's card give the same reason, each with its own consequence."""
    from pathlib import Path

    from dashboard import views

    site.jurisdiction = jurisdiction
    site.save(update_fields=["jurisdiction"])
    period = f"site={site.pk}&start={DAY}&end={DAY}"
    pages = {
        url: _page(client, cast[Role.AUDITOR], url).content.decode()
        for url in (f"/dashboard/dealers/?{period}", f"/dashboard/dealers/{dealers[0].pk}/?{period}")
    }
    board = _page(client, cast[Role.AUDITOR], f"/dashboard/?site={site.pk}").content.decode()
    for url, html in pages.items():
        said = html.split('id="no-hold">')[1].split("</div>")[0]
        assert said == views.no_hold(site, views.NO_DEALER_HOLD), url
    charted = board.split('id="no-hold">')[1].split('<p class="mb-0">')[1].split("</p>")[0]
    assert charted == views.no_hold(site, views.NO_HOLD_CHARTS)
    # in the trade's word at a fees or session site (the ratio is North Dakota's percent-of-hold)
    reason = charted.removesuffix(f", {views.NO_HOLD_CHARTS.format(hold='hold')}.")
    assert said == f"{reason}, {views.NO_DEALER_HOLD.format(hold='hold')}." and reason != charted
    assert "so no dealer has a hold here" in said and "percent" not in charted + said
    # no template words it again beside the function
    templates = Path(views.__file__).resolve().parents[1] / "templates" / "dashboard"
    assert [t.name for t in templates.glob("*.html") if "not a drop" in t.read_text()] == []


@pytest.mark.parametrize(
    "url",
    [
        "/dashboard/daily/",
        "/dashboard/quarter/",
        "/dashboard/dealers/",
        "/dashboard/",
        "/dashboard/data.json",
    ],
)
@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.PIT_BOSS, Role.COUNT_TEAM])
def test_other_roles_are_refused(client, cast, site, url, role):
    assert _page(client, cast[role], url).status_code == 403


def test_a_shift_manager_may_not_see_the_quarter_as_in_the_api(client, cast, site):
    assert _page(client, cast[Role.SHIFT_MANAGER], f"/dashboard/quarter/?site={site.pk}").status_code == 403


@pytest.mark.parametrize("url", ["/dashboard/daily/", "/dashboard/quarter/", "/dashboard/dealers/", "/dashboard/"])
def test_another_organizations_site_is_not_found(client, cast, stranger_site, url):
    assert _page(client, cast[Role.AUDITOR], f"{url}?site={stranger_site.pk}").status_code == 404


def test_a_site_where_the_shift_manager_holds_no_role_is_not_found(client, cast, other_site):
    assert _page(client, cast[Role.SHIFT_MANAGER], f"/dashboard/daily/?site={other_site.pk}").status_code == 404


def test_a_dealer_of_another_organization_is_not_found(client, cast, stranger_site):
    from tests.factories import make_person

    stranger = make_person(stranger_site.organization, Role.DEALER, stranger_site)
    assert _page(client, cast[Role.AUDITOR], f"/dashboard/dealers/{stranger.pk}/").status_code == 404


def test_the_pages_ask_for_a_login(client):
    assert client.get("/dashboard/daily/").status_code == 302


def test_the_figures_menu_follows_the_roles(client, cast, site):
    html = _page(client, cast[Role.SHIFT_MANAGER], "/").content.decode()
    assert "Daily summary" in html and "Dealer percent-of-hold" in html and 'href="/dashboard/"' not in html
    html = _page(client, cast[Role.AUDITOR], "/").content.decode()
    # named for what it is, not for one of the roles that read it (a gaming manager read "Auditor dashboard")
    assert "Quarterly summary" in html and ">Dashboard</a>" in html and "Auditor dashboard" not in html


FILL_QUERIES = 16  # placeholders, their tokens, the table-day totals, the shifts, the UPDATE
PAGES = [
    "/dashboard/daily/?site={site}&date=2026-08-04",
    "/dashboard/quarter/?site={site}&quarter=2026Q3",
    "/dashboard/dealers/?site={site}",
    "/dashboard/dealers/{dealer}/?site={site}",
    "/dashboard/?site={site}",
    "/dashboard/data.json?site={site}",
]


# The daily page (issue 37): its open items, slips, count sessions and shifts read as values by
# SQL compiled once; the session, the user, the site, the figures and one query a list; the
# closed days' shifts name their tables from the table days' read (30 before); the openers that differ
# from their table's last count, a list of its own, one query more (29 before); the tournament fees and
# prizes found after their day's books closed (tournaments.queries.found_late), one query more (30 before).
CEILINGS = {"/dashboard/daily/": 31, "/dashboard/": 13}  # the dashboard: its alerts in one query (issue 37)


@pytest.mark.parametrize("url", PAGES)
def test_pages_issue_the_same_number_of_queries_for_more_tables_days_and_slips(
    client, cast, site, other_site, make_play, dealers, url
):
    from datetime import timedelta

    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(cast[Role.AUDITOR].user)
    url = url.format(site=site.pk, dealer=dealers[0].pk)

    def first_again_and_rendered() -> tuple[int, int, int]:
        counts = []
        for clear in (False, False, True):
            if clear:
                cache.clear()  # rendered again: no cached figure fragment (dashboard.fragments)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
        return tuple(counts)

    make_play(1, 2)
    small_first, small, small_rendered = first_again_and_rendered()
    make_play(4, 12, first=FIRST_DAY + timedelta(days=3), first_number=2)
    TableFactory(site=other_site, number=1)
    larger_first, larger, larger_rendered = first_again_and_rendered()
    assert larger == small <= small_rendered == larger_rendered <= CEILINGS.get(url.split("?")[0], 40)
    # A first visit also fills the snapshots of the closed days it lacks (accounting.day_figures):
    # a fixed number of queries more, whatever the days.
    assert max(small_first, larger_first) <= small_rendered + FILL_QUERIES


@pytest.mark.parametrize(
    "figures",
    [(120_000, 50_000, 20_000, 300_000, 310_000), (10_000, 90_000, 0, 300_000, 290_000), (0, 0, 0, 0, 0)],
)
def test_the_daily_rows_cells_are_those_the_custody_include_writes(figures):
    """Issue 37: the daily page formats its rows' nine cells once in Python; they are the cells
    dashboard/_custody_cells.html writes (money, a loss in red, the hold ratio or a dash)."""
    from django.template.loader import render_to_string

    from accounting.figures import Custody
    from dashboard.views import custody_cells
    from packs import get_pack

    c = Custody(*figures)
    for code in ("ND", "WA-HB"):  # a gross proceeds column beside the drop, or none (packs.RevenueWords)
        words = get_pack(code).revenue_words
        law = {"words": words}
        cells = custody_cells(c, words.gross_column)
        assert cells == render_to_string("dashboard/_custody_cells.html", {"c": c, "law": law}).strip()
        assert cells.count("<td") == (9 if code == "ND" else 8)
    assert ("text-danger" in custody_cells(c)) == (c.agp_cents < 0)


def test_the_daily_rows_escape_every_value_as_django_does():
    """dashboard.views._text is conditional_escape without its per-call wrappers (kept: the
    daily page writes about 200 values, about 1.5% of its CPU time on the demo): the same
    characters for text with every special character, safe text, lazy text, numbers, None and
    an object that renders itself."""
    from django.utils.functional import lazy
    from django.utils.html import conditional_escape
    from django.utils.safestring import mark_safe

    from dashboard.views import _text

    class Rendered:
        def __html__(self):
            return "<b>own</b>"

    values = [
        """<a href="x">Tom & 'Jerry'</a>""",
        "$1,234.56",
        "",
        mark_safe("<i>safe</i>"),
        lazy(lambda: "<lazy> & 'text'", str)(),
        12,
        Decimal("1.50"),
        None,
        Rendered(),
    ]
    for value in values:
        assert _text(value) == conditional_escape(value), value
    assert _text("<&>\"'") == "&lt;&amp;&gt;&quot;&#x27;"


# What the daily page's template wrote for each table before its rows were written in Python
# (dashboard.views._table_rows, issue 37): the same characters for every state of a table.
TABLE_ROWS_BEFORE = """{% for t, open_slips, cells in table_rows %}
    <tr data-table="{{ t.table_number }}"><td>{{ t.table_number }}</td><td>{{ t.game }}</td>{{ cells }}
      <td>{% if open_slips %}<span class="badge text-bg-danger" title="{% for i in open_slips %}{{ i.description }}. {% endfor %}">{{ open_slips|length }} open slip{{ open_slips|length|pluralize }}</span> {% endif %}{% if t.complete and not open_slips %}complete{% elif not t.complete %}{% if not t.counted %}<span class="badge text-bg-warning">drop not counted</span> {% endif %}{% if not t.opener_recorded %}<span class="badge text-bg-warning">no opener</span> {% endif %}{% if not t.closer_recorded %}<span class="badge text-bg-warning">no closer</span>{% endif %}{% endif %}</td></tr>
  {% endfor %}"""


def test_the_daily_pages_table_rows_are_what_its_template_wrote():
    from itertools import product

    from django.template import Context, Template

    from accounting.published import Custody
    from accounting.table_days import TableDay
    from dashboard.views import _table_rows, custody_cells
    from floor.open_items import OpenItem

    def item(description):
        return OpenItem("slip:1", "slip_unverified", 3, description, "ND 99-01.3-08-05(5)", "verify it")

    tables, open_slips = [], {}
    for number, (counted, opener, closer, slips) in enumerate(
        product((True, False), (True, False), (True, False), (0, 1, 2)), 1
    ):
        custody = Custody(120_000 * number, 50_000, 20_000, 300_000, 310_000 - number)
        tables.append(
            TableDay(1, number, number, "21" if number % 2 else "PW", FIRST_DAY, custody, counted, opener, closer)
        )
        if slips:
            open_slips[number] = [item(f'Fill {n} <unverified> & "held"') for n in range(slips)]
    rows = [(t, open_slips.get(t.table_number, []), custody_cells(t.custody)) for t in tables]
    before = Template(TABLE_ROWS_BEFORE).render(Context({"table_rows": rows}))
    assert _table_rows(tables, open_slips, site="ND") == before
    assert (
        "no opener" in before
        and "drop not counted" in before
        and "2 open slips" in before
        and "&lt;unverified&gt;" in before
    )


def test_the_daily_page_leads_to_no_day_still_to_come(client, cast, site):
    """A day still to come offered "Daily report of <it>" and a link to the day after it: the page
    of the site's gaming date today links to no next day, and one of a later date says the day has
    not begun, with no report to request."""
    from floor.calculations import site_today

    today = site_today(site)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get(f"/dashboard/daily/?site={site.pk}&date={today}").content.decode()
    assert 'id="next-day"' not in page and 'id="previous-day"' in page and 'id="not-begun"' not in page
    assert 'id="daily-report"' in page
    later = today + timedelta(days=1)
    page = client.get(f"/dashboard/daily/?site={site.pk}&date={later}").content.decode()
    assert 'id="next-day"' not in page and 'id="daily-report"' not in page
    assert f"The gaming day of {later} has not begun at {site.name}: its gaming date today is {today}." in page
    earlier = client.get(f"/dashboard/daily/?site={site.pk}&date={today - timedelta(days=3)}").content.decode()
    assert 'id="next-day"' in earlier and 'id="daily-report"' in earlier


def test_the_quarter_page_leads_to_no_quarter_still_to_come(client, cast, site):
    """The running quarter's page linked to the next one, which has not begun; an earlier one links on."""
    from core.periods import Quarter
    from floor.calculations import site_today

    running = Quarter.containing(site_today(site))
    client.force_login(cast[Role.AUDITOR].user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter={running}").content.decode()
    assert 'id="next-quarter"' not in page and f"{running.next()} &rarr;" not in page
    earlier = client.get(f"/dashboard/quarter/?site={site.pk}&quarter={running.previous()}").content.decode()
    assert f'id="next-quarter" href="?site={site.pk}&quarter={running}"' in earlier
