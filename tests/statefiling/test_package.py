"""The package a filed quarter queues for the state's registry: written in the filing's own
transaction (no network), in the version-1 format, with the frozen figures, the tax, the chain
head at filing and the digests of the reports generated for the quarter."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from accounting.models import QuarterFiling
from core import filing_package
from core.audit import chain_head
from reports.models import ReportFile
from statefiling import services
from statefiling.models import Submission
from tests.accounting.test_quarter_filing import _after_the_quarter, quarter_played, table  # noqa: F401  (fixtures)
from tests.reports.test_kind_daily import run_report

pytestmark = pytest.mark.usefixtures("quarter_played")


@pytest.fixture
def link(org, manager):
    return services.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction="ND",
        url="http://127.0.0.1:9",
        credential="lic_" + "x" * 20,
    )


def test_filing_queues_the_package_in_its_transaction_without_sending_it(link, client_for, manager, site):
    api = client_for(manager)
    run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3")
    response = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert response.status_code == 201  # port 9 answers nothing: the filing did not wait for it
    filing = QuarterFiling.objects.get(pk=response.json()["id"])
    submission = Submission.objects.get(filing=filing)
    package = submission.package
    assert filing_package.problems(package) == {}
    assert submission.package_sha256 == filing_package.digest(package) and submission.delivered_at is None
    assert (package["figures"], package["figures_sha256"]) == (filing.figures, filing.figures_sha256)
    assert package["tax"] == filing.figures["tax"]
    assert package["chain_head"]["seq"] <= chain_head(site.organization_id).seq
    report = ReportFile.objects.get(run__kind="quarterly")
    assert [(r["kind"], r["pdf_sha256"]) for r in package["reports"]] == [("quarterly", report.pdf_sha256)]


def test_without_a_registry_for_the_pack_a_filing_queues_nothing(client_for, manager, site):
    response = client_for(manager).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json"
    )
    assert response.status_code == 201 and not Submission.objects.exists()


@pytest.mark.parametrize(
    ("url", "field"),
    [("http://registry.example.org", "url"), ("ftp://127.0.0.1", "url"), ("https://r.example.org", None)],
)
def test_a_registry_is_reached_over_https_only(org, manager, url, field):
    if field is None:
        assert services.connect_registry(
            acting_user=manager.user, organization=org, jurisdiction="ND", url=url, credential="lic_" + "y" * 20
        ).active
        return
    with pytest.raises(ValidationError) as caught:
        services.connect_registry(
            acting_user=manager.user, organization=org, jurisdiction="ND", url=url, credential="lic_" + "y" * 20
        )
    assert caught.value.message_dict[field][0].startswith("House control")


def test_only_a_gaming_manager_connects_a_registry(org, auditor_employee):
    with pytest.raises(PermissionDenied):
        services.connect_registry(
            acting_user=auditor_employee.user,
            organization=org,
            jurisdiction="ND",
            url="https://r.example.org",
            credential="lic_" + "z" * 20,
        )


@pytest.fixture
def auditor_employee(cast):
    from cardroom.models import Role

    return cast[Role.AUDITOR]


def test_an_organization_reads_its_own_filings_with_the_state_and_no_one_elses(
    link, client_for, manager, site, stranger_site, cast
):
    from cardroom.models import Role

    client_for(manager).post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    [row] = client_for(manager).get(f"/api/v1/sites/{site.pk}/state-filings/").json()["results"]
    assert (row["quarter"], row["state"], row["receipt_number"]) == ("2026Q3", "pending", None)
    assert client_for(manager).get(f"/api/v1/sites/{stranger_site.pk}/state-filings/").status_code == 404
    assert client_for(cast[Role.DEALER]).get(f"/api/v1/sites/{site.pk}/state-filings/").status_code == 403
