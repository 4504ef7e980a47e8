"""The frozen figures format (accounting.frozen): what a closed day and a filed quarter keep,
and their SHA-256, is the frozen module's, not the API's. The digests below were taken from
books closed and a quarter filed through the services; they must not change when the API's
representation does, and stored snapshots of format versions 1 to 4 must still verify and
compare equal in their own format. Version 3 keeps a drop site's document as version 2 (its version
key aside) and a fees site's (WA-BJ) without the drop's blocks; version 4 keeps a document without
tournament play as version 3, and version 5 a document without a fees or session day lacking its
bank count as version 4 (their version keys aside)."""

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
import time_machine

from accounting import api_figures, books, frozen, services, summaries
from accounting.models import BooksClose
from cardroom.models import Role
from core.periods import Quarter
from tests.factories import (
    OrganizationFactory,
    SiteFactory,
    TableFactory,
    fees_site,
    make_person,
    player_banked_table,
    witness_pin,
)

DAY = date(2026, 8, 14)
Q3 = Quarter(2026, 3)

# Fixed ids: the frozen documents name the site and the organization by id.
ORG_ID, SITE_ID, FEE_SITE_ID = 7301, 7302, 7303

# The digests of the day played below and of its quarter filed, as services.close_books and
# services.file_quarter wrote them before the format had its own module (format version 1)...
DAY_SHA256_V1 = "3dcad5d4e5e5ecfa0221e0c0948d1069568cb96314b59124faa40e856e728992"
QUARTER_SHA256_V1 = "e4b19202070caaf85be83b84f2eb7ab9efe220d037ef9693b3595c764be21b0d"
# ... as they wrote them in version 2 (a drop site's: version 1 with its version key) ...
DAY_SHA256_V2 = "ca918edd6a46750a60f40129cad9935d76319a76a0e3579e191219a15feed9ff"
QUARTER_SHA256_V2 = "4583f199efd1714422cc4f54d237bc67d4f4203f8b8ce7ae1497cc8cf9244a4a"
# ... as they wrote them in version 3 (a drop site's: version 2 with its version key 3) ...
DAY_SHA256_V3 = "d0c5051aeb58838fde0e58fb9ac4541626694b4de0499a7b8396a28a1c03d249"
QUARTER_SHA256_V3 = "34ad9129f21dcc3a9cc1b3a64e7c982cd29570d431e8ab305d74ba955a7a969f"
# ... as they wrote them in version 4 (a day without tournament play: version 3 with its key 4) ...
DAY_SHA256_V4 = "3ba385b4da799b6a6a8b7da4ae0f194356869f19990d43003df7378b162b0ebc"
QUARTER_SHA256_V4 = "0a305a54eb6902813850e8d2b3e3303603ac7173230a671075bf48746b0cc518"
# ... and as they write them in version 5 (every day with its bank count: version 4 with its key 5).
DAY_SHA256 = "298eb4a54b9f5fe0d5b5f321e814a95f2eaabe2f0cc019a61e65113323a3ce3e"
QUARTER_SHA256 = "67c16fdc918cf34cc808f97b668090cc566c1d3f8f6b474ec2ddbdae96d23cd3"
# A fees site's (WA-BJ) day and quarter as version 5 writes them (no drop blocks; version 4's with
# its key 5), as version 4 and version 3 wrote them, and its day as version 2 wrote it (zero drop
# blocks beside its fees).
FEE_DAY_SHA256 = "4df8f30ed594309c390adcf8f2a9cbc42cf2c6bd43e49a64b942344fe466fdf4"
FEE_QUARTER_SHA256 = "3d97830f19b0299114a38c683040d2a5edd6f64d7b477534d70e69d70e72d91f"
FEE_DAY_SHA256_V4 = "3ab084552c072ca1d2e4e82b781dc7440c20dd3c47b7caf10fc5b40b1910770c"
FEE_QUARTER_SHA256_V4 = "e153f557623324722383ddb471ea2ce5efda9b024c0a5a2345d360d7ff775a99"
FEE_DAY_SHA256_V3 = "12484d2bd4078035687cd857ca573205db0deb645c02863224f0b827dffb12d6"
FEE_DAY_SHA256_V2 = "43a6cff11b13a6c0157686cfe42f54283b5fc4a5066458d34776ac1099521e47"


