"""A fees site (WA-BJ) freezes its own pack's figures alone (frozen format version 3): its closed
days and filed quarters keep the `pack` block (table fees), the cash profit and the deposit, and
none of North Dakota's drop blocks (`total`, `twenty_one`, `paddlewheel`, the tables' custody, the
long (short) against a drop-based AGP). In version 2 those blocks were frozen beside the fees at
zero, and travelled in the filed return's package to the state's registry: a Washington blackjack
regulator read "drop_cents: 0, agp_cents: 0, hold_ratio" that mean nothing under its law. A session
site (NY) keeps its tables' custody beside its sessions (its tables take fills and credits, its drop
boxes are counted). Driven through the services, the figures API and the registry's API."""

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from accounting import books as checks
from accounting import frozen, summaries
from accounting import services as books
from cardroom.models import Role
from core.periods import Quarter
from tests.fees.test_books import DAY, fee_day  # noqa: F401
from tests.fees.test_frozen_revenue import a_fee_behind_the_books, closed_fee_day, fee_day_to_close  # noqa: F401
from tests.statefiling.registry_in_process import in_process_registry  # noqa: F401

Q3 = Quarter(2026, 3)
DROP_BLOCKS = {"total", "twenty_one", "paddlewheel"}
DROP_DAY_ONLY = {"tables", *DROP_BLOCKS}
DROP_CASH = {"long_short_cents", "chips_outside_change_cents", "unexplained_cents"}
DROP_DAY_ROW = {"gross_proceeds_cents", "prizes_cents", "agp_cents", "hold_ratio", "long_short_cents"}
SESSIONS = {"sessions": {"sessions": 1, "receipts_cents": 100_000, "prizes_cents": 40_000, "net_cents": 60_000}}
EASTERN = ZoneInfo("America/New_York")


def assert_own_pack_only(figures: dict, block: str) -> None:
    """A filing's figures (its `summary`, and the tax only where the pack levies it) carry the
    pack's block and no drop's."""
    summary = figures["summary"]
    assert frozen.version_of(summary) == frozen.FORMAT_VERSION and block in summary["pack"], summary
    assert not (DROP_BLOCKS | {"long_short_cents"}) & set(summary), summary
    assert all(not DROP_DAY_ROW & set(row) for row in summary["days"]), summary["days"]
    assert "tax" not in figures


@pytest.fixture
def ny_played(org):
    """A New York site's session of 2026-08-14 (19:00-22:00, $1,000 receipts, $400 prizes) and its
    bank counted, recorded through the services; the books of the day closed."""
    from cage import services as cage
    from fees import services as fees
    from tests.factories import SiteFactory, make_person

    ny_site = SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    people = {role: make_person(org, role, ny_site) for role in (Role.SHIFT_MANAGER, Role.CASHIER, Role.GAMING_MANAGER)}
    with time_machine.travel(datetime(2026, 8, 15, 12, tzinfo=UTC), tick=True):
        fees.record_session(
            acting_user=people[Role.SHIFT_MANAGER].user, site=ny_site, licence_number="NY-GC-4620",
            started_at=datetime(2026, 8, 14, 19, tzinfo=EASTERN), ended_at=datetime(2026, 8, 14, 22, tzinfo=EASTERN),
            receipts_cents=100_000, prizes_cents=40_000,
        )  # fmt: skip
        for kind, hour in (("start", 18), ("end", 23)):
            cage.record_bank_count(
                acting_user=people[Role.CASHIER].user, site=ny_site, gaming_date=DAY, kind=kind, cash={100: 10},
                chips={}, at=datetime(2026, 8, 14, hour, tzinfo=EASTERN),
            )  # fmt: skip
        closed = books.close_books(acting_user=people[Role.GAMING_MANAGER].user, site=ny_site, gaming_date=DAY)
    return ny_site, people, closed


