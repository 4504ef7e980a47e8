"""The quarterly summary (SFN 50901) read back against the quarter-summary and tax APIs."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import date, timedelta

import pytest

from cardroom.models import Role
from core.money import format_money
from packs import revenue_words
from reports.columns import names
from reports.kinds import quarterly
from surveillance.services import set_surveillance_status
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    context,
    csv_ratio,
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

DAY = date(2026, 8, 14)


def play(scenario, table, day, drop, closer, *, bank=None):
    scenario.tray(table, day, "opener", 200_000)
    scenario.tray(table, day, "closer", closer)
    scenario.drop(table, day, drop)
    if bank:
        scenario.bank(day, "start", *bank[0])
        scenario.bank(day, "end", *bank[1])


@pytest.fixture
def quarter_of_play(scenario, site, other_site, people):
    table = TableFactory(site=site, number=1)
    play(scenario, table, DAY, 100_000, 185_000, bank=((500_000, 300_000), (600_000, 285_000)))
    play(scenario, table, DAY + timedelta(days=1), 80_000, 230_000)  # prizes over GP that day
    scenario.slip(table, DAY + timedelta(days=1), "fill", 50_000, number=1)
    play(scenario, table, date(2026, 9, 30), 123_456, 199_000, bank=((600_000, 285_000), (700_000, 280_000)))
    play(scenario, table, date(2026, 10, 1), 999_999, 200_000)  # the next quarter: not in Q3
    elsewhere = Scenario(other_site, people)
    play(elsewhere, TableFactory(site=other_site, number=1), DAY, 6_000_000, 200_000)
    return table


def _money_or_not_known(cents):
    return "not known" if cents is None else format_money(cents)


def _row(label, twenty_one, paddlewheel, profit, long_short):
    return [
        label,
        format_money(twenty_one["gross_proceeds_cents"]),
        format_money(twenty_one["agp_cents"]),
        ratio(twenty_one["hold_ratio"]),
        format_money(paddlewheel["gross_proceeds_cents"]),
        format_money(paddlewheel["agp_cents"]),
        ratio(paddlewheel["hold_ratio"]),
        _money_or_not_known(profit),
        _money_or_not_known(long_short),
    ]


def test_the_quarterly_summary_has_a_row_per_gaming_day_and_the_quarters_totals(auditor_api, site, quarter_of_play):
    run = run_report(auditor_api, kind="quarterly", site=site.pk, quarter="2026Q3")
    api = auditor_api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    content = download(auditor_api, run)
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Gaming date")
    assert grid[0] == quarterly.day_header(site.jurisdiction)
    expected = [
        _row(
            d["gaming_date"],
            d["twenty_one"],
            d["paddlewheel"],
            d["cash"]["cash_profit_cents"],
            d["cash"]["long_short_cents"],
        )
        for d in api["days"]
    ]
    assert grid[1:-1] == expected and len(expected) == 3
    assert grid[2][7:] == ["not known", "not known"]  # the day without a bank count: never $0.00
    assert grid[-1] == _row(
        "Quarter", api["twenty_one"], api["paddlewheel"], api["cash_profit_cents"], api["long_short_cents"]
    )
    said = "1 day with table play or tournament play has no bank count at both the start and the end (ND 99-01.3-08-16(1)(a))"
    assert said in " ".join(pdf_text(content).split())


def test_the_quarterly_summary_reconciles_to_the_organizations_tax(auditor_api, site, org, quarter_of_play):
    run = run_report(auditor_api, kind="quarterly", site=site.pk, quarter="2026Q3")
    content = download(auditor_api, run)
    tax = auditor_api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Site")
    assert grid[1:-1] == [
        [
            s["site"],
            format_money(s["gross_proceeds_cents"]),
            format_money(s["prizes_cents"]),
            format_money(s["agp_cents"]),
            _money_or_not_known(s["cash_profit_cents"]),
        ]
        for s in tax["sites"]
    ]
    assert grid[-1][0] == "North Dakota sites" and grid[-1][3] == format_money(tax["agp_cents"])
    assert tax["agp_cents"] > 5_000_000  # the second bracket applies
    text = " ".join(pdf_text(content).split())
    assert (
        f"ND gaming tax on the AGP recorded here {format_money(tax['tax_cents'])} (on AGP of "
        f"{format_money(tax['agp_cents'])})." in text
    )
    assert "the other games' AGP is not recorded for this quarter" in text
    brackets = next(g for g in pdf_tables(content) if g[0][0] == "Effective from")
    assert [row[1] for row in brackets[1:]] == [format_money(b["from_cents"]) for b in tax["brackets"]]
    assert brackets[2][2] == "12.00% of the excess"
    lines = next(g for g in pdf_tables(content) if g[1:2] and g[1][0].startswith("AGP recorded here"))
    assert [row[1] for row in lines[1:]] == [
        format_money(tax["agp_cents"]),
        "not recorded",
        format_money(tax["organization_agp_cents"]),
        format_money(tax["organization_tax_cents"]),
        format_money(tax["tax_cents"]),
    ]


def test_the_quarterly_csv_holds_the_same_rows(auditor_api, site, org, quarter_of_play):
    run = run_report(auditor_api, kind="quarterly", site=site.pk, quarter="2026Q3")
    api = auditor_api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    tax = auditor_api.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    rows = csv_rows(auditor_api, run)
    assert rows[0] == [h for h in quarterly.HEADER if h != "Count"]  # no count beside a drop pack's figures
    keys = [name for name in names(quarterly.COLUMNS) if name != "count"]
    rows = [dict(zip(keys, r, strict=True)) for r in rows[1:]]  # keyed by column name
    days = [r for r in rows if r["row"] == "day"]
    assert [r["gaming_date"] for r in days if r["game"] == "total"] == [d["gaming_date"] for d in api["days"]]
    assert [r["game"] for r in days[:3]] == ["21", "PW", "total"]
    quarter_rows = {r["game"]: r for r in rows if r["row"] == "quarter"}
    for game, key in (("21", "twenty_one"), ("PW", "paddlewheel"), ("total", "total")):
        assert quarter_rows[game]["agp"] == dollars(api[key]["agp_cents"])
        assert quarter_rows[game]["hold"] == csv_ratio(api[key]["hold_ratio"])
    assert [quarter_rows[g]["low_hold_threshold"] for g in ("21", "PW", "total")] == ["0.100000", "0.150000", ""]
    assert quarter_rows["total"]["cash_profit"] == dollars(api["cash_profit_cents"])
    assert next(r for r in rows if r["row"] == "tax")["tax"] == dollars(tax["tax_cents"])


def test_the_quarterly_csv_says_under_the_games_whether_a_game_below_its_threshold_starts_the_review(
    auditor_api, cast, site, quarter_of_play
):
    """ND 99-01.3-08-04(9) is "for a site that requires video surveillance": the CSV carries the
    PDF's sentence under the games on a row of its own (a note, as the books' statement is), with
    the quarter page's words of whether "below" starts the review at the site."""

    def said() -> tuple[list[str], str]:
        run = run_report(auditor_api, kind="quarterly", site=site.pk, quarter="2026Q3")
        keys = [name for name in names(quarterly.COLUMNS) if name != "count"]
        rows = [dict(zip(keys, r, strict=True)) for r in csv_rows(auditor_api, run)[1:]]
        notes = [r["note"] for r in rows if r["row"] == "low_hold_review"]
        return notes, " ".join(pdf_text(download(auditor_api, run)).split())

    rule = (
        "ND 99-01.3-08-04(9): at a site that requires video surveillance, a quarter's percent-of-hold less than "
        "the game's threshold starts a video review."
    )
    none = f"{site.name} does not require video surveillance (judged at the quarter's end, 2026-09-30): a game below its threshold starts no review there."
    notes, pdf = said()
    assert notes == [f"{rule} {none} Each game is judged on its own figures; the total is the sum of both."]
    assert notes[0] in pdf  # the PDF's sentence, word for word
    set_surveillance_status(
        cast[Role.GAMING_MANAGER].user, site, True, date(2026, 9, 30), date(2026, 9, 30), "activity"
    )
    required = f"{site.name} requires video surveillance (judged at the quarter's end, 2026-09-30): a game below its threshold starts the review."
    notes, pdf = said()
    assert notes == [f"{rule} {required} Each game is judged on its own figures; the total is the sum of both."]
    assert notes[0] in pdf and none not in pdf


