"""A gaming manager links the pack to its registry again (a new credential after the agency
revoked the old one, or the registry's new address): the packages not yet delivered, waiting or
refused under the old link, go under the new one and reach the state; left behind, they went on
to the old address and credential, or stayed "Refused by the state registry" for good. The
registry is reachable in this process (registry_in_process, through conftest)."""

from types import SimpleNamespace

import pytest

from core.models import AuditEvent
from registry import services as registry
from registry.models import ReceivedFiling
from statefiling import delivery, queries, services
from statefiling.models import FilingReceipt, Submission

from .registry_in_process import URL
from .test_amendments import adjust, file_q3

pytestmark = pytest.mark.usefixtures("quarter_played")


def _statement(submission, site) -> str:
    return queries.receipt_statement(SimpleNamespace(filing_id=submission.filing_id), site)


def relink(manager, org, licensee, jurisdiction="ND"):
    """The gaming manager links the pack (ND unless named) again with a new credential of the licensee."""
    return services.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction=jurisdiction,
        url=URL,
        credential=registry.issue_credential(acting_user=None, licensee=licensee).secret,
    )


def test_a_return_refused_for_a_revoked_credential_reaches_the_state_once_linked_with_the_new_one(
    linked, licensee, org, manager, client_for, site
):
    old = registry.credential_for(linked.credential)
    registry.revoke_credential(acting_user=None, credential=old)  # the agency revoked it
    submission = file_q3(client_for(manager), site)
    assert delivery.deliver(submission.pk) == "refused"
    assert _statement(submission, site).startswith("Refused by the state registry: 401")

    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    link = services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
    moved = Submission.objects.get(pk=submission.pk)
    assert (moved.link_id, moved.refused) == (link.pk, False)
    assert delivery.deliver(submission.pk) == "delivered"
    receipt = FilingReceipt.objects.get(filing_id=submission.filing_id)
    assert ReceivedFiling.objects.get().receipt_number == receipt.receipt_number
    assert _statement(submission, site).startswith("Received by")
    event = AuditEvent.objects.filter(action="registry.connected").latest("seq")
    assert event.after["resent"] == [submission.pk]


def test_a_return_waiting_under_the_old_link_goes_with_the_new_credential(
    linked, licensee, org, manager, client_for, site
):
    submission = file_q3(client_for(manager), site)  # queued, not yet sent
    registry.revoke_credential(acting_user=None, credential=registry.credential_for(linked.credential))
    link = relink(manager, org, licensee)
    assert delivery.deliver(submission.pk) == "delivered"
    assert Submission.objects.get(pk=submission.pk).link_id == link.pk
    assert FilingReceipt.objects.filter(filing_id=submission.filing_id).exists()


def test_a_delivered_return_is_not_sent_again_when_the_pack_is_linked_again(
    linked, licensee, org, manager, client_for, site
):
    submission = file_q3(client_for(manager), site)
    assert delivery.deliver(submission.pk) == "delivered"
    relink(manager, org, licensee)
    assert Submission.objects.get(pk=submission.pk).link_id == linked.pk
    assert ReceivedFiling.objects.count() == 1


def test_an_amendment_of_a_refused_return_is_refused_with_it_and_goes_again_with_it(
    linked, licensee, org, manager, client_for, site, table
):
    """Found reviewing the state's side: an amendment of a return the registry refused waited for a
    receipt that would never come, tried again at every sweep without end. It is refused with its
    return, kept for a person, and both go (in order) once the pack is linked again."""
    registry.revoke_credential(acting_user=None, credential=registry.credential_for(linked.credential))
    api = client_for(manager)
    original = file_q3(api, site)
    assert delivery.deliver(original.pk) == "refused"
    amendment = adjust(api, site, table)
    assert delivery.deliver(amendment.pk) == "refused"  # not retried for ever
    refused = Submission.objects.get(pk=amendment.pk)
    assert refused.refused and refused.attempts == 1 and "refused the filing it amends" in refused.last_error
    assert delivery.deliver(amendment.pk) == "refused" and Submission.objects.get(pk=amendment.pk).attempts == 1

    relink(manager, org, licensee)
    assert [delivery.deliver(s.pk) for s in (original, amendment)] == ["delivered", "delivered"]
    held = ReceivedFiling.objects.get(package_sha256=Submission.objects.get(pk=amendment.pk).package_sha256)
    assert held.amends.receipt_number == FilingReceipt.objects.get(filing_id=original.filing_id).receipt_number
