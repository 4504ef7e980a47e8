"""Adjusting entries to a closed day's own revenue where it is not a drop: a New York site's
games-of-chance sessions (receipts, prizes) and a Washington blackjack site's table fees collected.
Each counts in the totals of the day it is recorded on (the day's and the quarter's figures, through
the API), is listed on the day it corrects (whose closed figures stay), and amends a filed quarter
by the figure it corrects. Driven through the services and the API."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounting import books as checks
from accounting import services as books
from accounting import summaries
from accounting.models import Adjustment, FilingAmendment
from cardroom.models import Role
from core.audit import AuditEvent
from core.periods import Quarter
from floor.calculations import site_today
from tests.factories import make_person
from tests.fees.conftest import record_session
from tests.fees.test_books import DAY, _close, _count, fee_day  # noqa: F401
from tests.fees.test_frozen_revenue import fee_day_to_close  # noqa: F401

Q3 = Quarter(2026, 3)
LATER = date(2026, 8, 20)  # a later gaming day of the same quarter
EASTERN = ZoneInfo("America/New_York")


def _entry(books_close, field: str, amount_cents: int, recorded_on: date) -> dict:
    return {
        "books_close": books_close.pk,
        "field": field,
        "amount_cents": amount_cents,
        "reason": "Session sheet re-added: a line was missed.",
        "recorded_on": str(recorded_on),
    }


def _adjust(api, books_close, field: str, amount_cents: int, recorded_on: date) -> Adjustment:
    response = api.post("/api/v1/adjustments/", _entry(books_close, field, amount_cents, recorded_on), format="json")
    assert response.status_code == 201, response.content
    return Adjustment.objects.get(pk=response.json()["id"])


def _quarter_pack(api, site, quarter: Quarter, block: str) -> dict:
    response = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter={quarter}")
    assert response.status_code == 200, response.content
    return response.json()["pack"][block]


def _day_pack(api, site, day: date, block: str) -> dict:
    response = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={day}")
    assert response.status_code == 200, response.content
    return response.json()["pack"][block]


# --- New York: games-of-chance sessions ---------------------------------------------------------


@pytest.fixture
def ny_manager(org, ny_site):
    return make_person(org, Role.GAMING_MANAGER, ny_site)


@pytest.fixture
def closed_session_day(org, ny_site, ny_shift, ny_manager):
    """DAY at Kingston: one session ($1,000 receipts, $400 prizes), the bank counted, books closed."""
    from cage import services as cage

    record_session(ny_shift.user, ny_site, datetime(2026, 8, 14, 18, tzinfo=EASTERN))
    cashier = make_person(org, Role.CASHIER, ny_site)
    for kind, hour in (("start", 17), ("end", 22)):
        cage.record_bank_count(
            acting_user=cashier.user, site=ny_site, gaming_date=DAY, kind=kind, cash={100: 10}, chips={},
            at=datetime(2026, 8, 14, hour, tzinfo=EASTERN),
        )  # fmt: skip
    return books.close_books(acting_user=ny_manager.user, site=ny_site, gaming_date=DAY)


SESSION_DAY = {"sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000}


def test_a_receipts_correction_counts_on_the_day_entered_and_in_its_quarter_not_on_the_closed_day(
    closed_session_day, ny_site, ny_manager, client_for
):
    api = client_for(ny_manager)
    assert _quarter_pack(api, ny_site, Q3, "sessions") == SESSION_DAY
    adjustment = _adjust(api, closed_session_day, "receipts", 5_000, LATER)

    assert _day_pack(api, ny_site, LATER, "sessions") == {
        "sessions": 0, "receipts_cents": 5_000, "prizes_cents": 0, "net_cents": 5_000, "receipts_adjusted_cents": 5_000,
    }  # fmt: skip
    assert _day_pack(api, ny_site, DAY, "sessions") == SESSION_DAY  # the closed day's figures stay
    assert _quarter_pack(api, ny_site, Q3, "sessions") == {
        **SESSION_DAY,
        "receipts_cents": 105_000,
        "net_cents": 65_000,
        "receipts_adjusted_cents": 5_000,
    }
    closed = summaries.daily_summary(ny_site, DAY)
    assert closed.pack["sessions"] == SESSION_DAY
    assert [line.adjustment_id for line in closed.adjustments_to_this_day] == [adjustment.pk]
    check = checks.day_checks([closed])[(ny_site.pk, DAY)]
    assert check.state == "equal", check.differences
    assert AuditEvent.objects.filter(action="books.adjusted").count() == 1


def test_the_daily_summary_gives_the_id_its_adjusting_entries_name(closed_session_day, ny_site, ny_manager, client_for):
    """A walk entering a correction through the API found no way to the `books_close` it takes."""
    api = client_for(ny_manager)
    books_of_the_day = api.get(f"/api/v1/sites/{ny_site.pk}/daily-summary/?date={DAY}").json()["books"]
    assert books_of_the_day["books_close"] == closed_session_day.pk
    assert api.get(f"/api/v1/sites/{ny_site.pk}/daily-summary/?date={LATER}").json()["books"]["books_close"] is None


def test_a_prizes_correction_lowers_the_net_of_the_day_entered(closed_session_day, ny_site, ny_manager, client_for):
    api = client_for(ny_manager)
    _adjust(api, closed_session_day, "prizes", 2_500, LATER)
    assert _day_pack(api, ny_site, LATER, "sessions")["net_cents"] == -2_500
    quarter = _quarter_pack(api, ny_site, Q3, "sessions")
    assert (quarter["prizes_cents"], quarter["net_cents"]) == (42_500, 57_500)


def test_the_daily_and_quarter_pages_read_the_sessions_once_with_the_corrections_counted(
    closed_session_day, ny_site, ny_manager, client_for, client
):
    """The pages take the pack's figures from the summary they hold (accounting.pack_block): the
    same figures as `pack_figures`, the sessions and the adjusting entries not read a second time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounting.published import pack_figures
    from fees.models import GameSession

    _adjust(client_for(ny_manager), closed_session_day, "receipts", 5_000, LATER)
    client.force_login(ny_manager.user)
    client.post("/switch-site/", {"site": ny_site.pk})
    sessions_table, adjustments_table = GameSession._meta.db_table, Adjustment._meta.db_table
    for address, context_pack in (
        (f"/dashboard/daily/?date={LATER}", pack_figures(ny_site, LATER, LATER)),
        (f"/dashboard/quarter/?quarter={Q3}", pack_figures(ny_site, Q3.start, Q3.end)),
    ):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(address)
        assert response.status_code == 200
        assert response.context["pack"] == context_pack
        assert context_pack["sessions"]["receipts_adjusted_cents"] == 5_000
        read = [q["sql"] for q in queries.captured_queries]
        # the sessions' totals (fees.queries.session_totals): once, by the summary
        assert sum(f'COUNT("{sessions_table}"."id")' in sql for sql in read) == 1, address
        assert sum(f'FROM "{adjustments_table}"' in sql for sql in read) <= 1, address


