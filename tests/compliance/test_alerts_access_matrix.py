"""Who reads a site's compliance alerts: every role x a site of each pack, through the alerts and
obligations API (list and detail), the compliance pages, and the stored alerts report (request
and download, API and browser). One rule (compliance.queries.ALERTS): a gaming manager, shift
manager or auditor; a dealer, wheel operator, pit boss, cashier or count team member reads none
of them, anywhere (before, the API and the report let every role read them while the pages
refused)."""

from datetime import date

import pytest

from cardroom.models import Membership, Role
from compliance import services
from reports.models import ReportRun
from reports.services import generate_report, request_report
from tests.compliance.test_alerts import finding
from tests.conftest import ALL_ROLES
from tests.factories import SiteFactory, make_person
from tests.page_support import at_site

GM, AUD, SM = Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER
READERS = {GM, SM, AUD}  # written out here, not read from the code
REQUESTERS = {GM, AUD}  # who requests reports at all (house control, reports.services.REPORT_ROLES)

PACK_SITES = {
    "ND": dict(name="Bismarck Elks", time_zone="America/Chicago"),
    "WA-HB": dict(name="Spokane Card Room", time_zone="America/Los_Angeles"),
    "WA-BJ": dict(name="Tacoma Blackjack Room", time_zone="America/Los_Angeles"),
    "NY": dict(name="Kingston Fire Hall", time_zone="America/New_York"),
}
PERIOD = {"start": "2026-10-01", "end": "2026-10-31"}  # the alert falls due on 2026-10-30
REFUSAL = "House control: only a gaming manager, shift manager or auditor may see a site's compliance alerts"


def _world(org, jurisdiction):
    site = SiteFactory(organization=org, jurisdiction=jurisdiction, **PACK_SITES[jurisdiction])
    cast = {role: make_person(org, role, None if role in (GM, AUD) else site) for role in ALL_ROLES}
    alert = services.open_alert(finding(site, due_date=date(2026, 10, 30)), organization_id=org.pk)[0]
    run = request_report(acting_user=cast[AUD].user, kind="alerts", site=site, **PERIOD)
    if run.status == ReportRun.Status.QUEUED:
        generate_report(run.pk)
    return site, cast, alert, ReportRun.objects.get(pk=run.pk)


def _what_a_role_gets(api, client, site, alert, run) -> dict:
    listed = [a["id"] for a in api.get("/api/v1/alerts/").json()["results"]]
    due = [a["id"] for a in api.get("/api/v1/obligations/").json()["results"]]
    detail = api.get(f"/api/v1/alerts/{alert.pk}/")
    requested = api.post("/api/v1/reports/", {"kind": "alerts", "site": site.pk, **PERIOD}, format="json")
    download = api.get(f"/api/v1/reports/{run.pk}/download/", {"format": "csv"})
    return {
        "api list": alert.pk in listed,
        "api obligations": alert.pk in due,
        "api detail": detail.status_code,
        "report request": requested.status_code,
        "report run (api)": api.get(f"/api/v1/reports/{run.pk}/").status_code,
        "report download (api)": download.status_code,
        "report download (page)": client.get(f"/reports/{run.pk}/download.csv").status_code,
        "report run (page)": client.get(f"/reports/{run.pk}/").status_code,
        "alert page": client.get(f"/compliance/alerts/{alert.pk}/").status_code,
        "refusal names the rule": download.status_code != 403 or download.json()["detail"].startswith(REFUSAL),
        "csv holds the alert": download.status_code != 200 or alert.title in download.content.decode(),
    }


def _expected(role) -> dict:
    reads = role in READERS
    return {
        "api list": reads,
        "api obligations": reads,
        "api detail": 200 if reads else 404,
        "report request": 201 if role in REQUESTERS else 403,
        "report run (api)": 200 if reads else 403,
        "report download (api)": 200 if reads else 403,
        "report download (page)": 200 if reads else 403,
        "report run (page)": 200 if reads else 403,
        "alert page": 200 if reads else 403,
        "refusal names the rule": True,
        "csv holds the alert": True,
    }


@pytest.mark.parametrize("jurisdiction", sorted(PACK_SITES))
def test_only_gaming_managers_shift_managers_and_auditors_read_a_sites_alerts(
    client_for, client, org, jurisdiction, time_machine
):
    time_machine.move_to("2026-11-30 12:00")
    site, cast, alert, run = _world(org, jurisdiction)
    got, wanted = {}, {}
    for role in ALL_ROLES:
        got[role] = _what_a_role_gets(client_for(cast[role]), at_site(client, cast[role], site), site, alert, run)
        wanted[role] = _expected(role)
    assert got == wanted


def test_a_shift_manager_who_deals_at_another_site_reads_only_the_first_sites_alerts(
    client_for, client, org, site, other_site
):
    person = make_person(org, SM, site)
    Membership.objects.create(employee=person, site=other_site, role=Role.DEALER)
    here = services.open_alert(finding(site), organization_id=org.pk)[0]
    there = services.open_alert(finding(other_site), organization_id=org.pk)[0]
    api = client_for(person)
    assert [a["id"] for a in api.get("/api/v1/alerts/").json()["results"]] == [here.pk]
    assert api.get(f"/api/v1/alerts/{there.pk}/").status_code == 404
    browser = at_site(client, person, site)
    assert browser.get(f"/compliance/alerts/{there.pk}/").status_code == 404
    assert f"/compliance/alerts/{there.pk}/" not in browser.get("/compliance/alerts/").content.decode()


def test_a_dealer_is_refused_the_compliance_pages_naming_who_may_see_them(client, cast, site):
    response = at_site(client, cast[Role.DEALER], site).get("/compliance/alerts/")
    assert response.status_code == 403
    assert (
        "House control: only a gaming manager, shift manager or auditor may see the compliance pages."
        in response.content.decode()
    )


def test_a_reader_who_may_not_request_reports_is_not_sent_to_the_list_of_reports(client, cast, site, time_machine):
    time_machine.move_to("2026-11-30 12:00")
    run = request_report(acting_user=cast[AUD].user, kind="alerts", site=site, **PERIOD)
    shift_manager = at_site(client, cast[SM], site).get(f"/reports/{run.pk}/").content.decode()
    assert "All reports" not in shift_manager
    auditor = at_site(client, cast[AUD], site).get(f"/reports/{run.pk}/").content.decode()
    assert "All reports" in auditor
