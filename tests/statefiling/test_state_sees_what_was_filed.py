"""What the state's registry shows of a filed quarter is what the licensee filed and shows itself;
the nightly push and the commands that send returns can be run again with nothing sent twice."""

import csv
import io

import pytest
from openpyxl import load_workbook

from core.audit import chain_head
from core.audit_anchors import anchor_chains
from core.models import AuditEvent
from registry.models import ReceivedAlert, ReceivedAnchor
from statefiling import delivery, services, tasks
from statefiling.models import Submission
from tests.core.test_audit_tamper import _rewrite_and_rehash

from .test_alerts import amend_after_filing
from .test_amendments import state_auditor

pytestmark = pytest.mark.usefixtures("quarter_played")


def test_a_quarter_with_nothing_played_reads_the_cash_profit_the_licensee_filed_not_not_known(
    linked, licensee, client_for, manager, site
):
    """A quarter with no day in its books (a seasonal site out of its season) is filed with a cash
    profit of $0.00 (the licensee's quarter page, report and return line: no bank count is missing);
    the state's quarter page, CSV and XLSX said "not known" (empty), as if a bank count were missing."""
    api = client_for(manager)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q2"}, format="json")
    assert filed.status_code == 201, filed.content
    submission = Submission.objects.get(filing_id=filed.json()["id"], amendment__isnull=True)
    assert delivery.deliver(submission.pk) == "delivered"
    ours = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q2").json()["cash_profit_cents"]
    assert ours == 0
    assert {s["site"]: s["cash_profit_cents"] for s in submission.package["tax"]["sites"]}[site.name] == 0

    state = state_auditor(licensee)
    html = state.get("/registry/quarter/?quarter=2026Q2").content.decode()
    assert '<td class="text-end cash-profit">$0.00</td>' in html and "not known" not in html
    (row,) = csv.DictReader(io.StringIO(state.get("/registry/quarter/?quarter=2026Q2&format=csv").text))
    assert row["cash_profit_cents"] == "0"
    sheet = load_workbook(io.BytesIO(state.get("/registry/quarter/?quarter=2026Q2&format=xlsx").content)).active
    header, cells = list(sheet.values)
    assert dict(zip(header, cells, strict=True))["cash_profit_cents"] == 0


def test_the_nightly_push_run_twice_holds_each_head_and_alert_once_and_the_heads_match_the_chain(
    linked, licensee, client_for, manager, site, org, monkeypatch
):
    """The nightly anchor (`anchor_chains`, answered by statefiling's `queue_anchors`) run twice
    in a night: the registry holds the head and each alert once (the second push is answered
    "already held"), the head is the organization's chain head, and the chain checks against it;
    rewritten after, the check names the event and says the chain was rewritten."""
    services.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction="ND",
        url=linked.url,
        credential=linked.credential,
        share_alerts=True,
    )
    amend_after_filing(client_for, manager, site, org)  # an alert to share
    answers = []
    monkeypatch.setattr(tasks.push_anchor, "delay", lambda *a: answers.append(("anchor", tasks.push_anchor(*a))))
    monkeypatch.setattr(tasks.push_alerts, "delay", lambda *a: answers.append(("alerts", tasks.push_alerts(*a))))
    anchor_chains()
    anchor_chains()  # run again the same night: no event in between
    assert answers == [
        ("anchor", {"stored": 1, "already_held": 0}),
        ("alerts", {"stored": 1, "already_held": 0}),
        ("anchor", {"stored": 0, "already_held": 1}),
        ("alerts", {"stored": 0, "already_held": 1}),
    ]
    head = chain_head(org.pk)
    held = ReceivedAnchor.objects.get(licensee=licensee)
    assert (held.chain, held.seq, held.hash) == (head.chain, head.seq, head.hash)
    assert ReceivedAlert.objects.filter(licensee=licensee).count() == 1
    assert services.verify_against_registry(org.pk).ok

    filed = AuditEvent.objects.get(action="quarter.filed", organization_id=org.pk)
    _rewrite_and_rehash(head.chain, filed.seq, after={**filed.after, "reference": "forged"})
    check = services.verify_against_registry(org.pk)
    assert not check.ok and f"(chain {head.chain}), event #{head.seq}" in check.problem
    assert "the chain was rewritten" in check.problem
