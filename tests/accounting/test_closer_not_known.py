"""A table in play has no closer yet: its closer is not known, never $0.00, and so are the figures
that need it (paid out, the win, the hold) and the totals of its game and of the site that sum them,
alike on the daily page, in the daily report's PDF and CSV and in the daily-summary API (null). The
drop, the fills, the credits and the opener stay. Once the closer is recorded, the real figures."""

import re

import pytest
from django.test import Client

from cardroom.models import Role
from floor import services
from tests.floor.conftest import FILL, TRAY, today
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import csv_rows, download, pdf_text, run_report

NOT_KNOWN_NOTE = "Table 1 has no closer recorded yet (House control: tray counts)"
NEEDS_CLOSER = ("closer_cents", "prizes_cents", "agp_cents", "hold_ratio")


@pytest.fixture
def in_play(day_under_way, site, table, chips, cast):
    """Today's gaming day open, table 1 opened with a $2,000.00 tray and a $600.00 fill: no closer."""
    manager = cast[Role.SHIFT_MANAGER].user
    day = services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY)
    services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)
    return day


def _closer(site, table, cast):
    services.record_table_inventory(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="closer", chips=TRAY)


def _daily_page(site, cast, day) -> str:
    client = at_site(Client(), cast[Role.SHIFT_MANAGER], site)
    response = client.get("/dashboard/daily/", {"site": site.pk, "date": day.isoformat()})
    assert response.status_code == 200
    return page(response)


def _cells(text: str, row: str) -> list[str]:
    """The figure cells of a row of #tables (`row`: its opening tag's distinguishing text)."""
    found = re.search(rf"<tr[^>]*{row}[^>]*>(.*?)</tr>", text, re.S)
    assert found, row
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>.*?</td>", found.group(1), re.S)]


def _summary(client_for, cast, site, day) -> dict:
    response = client_for(cast[Role.AUDITOR]).get(f"/api/v1/sites/{site.pk}/daily-summary/?date={day}")
    assert response.status_code == 200
    return response.json()


def test_the_daily_page_says_not_known_for_a_table_without_its_closer_and_for_the_totals_until_it_is_recorded(
    in_play, site, table, cast
):
    text = _daily_page(site, cast, in_play.gaming_date)
    row, total = _cells(text, 'data-table="1"'), _cells(text, 'id="total"')
    # table 1, 21, drop, fills, credits, opener, closer, gross proceeds, prizes, AGP, hold
    assert row[2:11] == ["$0.00", "$600.00", "$0.00", "$2,000.00", "not known", "$0.00", "not known", "not known",
                         "not known"]  # fmt: skip
    assert total[:9] == ["$0.00", "$600.00", "$0.00", "$2,000.00", "not known", "$0.00", "not known", "not known",
                         "not known"]  # fmt: skip
    assert "-$" not in text.split('id="tables"')[1].split("</table>")[0]  # no loss that does not exist
    assert NOT_KNOWN_NOTE in text

    _closer(site, table, cast)  # then the real figures
    text = _daily_page(site, cast, in_play.gaming_date)
    row = _cells(text, 'data-table="1"')
    assert row[2:11] == ["$0.00", "$600.00", "$0.00", "$2,000.00", "$2,000.00", "$0.00", "$600.00", "-$600.00",
                         "n/a"]  # fmt: skip
    assert _cells(text, 'id="total"')[4:8] == ["$2,000.00", "$0.00", "$600.00", "-$600.00"]
    assert "not known" not in text.split('id="tables"')[1].split("</table>")[0]
    assert "no closer recorded yet" not in text


def test_the_api_gives_null_for_the_figures_that_need_the_closer_until_it_is_recorded(
    in_play, site, table, cast, client_for
):
    body = _summary(client_for, cast, site, in_play.gaming_date)
    (row,) = body["tables"]
    for block in (row, body["total"], body["twenty_one"]):
        assert [block[key] for key in NEEDS_CLOSER] == [None, None, None, None]
        assert (block["fills_cents"], block["opener_cents"], block["drop_cents"]) == (60_000, 200_000, 0)
    total = next(g for g in body["games"] if g["game"] == "total")
    assert [total[key] for key in NEEDS_CLOSER] == [None, None, None, None]

    _closer(site, table, cast)  # then the real figures
    body = _summary(client_for, cast, site, in_play.gaming_date)
    for block in (body["tables"][0], body["total"], body["twenty_one"]):
        assert [block[key] for key in NEEDS_CLOSER] == [200_000, 60_000, -60_000, None]  # no drop: no hold


