"""A fees or session pack's day without a bank count is one of its quarter's days without one
(accounting.summaries.played_for_cash): its table fees (WA-BJ, WAC 230-40-125(1)) or its sessions
(NY) are the cash bank's cash (its books close on a bank count, accounting.services.cash_at_the_cage),
so its cash profit is not known and out of the quarter's. Before, only table and tournament play
counted: a WA-BJ quarter of fees with no bank count read a cash profit not known and no day without
a bank count, on the page, in the PDF, the CSV and the API. A quarter filed in format version 4,
which counted no such day, is still compared in its own version (accounting.frozen, version 5)."""

import html as markup
import io
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pdfplumber
import pytest
import time_machine

from accounting import books, frozen, rules, summaries
from accounting.models import QuarterFiling
from cardroom.models import Role
from core.periods import Quarter
from fees import services
from fees.models import FeeCollection
from tests.factories import make_person
from tests.page_support import at_site
from tests.reports.test_kind_daily import download, run_report

from .conftest import one_days_start, record_session

pytestmark = pytest.mark.django_db

FEE_DAY_WORDS = (
    f"1 day with table fees ({rules.TABLE_FEES.at('WA-BJ')}) has no bank count at both the start and the end "
    "(House control): its cash profit is not known and not in the quarter's totals."
)


def _pdf_text(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return " ".join(" ".join(page.extract_text() for page in pdf.pages).split())


def _csv_notes(content: bytes) -> list[str]:
    import csv

    header, *rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    return [dict(zip(header, row, strict=True))["Note"] for row in rows if row[0] == "cash"]


def record_fee(cast, table, **when):
    return services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user, table=table, basis="per_seat", period_minutes=30, rate_cents=300,
        count=4, amount_cents=1200, **when,
    )  # fmt: skip


def test_a_fee_day_without_a_bank_count_is_a_quarters_day_without_one(client, client_for, cast, bj_table, site):
    """WA-BJ: fees taken, the bank never counted. The quarter counts the day, and its page, PDF,
    CSV and API say so in the pack's words: the fees' rule and House control for the count, no ND
    section."""
    record_fee(cast, bj_table)
    quarter = Quarter.containing(FeeCollection.objects.get().gaming_date)
    summary = summaries.quarter_summary(site, quarter)
    assert summary.cash_profit_cents is None and summary.days_without_bank_count == 1

    api = client_for(cast[Role.AUDITOR])
    shown = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter={quarter}").json()
    assert shown["days_without_bank_count"] == 1 and shown["cash_profit_cents"] is None, shown

    page = at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/quarter/?site={site.pk}&quarter={quarter}")
    html = markup.unescape(page.content.decode())
    assert f'<p class="text-warning" id="days-without-bank">{FEE_DAY_WORDS}</p>' in html, html
    assert '<td class="text-end" id="cash-profit">not known</td>' in html

    run = run_report(api, kind="quarterly", site=site.pk, quarter=str(quarter))
    text = _pdf_text(download(api, run))
    assert FEE_DAY_WORDS in text, text
    assert FEE_DAY_WORDS in _csv_notes(download(api, run, "csv"))
    assert "ND 99-01.3" not in text and "ND 99-01.3" not in html


def test_a_session_day_without_a_bank_count_is_a_quarters_day_without_one(client, org, ny_site, ny_shift):
    """NY: a games-of-chance session recorded, the bank never counted (a session's receipts and
    prizes are the cash bank's, as its books' close says)."""
    from datetime import timedelta

    session = record_session(ny_shift.user, ny_site, one_days_start(ny_site, timedelta(hours=3)))
    summary = summaries.quarter_summary(ny_site, Quarter.containing(session.gaming_date))
    assert summary.cash_profit_cents is None and summary.days_without_bank_count == 1
    auditor = make_person(org, Role.AUDITOR, ny_site)
    page = at_site(client, auditor, ny_site).get(f"/dashboard/quarter/?site={ny_site.pk}&quarter={summary.quarter}")
    html = markup.unescape(page.content.decode())
    assert (
        f"1 day with table play or games-of-chance sessions ({rules.SESSION_GAME.at(ny_site)}) has no bank count at both the start "
        "and the end (House control): its cash profit is not known" in html
    ), html
    assert "ND 99-01.3" not in html


DAY = date(2026, 8, 14)
Q3 = Quarter(2026, 3)


@time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True)
def test_a_quarter_filed_in_version_4_still_compares_equal(client, cast, bj_table, site):
    """A WA-BJ quarter filed in format version 4 with a day of fees and no bank count froze no day
    without a bank count. Compared in its own version it is still equal (its filing unchanged);
    version 5 counts the day, and the page says so beside the filing's "equal"."""
    record_fee(cast, bj_table, collected_at=datetime(2026, 8, 14, 15, tzinfo=ZoneInfo(site.time_zone)))
    summary = summaries.quarter_summary(site, Q3)
    assert [d.gaming_date for d in summary.days] == [DAY] and summary.days_without_bank_count == 1
    # Filed in version 4 (a row of that version: the services of today file in version 5 and close
    # no fee day without its bank count, so such a filing is state an earlier one left).
    figures = {"summary": frozen.quarter(summary, {}, 4)}
    assert figures["summary"]["days_without_bank_count"] == 0 and frozen.version_of(figures["summary"]) == 4
    filing = QuarterFiling.objects.create(
        site=site, quarter=str(Q3), start=Q3.start, end=Q3.end, filed_at=datetime(2026, 10, 20, 18, tzinfo=UTC),
        filed_by=cast[Role.GAMING_MANAGER], figures=figures, figures_sha256=frozen.digest(figures),
    )  # fmt: skip
    state = books.quarter_books(summaries.quarter_summary(site, Q3), filing, site.time_zone)
    assert state.state == "equal" and not state.check.differences, state.check.differences
    # In version 5 the same quarter reads one day without a bank count.
    assert frozen.quarter(summary, {})["days_without_bank_count"] == 1
    html = at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/quarter/?site={site.pk}&quarter={Q3}")
    assert FEE_DAY_WORDS in markup.unescape(html.content.decode())
