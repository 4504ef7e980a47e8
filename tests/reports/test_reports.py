import io
from datetime import date

import pdfplumber
import pytest
from openpyxl import load_workbook

from cardroom.models import Role
from compliance import services as compliance
from reports.generation import render_run
from reports.models import ReportFile, ReportRun
from reports.services import generate_report
from tests.compliance.test_alerts import finding
from tests.factories import TableFactory, make_person


def pdf_text(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return "\n".join(page.extract_text() for page in pdf.pages)


@pytest.fixture
def auditor_api(client_for, cast):
    return client_for(cast[Role.AUDITOR])


@pytest.fixture
def tables(site):
    return [
        TableFactory(site=site, number=1, min_wager_cents=200, max_wager_cents=2500, insurance_allowed=False),
        TableFactory(site=site, number=2, min_wager_cents=500, max_wager_cents=2000, tip_double_down="equal"),
    ]


def request(api, **payload):
    return api.post("/api/v1/reports/", payload, format="json")


def test_the_house_rules_handout_carries_each_tables_rules_and_the_notice(auditor_api, site, tables):
    created = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20")
    assert created.status_code == 201 and created.json()["status"] == "done"
    pdf = auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/")
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content)
    assert "Minimum wager $2.00; maximum wager $25.00" in text
    assert "Minimum wager $5.00; maximum wager $20.00" in text
    assert "Insurance not permitted" in text and "Insurance permitted - pays two to one" in text
    assert "class C felony" in text and "ND 99-01.3-08-13(3)" in text
    # ND 99-01.3-08-16: kept three years from the end of the quarter (Q4 2026).
    assert "Retain until 2029-12-31 (ND 99-01.3-08-16)" in text
    assert created.json()["retain_until"] == "2029-12-31"
    # (each line of the handout now cites its subsection: two tables fill more than a page)
    assert "Page 1 of " in text and site.name in text and site.organization.name in text
    assert ReportFile.objects.get().data_sha256 in text.replace("\n", "")


def test_the_alerts_report_matches_the_api(auditor_api, cast, site, time_machine):
    time_machine.move_to("2026-11-15")
    compliance.open_alert(finding(site), organization_id=site.organization_id)
    compliance.open_alert(
        finding(
            site,
            subject="fill:3",
            rule="slip_missing",
            citation="ND 99-01.3-08-05(2)",
            due_date=date(2026, 11, 20),
            figures={"series": "fill", "number": 3, "table": 2},
        ),
        organization_id=site.organization_id,
    )
    api_alerts = auditor_api.get("/api/v1/alerts/").json()["results"]
    run = request(auditor_api, kind="alerts", site=site.pk, start="2026-11-01", end="2026-11-30").json()
    text = pdf_text(auditor_api.get(f"/api/v1/reports/{run['id']}/download/").content)
    assert f"{len(api_alerts)} alerts; 2 not resolved; 1 overdue at 2026-11-15." in text
    flat = "".join(text.split())
    for alert in api_alerts:
        assert "".join(alert["citation"].split()) in flat and alert["due_date"] in text
    csv_rows = auditor_api.get(f"/api/v1/reports/{run['id']}/download/?format=csv").content.decode().splitlines()
    assert len(csv_rows) == 1 + len(api_alerts) and csv_rows[0].startswith("Rule,Alert,Period,Subject,Opened,Due")
    # The period and subject in words, as the alerts page gives them, never the alert's internal keys
    assert any(",2026Q3,Table 2; Fill slip 3," in row for row in csv_rows)
    assert "fill:3" not in "".join(csv_rows) and "2026-07-01..2026-09-30" not in text
    sheet = load_workbook(
        io.BytesIO(auditor_api.get(f"/api/v1/reports/{run['id']}/download/?format=xlsx").content)
    ).active
    assert sheet.max_row == 1 + len(api_alerts)


def test_the_same_run_renders_to_identical_bytes(auditor_api, site, tables):
    run_id = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20").json()["id"]
    run = ReportRun.objects.select_related("organization", "site", "requested_by").get(pk=run_id)
    first, _, _ = render_run(run)
    second, _, _ = render_run(run)
    assert first == second == bytes(ReportFile.objects.get(run=run).pdf)


