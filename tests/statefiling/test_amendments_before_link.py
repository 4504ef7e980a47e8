"""A quarter filed and amended before the organization linked to its state's registry: when the
filing is first sent (`services.queue_unsent_filings`), the amendments recorded for it go after
it, in the order recorded, each pointing back at the filing's receipt; the state reads the
filed figures and each change to them, not the filed figures beside an alert alone. Sending
again sends nothing twice. The registry is reachable in this process (registry_in_process)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounting.models import FilingAmendment
from registry import services as registry
from registry.models import ReceivedFiling, Regulator, RegulatorRole
from statefiling import client, delivery, services
from statefiling.models import AmendmentReceipt, FilingReceipt, Submission
from tests.accounting.test_quarter_filing import post_drop_adjustment

from .registry_in_process import URL

pytestmark = pytest.mark.usefixtures("quarter_played")


def record_amendments(api, site, table, org) -> list[FilingAmendment]:
    """An adjustment of a filed day, then the other games' AGP: two amendments of the filing."""
    post_drop_adjustment(api, site, table, 5_000, "a $50 bill found in box 1 after the filing")
    other = api.post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": 80_000_000, "note": "pull tabs, return GT-77"},
        format="json",
    )
    assert other.status_code == 201, other.json()
    return list(FilingAmendment.objects.filter(filing__site=site).order_by("recorded_at", "pk"))


def send_all(link) -> list[str]:
    services.queue_unsent_filings(link)
    pending = Submission.objects.filter(delivered_at__isnull=True, refused=False).order_by("pk")
    return [delivery.deliver(pk) for pk in pending.values_list("pk", flat=True)]


def test_amendments_recorded_before_the_link_are_sent_after_the_filing_in_order_and_once(
    in_process_registry, licensee, client_for, manager, site, table, org
):
    api = client_for(manager)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    amendments = record_amendments(api, site, table, org)
    assert len(amendments) == 2 and not Submission.objects.exists()  # no registry then: nothing queued
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    link = services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )

    queued = services.queue_unsent_filings(link)
    assert [s.filing_id for s in queued] == [filed.json()["id"]]
    order = list(Submission.objects.filter(filing_id=filed.json()["id"]).order_by("pk"))
    assert [s.amendment_id for s in order] == [None, *(a.pk for a in amendments)]
    with pytest.raises(client.Unreachable):  # the later amendment waits for the earlier one
        delivery.deliver(order[2].pk)
    assert [delivery.deliver(s.pk) for s in order] == ["delivered"] * 3

    filed_number = FilingReceipt.objects.get(filing_id=filed.json()["id"]).receipt_number
    held = list(ReceivedFiling.objects.order_by("seq"))
    assert [(f.amends.receipt_number if f.amends_id else None) for f in held] == [None, filed_number, filed_number]
    receipts = {r.amendment_id: r.receipt_number for r in AmendmentReceipt.objects.all()}
    assert [receipts[a.pk] for a in amendments] == [held[1].receipt_number, held[2].receipt_number]

    posts = len([r for r in in_process_registry.requests if r[0] == "POST"])
    assert send_all(link) == [] and services.queue_unsent_filings(link) == []  # again: nothing twice
    assert ReceivedFiling.objects.count() == 3 and Submission.objects.count() == 3
    assert len([r for r in in_process_registry.requests if r[0] == "POST"]) == posts

    state = get_user_model().objects.create_user("state", password="x")
    Regulator.objects.create(user=state, agency=licensee.agency, role=RegulatorRole.STATE_AUDITOR)
    page = Client()
    page.force_login(state)
    html = page.get("/registry/quarter/?quarter=2026Q3").content.decode()
    for amendment in held[1:]:
        row = html[html.index(f">{amendment.receipt_number}<") :].split("</tr>")[0]
        assert f"<td>{filed_number}</td>" in row  # the Amends column
        assert 'class="text-end tax-now">$' in row  # Tax as the return now stands
    listed = page.get("/registry/api/v1/filings/").json()["results"]
    assert sorted(f["amends"] or "" for f in listed) == ["", filed_number, filed_number]


def test_a_package_built_after_the_link_lists_only_the_reports_its_filing_was_made_with(
    in_process_registry, licensee, client_for, manager, site, table, org
):
    """The quarterly report generated before filing is the return's document; one generated after an
    amendment (its figures now, not as filed) is not listed when the package is built late, so the
    state's PDF of the original return shows the return as filed."""
    from reports.models import ReportFile
    from reports.services import request_report

    api = client_for(manager)
    request_report(acting_user=manager.user, kind="quarterly", site=site, quarter="2026Q3", at_once=True)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    record_amendments(api, site, table, org)
    request_report(acting_user=manager.user, kind="quarterly", site=site, quarter="2026Q3", at_once=True)
    before, after = ReportFile.objects.filter(run__kind="quarterly").order_by("generated_at", "pk")
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    link = services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
    services.queue_unsent_filings(link)
    package = Submission.objects.get(filing_id=filed.json()["id"], amendment__isnull=True).package
    listed = [r["pdf_sha256"] for r in package["reports"] if r["kind"] == "quarterly"]
    assert listed == [before.pdf_sha256] and after.pdf_sha256 not in listed
