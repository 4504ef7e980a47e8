"""The tournament record PDF (ND 99-01.3-08-16(1)(e),(f)) read back against the tournaments API."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from cardroom.models import Role
from core.money import format_money
from reports.kinds import tournament_record
from tests.reports.test_kind_daily import auditor_api, csv_rows, download, pdf_tables, pdf_text, run_report  # noqa: F401
from tournaments import services
from tournaments.models import FeeKind

from .conftest import announce

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(cast, site):
    """Two players: Ann pays the full $200.00 (entry, rebuy, add-on) and wins $150 cash; Bob's
    rebuy is voided; Bob takes a $45 jacket."""
    boss, cashier = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    t = announce(boss, site)

    def fee(kind, **who):
        return services.collect_fee(acting_user=cashier.user, tournament=t, kind=kind, **who)

    ann = fee(FeeKind.ENTRY, player_name="Ann Lee").player
    bob = fee(FeeKind.ENTRY, player_name="Bob Ray").player
    fee(FeeKind.REBUY, player=ann)
    fee(FeeKind.ADD_ON, player=ann)
    wrong = fee(FeeKind.REBUY, player=bob)
    services.void_fee(acting_user=boss.user, fee=wrong, reason="Rang up twice")
    services.award_prize(
        acting_user=boss.user, tournament=t, player=ann, round_name="Final", kind="cash", amount_cents=15000
    )
    services.award_prize(
        acting_user=boss.user,
        tournament=t,
        player=bob,
        round_name="Final",
        kind="merchandise",
        amount_cents=4500,
        description="Club jacket",
        split=True,
    )
    return t


def rows_under(grids, *header) -> list[list[str]]:
    """The rows of every grid whose header starts with `header` (a table split by a page break
    repeats its header on the next page)."""
    return [row for g in grids if g[0][: len(header)] == list(header) for row in g[1:]]


def _period():
    today = timezone.localdate()
    return str(today - timedelta(days=1)), str(today + timedelta(days=1))


def test_the_tournament_record_pdf_holds_the_registers_and_the_record_of_win_as_the_api_does(auditor_api, site, played):
    start, end = _period()
    run = run_report(auditor_api, kind="tournament_record", site=site.pk, start=start, end=end)
    content = download(auditor_api, run)
    grids = pdf_tables(content)
    api = auditor_api.get(f"/api/v1/tournaments/{played.pk}/").json()["figures"]
    players = {row[0]: row[1:] for row in rows_under(grids, "Player")}
    assert players["Ann Lee"] == [format_money(20000), "1100", format_money(15000)]
    assert players["Bob Ray"] == [format_money(10000), "500", format_money(4500)]
    fees = rows_under(grids, "Date and time", "Player", "Fee")
    assert [row[2] for row in fees] == ["Entry fee", "Entry fee", "Rebuy", "Add-on", "Rebuy", "Void"]
    assert fees[-1][3] == format_money(-9999) and "Rang up twice" in fees[-1][6]
    win = dict(row for row in rows_under(grids, "Record of win"))
    assert win["Gross proceeds (fees collected)"] == format_money(api["gross_proceeds_cents"]) == format_money(30000)
    assert win["Prizes"] == format_money(api["prizes_cents"]) == format_money(19500)
    assert win["Adjusted gross proceeds (the win)"] == format_money(api["agp_cents"]) == format_money(10500)
    text = " ".join(pdf_text(content).split())
    assert "the chips have no cash redemption value" in text and "at most $200.00" in text


def test_the_csv_holds_every_fee_and_prize(auditor_api, site, played):
    start, end = _period()
    run = run_report(auditor_api, kind="tournament_record", site=site.pk, start=start, end=end)
    rows = csv_rows(auditor_api, run)
    assert rows[0] == tournament_record.CSV_HEADER
    assert sum(1 for r in rows[1:] if r[2] == "fee") == 6 and sum(1 for r in rows[1:] if r[2] == "prize") == 2
    fees = [r for r in rows[1:] if r[2] == "fee"]
    assert all(datetime.fromisoformat(r[3]).utcoffset() is not None for r in fees)  # the site's time, its offset
    assert Decimal("-99.99") in {Decimal(r[6]) for r in fees}  # the void, in plain dollars


def test_a_period_without_tournaments_says_so(auditor_api, site):
    run = run_report(auditor_api, kind="tournament_record", site=site.pk, start="2026-01-01", end="2026-01-02")
    assert "No tournament at this site in the period." in pdf_text(download(auditor_api, run))