def test_the_daily_report_says_not_known_in_its_pdf_and_leaves_the_csv_cells_empty_until_it_is_recorded(
    in_play, site, table, cast, client_for
):
    api = client_for(cast[Role.AUDITOR])
    day = str(in_play.gaming_date)
    run = run_report(api, kind="daily", site=site.pk, start=day, end=day)
    text = " ".join(pdf_text(download(api, run)).split())
    assert "Opener $2,000.00 Closer not known" in text  # table 1's
    assert "Closer not known $0.00 not known" in text  # twenty-one, paddlewheel, the total
    assert "(AGP) not known $0.00 not known" in text and "(AGP / GP) not known n/a not known" in text
    assert "-$" not in text.split("Site totals")[1].split("Cash profit")[0]  # no loss in the tables nor totals
    assert NOT_KNOWN_NOTE in text
    rows = csv_rows(api, run)
    header = rows[0]
    for kind in ("1", "twenty_one", "total"):
        line = dict(zip(header, next(r for r in rows[1:] if r[1] == kind), strict=False))
        assert [line[c] for c in ("Closer", "Prizes", "AGP", "Hold")] == ["", "", "", ""], kind
        assert (line["Fills"], line["Opener"]) == ("600.00", "2000.00"), kind

    _closer(site, table, cast)  # then the real figures
    run = run_report(api, kind="daily", site=site.pk, start=day, end=day)
    text = " ".join(pdf_text(download(api, run)).split())
    assert "Closer $2,000.00" in text and "no closer recorded yet" not in text
    total = dict(zip(csv_rows(api, run)[0], next(r for r in csv_rows(api, run)[1:] if r[1] == "total"), strict=False))
    assert [total[c] for c in ("Closer", "Prizes", "AGP")] == ["2000.00", "600.00", "-600.00"]


def test_the_quarter_lists_the_day_in_play_with_its_win_and_hold_not_known(in_play, site, table, cast, client_for):
    from core.periods import Quarter

    quarter, day = Quarter.containing(in_play.gaming_date), str(in_play.gaming_date)
    client = at_site(Client(), cast[Role.GAMING_MANAGER], site)
    shown = page(client.get("/dashboard/quarter/", {"quarter": str(quarter)}))
    row = _cells(shown, f'data-date="{day}"')
    assert row[5] == "not known" and row[7:10] == ["not known", "not known", "not known"]
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="quarterly", site=site.pk, quarter=str(quarter))
    header, *rows = csv_rows(api, run)
    day_rows = [dict(zip(header, r, strict=True)) for r in rows if r[0] == "day" and r[1] == day]
    (total,) = [r for r in day_rows if r["Game"].lower() == "total"]
    assert [total[c] for c in ("Prizes", "AGP", "Hold")] == ["", "", ""]
    assert f"{day} $0.00 not known not known" in " ".join(pdf_text(download(api, run)).split())


def test_a_table_without_its_closer_is_no_loss_among_the_unusual_table_days(in_play, site, table, cast):
    from dashboard.trends import unusual_table_days

    (found,) = unusual_table_days(site, in_play.gaming_date, in_play.gaming_date)
    assert "opener or closer missing" in found.reasons
    assert not any("exceeded" in reason for reason in found.reasons)


def test_the_cash_long_short_against_the_win_is_not_known_until_the_closer_is_recorded(
    in_play, site, table, cast, client_for
):
    from cage import services as cage

    cashier = cast[Role.CASHIER].user
    for kind, cash in (("start", {10000: 30}), ("end", {10000: 25})):  # the bank counted at both ends
        cage.record_bank_count(
            acting_user=cashier, site=site, gaming_date=in_play.gaming_date, kind=kind, cash=cash, chips={500: 400}
        )
    cash = _summary(client_for, cast, site, in_play.gaming_date)["cash"]
    assert cash["cash_profit_cents"] == -50_000  # known: no closer in it
    assert (cash["long_short_cents"], cash["chips_outside_change_cents"], cash["unexplained_cents"]) == (None,) * 3
    text = _daily_page(site, cast, in_play.gaming_date)
    assert re.search(r'id="long-short">not known<', text) and re.search(r'id="chips-line">not known<', text)

    _closer(site, table, cast)  # then the long (short) against the real win: -$500.00 - -$600.00
    cash = _summary(client_for, cast, site, in_play.gaming_date)["cash"]
    assert (cash["long_short_cents"], cash["chips_outside_change_cents"]) == (10_000, 0)