@pytest.fixture(autouse=True)
def _after_the_quarter():
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        yield


@pytest.fixture
def org(db):
    return OrganizationFactory(pk=ORG_ID, name="Prairie Charities")


@pytest.fixture
def site(org):
    return SiteFactory(pk=SITE_ID, organization=org, name="Elks Lodge")


@pytest.fixture
def played(scenario, site):
    """A day of play: tray $2,000 -> $1,850, a $200 fill, a $50 credit, $1,000 dropped, the bank counted."""
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 185_000)
    scenario.slip(table, DAY, "fill", 20_000, number=1)
    scenario.slip(table, DAY, "credit", 5_000, number=1)
    scenario.drop(table, DAY, 100_000)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 600_000, 280_000)
    return scenario


@pytest.fixture
def api_shows_more(monkeypatch):
    """The API's representation changes: every custody figure and every daily summary gains a field."""
    custody, daily = api_figures.custody_json, api_figures.daily_json
    monkeypatch.setattr(api_figures, "custody_json", lambda c: {**custody(c), "net_cents": c.agp_cents})
    monkeypatch.setattr(
        api_figures, "daily_json", lambda s, site, **shown: {**daily(s, site, **shown), "representation": "v2"}
    )


def close(cast, site):
    return services.close_books(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=DAY)


def test_a_closed_days_digest_is_the_frozen_formats(played, cast, site):
    closed = close(cast, site)
    assert closed.figures == frozen.daily(summaries.daily_summary(site, DAY)) | {"books_closed": True}
    assert closed.figures_sha256 == DAY_SHA256
    assert (
        frozen.verifies(closed.figures, DAY_SHA256) and frozen.version_of(closed.figures) == frozen.FORMAT_VERSION == 5
    )
    # Versions 1 and 2 are still written as they were, for comparing the snapshots stored in them.
    v1 = frozen.daily(summaries.daily_summary(site, DAY), 1) | {"books_closed": True}
    assert frozen.VERSION_KEY not in v1 and frozen.digest(v1) == DAY_SHA256_V1
    v2 = frozen.daily(summaries.daily_summary(site, DAY), 2) | {"books_closed": True}
    assert v2[frozen.VERSION_KEY] == 2 and frozen.digest(v2) == DAY_SHA256_V2
    v3 = frozen.daily(summaries.daily_summary(site, DAY), 3) | {"books_closed": True}
    assert v3[frozen.VERSION_KEY] == 3 and frozen.digest(v3) == DAY_SHA256_V3
    v4 = frozen.daily(summaries.daily_summary(site, DAY), 4) | {"books_closed": True}
    assert v4[frozen.VERSION_KEY] == 4 and frozen.digest(v4) == DAY_SHA256_V4
    # A drop site without tournament play: version 5 is version 4 with its key, version 4 is version
    # 3 with its key, version 3 is version 2 with its key, version 2 is version 1 with its key.
    assert (
        closed.figures == v2 | {frozen.VERSION_KEY: 5} == v3 | {frozen.VERSION_KEY: 5} == v4 | {frozen.VERSION_KEY: 5}
    )
    assert {k: v for k, v in closed.figures.items() if k != frozen.VERSION_KEY} == v1


def test_the_apis_representation_changing_leaves_the_digest(played, cast, site, client_for, api_shows_more):
    api = client_for(cast[Role.SHIFT_MANAGER])
    shown = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    assert shown["representation"] == "v2"  # the API did change
    closed = api.post(f"/api/v1/sites/{site.pk}/close-books/", {"date": str(DAY)}, format="json").json()
    assert closed["figures_sha256"] == DAY_SHA256
    assert "representation" not in closed["figures"] and "net_cents" not in closed["figures"]["total"]
    after = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    assert after["books"]["state"] == "equal", after["books"]["differences"]


