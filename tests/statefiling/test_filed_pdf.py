"""The filed quarter's PDF goes with its package: generated before the filing, it is read from
the reports' store at delivery, checked by the registry against the digest the package lists,
and the state auditor downloads the very bytes the organization holds. The registry is
reachable in this process (registry_in_process)."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from registry.models import ReceivedDocument, Regulator, RegulatorRole
from reports.models import ReportFile
from statefiling import delivery
from statefiling.models import FilingReceipt, Submission
from tests.reports.test_kind_daily import run_report

pytestmark = pytest.mark.usefixtures("quarter_played")


def test_the_quarterly_pdf_is_sent_with_the_filing_and_the_state_auditor_downloads_it(
    linked, licensee, client_for, manager, site
):
    api = client_for(manager)
    run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3")
    report = ReportFile.objects.get(run__kind="quarterly")
    response = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    submission = Submission.objects.get(filing_id=response.json()["id"])
    assert "pdfs" not in submission.package  # the outbox keeps the digest; the bytes stay in the reports' store
    assert delivery.deliver(submission.pk) == "delivered"

    document = ReceivedDocument.objects.get()
    assert (document.pdf_sha256, bytes(document.content)) == (report.pdf_sha256, bytes(report.pdf))
    receipt = FilingReceipt.objects.get(filing=submission.filing)
    auditor = get_user_model().objects.create_user("state", password="x")
    Regulator.objects.create(user=auditor, agency=licensee.agency, role=RegulatorRole.STATE_AUDITOR)
    state = APIClient()
    state.force_authenticate(auditor)
    [listed] = state.get(f"/registry/api/v1/filings/{receipt.receipt_number}/").json()["documents"]
    downloaded = state.get(listed["url"])
    assert downloaded.status_code == 200 and downloaded.content == bytes(report.pdf)
    # The organization's own gaming manager is not the state: the registry's pages and API are not theirs.
    assert api.get(listed["url"]).status_code == 403


def test_a_filing_without_its_quarterly_report_is_sent_without_a_pdf(linked, client_for, manager, site):
    response = client_for(manager).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json"
    )
    assert delivery.deliver(Submission.objects.get(filing_id=response.json()["id"]).pk) == "delivered"
    assert not ReceivedDocument.objects.exists()
