"""The daily and quarterly PDFs of a WA-BJ site carry its table fees (no hold), read back."""

import io

import pdfplumber
import pytest
from openpyxl import load_workbook

from cardroom.models import Role
from core.money import format_money
from fees import services
from fees.models import FeeCollection
from tests.factories import witness_pin
from tests.page_support import at_site
from tests.reports.test_kind_daily import download, run_report

from .conftest import one_days_start


def _text(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return " ".join(" ".join(page.extract_text() for page in pdf.pages).split())


def test_the_daily_and_quarterly_reports_carry_the_fees(client_for, cast, bj_table, site):
    boss, cashier = cast[Role.PIT_BOSS], cast[Role.CASHIER]
    for _ in range(2):
        services.record_fee(
            acting_user=boss.user,
            table=bj_table,
            basis="per_seat",
            period_minutes=30,
            rate_cents=300,
            count=4,
            amount_cents=1200,
        )
    day = FeeCollection.objects.first().gaming_date
    services.count_fees(
        acting_user=cashier.user,
        site=site,
        gaming_date=day,
        counted_cents=2300,
        witness=boss,
        witness_pin=witness_pin(boss),
    )
    api = client_for(cast[Role.AUDITOR])
    from core.periods import Quarter

    daily = {"kind": "daily", "site": site.pk, "start": day.isoformat(), "end": day.isoformat()}
    quarterly = {"kind": "quarterly", "site": site.pk, "quarter": str(Quarter.containing(day))}
    for payload in (daily, quarterly):
        text = _text(download(api, run_report(api, **payload)))
        assert "WAC 230-40-125(1)" in text and "Fees collected (2 collections) $24.00" in text
        assert "Over/short (counted days) ($1.00)" in text or "Over/short (counted days) -$1.00" in text, text[-600:]


def _csv(content: bytes) -> list[list[str]]:
    import csv

    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_the_daily_and_quarterly_csv_carry_the_same_fees_as_their_pdf(client_for, cast, bj_table, site):
    from core.periods import Quarter

    services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=bj_table,
        basis="per_seat",
        period_minutes=30,
        rate_cents=300,
        count=1,
        amount_cents=300,
    )
    day = FeeCollection.objects.get().gaming_date
    api = client_for(cast[Role.AUDITOR])
    daily = {"kind": "daily", "site": site.pk, "start": day.isoformat(), "end": day.isoformat()}
    quarterly = {"kind": "quarterly", "site": site.pk, "quarter": str(Quarter.containing(day))}
    for payload in (daily, quarterly):
        run = run_report(api, **payload)
        assert "Fees collected (1 collection) $3.00" in _text(download(api, run))
        cells = [cell for row in _csv(download(api, run, "csv")) for cell in row]
        assert "Fees collected (1 collection)" in cells and "3.00" in cells, cells
        # the period's count of days not counted; a one-day report's day says it of itself, once
        said = "Days with fees not counted: 1." if payload is quarterly else "The day's fee cash is not counted"
        assert _text(download(api, run)).count(said) == 1
        header, *rows = _csv(download(api, run, "csv"))
        # the period's row (the daily CSV's days carry their own, dated, before it)
        counted = [dict(zip(header, row, strict=True)) for row in rows if "Days with fees not counted" in row]
        counted = [row for row in counted if not row.get("Gaming date")]
        assert len(counted) == 1 and counted[0]["Count"] == "1" and counted[0]["Amount"] == "", counted
        sheet = load_workbook(io.BytesIO(download(api, run, "xlsx"))).active
        values = [list(row) for row in sheet.iter_rows(values_only=True)]
        row = next(r for r in values if "Days with fees not counted" in r)
        assert row[values[0].index("Count")] == 1 and row[values[0].index("Amount")] is None
        # every other figure row carries its number in a number column, never in its label
        assert not [cell for cell in cells if cell.rstrip(".").split(": ")[-1].isdigit() and ": " in cell]


def test_the_daily_csv_of_a_new_york_site_carries_its_sessions(client_for, cast, ny_site, ny_shift):
    from datetime import timedelta

    from fees.models import GameSession

    start = one_days_start(ny_site, timedelta(hours=2))
    services.record_session(
        acting_user=ny_shift.user,
        site=ny_site,
        licence_number="NY-1",
        started_at=start,
        ended_at=start + timedelta(hours=2),
        receipts_cents=5000,
        prizes_cents=1500,
    )
    api = client_for(cast[Role.AUDITOR])
    day = GameSession.objects.get().gaming_date
    run = run_report(api, kind="daily", site=ny_site.pk, start=day.isoformat(), end=day.isoformat())
    assert "Receipts (1 session) $50.00" in _text(download(api, run))
    rows = _csv(download(api, run, "csv"))
    assert ["sessions", "Net", "35.00"] == [rows[-1][1], rows[-1][-2], rows[-1][-1]]


