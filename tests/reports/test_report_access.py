"""Stored reports are read by the roles that may read the figures they hold: roles x report kinds,
through the API (list, run, download) and the browser (run page, download), and beside the
figures API of the same figures."""

import pytest
import time_machine

from cardroom.models import Role
from reports.catalogue import load_kinds
from reports.models import ReportRun
from reports.services import generate_report, request_report
from tests.conftest import ALL_ROLES
from tests.factories import TableFactory, make_person
from tests.shared_world import built_once

GM, AUD, SM, PB, CA, DE, WO, CT = (
    Role.GAMING_MANAGER,
    Role.AUDITOR,
    Role.SHIFT_MANAGER,
    Role.PIT_BOSS,
    Role.CASHIER,
    Role.DEALER,
    Role.WHEEL_OPERATOR,
    Role.COUNT_TEAM,
)
EVERYONE = set(ALL_ROLES)

# Who reads each stored report: the roles of the figures it holds (written out here, not read
# from the code, so that a change of either the rule or the report shows up).
READERS = {
    "daily": {GM, AUD, SM},  # the daily-summary API
    "quarterly": {GM, AUD},  # the quarter-summary API
    "dealer_hold": {GM, AUD, SM},  # the dealer percent-of-hold API
    "dealer_shifts": {GM, AUD, SM},  # the same dealers' figures, shift by shift
    "slip_register": {GM, AUD, SM, PB, CA},  # the slip-register API: who prepares, verifies, registers; oversight
    "chip_inventory": {GM, AUD, SM, CA},  # the cage's inventory log
    "count_sheets": {GM, AUD, SM, CT},  # the count sessions
    "surveillance_log": {GM, AUD, SM, PB},  # the surveillance records
    "alerts": {GM, AUD, SM},  # the alerts API and the compliance pages
    "house_rules": EVERYONE,  # ND 99-01.3-08-13: handed to players
    # Each other pack's posted house rules, handed to players likewise (at that pack's sites only).
    "house_rules_wa_hb": EVERYONE,
    "house_rules_wa_bj": EVERYONE,
    "house_rules_ny": EVERYONE,
    "tournament_record": {GM, AUD, SM, PB, CA},  # the tournaments API (house control)
}
PERIOD = {"start": "2026-11-01", "end": "2026-11-07"}


def params(kind) -> dict:
    return (
        {"quarter": "2026Q4"}
        if kind.period == "quarter"
        else ({"end": "2026-11-07"} if kind.period == "as_of" else PERIOD)
    )


REQUESTED_AT = "2026-12-01 12:00"


@built_once
def stored(cast, site):
    """One stored report of each kind at the site, requested by the auditor (built once for the
    module: tests/shared_world.py)."""
    with time_machine.travel(REQUESTED_AT):
        TableFactory(site=site, number=1)
        made = {}
        for code, kind in load_kinds().items():
            if not kind.applies_to(site):  # another pack's handout (tests/reports/test_pack_handouts.py)
                continue
            run = request_report(acting_user=cast[AUD].user, kind=code, site=site, **params(kind))
            if run.status == ReportRun.Status.QUEUED:  # a worker's job: run it here
                generate_report(run.pk)
            made[code] = ReportRun.objects.get(pk=run.pk)
            assert made[code].status == ReportRun.Status.DONE, code
    return made


@pytest.fixture
def runs(stored, time_machine):
    """The stored reports, read at the time they were requested."""
    time_machine.move_to(REQUESTED_AT)
    return stored


def test_the_matrix_covers_every_report_kind():
    assert set(READERS) == set(load_kinds())


@pytest.mark.parametrize("role", ALL_ROLES)
def test_stored_reports_follow_the_role_rules_of_their_figures(client_for, client, cast, runs, role):
    api = client_for(cast[role])
    listed = {row["kind"] for row in api.get("/api/v1/reports/", {"limit": 50}).json()["results"]}
    assert listed == {code for code, readers in READERS.items() if role in readers and code in runs}
    client.force_login(cast[role].user)
    for code, run in runs.items():
        may = role in READERS[code]
        for url in (
            f"/api/v1/reports/{run.pk}/",
            f"/api/v1/reports/{run.pk}/download/",
            f"/api/v1/reports/{run.pk}/download/?format=csv",
        ):
            response = api.get(url)
            assert response.status_code == (200 if may else 403), (role, code, url)
            if not may:
                detail = response.json()["detail"]
                # the report named as the site's pack titles it ("Dealer percent-of-hold summary" in ND)
                title = load_kinds()[code].title_at(run.site).lower()
                assert detail.startswith("House control: only a") and title in detail
        for url in (f"/reports/{run.pk}/", f"/reports/{run.pk}/download.pdf"):
            assert client.get(url).status_code == (200 if may else 403), (role, code, url)


@pytest.mark.parametrize("role", ALL_ROLES)
def test_the_daily_report_and_the_daily_figures_api_agree(client_for, cast, site, runs, role):
    api = client_for(cast[role])
    figures = api.get(f"/api/v1/sites/{site.pk}/daily-summary/", {"date": "2026-11-02"}).status_code
    report = api.get(f"/api/v1/reports/{runs['daily'].pk}/download/").status_code
    assert (figures, report) in ((200, 200), (403, 403))
    quarter = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/", {"quarter": "2026Q4"}).status_code
    quarterly = api.get(f"/api/v1/reports/{runs['quarterly'].pk}/download/").status_code
    assert (quarter, quarterly) in ((200, 200), (403, 403))


@pytest.mark.parametrize("role", ALL_ROLES)
def test_the_dealer_reports_and_the_dealer_figures_api_agree(client_for, cast, org, site, runs, role):
    someone_else = make_person(org, DE, site)
    api = client_for(cast[role])
    figures = api.get(f"/api/v1/employees/{someone_else.pk}/percent-of-hold/", PERIOD).status_code
    for code in ("dealer_hold", "dealer_shifts"):
        report = api.get(f"/api/v1/reports/{runs[code].pk}/download/").status_code
        assert (figures, report) in ((200, 200), (403, 403)), code


def test_a_dealer_is_refused_the_daily_report_naming_who_may_read_it(client_for, cast, runs):
    response = client_for(cast[DE]).get(f"/api/v1/reports/{runs['daily'].pk}/download/")
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "House control: only a gaming manager, shift manager or auditor may see a site's daily figures "
        "(the twenty-one daily report holds them)."
    )


def test_another_organizations_report_is_not_found_whatever_the_role(client_for, stranger_site, runs):
    from cardroom.models import Role as R

    stranger = make_person(stranger_site.organization, R.GAMING_MANAGER)
    assert client_for(stranger).get(f"/api/v1/reports/{runs['daily'].pk}/download/").status_code == 404