def test_the_quarterly_summary_is_generated_by_a_worker(auditor_api):
    kinds = {k["kind"]: k for k in auditor_api.get("/api/v1/reports/kinds/").json()}
    assert kinds["quarterly"]["background"] is True and kinds["quarterly"]["parameters"] == ["site", "quarter"]


def test_building_the_quarterly_summary_takes_bounded_queries_however_many_days(
    site,
    scenario,
    quarter_of_play,
    django_assert_max_num_queries,
):
    quarter = (date(2026, 7, 1), date(2026, 9, 30))
    # + the filings, the closed books, earlier quarters' filings, tournaments, the hold thresholds, the other
    # games' AGP, the tournament fees and prizes found after their day's books closed (tournaments.queries.found_late)
    with django_assert_max_num_queries(22):
        quarterly.build(context(site, *quarter))
    for n in range(40):
        play(scenario, quarter_of_play, date(2026, 7, 1) + timedelta(days=n), 10_000, 200_000)
    with django_assert_max_num_queries(22):
        data = quarterly.build(context(site, *quarter))
    assert len(data.summary.days) == 43


def test_the_quarterly_summary_carries_the_reconciling_lines_of_the_cash_long_short(auditor_api, site, quarter_of_play):
    run = run_report(auditor_api, kind="quarterly", site=site.pk, quarter="2026Q3")
    api = auditor_api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    content = download(auditor_api, run)
    grid = next(g for g in pdf_tables(content) if g[0] == ["", "Amount"])
    amounts = {row[0]: row[1] for row in grid[1:]}
    for label, name in quarterly.cash_line_labels(revenue_words(site)):
        value = api["total"]["agp_cents"] if name is None else api[name]
        assert amounts[label] == _money_or_not_known(value), label
    assert api["long_short_cents"] == (
        api["chips_outside_change_cents"] + api["unexplained_cents"] + api["long_short_without_chip_count_cents"]
    )
    assert api["chips_outside_change_cents"] == sum(
        d["cash"]["chips_outside_change_cents"]
        for d in api["days"]
        if d["cash"]["chips_outside_change_cents"] is not None
    )
    games = next(g for g in pdf_tables(content) if g[0] == quarterly.game_header(revenue_words(site)))
    by_game = {line["label"]: line for line in api["games"]}
    for row in games[1:]:
        line = by_game[row[0]]
        assert row[3] == format_money(line["agp_cents"]) and row[4] == ratio(line["hold_ratio"])
    assert [row[5] for row in games[1:]] == ["10.00%", "15.00%", ""]