def test_the_quarterly_report_counts_a_session_correction_entered_in_its_quarter(
    closed_session_day, ny_site, ny_manager, cast, client_for
):
    """The quarterly PDF and CSV read the quarter's sessions with the corrections entered in it."""
    from tests.fees.test_reports import _csv, _text
    from tests.reports.test_kind_daily import download, run_report

    _adjust(client_for(ny_manager), closed_session_day, "receipts", 5_000, LATER)
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="quarterly", site=ny_site.pk, quarter=str(Q3))
    # The session's $1,000 and the entry's $50 named beside it (a walk read "Receipts (2 sessions)
    # $2,562.50" over sessions of $2,537.00, the entry folded in unnamed).
    assert "Receipts (1 session; adjusting entries $50.00) $1,050.00" in _text(download(api, run))
    rows = _csv(download(api, run, "csv"))
    pack = {row[2]: row[3] for row in rows if row[0] == "pack"}
    assert (pack["Receipts (1 session; adjusting entries $50.00)"], pack["Net"]) == ("1050.00", "650.00"), pack
    # The daily report of the day it was entered on: its row, and its sessions' figures with it.
    run = run_report(api, kind="daily", site=ny_site.pk, start=str(LATER), end=str(LATER))
    header, *rows = _csv(download(api, run, "csv"))
    rows = [dict(zip(header, row, strict=True)) for row in rows if row[0] == str(LATER)]
    entered = [row for row in rows if row["Table"] == "adjustment"]
    assert [(row["Figure"].split(" (")[0], row["Amount"]) for row in entered] == [
        ("corrects 2026-08-14: session receipts", "50.00")
    ]
    sessions = {row["Figure"]: row["Amount"] for row in rows if row["Table"] == "sessions"}
    assert sessions == {
        "Receipts (0 sessions; adjusting entries $50.00)": "50.00",
        "Prizes paid": "0.00",
        "Net": "50.00",
    }
    # Its PDF lists it with no table's win effect (a dash): no table's win moves.
    text = _text(download(api, run))
    assert "2026-08-14 2026-08-20 session receipts $50.00 \u2014" in text, text
    # The corrected day's file lists it as its PDF does, under "Corrected later", its figures
    # left as they closed (a walk found it in the PDF only).
    run = run_report(api, kind="daily", site=ny_site.pk, start=str(DAY), end=str(DAY))
    header, *rows = _csv(download(api, run, "csv"))
    rows = [dict(zip(header, row, strict=True)) for row in rows if row[0] == str(DAY)]
    later = [(row["Figure"].split(" (")[0], row["Amount"]) for row in rows if row["Table"] == "corrected_later"]
    assert later == [("corrected on 2026-08-20: session receipts", "50.00")]
    assert "Corrected later (counted on the day entered)" in _text(download(api, run))