@pytest.mark.parametrize("where", ["site", "ny_site"])
def test_a_quarter_without_a_day_of_record_says_so_in_plain_words(request, client, client_for, cast, where):
    site = request.getfixturevalue(where)  # Tacoma's fees pack, Kingston's sessions
    api = client_for(cast[Role.AUDITOR])
    text = _text(download(api, run_report(api, kind="quarterly", site=site.pk, quarter="2026Q1")))
    assert "Not filed when this report was generated. The quarter has no day of record." in text
    assert "0 of 0" not in text and "day(s)" not in text
    # Its $0.00 cash profit said for what it is, in its pack's words (the walk's Tacoma and Kingston 2026Q3).
    record, figures = (
        ("fee", "cash profit is") if where == "site" else ("session", "cash profit and cash long (short) are")
    )
    said = f"No gaming day was opened and no {record} was recorded at {site.name} in 2026Q1: nothing was played, so no bank count is missing; its {figures} $0.00."
    assert said in text
    page = at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q1")
    assert said in " ".join(page.content.decode().split())


def test_a_fee_day_not_closed_is_headed_a_fee_day_with_its_books_open(client_for, cast, bj_table, site):
    services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user, table=bj_table, basis="per_seat", period_minutes=30, rate_cents=300,
        count=1, amount_cents=300,
    )  # fmt: skip
    day = FeeCollection.objects.get().gaming_date
    api = client_for(cast[Role.AUDITOR])
    text = _text(download(api, run_report(api, kind="daily", site=site.pk, start=str(day), end=str(day))))
    assert f"Gaming date {day} (fee day, 1 collection; books NOT CLOSED)" in text


def test_a_quarter_of_fees_is_not_said_to_have_had_nothing_played(client, client_for, cast, bj_table, site):
    """A fees site opens no gaming day (its fees are its play, WAC 230-40-125(1)): its quarter of
    fees taken without a bank count has a cash profit not known, never $0.00 "nothing was played",
    on the page, in the PDF and the CSV, as its quarter summary says."""
    from accounting.summaries import quarter_summary
    from core.periods import Quarter
    from tests.page_support import at_site

    services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user, table=bj_table, basis="per_seat", period_minutes=30, rate_cents=300,
        count=4, amount_cents=1200,
    )  # fmt: skip
    quarter = Quarter.containing(FeeCollection.objects.get().gaming_date)
    assert not quarter_summary(site, quarter).nothing_played
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="quarterly", site=site.pk, quarter=str(quarter))
    text = _text(download(api, run))
    header, *rows = _csv(download(api, run, "csv"))
    cash = [dict(zip(header, row, strict=True)) for row in rows if row[0] == "cash"]
    assert not [r for r in cash if "nothing was played" in r["Note"]], cash
    profit = next(r for r in cash if r["Label"].startswith("Cash profit"))
    assert profit["Amount"] == "" and "Cash profit (days with a bank count) $0.00" not in text, profit
    page = at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/quarter/?site={site.pk}&quarter={quarter}")
    assert "nothing was played" not in page.content.decode()
    assert f'id="cash-profit">{format_money(0)}<' not in page.content.decode()


@pytest.mark.parametrize("where", ["site", "ny_site"])
def test_a_quarter_without_a_day_of_record_says_the_same_in_its_csv_as_in_its_pdf(request, client_for, cast, where):
    """A fees or session site's quarter with nothing recorded: a fees site's PDF has no cash long
    (short) and says nothing of one; a session site's, whose cash is its tables' custody, has its
    long (short) against the tables' win, $0.00 with nothing played, as its lines; the CSV, the PDF's
    data, says no more (no note of a "cash long (short) ... $0.00" its reports never show)."""
    site = request.getfixturevalue(where)  # Tacoma's fees pack, Kingston's sessions
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="quarterly", site=site.pk, quarter="2026Q1")
    text = _text(download(api, run))
    notes = [row[4] for row in _csv(download(api, run, "csv"))[1:] if row[0] == "cash"]
    assert ("long (short)" in text) == (where == "ny_site")
    assert "Net cash long" not in text
    assert [note for note in notes if note and note not in text] == [], notes
