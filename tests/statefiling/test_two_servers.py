"""Really two servers: this test process is the organization's deployment; a registry
deployment of the same codebase runs beside it (gunicorn, its own database and port: SQLite, or
PostgreSQL when the suite runs on PostgreSQL).
A filed quarter reaches the registry over HTTP and its receipt is kept on both sides; a
rewrite of the organization's history and local anchors is found against the heads the
registry holds; a filing made while the registry is down is delivered once it is back."""

import shutil
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from core.audit import chain_head, chain_name
from core.audit_anchors import anchor_chains
from core.models import AuditEvent
from statefiling import client, delivery, services, tasks
from statefiling.models import FilingReceipt, Submission
from tests.accounting.test_quarter_filing import _after_the_quarter, quarter_played, table, text  # noqa: F401  (fixtures)
from tests.core.test_audit_tamper import _rewrite_and_rehash
from tests.reports.test_kind_daily import download, run_report

from .registry_server import PostgresDatabase, RegistryServer

# Every test files the quarter played by tests/floor/test_quarter_filing.py's fixture. One
# process runs them all (pytest.ini: --dist loadgroup), so the registry (a migrated database and
# a gunicorn, the session's) is started once a run, not once in each process.
pytestmark = [pytest.mark.usefixtures("quarter_played"), pytest.mark.xdist_group("two-servers")]


@pytest.fixture(scope="session")
def registry(tmp_path_factory, django_db_setup):
    """The registry deployment, on a database of the run's kind (PostgreSQL: one of its own)."""
    from django.db import connection

    postgres = PostgresDatabase(connection.settings_dict) if connection.vendor == "postgresql" else None
    server = RegistryServer(tmp_path_factory.mktemp("registry"), postgres)
    try:
        server.migrate()
        server.start()
        yield server
    finally:
        server.remove()


@pytest.fixture
def linked(registry, org, manager):
    """The organization connected to the registry with a credential of a new licensee."""
    secret = registry.licensee(org.name, f"G-{uuid.uuid4().hex[:8]}")
    return services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=registry.url, credential=secret
    )


def file_q3(client_for, manager, site):
    response = client_for(manager).post(
        f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json"
    )
    assert response.status_code == 201, response.content
    return Submission.objects.get(filing_id=response.json()["id"])


def registry_receipts(link):
    return client.call(link.url, link.credential, "GET", "/registry/api/v1/filings/")[1]["results"]


def test_a_filed_quarter_is_received_by_the_registry_and_the_receipt_kept_on_both_sides(
    linked, client_for, manager, site, client
):
    submission = file_q3(client_for, manager, site)
    assert submission.delivered_at is None  # the filing answered without waiting on the network
    assert submission.package["figures_sha256"] == submission.filing.figures_sha256
    assert submission.package["chain_head"]["chain"] == chain_name(site.organization_id)

    assert delivery.deliver(submission.pk) == "delivered"

    receipt = FilingReceipt.objects.get(filing=submission.filing)
    [held] = registry_receipts(linked)
    assert (held["receipt_number"], held["package_sha256"], held["receipt_sha256"]) == (
        receipt.receipt_number,
        submission.package_sha256,
        receipt.receipt_sha256,
    )
    assert AuditEvent.objects.filter(action="quarter.receipt_received", object_id=str(receipt.pk)).exists()
    assert delivery.deliver(submission.pk) == "delivered"  # once delivered, never sent again
    assert len(registry_receipts(linked)) == 1

    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    assert f"receipt {receipt.receipt_number}" in page
    api = client_for(manager)
    pdf = download(api, run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3"))
    assert f"receipt {receipt.receipt_number}" in text(pdf)


def test_rewriting_history_and_the_local_anchors_is_found_against_the_registry(
    linked, client_for, manager, site, settings
):
    delivery.deliver(file_q3(client_for, manager, site).pk)
    anchor_chains()
    head = chain_head(site.organization_id)
    tasks.push_anchor(linked.pk, services.anchor_json(head))  # what the nightly job queues, run here
    call_command("verify_audit_log", "--full", "--registry")

    # The attacker holds the database and VAR_DIR: rewrites the filed quarter's event, rehashes
    # the chain after it, and writes the local anchors again from the forged chain.
    filed = AuditEvent.objects.get(action="quarter.filed", organization_id=site.organization_id)
    _rewrite_and_rehash(head.chain, filed.seq, after={**filed.after, "reference": "forged"})
    shutil.rmtree(settings.AUDIT_ANCHOR_DIR)
    anchor_chains()
    call_command("verify_audit_log", "--full")  # alone, the forgery holds

    with pytest.raises(CommandError) as caught:
        call_command("verify_audit_log", "--full", "--registry")
    message = str(caught.value)
    assert f"(chain {head.chain}), event #{head.seq}" in message and "rewritten" in message


def test_a_filing_made_while_the_registry_is_down_is_delivered_once_it_is_back(
    linked, registry, client_for, manager, site
):
    registry.stop()
    try:
        submission = file_q3(client_for, manager, site)  # filed at once, registry or not
        for _attempt in range(2):  # what each retry of the task does
            with pytest.raises(client.Unreachable):
                delivery.deliver(submission.pk)
        submission.refresh_from_db()
        assert submission.attempts == 2 and submission.last_error and submission.delivered_at is None
        # the quarter's page reads why, in words: not the socket's "[Errno 111] Connection refused"
        assert submission.last_error.endswith(": connection refused") and "Errno" not in submission.last_error
        assert submission.last_error.startswith("no answer from http")
        assert not FilingReceipt.objects.exists()
    finally:
        registry.start()
    assert tasks.deliver_pending() == 1
    receipt = FilingReceipt.objects.get(filing=submission.filing)
    assert [r["receipt_number"] for r in registry_receipts(linked)] == [receipt.receipt_number]
