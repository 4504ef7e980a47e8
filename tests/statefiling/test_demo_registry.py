"""The demo's state registry (statefiling.demo): the organization's filed quarters received
with their receipts on both sides, its chain head anchored, the state auditor `state` reading
them; run again, it sends nothing twice."""

import pytest
from django.contrib.auth import get_user_model

from accounting import services as accounting
from compliance.models import Alert
from core.periods import Quarter
from registry.models import ReceivedAlert, ReceivedAnchor, ReceivedFiling, Regulator
from registry.services import verify_filings
from statefiling import demo
from statefiling.models import FilingReceipt, Submission
from tests.accounting.test_quarter_filing import _after_the_quarter, quarter_played, table  # noqa: F401  (fixtures)

pytestmark = pytest.mark.usefixtures("quarter_played")


@pytest.fixture
def filed_both(manager, site, other_site):
    return [
        accounting.file_quarter(acting_user=manager.user, site=s, quarter=Quarter(2026, 3)) for s in (site, other_site)
    ]


def test_the_demo_registry_holds_the_filed_quarters_and_the_chain_head(filed_both, org, manager, client):
    world = {"organization": org, "people": {"gm": manager}}
    demo.extend_demo(world)
    demo.extend_demo(world)  # again: nothing is sent twice

    received = ReceivedFiling.objects.order_by("seq")
    assert [f.site_ref for f in received] == [f.site_id for f in filed_both]
    receipts = {r.filing_id: r.receipt_number for r in FilingReceipt.objects.all()}
    assert receipts == {f.pk: r.receipt_number for f, r in zip(filed_both, received, strict=True)}
    assert Submission.objects.filter(delivered_at__isnull=False).count() == 2
    assert ReceivedAnchor.objects.filter(chain=f"org-{org.pk}").exists()
    assert set(ReceivedAlert.objects.values_list("alert_ref", flat=True)) == set(
        Alert.objects.filter(organization=org, site__jurisdiction="ND").values_list("pk", flat=True)
    )
    agency = Regulator.objects.get(user__username="state").agency
    assert agency.name == demo.AGENCY and verify_filings(agency).ok

    client.force_login(get_user_model().objects.get(username="state"))
    page = client.get("/registry/filings/").content.decode()
    assert all(r.receipt_number in page for r in received)
