"""Each day of a fees (WA-BJ) or session (NY) site's daily report carries that day's own revenue,
as the daily page shows it: the fees collected against the fee cash counted, so a shortage is
tied to its day; the day's sessions, receipts, prizes and net. A fee day is headed as one, not as
if the room had been closed; a losing day's expected deposit is none in the CSV too (0.00), as the
PDF and the page say. Driven through the services, read back from the page, the PDF and the CSV."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from cage import services as cage
from cardroom.models import Role
from fees import services
from tests.factories import make_person, witness_pin
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import csv_rows, download, pdf_text, run_report

DAY, NEXT = date(2026, 8, 14), date(2026, 8, 15)
PACIFIC, EASTERN = ZoneInfo("America/Los_Angeles"), ZoneInfo("America/New_York")

pytestmark = pytest.mark.django_db


def _fee(cast, table, day: date, hour: int) -> None:
    services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=table,
        basis="per_player",
        period_minutes=30,
        rate_cents=200,
        count=4,
        collected_at=datetime(day.year, day.month, day.day, hour, tzinfo=PACIFIC),
    )


@pytest.fixture
def fee_days(cast, site, bj_table):
    """Two fee days of $16 each (two collections); the first counted $16, the second $11: $5 short."""
    for day, counted in ((DAY, 1600), (NEXT, 1100)):
        _fee(cast, bj_table, day, 14)
        _fee(cast, bj_table, day, 15)
        services.count_fees(
            acting_user=cast[Role.CASHIER].user,
            site=site,
            gaming_date=day,
            counted_cents=counted,
            witness=cast[Role.SHIFT_MANAGER],
            witness_pin=witness_pin(cast[Role.SHIFT_MANAGER]),
            counted_at=datetime(day.year, day.month, day.day, 22, tzinfo=PACIFIC),
        )


def _flat(text: str) -> str:
    return " ".join(text.split())


def _section(text: str, day: date) -> str:
    """The PDF's text from the day's heading to the next heading (or the period's section)."""
    start = text.index(f"Gaming date {day}")
    ends = [i for i in (text.find("Gaming date", start + 1), text.find("Table fees (", start)) if i > 0]
    ends += [i for i in (text.find("Games-of-chance sessions (", start),) if i > 0]
    return text[start : min(ends, default=len(text))]


def test_each_fee_days_section_carries_its_fees_collected_against_counted_as_its_page_does(
    client, client_for, cast, site, fee_days
):
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="daily", site=site.pk, start=str(DAY), end=str(NEXT))
    text = _flat(pdf_text(download(api, run)))
    short = _section(text, NEXT)
    assert short.startswith(f"Gaming date {NEXT} (fee day, 2 collections; books NOT CLOSED)")
    assert "no gaming day opened" not in text
    assert "Table fees of the day (" in short and "WAC 230-40-125(1)" in short
    assert "Fees collected (2 collections) $16.00 Fee cash counted $11.00 Over/short (counted days) -$5.00" in short
    even = _section(text, DAY)
    assert "Fees collected (2 collections) $16.00 Fee cash counted $16.00 Over/short (counted days) $0.00" in even
    # the page of the day says the same
    shown = page(at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/daily/?date={NEXT}"))
    assert 'id="fees-over-short">-$5.00<' in shown and 'id="fees-collected">$16.00<' in shown
    # the CSV: the day's own rows, its date in the first column; the period's after, undated
    header, *rows = csv_rows(api, run)
    mine = {r[header.index("Figure")]: r[header.index("Amount")] for r in rows if r[0] == str(NEXT) and r[1] == "fees"}
    assert mine == {
        "Fees collected (2 collections)": "16.00",
        "Fee cash counted": "11.00",
        "Over/short (counted days)": "-5.00",
        "Days with fees not counted": "",
    }
    period = {r[header.index("Figure")]: r[header.index("Amount")] for r in rows if r[0] == "" and r[1] == "fees"}
    assert period["Over/short (counted days)"] == "-5.00" and period["Fees collected (4 collections)"] == "32.00"


def test_a_fee_day_not_counted_says_so_in_its_section(client_for, cast, site, bj_table):
    _fee(cast, bj_table, DAY, 14)
    api = client_for(cast[Role.AUDITOR])
    text = _flat(pdf_text(download(api, run_report(api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY)))))
    assert f"Gaming date {DAY} (fee day, 1 collection; books NOT CLOSED)" in text
    assert "The day's fee cash is not counted: its over/short waits for the two-person count." in text
    # One day: its section says its fees once (the period's section would repeat them, a page more).
    assert text.count("Fees collected (1 collection) $8.00") == 1 and "Table fees (" not in text