def test_a_filed_quarters_digest_is_the_frozen_formats(played, cast, site, api_shows_more):
    close(cast, site)
    manager = cast[Role.GAMING_MANAGER]
    filing = services.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    assert filing.figures["summary"]["days"][0]["books_sha256"] == DAY_SHA256
    assert filing.figures["tax"]["tax_label"] == frozen.TAX_LABEL
    assert filing.figures_sha256 == QUARTER_SHA256
    assert frozen.verifies(filing.figures, QUARTER_SHA256)
    summary = summaries.quarter_summary(site, Q3)
    v1 = {**filing.figures, "summary": frozen.quarter(summary, {(site.pk, DAY): DAY_SHA256_V1}, 1)}
    assert frozen.digest(v1) == QUARTER_SHA256_V1
    v2 = {**filing.figures, "summary": frozen.quarter(summary, {(site.pk, DAY): DAY_SHA256_V2}, 2)}
    assert frozen.digest(v2) == QUARTER_SHA256_V2
    v3 = {**filing.figures, "summary": frozen.quarter(summary, {(site.pk, DAY): DAY_SHA256_V3}, 3)}
    assert frozen.digest(v3) == QUARTER_SHA256_V3
    v4 = {**filing.figures, "summary": frozen.quarter(summary, {(site.pk, DAY): DAY_SHA256_V4}, 4)}
    assert frozen.digest(v4) == QUARTER_SHA256_V4
    # A drop site's quarter in version 5: version 2's blocks, the version key 5.
    assert set(filing.figures["summary"]) == set(v2["summary"]) and filing.figures["summary"]["total"]
    assert filing.figures["summary"]["total"] == v2["summary"]["total"]


def closed_in_an_old_version(site, figures: dict, by) -> None:
    """DAY's books as close_books wrote them in an older format version: the state to read (a row
    of that version), not a service, which writes the version of today."""
    BooksClose.objects.create(
        site=site,
        gaming_date=DAY,
        closed_at=datetime(2026, 8, 15, 12, tzinfo=UTC),
        closed_by=by,
        figures=figures,
        figures_sha256=frozen.digest(figures),
    )


def test_an_old_snapshot_still_verifies_and_compares_equal(played, cast, site):
    """A snapshot stored in format version 1 (no version key), as books closed before version 2
    were, verifies against its stored digest, and the books check compares it with the figures
    now in its own format: equal."""
    v1 = frozen.daily(replace(summaries.daily_summary(site, DAY), books_closed=True), 1)
    closed_in_an_old_version(site, v1, cast[Role.SHIFT_MANAGER])
    document = BooksClose.objects.get().figures  # as read back from the database
    assert frozen.VERSION_KEY not in document and frozen.version_of(document) == 1
    assert frozen.verifies(document, DAY_SHA256_V1)
    check = books.day_checks([summaries.daily_summary(site, DAY)])[(site.pk, DAY)]
    assert check.state == "equal" and not check.differences


def test_a_change_to_the_frozen_document_is_caught(played, cast, site):
    stored = close(cast, site)
    changed = {**stored.figures, "total": {**stored.figures["total"], "agp_cents": 1}}
    assert not frozen.verifies(changed, stored.figures_sha256)


# --- A fees site (WA-BJ): version 3 freezes its own pack's figures alone ----------------------------


@pytest.fixture
def fee_site(org):
    return fees_site(org, pk=FEE_SITE_ID)


@pytest.fixture
def fee_people(org, fee_site):
    return {
        role: make_person(org, role, fee_site)
        for role in (Role.PIT_BOSS, Role.CASHIER, Role.SHIFT_MANAGER, Role.GAMING_MANAGER)
    }


@pytest.fixture
def fees_played(fee_site, fee_people):
    """A fee day through the services: two $8 fees at table 1, counted by two people, the bank
    counted $10 at the start and $26 at the end."""
    from zoneinfo import ZoneInfo

    from cage import services as cage
    from fees import services as fees

    pacific, table = ZoneInfo("America/Los_Angeles"), player_banked_table(fee_site)
    for hour in (14, 15):
        fees.record_fee(
            acting_user=fee_people[Role.PIT_BOSS].user, table=table, basis="per_player", period_minutes=30,
            rate_cents=200, count=4, collected_at=datetime(2026, 8, 14, hour, tzinfo=pacific),
        )  # fmt: skip
    fees.count_fees(
        acting_user=fee_people[Role.CASHIER].user, site=fee_site, gaming_date=DAY, counted_cents=1600,
        witness=fee_people[Role.SHIFT_MANAGER], witness_pin=witness_pin(fee_people[Role.SHIFT_MANAGER]), counted_at=datetime(2026, 8, 14, 22, tzinfo=pacific),
    )  # fmt: skip
    for kind, hour, dollars in (("start", 13, 10), ("end", 23, 26)):
        cage.record_bank_count(
            acting_user=fee_people[Role.CASHIER].user, site=fee_site, gaming_date=DAY, kind=kind,
            cash={100: dollars}, chips={}, at=datetime(2026, 8, 14, hour, tzinfo=pacific),
        )  # fmt: skip