def test_a_session_correction_names_no_table(closed_session_day, ny_site, ny_manager, client_for):
    from tests.factories import TableFactory

    table = TableFactory(site=ny_site, number=3)
    payload = {**_entry(closed_session_day, "receipts", 5_000, LATER), "table": table.pk}
    response = client_for(ny_manager).post("/api/v1/adjustments/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["table"] == [
        "9 NYCRR 4620.5 sets the game; recording it a session at a time is House control: a receipts adjustment is "
        "the site's; give no table."
    ]
    assert not Adjustment.objects.exists()


def test_a_receipts_correction_of_a_filed_quarter_amends_its_filing_by_the_receipts(
    closed_session_day, ny_site, ny_manager, client_for
):
    api = client_for(ny_manager)
    _adjust(api, closed_session_day, "receipts", 5_000, LATER)  # before the filing: counted in Q3 itself
    books.close_books(acting_user=ny_manager.user, site=ny_site, gaming_date=LATER)
    filing = books.file_quarter(acting_user=ny_manager.user, site=ny_site, quarter=Q3)
    assert filing.figures["summary"]["pack"]["sessions"]["receipts_cents"] == 105_000

    entered_on = site_today(ny_site) - timedelta(days=1)
    later = _adjust(api, closed_session_day, "receipts", -2_000, entered_on)
    (amendment,) = FilingAmendment.objects.filter(filing=filing)
    assert (amendment.source, amendment.adjustment_id) == ("adjustment", later.pk)
    assert (amendment.figure, amendment.delta_cents) == ("session_receipts_cents", -2_000)
    assert _day_pack(api, ny_site, entered_on, "sessions")["receipts_cents"] == -2_000
    assert _quarter_pack(api, ny_site, Q3, "sessions")["receipts_cents"] == 105_000  # the filed quarter's own days

    state = checks.quarter_books(summaries.quarter_summary(ny_site, Q3), filing, ny_site.time_zone)
    # The filed figures stand and equal the quarter's days as they read; each closed day, the one the
    # first correction was entered on among them, equals its closed books.
    assert state.check.state == "equal", state.check.differences
    assert [check.state for _, check in state.days] == ["equal", "equal"]
    rows = {label: (filed, since, now) for label, filed, since, now in checks.filed_beside_now(
        summaries.quarter_summary(ny_site, Q3), state)}  # fmt: skip
    assert rows["Session receipts"] == (105_000, -2_000, 103_000)
    assert rows["Session net"] == (65_000, -2_000, 63_000)
    assert rows["Session prizes"] == (40_000, 0, 40_000)

    # The quarter's page lists it as the correction of the receipts it is, with no table's win effect.
    from django.test import Client

    page = Client()
    page.force_login(ny_manager.user)
    html = page.get(f"/dashboard/quarter/?site={ny_site.pk}&quarter={Q3}").content.decode()
    listed = html[html.index('id="amendments"') : html.index("</ul>", html.index('id="amendments"'))]
    assert f"counted on gaming day {entered_on}" in listed and "receipts -$20.00" in listed
    assert "win" not in listed.lower()


