"""Tournament figures in the daily and quarterly summaries (ND 99-01.3-08-16(1)(e)-(g)): fees
count on the gaming date collected, prizes on the date awarded, as lines beside the tables."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from accounting.models import BooksClose
from accounting.summaries import daily_summary, quarter_summary
from cardroom.models import Role
from core.money import format_money
from core.periods import Quarter
from packs import get_pack
from reports.kinds import quarterly
from tests.factories import TableFactory
from tests.reports.test_kind_daily import auditor_api, download, pdf_tables, pdf_text, run_report  # noqa: F401
from tournaments import services
from tournaments.models import FeeKind

from .conftest import announce

ND_BRACKETS = get_pack("ND").tax_brackets  # N.D.C.C. 53-06.1-12, the ND pack's effective-dated data

pytestmark = pytest.mark.django_db

DAY, NEXT = date(2026, 8, 14), date(2026, 8, 15)


def at(day: date, hour: int) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=ZoneInfo("America/Chicago"))


@pytest.fixture
def two_nights(cast, site):
    """Fees on DAY: Ann entry + rebuy, Bob entry ($299.99); on NEXT: Ann's add-on ($0.01) and a
    $150 cash prize and a $45 merchandise prize."""
    boss, cashier = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    t = announce(boss, site, gaming_date=DAY, at=at(DAY, 18))

    def fee(kind, when, **who):
        return services.collect_fee(acting_user=cashier.user, tournament=t, kind=kind, at=when, **who)

    ann = fee(FeeKind.ENTRY, at(DAY, 19), player_name="Ann Lee").player
    bob = fee(FeeKind.ENTRY, at(DAY, 19), player_name="Bob Ray").player
    fee(FeeKind.REBUY, at(DAY, 21), player=ann)
    fee(FeeKind.ADD_ON, at(NEXT, 2), player=ann)  # 2 a.m. belongs to DAY's business day
    fee(FeeKind.ADD_ON, at(NEXT, 19), player=bob)
    for player, kind, cents, what in ((ann, "cash", 15000, ""), (bob, "merchandise", 4500, "Jacket")):
        services.award_prize(
            acting_user=boss.user,
            tournament=t,
            player=player,
            round_name="Final",
            kind=kind,
            amount_cents=cents,
            description=what,
            at=at(NEXT, 22),
        )
    return t


def test_the_daily_summary_counts_fees_on_the_day_collected_and_prizes_on_the_day_awarded(site, two_nights):
    first, second = daily_summary(site, DAY).tournaments, daily_summary(site, NEXT).tournaments
    assert (first.entry_fees_cents, first.rebuys_cents, first.add_ons_cents, first.prizes_cents) == (20000, 9999, 1, 0)
    assert first.gross_proceeds_cents == first.agp_cents == 30000 and first.entries == 2
    assert (second.gross_proceeds_cents, second.cash_prizes_cents, second.merchandise_prizes_cents) == (1, 15000, 4500)
    assert second.agp_cents == 1 - 19500
    assert daily_summary(site, date(2026, 8, 16)).tournaments.is_empty


def test_the_quarter_sums_the_days_tournament_figures(site, two_nights):
    q = quarter_summary(site, Quarter.containing(DAY)).tournaments
    assert (q.gross_proceeds_cents, q.prizes_cents, q.agp_cents, q.entries) == (30001, 19500, 10501, 2)
    assert quarter_summary(site, Quarter.containing(date(2026, 11, 1))).tournaments.is_empty


def test_the_figures_api_shows_tournaments_only_on_days_with_play(auditor_api, site, two_nights):
    day = auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    assert day["tournaments"]["gross_proceeds_cents"] == 30000 and day["tournaments"]["rebuys_cents"] == 9999
    assert "tournaments" not in auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date=2026-08-16").json()
    quarter = auditor_api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    assert quarter["tournaments"]["agp_cents"] == 10501
    assert [d["gaming_date"] for d in quarter["days"]] == [str(DAY), str(NEXT)]


def test_the_daily_report_prints_the_tournament_lines(auditor_api, site, two_nights):
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    rows = [row for g in pdf_tables(download(auditor_api, run)) for row in g if row and row[0]]
    lines = {row[0]: row[-1] for row in rows}
    assert lines["Tournament gross proceeds (fees collected)"] == format_money(30000)
    assert lines["Tournament adjusted gross proceeds"] == format_money(30000)
    assert lines["Twenty-one AGP including tournaments"] == format_money(30000)


def test_a_fee_on_a_day_whose_books_are_closed_is_refused(cast, site, two_nights):
    BooksClose.objects.create(
        site=site,
        gaming_date=date(2026, 8, 16),
        closed_at=at(date(2026, 8, 17), 10),
        closed_by=cast[Role.GAMING_MANAGER],
        figures={},
        figures_sha256="0" * 64,
    )
    with pytest.raises(ValidationError, match=r"House control \(closed books"):
        services.collect_fee(
            acting_user=cast[Role.CASHIER].user,
            tournament=two_nights,
            kind=FeeKind.ENTRY,
            player_name="Cy",
            at=at(date(2026, 8, 16), 20),
        )


def test_the_figures_pages_show_the_tournament_lines_as_the_api_does(client, auditor_api, cast, site, two_nights):
    client.force_login(cast[Role.AUDITOR].user)
    day = auditor_api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={NEXT}").json()["tournaments"]
    html = client.get(f"/dashboard/daily/?site={site.pk}&date={NEXT}").content.decode()
    assert f'id="tournament-gp">{format_money(day["gross_proceeds_cents"])}<' in html
    assert f'id="tournament-agp">{format_money(day["agp_cents"])}<' in html
    html = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert f'id="tournament-agp">{format_money(10501)}<' in html
    assert (
        'id="tournament-figures"'
        not in client.get(f"/dashboard/daily/?site={site.pk}&date=2026-08-16").content.decode()
    )


def test_the_nd_gaming_tax_counts_the_tournaments_with_the_tables(site, two_nights):
    """ND 99-01.3-08-16(1)(g): the summaries of all twenty-one activity reconcile to the tax
    return, so a site's line on the return carries its tournaments' GP, prizes and AGP."""
    from accounting import figures
    from accounting.summaries import organization_tax

    quarter = Quarter.containing(DAY)
    tables = quarter_summary(site, quarter)
    tax = organization_tax(site.organization, quarter)
    name, gp, prizes, agp, _ = next(row for row in tax.sites if row[0] == site.name)
    assert (gp, prizes, agp) == (
        tables.total.gross_proceeds_cents + 30001,
        tables.total.prizes_cents + 19500,
        tables.total.agp_cents + 10501,
    )
    assert tax.agp_cents == sum(row[3] for row in tax.sites)
    brackets = figures.brackets_in_force(ND_BRACKETS, quarter.end)
    assert tax.tax_cents == figures.gaming_tax(tax.agp_cents, brackets) > 0


PLAYED = date(2026, 8, 20)  # a gaming night with table play and no tournament


@pytest.fixture
def tables_night(scenario, site):
    """PLAYED: a gaming day with one twenty-one table (drop $900, opener $2,000, closer $1,700)."""
    table = TableFactory(site=site, number=1)
    scenario.tray(table, PLAYED, "opener", 200_000)
    scenario.tray(table, PLAYED, "closer", 170_000)
    scenario.drop(table, PLAYED, 90_000)
    return table


def quarterly_csv(api, site) -> tuple[dict, list[dict[str, str]]]:
    """The quarterly report of DAY's quarter: its run and its CSV's rows by column name (an ND
    site's: every column but the pack's count, reports.kinds.quarterly._columns_not_kept)."""
    run = run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3")
    header, *rows = csv.reader(io.StringIO(download(api, run, "csv").decode()))
    names = [column.name for column in quarterly.COLUMNS if column.name != "count"]
    assert len(header) == len(names)
    return run, [dict(zip(names, row, strict=True)) for row in rows]


def cents(cell: str) -> int:
    return int(Decimal(cell or "0") * 100)


def test_the_quarters_days_say_where_tournament_play_on_a_date_without_a_gaming_day_is_counted(
    auditor_api, site, two_nights, tables_night
):
    """A tournament may be played on a date whose table play was not opened (ND 99-01.3-08-15
    asks no gaming day of it): its date's row in the quarter's days is the tables' ($0.00), so
    the report names the day's tournament figures under the days and where they are counted; its
    days with those figures add up to the site's line of the tax reconciliation (08-16(1)(g))."""
    run, rows = quarterly_csv(auditor_api, site)
    text = " ".join(pdf_text(download(auditor_api, run)).split())
    day_gp = f"{DAY}: gross proceeds {format_money(30000)}, prizes {format_money(0)}, AGP {format_money(30000)}"
    next_gp = f"{NEXT}: gross proceeds {format_money(1)}, prizes {format_money(19500)}, AGP {format_money(1 - 19500)}"
    assert "is not in these rows, which are the tables' figures" in text
    assert day_gp in text and next_gp in text and f"{PLAYED}:" not in text
    assert "in the tournament lines and in the site's line of the tax reconciliation" in text
    played = {r["gaming_date"]: r for r in rows if r["row"] == "tournament_day"}
    assert set(played) == {str(DAY), str(NEXT)}
    assert (cents(played[str(NEXT)]["gross_proceeds"]), cents(played[str(NEXT)]["agp"])) == (1, 1 - 19500)
    days = [r for r in rows if r["row"] == "day" and r["game"] == "total"]
    assert {r["gaming_date"] for r in days} == {str(DAY), str(NEXT), str(PLAYED)}
    (tax_line,) = [r for r in rows if r["row"] == "tax_site" and r["label"] == site.name]
    for figure in ("gross_proceeds", "prizes", "agp"):
        counted = sum(cents(r[figure]) for r in days) + sum(cents(r[figure]) for r in played.values())
        assert counted == cents(tax_line[figure]), figure


def test_the_quarter_page_says_under_its_days_where_tournament_play_is_counted(
    client, cast, site, two_nights, tables_night
):
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    statement = html.split('id="tournament-days">', 1)[1].split("</p>", 1)[0]
    assert f"{DAY}: gross proceeds {format_money(30000)}" in statement and str(PLAYED) not in statement
    assert "in the site&#x27;s line of the tax reconciliation" in statement
    later = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q4").content.decode()
    assert 'id="tournament-days"' not in later  # a quarter without tournament play says nothing of it
