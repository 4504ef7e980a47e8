"""A fees site's (WA-BJ) and a session site's (NY) revenue is frozen with their closed days and
filed quarters (accounting.frozen, format version 2): the table fees collected and counted, the
sessions' receipts, prizes and net. Before version 2 neither document held any of it, so "Figures
equal the quarterly summary filed" compared nothing of that revenue, and a fee written behind
closed books left the check "equal". Driven through the services; the row behind the books is
written as no service would write it, which is what the check is for."""

import csv
import io
from datetime import date, datetime

import pytest

from accounting import books as checks
from accounting import frozen, summaries
from accounting import services as books
from cardroom.models import Role
from core.periods import Quarter
from fees.models import FeeCollection
from tests.accounting.test_frozen_format import FEES
from tests.fees.conftest import session_two_days_ago
from tests.fees.test_books import DAY, PACIFIC, _close, _count, fee_day  # noqa: F401
from tests.statefiling.registry_in_process import in_process_registry  # noqa: F401

Q3 = Quarter(2026, 3)


@pytest.fixture
def fee_day_to_close(cast, site, fee_day):  # noqa: F811
    """DAY's fees ($16) counted by two people and its bank counted at both ends: its books may close."""
    from cage import services as cage

    _count(cast, site)
    for kind, hour, dollars in (("start", 13, 10), ("end", 23, 26)):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=DAY, kind=kind, cash={100: dollars},
            chips={}, at=datetime(2026, 8, 14, hour, tzinfo=PACIFIC),
        )  # fmt: skip
    return fee_day


@pytest.fixture
def closed_fee_day(cast, site, fee_day_to_close):
    return _close(cast, site)


def a_fee_behind_the_books(fee: FeeCollection) -> None:
    """Another $8 fee of the closed day, inserted as no service would (fees.services refuses it)."""
    fee.pk = None
    fee._state.adding = True
    fee.save()


def test_a_closed_fee_days_document_holds_its_fees_and_the_check_sees_one_written_behind_it(
    closed_fee_day,
    site,
    fee_day,  # noqa: F811
):
    figures = closed_fee_day.figures
    assert (
        frozen.version_of(figures) == frozen.FORMAT_VERSION
    )  # version 2 froze the fees first; version 3 keeps them alone
    assert figures["pack"] == FEES
    assert checks.day_checks([summaries.daily_summary(site, DAY)])[(site.pk, DAY)].state == "equal"

    a_fee_behind_the_books(fee_day[0])
    check = checks.day_checks([summaries.daily_summary(site, DAY)])[(site.pk, DAY)]
    assert check.state == "differ"
    assert "fees collected: $16.00 closed, $24.00 now" in check.differences
    assert "collections: 2 closed, 3 now" in check.differences


def test_a_filed_fee_quarter_holds_its_fees_and_its_check_sees_one_written_behind_it(
    closed_fee_day,
    cast,
    site,
    fee_day,  # noqa: F811
):
    filing = books.file_quarter(acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Q3)
    assert filing.figures["summary"]["pack"]["fees"]["fees_collected_cents"] == 1600
    assert frozen.version_of(filing.figures["summary"]) == frozen.FORMAT_VERSION and frozen.verifies(
        filing.figures, filing.figures_sha256
    )

    def state():
        summary = summaries.quarter_summary(site, Q3)
        return checks.quarter_books(summary, filing, site.time_zone).check

    assert state().state == "equal"
    a_fee_behind_the_books(fee_day[0])
    after = state()
    assert after.state == "differ" and "fees collected: $16.00 filed, $24.00 now" in after.differences