FEES = {
    "fees": {
        "fees_collected_cents": 1600,
        "collections": 2,
        "fees_counted_cents": 1600,
        "over_short_cents": 0,
        "days_not_counted": 0,
    }
}


def test_a_fee_sites_closed_day_and_filed_quarter_keep_their_fees_and_no_drop_pinned(fees_played, fee_site, fee_people):
    manager = fee_people[Role.GAMING_MANAGER].user
    closed = services.close_books(acting_user=manager, site=fee_site, gaming_date=DAY)
    day = closed.figures
    assert frozen.version_of(day) == 5 and day["pack"] == FEES
    assert not {"tables", "total", "twenty_one", "paddlewheel"} & set(day)
    assert not {"long_short_cents", "chips_outside_change_cents", "unexplained_cents"} & set(day["cash"])
    assert day["cash"]["cash_profit_cents"] == 1600
    assert closed.figures_sha256 == FEE_DAY_SHA256 and frozen.verifies(day, FEE_DAY_SHA256)
    v3 = frozen.daily(replace(summaries.daily_summary(fee_site, DAY), books_closed=True), 3)
    assert frozen.digest(v3) == FEE_DAY_SHA256_V3 and day == v3 | {frozen.VERSION_KEY: 5}
    v4 = frozen.daily(replace(summaries.daily_summary(fee_site, DAY), books_closed=True), 4)
    assert frozen.digest(v4) == FEE_DAY_SHA256_V4 and day == v4 | {frozen.VERSION_KEY: 5}

    filing = services.file_quarter(acting_user=manager, site=fee_site, quarter=Q3)
    summary = filing.figures["summary"]
    assert frozen.version_of(summary) == 5 and summary["pack"] == FEES and "tax" not in filing.figures
    assert not {"total", "twenty_one", "paddlewheel", "long_short_cents"} & set(summary)
    assert summary["days"] == [{"gaming_date": str(DAY), "cash_profit_cents": 1600, "books_sha256": FEE_DAY_SHA256}]
    assert summary["cash_profit_cents"] == 1600
    assert filing.figures_sha256 == FEE_QUARTER_SHA256 and frozen.verifies(filing.figures, FEE_QUARTER_SHA256)
    v4 = frozen.quarter(summaries.quarter_summary(fee_site, Q3), {(fee_site.pk, DAY): FEE_DAY_SHA256_V4}, 4)
    assert frozen.digest({"summary": v4}) == FEE_QUARTER_SHA256_V4 and summary == v4 | {
        frozen.VERSION_KEY: 5,
        "days": [{**v4["days"][0], "books_sha256": FEE_DAY_SHA256}],
    }
    state = books.quarter_books(summaries.quarter_summary(fee_site, Q3), filing, fee_site.time_zone)
    assert state.state == "equal" and state.days[0][1].state == "equal"


def test_a_fee_sites_version_2_day_still_verifies_and_compares_equal_in_its_own_version(
    fees_played, fee_site, fee_people
):
    """A WA-BJ day's books closed in version 2 (zero drop blocks beside its fees) stay as they were:
    the document verifies against its digest, and the check compares it in version 2: equal. A fee
    written behind it is still seen."""
    v2 = frozen.daily(replace(summaries.daily_summary(fee_site, DAY), books_closed=True), 2)
    closed_in_an_old_version(fee_site, v2, fee_people[Role.GAMING_MANAGER])
    document = BooksClose.objects.get().figures
    assert frozen.version_of(document) == 2 and document["total"]["drop_cents"] == 0 and document["pack"] == FEES
    assert frozen.verifies(document, FEE_DAY_SHA256_V2)
    summary = summaries.daily_summary(fee_site, DAY)
    check = books.day_checks([summary])[(fee_site.pk, DAY)]
    assert check.state == "equal" and not check.differences
    # ... compared in version 2: the day as the version of today writes it has no drop block to match it.
    now = frozen.daily(replace(summary, books_closed=True))
    assert frozen.version_of(now) == frozen.FORMAT_VERSION and "total" not in now
    assert books.differences(books.comparable_daily(document), books.comparable_daily(now), "closed")