def test_a_fee_sites_closed_day_and_filed_quarter_keep_their_fees_and_no_drop_block(
    closed_fee_day,  # noqa: F811
    cast,
    site,
    client_for,
):
    day = closed_fee_day.figures
    assert frozen.version_of(day) == frozen.FORMAT_VERSION and day["pack"]["fees"]["fees_collected_cents"] == 1600
    assert not DROP_DAY_ONLY & set(day) and not DROP_CASH & set(day["cash"])
    assert day["cash"]["cash_profit_cents"] == 1600 and frozen.verifies(day, closed_fee_day.figures_sha256)

    filing = books.file_quarter(acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Q3)
    assert_own_pack_only(filing.figures, "fees")
    assert filing.figures["summary"]["pack"]["fees"]["fees_counted_cents"] == 1600
    assert frozen.verifies(filing.figures, filing.figures_sha256)

    # The figures API reads the closed day and the filed quarter without a drop block to read.
    api = client_for(cast[Role.GAMING_MANAGER])
    daily = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}")
    assert daily.status_code == 200 and daily.json()["format_version"] == frozen.FORMAT_VERSION
    assert daily.json()["books"]["state"] == "equal"
    quarter = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    assert quarter["filing"]["state"] == "equal", quarter["filing"]
    filed = api.get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3").json()
    assert not DROP_BLOCKS & set(filed["figures_now"]) and filed["check"]["state"] == "equal"
    assert {r["figure"] for r in filed["filed_beside_now"]} == {
        "Table fees collected",
        "Table fees counted",
        "Cash profit",
    }


def test_a_fee_written_behind_a_version_3_day_and_quarter_still_differs(
    closed_fee_day,  # noqa: F811
    cast,
    site,
    fee_day,  # noqa: F811
):
    """With no drop block left to compare, the pack's block still is: a fee inserted behind the
    closed books and the filing (as no service would) is named on both."""
    filing = books.file_quarter(acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Q3)
    assert (
        frozen.version_of(closed_fee_day.figures)
        == frozen.version_of(filing.figures["summary"])
        == frozen.FORMAT_VERSION
    )
    a_fee_behind_the_books(fee_day[0])
    day = checks.day_checks([summaries.daily_summary(site, DAY)])[(site.pk, DAY)]
    assert day.state == "differ" and "fees collected: $16.00 closed, $24.00 now" in day.differences
    state = checks.quarter_books(summaries.quarter_summary(site, Q3), filing, site.time_zone)
    assert state.check.state == "differ" and "fees collected: $16.00 filed, $24.00 now" in state.check.differences


def test_a_session_sites_closed_day_and_filed_quarter_keep_their_sessions_and_their_tables_custody(ny_played):
    ny_site, people, closed = ny_played
    day = closed.figures
    assert frozen.version_of(day) == frozen.FORMAT_VERSION and day["pack"] == SESSIONS
    assert DROP_DAY_ONLY <= set(day) and DROP_CASH <= set(day["cash"])  # its tables' custody: fills, credits, drop
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        filing = books.file_quarter(acting_user=people[Role.GAMING_MANAGER].user, site=ny_site, quarter=Q3)
        assert_sessions_and_custody(filing.figures)
        state = checks.quarter_books(summaries.quarter_summary(ny_site, Q3), filing, ny_site.time_zone)
        assert state.state == "equal" and [c.state for _, c in state.days] == ["equal"]
        lines = {
            label: (filed, now)
            for label, filed, _, now in checks.filed_beside_now(summaries.quarter_summary(ny_site, Q3), state)
        }
        assert lines["Session net"] == (60_000, 60_000) and "AGP" not in lines


def assert_sessions_and_custody(figures: dict) -> None:
    """A session site's filing: its sessions, and its tables' custody beside them; no tax."""
    summary = figures["summary"]
    assert frozen.version_of(summary) == frozen.FORMAT_VERSION and summary["pack"] == SESSIONS, summary
    assert DROP_BLOCKS <= set(summary) and "tax" not in figures


