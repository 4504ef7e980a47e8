"""The daily and quarterly PDFs of a WA-BJ site carry its table fees (no hold), read back."""

import io

import pdfplumber

from cardroom.models import Role
from fees import services
from fees.models import FeeCollection
from tests.reports.test_kind_daily import download, run_report


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
    services.count_fees(acting_user=cashier.user, site=site, gaming_date=day, counted_cents=2300, witness=boss)
    api = client_for(cast[Role.AUDITOR])
    from core.periods import Quarter

    daily = {"kind": "daily", "site": site.pk, "start": day.isoformat(), "end": day.isoformat()}
    quarterly = {"kind": "quarterly", "site": site.pk, "quarter": str(Quarter.containing(day))}
    for payload in (daily, quarterly):
        text = _text(download(api, run_report(api, **payload)))
        assert "WAC 230-40-125(1)" in text and "Fees collected (2 collections) $24.00" in text
        assert "Over/short (counted days) ($1.00)" in text or "Over/short (counted days) -$1.00" in text, text[-600:]