def test_a_closed_session_days_document_holds_its_receipts_prizes_and_net(org):
    from tests.factories import SiteFactory, make_person

    ny_site = SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    session, close = session_two_days_ago(org, ny_site, make_person(org, Role.SHIFT_MANAGER, ny_site))
    closed = close()
    assert closed.figures["pack"] == {
        "sessions": {"sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000}
    }
    assert frozen.verifies(closed.figures, closed.figures_sha256)


@pytest.mark.usefixtures("in_process_registry")
def test_the_state_registry_lists_a_fee_sites_return_by_its_table_fees_not_a_drop(
    closed_fee_day, cast, site, org, client
):
    """A Washington blackjack agency's quarter lists each return's table fees collected and
    counted (the package's `summary.pack`), and no drop, win or hold: the site's law has none."""
    from django.contrib.auth import get_user_model

    from registry import services as registry
    from registry.models import Agency, Licensee, Regulator, RegulatorRole
    from statefiling import delivery
    from statefiling import services as statefiling
    from statefiling.models import Submission
    from tests.statefiling.registry_in_process import URL

    agency = Agency.objects.create(name="Washington State Gambling Commission", jurisdiction=site.jurisdiction)
    licensee = Licensee.objects.create(
        agency=agency, name=org.name, licence_number=org.licence_number or "G-1", expected_from=Q3.start
    )
    manager = cast[Role.GAMING_MANAGER]
    statefiling.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction=site.jurisdiction,
        url=URL,
        credential=registry.issue_credential(acting_user=None, licensee=licensee).secret,
    )
    filing = books.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    assert delivery.deliver(Submission.objects.get(filing=filing).pk) == "delivered"

    state = get_user_model().objects.create_user("wsgc", password="x")
    Regulator.objects.create(user=state, agency=agency, role=RegulatorRole.STATE_AUDITOR)
    client.force_login(state)
    lines = client.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode().splitlines()
    header, row = lines[0].split(","), dict(zip(lines[0].split(","), lines[1].split(","), strict=True))
    assert "fees_collected_cents" in header and "fees_counted_cents" in header
    assert not {"drop_cents", "agp_cents", "hold_ratio", "session_net_cents", "tax_cents"} & set(header)
    assert (row["fees_collected_cents"], row["fees_counted_cents"], row["cash_profit_cents"]) == (
        "1600",
        "1600",
        "1600",
    )
    page = client.get("/registry/quarter/?quarter=2026Q3").content.decode()
    assert "Table fees collected" in page and '<td class="text-end fees-collected">$16.00</td>' in page

    # A cash correction of a filed day: its amendment's row restates the return, fees included.
    adjustment = books.record_adjustment(
        acting_user=manager.user, books_close=closed_fee_day, field="cash", amount_cents=-500, table=None,
        reason="A $5 bill counted twice in the bank", recorded_on=date(2026, 10, 2),
    )  # fmt: skip
    queued = Submission.objects.get(amendment__adjustment=adjustment)
    assert delivery.deliver(queued.pk) == "delivered"
    rows = list(
        csv.DictReader(io.StringIO(client.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode()))
    )
    amended = next(r for r in rows if r["amends"])
    assert (amended["fees_collected_cents"], amended["cash_profit_cents"], amended["amended_delta_cents"]) == (
        "1600",
        "1100",
        "-500",
    )
    assert '<th class="text-end">Hold</th>' not in page and '<th class="text-end">Drop</th>' not in page
    # Washington's blackjack rules set no day a return is due: none is said to be due, late or missing.
    assert "(the Washington blackjack (player-banked) rules set no day a return is due)" in page and "due —" not in page
    listed = client.get("/registry/").content.decode()
    assert (
        "The Washington blackjack (player-banked) rules set no day a return is due, so no return is late or missing"
        in listed
        and "<th>Late</th>" not in listed
    )


@pytest.mark.parametrize(
    ("code", "own", "foreign"),
    [
        (
            "ND",
            {"drop_cents", "agp_cents", "hold_ratio", "tax_cents"},
            {"fees_collected_cents", "session_net_cents", "dealers_without_identifier"},
        ),
        (
            "WA-HB",
            {"drop_cents", "agp_cents", "hold_ratio"},
            {"fees_collected_cents", "session_net_cents", "tax_cents"},
        ),
        ("WA-BJ", {"fees_collected_cents", "fees_counted_cents"}, {"drop_cents", "session_net_cents", "tax_cents"}),
        (
            "NY",
            {"session_receipts_cents", "session_prizes_cents", "session_net_cents"},
            {"drop_cents", "fees_collected_cents"},
        ),
    ],
)
def test_each_agencys_quarter_has_its_own_packs_revenue_columns(code, own, foreign):
    from packs import get_pack
    from registry.queries import quarter_columns

    columns = set(quarter_columns(get_pack(code)))
    assert own <= columns and not foreign & columns and "cash_profit_cents" in columns


def test_a_filed_fee_quarter_shows_its_fees_filed_beside_now_not_a_drop(closed_fee_day, cast, site, client_for, client):
    """The quarter page, the API and the quarterly PDF give a fees site's filed return as its table
    fees filed / amendments since / now, not drop, paid out and win lines of $0.00."""
    from tests.accounting.test_filing_amendments import page_row, pdf_grid, rows_by_figure

    manager = cast[Role.GAMING_MANAGER]
    books.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    api = client_for(manager)
    body = api.get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3").json()
    rows = rows_by_figure(body)
    assert rows["Table fees collected"] == rows["Table fees counted"] == (1600, 0, 1600)
    assert rows["Cash profit"] == (1600, 0, 1600)
    assert not {"Drop", "Win", "Paid out", "Gross proceeds", "AGP"} & set(rows)
    grid, _ = pdf_grid(api, site)
    assert grid["Table fees collected"] == ["$16.00", "$0.00", "$16.00"] and "Win" not in grid
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert page_row(page, "Table fees collected") == ["$16.00", "$0.00", "$16.00"]
    assert 'data-figure="Win"' not in page and 'data-figure="Drop"' not in page


def test_a_fee_quarter_with_no_fee_files_its_fees_as_zero_not_unknown(cast, site, client_for):
    """A fees site whose quarter had no fee filed it: its table fees are $0.00, frozen as such, so
    the registry and the return read $0.00, never "not known"."""
    filing = books.file_quarter(acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Q3)
    zeros = {"fees_collected_cents": 0, "collections": 0, "fees_counted_cents": 0, "over_short_cents": 0}
    assert filing.figures["summary"]["pack"] == {"fees": {**zeros, "days_not_counted": 0}}
    body = client_for(cast[Role.GAMING_MANAGER]).get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3").json()
    assert {r["figure"]: r["now_cents"] for r in body["filed_beside_now"]}["Table fees collected"] == 0
