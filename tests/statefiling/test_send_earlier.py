"""A quarter filed before the organization linked to its state's registry is sent when its gaming
manager asks (`manage.py send_earlier_filings`, or `connect_registry --send-earlier`), with its
amendments, audited, and never twice; linking alone sends nothing (the state may hold those
returns on paper). Anyone but a gaming manager of the organization is refused. The registry is
reachable in this process (registry_in_process, through conftest)."""

import pytest
from django.core.management import CommandError, call_command

from cardroom.models import Role
from core.models import AuditEvent
from registry import services as registry
from registry.models import ReceivedFiling
from statefiling import delivery
from statefiling.models import Submission

from .registry_in_process import URL
from .test_amendments_before_link import record_amendments

pytestmark = pytest.mark.usefixtures("quarter_played")


def _file_and_amend(client_for, manager, site, table, org):
    api = client_for(manager)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    return filed.json()["id"], record_amendments(api, site, table, org)


def _deliver_pending() -> list[str]:
    pending = Submission.objects.filter(delivered_at__isnull=True, refused=False).order_by("pk")
    return [delivery.deliver(pk) for pk in pending.values_list("pk", flat=True)]


def _connect(org, secret, manager, **options) -> None:
    """`connect_registry` for the organization's ND sites, as its gaming manager."""
    call_command(
        "connect_registry",
        organization=org.pk,
        jurisdiction="ND",
        url=URL,
        credential=secret,
        user=manager.user.username,
        **options,
    )


def test_earlier_quarters_go_only_when_the_gaming_manager_asks_with_their_amendments_and_once(
    in_process_registry, licensee, client_for, manager, cast, site, table, org
):
    filing_id, amendments = _file_and_amend(client_for, manager, site, table, org)
    secret = registry.issue_credential(acting_user=None, licensee=licensee).secret
    _connect(org, secret, manager)
    assert not Submission.objects.exists()  # linking alone sends no earlier quarter

    auditor = cast[Role.AUDITOR].user.username
    with pytest.raises(CommandError, match="House control: only a gaming manager of the organization"):
        call_command("send_earlier_filings", organization=org.pk, jurisdiction="ND", user=auditor)
    assert not Submission.objects.exists() and not AuditEvent.objects.filter(action__contains="earlier").exists()

    for _ in range(2):  # run twice: the second sends nothing
        call_command("send_earlier_filings", organization=org.pk, jurisdiction="ND", user=manager.user.username)
        assert set(_deliver_pending()) <= {"delivered"}
    queued = list(Submission.objects.order_by("pk"))
    assert [(s.filing_id, s.amendment_id) for s in queued] == [
        (filing_id, None),
        *((filing_id, a.pk) for a in amendments),
    ]
    assert ReceivedFiling.objects.count() == 3
    event = AuditEvent.objects.get(action="registry.earlier_filings_sent")
    assert event.actor_id == manager.user.pk
    assert event.after["filings"] == [filing_id] and event.after["amendments"] == [a.pk for a in amendments]


def test_connect_registry_send_earlier_sends_them_with_the_link(
    in_process_registry, licensee, client_for, manager, site, table, org
):
    filing_id, amendments = _file_and_amend(client_for, manager, site, table, org)
    secret = registry.issue_credential(acting_user=None, licensee=licensee).secret
    for run in range(2):  # run again (the same command, the same credential): nothing goes twice
        _connect(org, secret, manager, send_earlier=True)
        assert _deliver_pending() == (["delivered"] * 3 if run == 0 else [])
    assert ReceivedFiling.objects.count() == 3 and Submission.objects.count() == 3
    assert AuditEvent.objects.get(action="registry.earlier_filings_sent").after["filings"] == [filing_id]
    assert AuditEvent.objects.filter(action="registry.connected").count() == 2


def test_send_earlier_without_a_link_is_refused_naming_it(manager, org):
    with pytest.raises(CommandError, match="not linked to a registry for 'ND'"):
        call_command("send_earlier_filings", organization=org.pk, jurisdiction="ND", user=manager.user.username)