def test_the_footer_prints_the_organizations_audit_chain_head_at_generation_on_every_page(auditor_api, site, tables):
    from core.audit import chain_name
    from core.models import AuditEvent

    run_id = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20").json()["id"]
    stored = ReportFile.objects.get(run_id=run_id)
    head = AuditEvent.objects.get(chain=chain_name(site.organization_id), seq=stored.audit_seq)
    assert (stored.audit_chain, stored.audit_hash) == (head.chain, head.hash) and head.action == "report.requested"
    with pdfplumber.open(io.BytesIO(bytes(stored.pdf))) as pdf:
        for page in pdf.pages:
            assert f"Audit chain head at generation: {head.chain} #{head.seq} {head.hash}" in page.extract_text()
    request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-21")  # the chain moves on
    run = ReportRun.objects.select_related("organization", "site", "requested_by").get(pk=run_id)
    assert render_run(run)[0] == bytes(stored.pdf)  # a re-render prints the stored head


@pytest.mark.parametrize(
    "payload,field",
    [
        ({"kind": "nonsense", "end": "2026-11-20"}, "kind"),
        ({"kind": "alerts", "start": "2026-11-20", "end": "2026-11-01"}, "end"),
        ({"kind": "alerts", "quarter": "2026-Q3"}, "quarter"),
        ({"kind": "alerts", "start": "2026-13-01", "end": "2026-11-01"}, "start"),
        ({"kind": "alerts", "start": "2026-11-01"}, "end"),
    ],
)
def test_bad_parameters_are_400_naming_the_parameter(auditor_api, site, payload, field):
    response = request(auditor_api, site=site.pk, **payload)
    assert response.status_code == 400 and field in response.json()
    assert not ReportRun.objects.exists()


def test_a_site_of_another_organization_is_a_bad_parameter(auditor_api, stranger_site):
    response = request(auditor_api, kind="alerts", site=stranger_site.pk, quarter="2026Q3")
    assert response.status_code == 400 and "site" in response.json()


def test_another_organizations_auditor_cannot_see_or_download_a_report(
    auditor_api, client_for, site, stranger_site, tables
):
    run_id = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20").json()["id"]
    foreign_auditor = make_person(stranger_site.organization, Role.AUDITOR)
    api = client_for(foreign_auditor)
    assert api.get(f"/api/v1/reports/{run_id}/").status_code == 404
    assert api.get(f"/api/v1/reports/{run_id}/download/").status_code == 404


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.DEALER, Role.CASHIER, Role.COUNT_TEAM])
def test_only_auditors_and_gaming_managers_generate_reports(client_for, cast, site, role):
    response = request(client_for(cast[role]), kind="alerts", site=site.pk, quarter="2026Q3")
    assert response.status_code == 403


def test_report_kinds_are_listed_with_their_parameters(auditor_api):
    kinds = {k["kind"]: k for k in auditor_api.get("/api/v1/reports/kinds/").json()}
    assert kinds["alerts"]["parameters"] == ["site", "start", "end"]
    assert kinds["house_rules"]["rule"] == "ND 99-01.3-08-13"


