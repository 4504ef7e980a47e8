"""A registry that answers "too many requests" (429, its write limit per credential) or "request
timeout" (408) has refused nothing: the package is tried again later, never kept as refused for a
person, and reaches the state once the registry takes it. The registry is reachable in this
process (registry_in_process, through conftest): real code on both ends of the wire."""

from types import SimpleNamespace

import pytest

from registry.models import ReceivedFiling
from statefiling import client, delivery, queries
from statefiling.models import Submission

from .test_amendments import file_q3

pytestmark = pytest.mark.usefixtures("quarter_played")


def _write_limit(settings, rate: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "writes": rate},
    }


def test_a_filing_the_registry_answers_too_many_requests_is_sent_again_not_refused(
    linked, client_for, manager, site, settings
):
    original = file_q3(client_for(manager), site)
    _write_limit(settings, "0/minute")  # the registry's limit of writes by one credential, reached
    with pytest.raises(client.Unreachable):
        delivery.deliver(original.pk)
    original = Submission.objects.get(pk=original.pk)
    assert not original.refused and original.delivered_at is None and original.last_error.startswith("429")
    assert original in delivery.pending_submissions()  # the sweep tries it again
    statement = queries.receipt_statement(SimpleNamespace(filing_id=original.filing_id), site)
    assert statement.startswith("Sent to the state registry, waiting for its receipt (1 attempt; last: 429")

    _write_limit(settings, "300/minute")
    assert delivery.deliver(original.pk) == "delivered"
    assert ReceivedFiling.objects.get().package_sha256 == original.package_sha256


def test_a_head_the_registry_answers_too_many_requests_is_retried(linked, settings):
    _write_limit(settings, "0/minute")
    head = {"chain": "org-1", "seq": 1, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    with pytest.raises(client.Unreachable):
        delivery.push_anchors(linked, [head])
