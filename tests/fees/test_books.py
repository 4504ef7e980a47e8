"""The books of a fees site (WA-BJ) close on its fee records: a day of fees collected is a day of
the books whether or not a gaming day was opened on the floor (Tacoma's demo week opened none,
and "Close the books" was refused there for ever: "there is no gaming day"). It closes once the
fee cash is counted by two people and the bank counted, and then its fees stand; a quarter with
such a day open is not filed. Driven through the services and the daily page."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounting import services as books
from accounting import summaries
from cage import services as cage
from cardroom.models import Role
from core.periods import Quarter
from fees import services
from fees.models import FeeCollection
from floor.models import GamingDay
from tests.factories import witness_pin

DAY = date(2026, 8, 14)
PACIFIC = ZoneInfo("America/Los_Angeles")


def _fee(cast, table, hour: int) -> FeeCollection:
    return services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=table,
        basis="per_player",
        period_minutes=30,
        rate_cents=200,
        count=4,
        collected_at=datetime(2026, 8, 14, hour, tzinfo=PACIFIC),
    )


def _daily_pdf_text(cast, site) -> str:
    import io

    import pdfplumber

    from reports import services as reports

    run = reports.request_report(
        acting_user=cast[Role.GAMING_MANAGER].user, kind="daily", site=site, start=DAY, end=DAY, at_once=True
    )
    run.refresh_from_db()
    with pdfplumber.open(io.BytesIO(bytes(run.file.pdf))) as pdf:
        return " ".join(" ".join((page.extract_text() or "") for page in pdf.pages).split())


def _count(cast, site):
    """The day's two fees ($16) counted by two people that night."""
    services.count_fees(
        acting_user=cast[Role.CASHIER].user,
        site=site,
        gaming_date=DAY,
        counted_cents=1600,
        witness=cast[Role.SHIFT_MANAGER],
        witness_pin=witness_pin(cast[Role.SHIFT_MANAGER]),
        counted_at=datetime(2026, 8, 14, 22, tzinfo=PACIFIC),
    )


def _close(cast, site, day=DAY):
    return books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=day)


def _refusal(cast, site) -> str:
    with pytest.raises(ValidationError) as refused:
        _close(cast, site)
    return refused.value.message_dict["gaming_date"][0]


@pytest.fixture
def fee_day(cast, site, bj_table):
    fees = [_fee(cast, bj_table, hour) for hour in (14, 15)]
    assert not GamingDay.objects.filter(site=site).exists()  # none opened on the floor, as in Tacoma's demo
    return fees


def test_a_fee_day_without_a_gaming_day_closes_once_its_fees_and_bank_are_counted(cast, site, bj_table, fee_day):
    # a day of the books: listed among the quarter's days (it was not: "0 of 0 day(s)")
    quarter = summaries.quarter_summary(site, Quarter.containing(DAY))
    assert [d.gaming_date for d in quarter.days] == [DAY]
    assert "no gaming day" not in _refusal(cast, site)
    assert _refusal(cast, site).startswith("House control: the fees collected on 2026-08-14 have no two-person count")
    _count(cast, site)
    bank = _refusal(cast, site)  # the cash the day held: its table fees alone (no tournaments or sessions here)
    assert "cash bank count" in bank and "cash was at the cage: table fees or an adjusting entry to the cash;" in bank
    assert "tournament" not in bank and "session" not in bank
    for kind, hour in (("start", 13), ("end", 23)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user,
            site=site,
            gaming_date=DAY,
            kind=kind,
            cash={100: 10 if kind == "start" else 26},
            chips={},
            at=datetime(2026, 8, 14, hour, tzinfo=PACIFIC),
        )
    close = _close(cast, site)
    assert close.gaming_date == DAY
    # read back as closed (no gaming day holds the books' state: the close does), its cash the fees
    day = summaries.daily_summary(site, DAY)
    assert day.books_closed and not day.gaming_day_closed and day.cash.cash_profit_cents == 1600
    assert summaries.quarter_summary(site, Quarter.containing(DAY)).days[0].books_closed
    # the daily report reads the same day: a fee day (no gaming day of tables), books closed, cash without a drop
    text = _daily_pdf_text(cast, site)
    assert "Gaming date 2026-08-14 (fee day, 2 collections; books closed)" in text and "NOT CLOSED" not in text
    assert "Cash profit (ending - starting cash, net of IOUs) $16.00" in text
    assert "Unexplained remainder" not in text and "+ drop" not in text
    # the fees and the bank were entered from paper after the night (past the late entry threshold): listed
    assert "Entered late (5): records of the day's books entered more than" in text and "Table fee, table 1" in text
    assert "Fee cash count" in text and "Starting bank count" in text and "Ending bank count" in text
    assert "Entered late: none" not in text
    # its fees now stand: a void or a new fee of the day is refused, citing the closed books
    with pytest.raises(ValidationError) as voiding:
        services.void_fee(acting_user=cast[Role.GAMING_MANAGER].user, fee=fee_day[0], reason="rung twice")
    assert "House control (closed books" in str(voiding.value)
    assert "so a table fee of 2026-08-14 cannot be changed" in str(voiding.value)
    with pytest.raises(ValidationError):
        _fee(cast, bj_table, 16)
    assert FeeCollection.objects.count() == 2