def test_a_long_period_is_queued_for_a_worker_and_claimed_once(auditor_api, site, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = request(auditor_api, kind="alerts", site=site.pk, quarter="2026Q3").json()
    assert run["status"] == "queued" and len(callbacks) == 1
    early = auditor_api.get(f"/api/v1/reports/{run['id']}/download/")
    assert early.status_code == 404
    assert early.json()["detail"] == "House control: the report is queued, not ready to download."
    assert generate_report(run["id"]) is True
    assert generate_report(run["id"]) is False  # a second worker finds it claimed
    status = auditor_api.get(f"/api/v1/reports/{run['id']}/").json()
    assert (status["status"], status["progress"]) == ("done", 100)


def test_building_the_alerts_report_takes_bounded_queries_whatever_the_period(
    auditor_api, site, django_assert_max_num_queries
):
    for n in range(30):
        compliance.open_alert(finding(site, subject=f"s{n}"), organization_id=site.organization_id)
    from reports.kinds import alerts
    from reports.registry import ReportContext

    for start, end in ((date(2026, 10, 1), date(2026, 10, 31)), (date(2020, 1, 1), date(2030, 12, 31))):
        with django_assert_max_num_queries(3):
            alerts.build(ReportContext(site.organization, site, start, end, "x", end))


def test_the_reports_page_shows_errors_inline_and_generates(client, cast, site, tables):
    client.force_login(cast[Role.AUDITOR].user)
    bad = client.post("/reports/", {"kind": "alerts", "site": site.pk, "start": "2026-11-20", "end": "2026-11-01"})
    assert (
        bad.status_code == 400
        and "House control: end (" in bad.content.decode()
        and "is before start" in bad.content.decode()
    )
    good = client.post("/reports/", {"kind": "house_rules", "site": site.pk, "end": "2026-11-20"}, follow=True)
    assert "Download PDF" in good.content.decode()
    run = ReportRun.objects.get()
    assert client.get(f"/reports/{run.pk}/download.pdf")["Content-Type"] == "application/pdf"


def test_a_dealer_cannot_open_the_reports_page(client, cast):
    client.force_login(cast[Role.DEALER].user)
    assert client.get("/reports/").status_code == 403


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "WA-BJ", "NY"])
def test_the_north_dakota_handout_and_felony_notice_print_only_for_north_dakota_sites(
    auditor_api, site, tables, jurisdiction
):
    site.jurisdiction = jurisdiction
    site.save()
    refused = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20")
    assert refused.status_code == 400
    # Refused in the site's own words: North Dakota's rule is not cited at another pack's site.
    message = refused.json()["kind"][0]
    assert (
        message.startswith('House control: the report "House and player rules" is not offered at')
        and "ND" not in message
    )
    assert not ReportFile.objects.exists()
    kinds = {k["kind"]: k for k in auditor_api.get("/api/v1/reports/kinds/").json()}
    assert "house_rules" not in kinds  # an organization sees only its packs' reports


def test_the_reports_page_titles_runs_by_name_and_prefills_the_quarter_to_file(client, cast, site, tables):
    from django.utils import timezone

    from core.periods import Quarter

    client.force_login(cast[Role.AUDITOR].user)
    to_file = str(Quarter.containing(timezone.localdate()).previous())
    assert f'value="{to_file}"' in client.get("/reports/").content.decode()
    # A report over dates keeps its dates: the prefilled quarter does not widen it.
    page = client.post(
        "/reports/",
        {"kind": "dealer_hold", "site": site.pk, "quarter": to_file, "start": "2026-11-01", "end": "2026-11-20"},
        follow=True,
    ).content.decode()
    run = ReportRun.objects.get()
    assert (run.start, run.end) == (date(2026, 11, 1), date(2026, 11, 20))
    assert "<title>Dealer percent-of-hold summary" in page and "dealer_hold" not in page.split("<body")[1]
    assert "<td>Dealer percent-of-hold summary</td>" in client.get("/reports/").content.decode()


def test_the_alerts_report_reads_its_days_in_the_sites_time_zone(auditor_api, site, time_machine):
    """Requested at 00:30 on the 20th in New York (23:30 on the 19th on the server's Chicago
    clock): an alert due on the 19th is overdue, and one opened then is of the 20th."""
    site.time_zone = "America/New_York"
    site.save()
    time_machine.move_to("2026-11-20T05:30:00+00:00")
    compliance.open_alert(
        finding(
            site, subject="fill:7", rule="slip_missing", citation="ND 99-01.3-08-05(2)", due_date=date(2026, 11, 19)
        ),
        organization_id=site.organization_id,
    )
    run = request(auditor_api, kind="alerts", site=site.pk, start="2026-11-20", end="2026-11-30").json()
    text = pdf_text(auditor_api.get(f"/api/v1/reports/{run['id']}/download/").content)
    assert "1 alert; 1 not resolved; 1 overdue at 2026-11-20." in text
    csv_rows = auditor_api.get(f"/api/v1/reports/{run['id']}/download/?format=csv").content.decode().splitlines()
    assert ",2026-11-20,2026-11-19," in csv_rows[1]  # opened on New York's 20th, due the 19th