def _registry_for(org, jurisdiction: str, manager, client):
    """The agency of `jurisdiction` with the organization as its licensee, linked in process; the
    agency's state auditor logged in on `client`."""
    from django.contrib.auth import get_user_model

    from registry import services as registry
    from registry.models import Agency, Licensee, Regulator, RegulatorRole
    from statefiling import services as statefiling
    from tests.statefiling.registry_in_process import URL

    agency = Agency.objects.create(name=f"{jurisdiction} regulator", jurisdiction=jurisdiction)
    licensee = Licensee.objects.create(
        agency=agency, name=org.name, licence_number=org.licence_number or "G-1", expected_from=Q3.start
    )
    statefiling.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction=jurisdiction,
        url=URL,
        credential=registry.issue_credential(acting_user=None, licensee=licensee).secret,
    )
    state = get_user_model().objects.create_user(f"auditor-{jurisdiction.lower()}", password="x")
    Regulator.objects.create(user=state, agency=agency, role=RegulatorRole.STATE_AUDITOR)
    client.force_login(state)


def _delivered_package(filing, client) -> dict:
    """The filing's package delivered to the registry, as the registry's API gives it back."""
    from registry.models import ReceivedFiling
    from statefiling import delivery
    from statefiling.models import Submission

    assert delivery.deliver(Submission.objects.get(filing=filing, amendment=None).pk) == "delivered"
    receipt = ReceivedFiling.objects.get(amends=None).receipt_number
    response = client.get(f"/registry/api/v1/filings/{receipt}/")
    assert response.status_code == 200, response.content
    return response.json()["package"]


@pytest.mark.usefixtures("in_process_registry")
def test_the_registry_receives_a_fee_sites_return_without_a_drop_block(
    closed_fee_day,  # noqa: F811
    cast,
    site,
    org,
    client,
):
    manager = cast[Role.GAMING_MANAGER]
    _registry_for(org, "WA-BJ", manager, client)
    filing = books.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    package = _delivered_package(filing, client)
    assert_own_pack_only(package["figures"], "fees")
    assert package["figures"]["summary"]["pack"]["fees"]["fees_collected_cents"] == 1600
    assert package["tax"] is None and package["dealers"] is None
    listed = client.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode().splitlines()
    row = dict(zip(listed[0].split(","), listed[1].split(","), strict=True))
    assert (row["fees_collected_cents"], row["cash_profit_cents"]) == ("1600", "1600")


@pytest.mark.usefixtures("in_process_registry")
def test_the_registry_receives_a_session_sites_return_with_its_sessions(ny_played, org, client):
    ny_site, people, _ = ny_played
    manager = people[Role.GAMING_MANAGER]
    _registry_for(org, "NY", manager, client)
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        filing = books.file_quarter(acting_user=manager.user, site=ny_site, quarter=Q3)
        package = _delivered_package(filing, client)
        assert_sessions_and_custody(package["figures"])
        listed = client.get("/registry/quarter/?quarter=2026Q3&format=csv").content.decode().splitlines()
    row = dict(zip(listed[0].split(","), listed[1].split(","), strict=True))
    assert (row["session_net_cents"], row["cash_profit_cents"]) == ("60000", "0")
    assert "agp_cents" not in row and "drop_cents" not in row  # the agency's columns are its sessions
    assert date.fromisoformat(package["figures"]["summary"]["days"][0]["gaming_date"]) == DAY


def test_a_sister_sites_return_and_the_organizations_tax_read_a_fee_sites_filing_without_a_drop(
    closed_fee_day,  # noqa: F811
    cast,
    site,
    org,
    client_for,
):
    """The organization's tax return reads every site's filing of the quarter: a fees site's
    (version 3) has no drop total, and is named, not taxed (North Dakota's tax is on its sites' AGP).
    Before, filing the North Dakota sister site after it, and the tax API, failed on its `total`."""
    from tests.factories import SiteFactory

    manager = cast[Role.GAMING_MANAGER]
    books.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    nd_site = SiteFactory(organization=org, name="Elks Lodge", jurisdiction="ND")
    filing = books.file_quarter(acting_user=manager.user, site=nd_site, quarter=Q3)
    assert "total" in filing.figures["summary"] and filing.figures["tax"]["other_jurisdiction_sites"] == [site.name]
    tax = client_for(manager).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3")
    assert tax.status_code == 200, tax.content
    assert [row["site"] for row in tax.json()["sites"]] == ["Elks Lodge"]
