"""The frozen figures format (accounting.frozen): what a closed day and a filed quarter keep,
and their SHA-256, is the frozen module's, not the API's. The digests below were taken from
books closed and a quarter filed through the services; they must not change when the API's
representation does, and stored snapshots of format version 1 must still verify and compare
equal in their own format."""

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
import time_machine

from accounting import api_figures, books, frozen, services, summaries
from accounting.models import BooksClose
from cardroom.models import Role
from core.periods import Quarter
from tests.factories import OrganizationFactory, SiteFactory, TableFactory

DAY = date(2026, 8, 14)
Q3 = Quarter(2026, 3)

# Fixed ids: the frozen documents name the site and the organization by id.
ORG_ID, SITE_ID = 7301, 7302

# The digests of the day played below and of its quarter filed, as services.close_books and
# services.file_quarter wrote them before the format had its own module (format version 1)...
DAY_SHA256_V1 = "3dcad5d4e5e5ecfa0221e0c0948d1069568cb96314b59124faa40e856e728992"
QUARTER_SHA256_V1 = "e4b19202070caaf85be83b84f2eb7ab9efe220d037ef9693b3595c764be21b0d"
# ... and as they write them in version 2 (a drop site's: version 1 with its version key).
DAY_SHA256 = "ca918edd6a46750a60f40129cad9935d76319a76a0e3579e191219a15feed9ff"
QUARTER_SHA256 = "4583f199efd1714422cc4f54d237bc67d4f4203f8b8ce7ae1497cc8cf9244a4a"


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
    monkeypatch.setattr(api_figures, "daily_json", lambda s, **shown: {**daily(s, **shown), "representation": "v2"})


def close(cast, site):
    return services.close_books(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=DAY)


def test_a_closed_days_digest_is_the_frozen_formats(played, cast, site):
    closed = close(cast, site)
    assert closed.figures == frozen.daily(summaries.daily_summary(site, DAY)) | {"books_closed": True}
    assert closed.figures_sha256 == DAY_SHA256
    assert (
        frozen.verifies(closed.figures, DAY_SHA256) and frozen.version_of(closed.figures) == frozen.FORMAT_VERSION == 2
    )
    # Version 1 is still written as it was, for comparing the snapshots stored in it.
    v1 = frozen.daily(summaries.daily_summary(site, DAY), 1) | {"books_closed": True}
    assert frozen.VERSION_KEY not in v1 and frozen.digest(v1) == DAY_SHA256_V1
    assert {k: v for k, v in closed.figures.items() if k != frozen.VERSION_KEY} == v1  # a drop site: nothing more


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
    v1 = {
        **filing.figures,
        "summary": frozen.quarter(summaries.quarter_summary(site, Q3), {(site.pk, DAY): DAY_SHA256_V1}, 1),
    }
    assert frozen.digest(v1) == QUARTER_SHA256_V1


def test_an_old_snapshot_still_verifies_and_compares_equal(played, cast, site):
    """A snapshot stored in format version 1 (no version key), as books closed before version 2
    were, verifies against its stored digest, and the books check compares it with the figures
    now in its own format: equal."""
    v1 = frozen.daily(replace(summaries.daily_summary(site, DAY), books_closed=True), 1)
    BooksClose.objects.create(  # a row as close_books wrote it in version 1: the state to read, not a service
        site=site,
        gaming_date=DAY,
        closed_at=datetime(2026, 8, 15, 12, tzinfo=UTC),
        closed_by=cast[Role.SHIFT_MANAGER],
        figures=v1,
        figures_sha256=frozen.digest(v1),
    )
    document = BooksClose.objects.get().figures  # as read back from the database
    assert frozen.VERSION_KEY not in document and frozen.version_of(document) == 1
    assert frozen.verifies(document, DAY_SHA256_V1)
    check = books.day_checks([summaries.daily_summary(site, DAY)])[(site.pk, DAY)]
    assert check.state == "equal" and not check.differences


def test_a_change_to_the_frozen_document_is_caught(played, cast, site):
    stored = close(cast, site)
    changed = {**stored.figures, "total": {**stored.figures["total"], "agp_cents": 1}}
    assert not frozen.verifies(changed, stored.figures_sha256)
