"""A filed quarter's package is built and sent only from what was filed. The figures
(`QuarterFiling.figures`) and the dealers' hold frozen beside them (`FiledDealers`) are append-only
by database triggers, each with its SHA-256; a row changed behind them (a database owner, a
restore) was sent to the state as filed. Now each attempt recomputes both digests: altered, the
package is not sent (nothing reaches the registry), the problem is named where the operator sees it
(the filing's state at `/state-filings/`, the quarter's receipt statement, the audit log) as the
audit log's verification names an altered row, citing the pack's rule; set right, the same package
goes under its Idempotency-Key. The registry runs in this process (registry_in_process)."""

import json
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from accounting.models import QuarterFiling
from core.models import AuditEvent
from registry import services as registry
from registry.models import ReceivedFiling
from statefiling import queries, services, tasks
from statefiling.delivery import FILINGS_PATH
from statefiling.models import FiledDealers, Submission
from tests.core.test_audit_tamper import _tamper

from .registry_in_process import URL
from .test_amendments import file_q3

pytestmark = pytest.mark.usefixtures("quarter_played")

ND_RULE = "ND 99-01.3-08-16(1)(g)"  # the quarterly summary the package carries
FILINGS = QuarterFiling._meta.db_table
DEALERS = FiledDealers._meta.db_table


def alter_dealers(filing_id: int, by: int) -> None:
    _tamper(DEALERS, f"UPDATE {DEALERS} SET dealers_without_identifier = dealers_without_identifier + %s "
                     "WHERE filing_id = %s", [by, filing_id])  # fmt: skip


def write_figures(filing_id: int, figures: dict) -> None:
    value = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    _tamper(FILINGS, f"UPDATE {FILINGS} SET figures = {value} WHERE id = %s", [json.dumps(figures), filing_id])


def posted(registry) -> list:
    return [r for r in registry.requests if r == ("POST", FILINGS_PATH)]


def state_of(api, site, submission: Submission) -> dict:
    rows = api.get(f"/api/v1/sites/{site.pk}/state-filings/").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    return next(r for r in rows if r["filing"] == submission.filing_id and r["amendment"] is None)


def withheld_then_sent(api, site, org, submission: Submission, registry, named: str, restore) -> None:
    """Driven by the task and the sweep: withheld (named, nothing posted), then, the row set
    right, sent once under the same key."""
    assert tasks.deliver_filing(submission.pk) == "withheld"
    assert tasks.deliver_pending() == 0  # the sweep tries again: still withheld
    assert posted(registry) == [] and not ReceivedFiling.objects.exists()

    shown = state_of(api, site, submission)
    assert shown["state"] == "withheld" and shown["receipt_number"] is None
    assert shown["last_error"].startswith(f"{ND_RULE}: organization {org.pk} (chain org-{org.pk}), {named}")
    assert "until it is set right" in shown["last_error"]
    statement = queries.receipt_statement(SimpleNamespace(filing_id=submission.filing_id), site)
    assert statement == f"Not sent to the state registry: {shown['last_error']}"
    events = AuditEvent.objects.filter(action="quarter.package_withheld", object_id=str(submission.pk))
    assert [e.after["problem"] for e in events] == [shown["last_error"]]  # once, not at every sweep

    restore()
    assert tasks.deliver_pending() == 1
    assert len(posted(registry)) == 1
    held = ReceivedFiling.objects.get()
    assert held.idempotency_key == submission.idempotency_key
    assert Submission.objects.get(pk=submission.pk).package_sha256 == submission.package_sha256
    assert state_of(api, site, submission)["state"] == "delivered"
    assert tasks.deliver_pending() == 0 and len(posted(registry)) == 1  # nothing sent twice


def test_a_dealers_hold_altered_behind_the_triggers_is_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    api = client_for(manager)
    submission = file_q3(api, site)
    frozen = FiledDealers.objects.get(filing_id=submission.filing_id)
    alter_dealers(submission.filing_id, 3)
    named = f"table {DEALERS} id {frozen.pk}: dealers, dealers_without_identifier no longer hash to the SHA-256 filed, "
    restore = lambda: alter_dealers(submission.filing_id, -3)  # noqa: E731
    withheld_then_sent(api, site, org, submission, in_process_registry, named + frozen.dealers_sha256, restore)


def test_filed_figures_altered_behind_the_triggers_are_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    api = client_for(manager)
    submission = file_q3(api, site)
    filing = QuarterFiling.objects.get(pk=submission.filing_id)
    figures = filing.figures
    write_figures(filing.pk, {**figures, "tax": {**figures["tax"], "agp_cents": figures["tax"]["agp_cents"] - 100}})
    named = f"table {FILINGS} id {filing.pk}: figures no longer hash to the SHA-256 filed, {filing.figures_sha256}"
    withheld_then_sent(
        api, site, org, submission, in_process_registry, named, lambda: write_figures(filing.pk, figures)
    )


def test_a_queued_package_whose_figures_differ_from_those_filed_is_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    """The outbox row is not append-only: a package whose figures no longer are the filed ones
    (its `figures_sha256` left as filed) is withheld, its row named, until it carries them again."""
    api = client_for(manager)
    submission = file_q3(api, site)
    package = submission.package
    figures = {**package["figures"], "reference": "forged"}
    Submission.objects.filter(pk=submission.pk).update(package={**package, "figures": figures})
    named = f"table {Submission._meta.db_table} id {submission.pk}: the package's figures do not hash to the SHA-256"
    restore = lambda: Submission.objects.filter(pk=submission.pk).update(package=package)  # noqa: E731
    withheld_then_sent(api, site, org, submission, in_process_registry, named, restore)


def test_an_earlier_quarter_whose_frozen_hold_was_altered_is_not_built_until_set_right(
    in_process_registry, licensee, client_for, manager, site, org
):
    """Filed before the organization linked: its package is built when the gaming manager sends it;
    from an altered row it is refused, named, and nothing is queued; set right, it goes."""
    api = client_for(manager)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
    alter_dealers(filed.json()["id"], 1)
    with pytest.raises(ValidationError) as refused:
        services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="ND")
    assert refused.value.message_dict["filing"][0].startswith(f"{ND_RULE}: organization {org.pk} (chain org-{org.pk})")
    assert f"table {DEALERS} id " in refused.value.message_dict["filing"][0]
    assert not Submission.objects.exists() and posted(in_process_registry) == []

    alter_dealers(filed.json()["id"], -1)
    [sent] = services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="ND")
    assert tasks.deliver_filing(sent.pk) == "delivered"
    assert ReceivedFiling.objects.get().idempotency_key == sent.idempotency_key