@pytest.mark.parametrize(
    ("asked", "field"),
    [
        ({"kind": "daily", "start": "2026-11-21", "end": "2026-11-25"}, "start"),
        ({"kind": "quarterly", "quarter": "2027Q1"}, "quarter"),
    ],
)
def test_a_report_of_days_still_to_come_is_refused(auditor_api, site, time_machine, asked, field):
    """A period after the site's date today would print "no gaming day" for days still to come,
    under the auditor's sign-off: refused on its field, nothing recorded. Today itself is asked."""
    time_machine.move_to("2026-11-20T18:00:00+00:00")
    response = auditor_api.post("/api/v1/reports/", {**asked, "site": site.pk}, format="json")
    assert response.status_code == 400
    assert response.json()[field][0].startswith("House control: a report covers days that have begun; ")
    assert "is after today at" in response.json()[field][0]
    assert not ReportRun.objects.exists()
    today = auditor_api.post(
        "/api/v1/reports/",
        {"kind": "daily", "site": site.pk, "start": "2026-11-20", "end": "2026-11-20"},
        format="json",
    )
    assert today.status_code in (200, 201, 202), today.content


def test_a_report_no_worker_takes_says_so_after_a_minute(
    client, cast, auditor_api, site, django_capture_on_commit_callbacks
):
    """A queued report's page said "Queued 0%" for ever when no worker ran (the demo's server alone):
    after a minute it says the worker may be stopped and that nothing needs requesting again."""
    import time_machine

    with time_machine.travel("2026-11-20 15:00:00-06:00", tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=False):
            run = request(auditor_api, kind="alerts", site=site.pk, quarter="2026Q3").json()
        assert run["status"] == "queued"
        client.force_login(cast[Role.AUDITOR].user)
        assert 'id="stalled"' not in client.get(f"/reports/{run['id']}/").content.decode()
        clock.shift(61)
        page = client.get(f"/reports/{run['id']}/").content.decode()
        assert 'id="stalled"' in page and "no report worker has taken it" in page
        generate_report(run["id"])
        assert 'id="stalled"' not in client.get(f"/reports/{run['id']}/").content.decode()


@pytest.mark.parametrize("fmt", ["html", "json", "zip", "PDF"])
def test_a_download_address_of_no_format_is_not_found(client, cast, auditor_api, site, tables, fmt):
    """A typed address: the format's refusal (the API's 400) raised through the page's view was a 500."""
    created = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20").json()
    client.force_login(cast[Role.AUDITOR].user)
    assert client.get(f"/reports/{created['id']}/download.{fmt}").status_code == 404
    assert client.get(f"/reports/{created['id']}/download.csv").status_code == 200


def test_the_alerts_report_prints_a_days_period_on_one_line_and_says_when_there_is_no_alert(
    auditor_api, site, time_machine
):
    time_machine.move_to("2026-11-30")
    empty = request(auditor_api, kind="alerts", site=site.pk, start="2026-11-01", end="2026-11-30").json()
    text = pdf_text(auditor_api.get(f"/api/v1/reports/{empty['id']}/download/").content)
    assert "0 alerts; 0 not resolved; 0 overdue at 2026-11-30." in text
    assert "No alert at this site in the period." in text and "Last step" not in text  # no bare header row
    day = date(2026, 11, 29)
    compliance.open_alert(
        finding(site, rule="deposit_late", period_key="2026-11-29", period_start=day, period_end=day),
        organization_id=site.organization_id,
    )
    run = request(auditor_api, kind="alerts", site=site.pk, start="2026-11-01", end="2026-11-30").json()
    with pdfplumber.open(io.BytesIO(auditor_api.get(f"/api/v1/reports/{run['id']}/download/").content)) as pdf:
        (grid,) = [grid for page in pdf.pages for grid in page.extract_tables() if grid[0][0] == "Rule"]
    assert grid[1][2] == "2026-11-29"  # one line, never "2026-11-2" over "9"