def test_a_date_without_a_gaming_day_or_a_fee_still_has_nothing_to_close(cast, site, bj_table, fee_day):
    with pytest.raises(ValidationError) as refused:
        _close(cast, site, date(2026, 8, 15))
    assert "there is no gaming day 2026-08-15" in refused.value.message_dict["gaming_date"][0]


def test_a_quarter_with_a_fee_day_whose_books_are_open_is_not_filed(cast, site, bj_table, fee_day):
    with pytest.raises(ValidationError) as refused:
        books.file_quarter(acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Quarter(2026, 3))
    assert "close the books of 2026-08-14 first" in refused.value.message_dict["quarter"][0]


def test_the_daily_page_says_what_a_fee_days_books_need(client, cast, site, bj_table, fee_day):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get("/dashboard/daily/", {"site": site.pk, "date": DAY.isoformat()}).content.decode()
    assert "No gaming day was opened on the floor on this date" in page
    assert "The gaming day is not closed" not in page and "every table closed" not in page
    assert 'id="close-needs">Needs the fee cash counted by two people and the bank counted.' in page
    refused = client.post(f"/dashboard/daily/books/close/?site={site.pk}", {"date": DAY.isoformat()}, follow=True)
    assert "have no two-person count of their cash yet" in refused.content.decode()


def test_a_date_with_neither_a_gaming_day_nor_a_fee_offers_nothing_to_close(client, cast, site, bj_table, fee_day):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    quiet = client.get("/dashboard/daily/", {"site": site.pk, "date": "2026-08-15"}).content.decode()
    assert 'id="close-books"' not in quiet
    assert 'id="nothing-to-close">No gaming day and no fee on this date: its books have nothing to close.' in quiet
    fee_page = client.get("/dashboard/daily/", {"site": site.pk, "date": DAY.isoformat()}).content.decode()
    assert 'id="close-books"' in fee_page and 'id="nothing-to-close"' not in fee_page


def _count_bank(cast, site):
    """DAY's bank counted at its start and end ($10, then $26: the fees' $16 more)."""
    for kind, cash in (("start", 10), ("end", 26)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, kind=kind, cash={100: cash}, chips={},
            at=datetime(2026, 8, 14, 13 if kind == "start" else 23, tzinfo=PACIFIC),
        )  # fmt: skip


def _fee_cell(page: str, fee: FeeCollection) -> str:
    return page.split(f'id="fee-{fee.pk}"')[1].split("</tr>")[0]


def test_a_fee_of_a_closed_day_offers_no_void(client, cast, site, bj_table, fee_day):
    _count(cast, site)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    assert "void" in _fee_cell(client.get("/fees/").content.decode(), fee_day[0]).lower()
    _count_bank(cast, site)
    _close(cast, site)
    cell = _fee_cell(client.get("/fees/").content.decode(), fee_day[0])
    assert "books closed" in cell and "<form" not in cell


def test_a_table_whose_fees_stand_in_closed_books_keeps_its_number(client_for, cast, site, bj_table, fee_day):
    """A fee names its table by number (the fees page, the API, the late entries); a fee is a record
    of the table, so its number stays (house control, cardroom.services.refuse_renaming_the_records),
    as at a table with slips or tray counts. Before, a fee was no record of its table (no reverse
    name): renumbered, the closed day's fees named a table that took none of them."""
    _count(cast, site)
    _count_bank(cast, site)
    _close(cast, site)
    api = client_for(cast[Role.GAMING_MANAGER])
    answer = api.patch(f"/api/v1/tables/{bj_table.pk}/", {"number": 7}, format="json")
    listed = api.get("/api/v1/fee-collections/").json()
    listed = listed["results"] if isinstance(listed, dict) else listed
    assert {fee["table_number"] for fee in listed} == {bj_table.number}
    assert answer.status_code == 400, answer.content
    message = answer.json()["number"][0]
    assert message.startswith("House control: ") and "(fee collections among them)" in message, message


def test_the_fees_page_asks_the_books_once_whatever_the_number_of_dates_it_lists(client, cast, site, bj_table, fee_day):
    """Whether each listed date's books are closed is one question for all of them
    (core.closing.closed_dates), not two queries per date: the page's queries are the same for
    two dates and for seven, and a closed day's fee still offers no Void form."""
    _count(cast, site)
    _count_bank(cast, site)
    _close(cast, site)
    client.force_login(cast[Role.GAMING_MANAGER].user)

    def fees_page() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/fees/")
        assert response.status_code == 200
        return len(captured), response.content.decode()

    def fee_on(day: int) -> FeeCollection:  # a fee of 2026-08-<day>, whose books are open
        return services.record_fee(
            acting_user=cast[Role.PIT_BOSS].user, table=bj_table, basis="per_player", period_minutes=30,
            rate_cents=200, count=4, collected_at=datetime(2026, 8, day, 15, tzinfo=PACIFIC),
        )  # fmt: skip

    later = [fee_on(15)]
    two_dates, _ = fees_page()
    later += [fee_on(day) for day in range(16, 21)]
    assert len({f.gaming_date for f in [*fee_day, *later]}) == 7
    seven_dates, page = fees_page()
    assert seven_dates == two_dates
    assert "books closed" in _fee_cell(page, fee_day[0]) and "<form" not in _fee_cell(page, fee_day[0])
    assert all(f'id="void-fee-{f.pk}"' in _fee_cell(page, f) for f in later)