@pytest.fixture
def ny_cashier(org, ny_site):
    return make_person(org, Role.CASHIER, ny_site)


def _session(ny_shift, ny_site, day: date, receipts: int, prizes: int) -> None:
    services.record_session(
        acting_user=ny_shift.user,
        site=ny_site,
        licence_number="NY-1",
        started_at=datetime(day.year, day.month, day.day, 19, tzinfo=EASTERN),
        ended_at=datetime(day.year, day.month, day.day, 22, tzinfo=EASTERN),
        receipts_cents=receipts,
        prizes_cents=prizes,
    )


def _bank_fell_by_30(ny_cashier, ny_site) -> None:
    for kind, dollars, hour in (("start", 100, 18), ("end", 70, 23)):
        cage.record_bank_count(
            acting_user=ny_cashier.user,
            site=ny_site,
            gaming_date=DAY,
            kind=kind,
            cash={100: dollars},
            chips={},
            at=datetime(2026, 8, 14, hour, tzinfo=EASTERN),
        )


def test_each_session_days_section_carries_its_session_as_its_page_does(client, client_for, cast, ny_site, ny_shift):
    _session(ny_shift, ny_site, DAY, 58_900, 61_900)  # Kingston's 2026-11-24: net -$30
    _session(ny_shift, ny_site, NEXT, 168_600, 131_900)
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="daily", site=ny_site.pk, start=str(DAY), end=str(NEXT))
    text = _flat(pdf_text(download(api, run)))
    losing = _section(text, DAY)
    assert losing.startswith(f"Gaming date {DAY} (session day, 1 session; books NOT CLOSED)")
    assert "Games-of-chance sessions of the day (" in losing and "9 NYCRR 4620.5" in losing
    assert "Receipts (1 session) $589.00 Prizes paid $619.00 Net -$30.00" in losing
    assert "Receipts (1 session) $1,686.00 Prizes paid $1,319.00 Net $367.00" in _section(text, NEXT)
    shown = page(at_site(client, cast[Role.AUDITOR], ny_site).get(f"/dashboard/daily/?date={DAY}"))
    assert 'id="sessions-net">-$30.00<' in shown
    header, *rows = csv_rows(api, run)
    mine = {
        r[header.index("Figure")]: r[header.index("Amount")] for r in rows if r[0] == str(DAY) and r[1] == "sessions"
    }
    assert mine == {"Receipts (1 session)": "589.00", "Prizes paid": "619.00", "Net": "-30.00"}


def test_a_losing_days_csv_expects_no_deposit_as_its_pdf_and_page_say(
    client, client_for, cast, ny_site, ny_shift, ny_cashier
):
    _session(ny_shift, ny_site, DAY, 58_900, 61_900)
    _bank_fell_by_30(ny_cashier, ny_site)
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="daily", site=ny_site.pk, start=str(DAY), end=str(DAY))
    none = "none: the bank's cash fell by $30.00 (a losing day; not a cash short)"
    assert f"Bank deposit expected {none}" in _flat(pdf_text(download(api, run)))
    shown = page(at_site(client, cast[Role.AUDITOR], ny_site).get(f"/dashboard/daily/?date={DAY}"))
    assert f'id="deposit-expected">{none}<' in shown
    header, *rows = csv_rows(api, run)
    total = next(r for r in rows if r[0] == str(DAY) and r[1] == "total")
    # no negative deposit: none is to be made (0.00); the fall is the day's cash profit beside it
    assert total[header.index("Cash profit")] == "-30.00" and total[header.index("Deposit expected")] == "0.00"
    # the figures API keeps the signed number
    api_day = api.get(f"/api/v1/sites/{ny_site.pk}/daily-summary/?date={DAY}").json()
    assert api_day["cash"]["deposit_expected_cents"] == -3000