# --- Washington blackjack: table fees collected ---------------------------------------------------


@pytest.fixture
def closed_fee_day(cast, site, fee_day_to_close):  # noqa: F811
    return _close(cast, site)


def test_a_fees_correction_counts_on_the_day_entered_and_in_its_quarter(closed_fee_day, cast, site, client_for, client):
    api = client_for(cast[Role.GAMING_MANAGER])
    _adjust(api, closed_fee_day, "fees", 800, LATER)
    assert _day_pack(api, site, LATER, "fees")["fees_collected_cents"] == 800
    assert _day_pack(api, site, DAY, "fees")["fees_collected_cents"] == 1_600  # the closed day's figures stay
    assert _quarter_pack(api, site, Q3, "fees")["fees_collected_cents"] == 2_400
    later = summaries.daily_summary(site, LATER)
    assert later.pack["fees"]["fees_collected_cents"] == 800
    # The cash counted stands against the fees as corrected: the quarter's collected less its
    # over/short is what was counted, the entry named beside the fees (a walk read $611 collected,
    # $611 counted and -$5.00 over/short, and on the day entered $83, $88 and $0.00).
    quarter = _quarter_pack(api, site, Q3, "fees")
    assert quarter["fees_collected_cents"] + quarter["over_short_cents"] == quarter["fees_counted_cents"]
    assert later.pack["fees"]["fees_adjusted_cents"] == 800
    client.force_login(cast[Role.GAMING_MANAGER].user)
    page = client.get(f"/dashboard/daily/?date={LATER}").content.decode()
    assert "Fees collected (0 collections; adjusting entries $8.00)" in page
    assert "Over/short (counted days, against the fees as corrected)" in page
    # An adjusting entry is no fee collected: the day it is entered on took no cash to count.
    assert summaries.quarter_summary(site, Q3).days_without_bank_count == 0


def test_a_fees_correction_of_a_filed_quarter_amends_its_filing_by_the_fees(closed_fee_day, cast, site, client_for):
    manager = cast[Role.GAMING_MANAGER]
    filing = books.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    entered_on = site_today(site) - timedelta(days=1)
    _adjust(client_for(manager), closed_fee_day, "fees", 300, entered_on)
    (amendment,) = FilingAmendment.objects.filter(filing=filing)
    assert (amendment.figure, amendment.delta_cents) == ("fees_collected_cents", 300)
    summary = summaries.quarter_summary(site, Q3)
    rows = {label: (filed, since, now) for label, filed, since, now in checks.filed_beside_now(
        summary, checks.quarter_books(summary, filing, site.time_zone))}  # fmt: skip
    assert rows["Table fees collected"] == (1_600, 300, 1_900)
    assert summaries.daily_summary(site, entered_on).pack["fees"]["fees_collected_cents"] == 300


def test_at_a_fees_site_a_session_figure_is_refused_with_its_rule(closed_fee_day, cast, site, client_for):
    response = client_for(cast[Role.GAMING_MANAGER]).post(
        "/api/v1/adjustments/", _entry(closed_fee_day, "receipts", 5_000, LATER), format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"][0].startswith("WAC 230-40-125(1)")
    assert not Adjustment.objects.exists()


def test_a_cash_correction_on_a_day_not_yet_counted_says_it_waits_for_the_banks_counts(
    closed_session_day, ny_site, ny_manager, client_for, client
):
    """A walk recorded a cash correction on a day whose bank was not counted yet: the page read
    "no cash profit" and nothing of the entry's cash, which counts once the bank is counted."""
    _adjust(client_for(ny_manager), closed_session_day, "cash", -325, LATER)
    client.force_login(ny_manager.user)
    client.post("/switch-site/", {"site": ny_site.pk})
    page = client.get(f"/dashboard/daily/?date={LATER}").content.decode()
    assert "The cash adjusting entries recorded this day (-$3.25) count in it once the bank is counted" in page
