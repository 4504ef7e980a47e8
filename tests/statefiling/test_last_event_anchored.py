"""A filed row whose row event is the last of its chain (right after filing: nothing links to it
yet), or whose every later event is rehashed with it, can be rewritten with its event's record,
digest and hash alike, and the queued package with it: each still reads as the other records, and
the per-row check (`as_filed`, through `core.audit_verify.verify_rows`) passed it. Before a package
is sent, the filed rows' events are now read against the heads the state registry holds of their
chain, beyond the organization's reach, once a package (one request a registry, whatever the rows),
walking the chain from the earlier event to the first such head: a head with another hash, or a
head past the chain's end (the events after it removed), withholds the package, naming the row (or
every filed row the break follows, in one line) and the registry's anchor. Where the registry holds
no head at or after them, nothing outside the organization covers them yet: sent (the limit, until
the next anchor). The registry runs in this process (registry_in_process)."""

import pytest

from core import filing_package
from core.audit import chain_head
from core.audit_anchors import anchor_chains
from core.audit_rows import canonical_row, row_digest, row_fields
from core.audit_verify import verify_rows
from core.models import AuditEvent
from floor.models import Slip
from registry.models import ReceivedAnchor, ReceivedFiling
from statefiling import as_filed, services, tasks
from statefiling.delivery import ANCHORS_PATH
from statefiling.models import FiledDealers, Submission
from tests.core.test_audit_tamper import _rewrite_and_rehash, _tamper

from .registry_in_process import URL
from .test_filed_digest import DEALERS, FILINGS, ND_RULE, filed_q3, posted, rewrite_dealers, row_event_seq

pytestmark = pytest.mark.usefixtures("quarter_played")


def anchor_at_the_registry(monkeypatch, organization_id: int) -> None:
    """The nightly anchor (`anchor_chains`), its push to the registry run at once (`queue_anchors`):
    the registry holds the chain's head."""
    monkeypatch.setattr(tasks.push_anchor, "delay", tasks.push_anchor)
    anchor_chains()
    head = chain_head(organization_id)
    assert ReceivedAnchor.objects.get(chain=head.chain, seq=head.seq).hash == head.hash


def forge_hold(submission: Submission, frozen: FiledDealers, without_identifier: int) -> AuditEvent:
    """As someone who can write the database would: the frozen hold and its digest, its row
    event's record and digest and the event's own hash (nothing after it to rehash), and the
    queued package with its digest, all rewritten alike. The event as rewritten."""
    rewrite_dealers(submission.filing_id, without_identifier)
    row = FiledDealers.objects.get(pk=frozen.pk)
    fields = row_fields(FiledDealers)
    canonical = canonical_row(fields, [getattr(row, f.attname) for f in fields])
    event = AuditEvent.objects.get(row_table=DEALERS, row_pk=frozen.pk)
    _rewrite_and_rehash(event.chain, event.seq, after=canonical, row_digest=row_digest(canonical))
    package = {**submission.package, "dealers_without_identifier": without_identifier}
    Submission.objects.filter(pk=submission.pk).update(package=package, package_sha256=filing_package.digest(package))
    return AuditEvent.objects.get(pk=event.pk)


def filed_with_its_hold_last(client_for, manager, site) -> tuple:
    """The quarter filed (its package queued, not yet sent) and its frozen hold, whose row event
    is the head of the organization's chain."""
    _, submission, _, frozen = filed_q3(client_for, manager, site)
    event = AuditEvent.objects.get(row_table=DEALERS, row_pk=frozen.pk)
    assert chain_head(site.organization_id).seq == event.seq
    return submission, frozen, event


def delivered_asking_once(submission: Submission, registry) -> str:
    """The package's delivery attempt (the task), the registry asked for its heads of the filed
    rows' chain once, not once a filed row: its outcome."""
    asked_before = len(registry.requests)
    outcome = tasks.deliver_filing(submission.pk)
    asked = [path for method, path in registry.requests[asked_before:] if path.startswith(ANCHORS_PATH)]
    assert len(asked) == 1, asked
    return outcome


def withheld(submission: Submission, registry) -> str:
    """Not sent, nothing posted: the problem kept on the submission."""
    assert delivered_asking_once(submission, registry) == "withheld"
    assert posted(registry) == [] and not ReceivedFiling.objects.exists()
    return Submission.objects.get(pk=submission.pk).last_error


def test_a_hold_rewritten_with_its_last_event_is_withheld_against_the_registrys_anchor(
    linked, in_process_registry, client_for, manager, site, org, monkeypatch
):
    submission, frozen, filed = filed_with_its_hold_last(client_for, manager, site)
    anchor_at_the_registry(monkeypatch, org.pk)
    forged = forge_hold(submission, frozen, frozen.dealers_without_identifier + 2)
    queued = Submission.objects.get(pk=submission.pk)  # each reads as the other records: not found at home
    assert as_filed.altered(queued.filing, FiledDealers.objects.get(pk=frozen.pk), queued) == ""

    shown = withheld(submission, in_process_registry)
    assert shown.startswith(f"{ND_RULE}: ")
    assert (
        f"organization {org.pk} (chain org-{org.pk}), table {DEALERS} id {frozen.pk}, event #{filed.seq}: "
        f"its hash {forged.hash} differs from the anchor of "
    ) in shown
    assert shown.endswith(
        f"(the ND registry at {URL}), {filed.hash}: the chain was rewritten after it was anchored: {as_filed.NOT_SENT}."
    )


def test_a_hold_whose_later_events_were_removed_to_make_it_last_is_withheld_against_the_registrys_anchor(
    linked, in_process_registry, client_for, manager, site, org, monkeypatch
):
    submission, frozen, filed = filed_with_its_hold_last(client_for, manager, site)
    services.connect_registry(  # an audited act after the filing: the head moves on
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=linked.credential
    )
    head = chain_head(org.pk)
    assert head.seq > filed.seq
    anchor_at_the_registry(monkeypatch, org.pk)
    table = AuditEvent._meta.db_table
    _tamper(table, f"DELETE FROM {table} WHERE chain = %s AND seq > %s", [filed.chain, filed.seq])
    forge_hold(submission, frozen, frozen.dealers_without_identifier + 2)

    shown = withheld(submission, in_process_registry)
    assert shown.startswith(f"{ND_RULE}: ")
    assert (  # after both filed rows: named once, at both
        f"organization {org.pk} (chain org-{org.pk}), table {FILINGS} id {submission.filing_id}, "
        f"event #{row_event_seq(submission.filing)}, and table {DEALERS} id {frozen.pk}, event #{filed.seq}: "
        f"anchored event #{head.seq} is missing (the anchor of "
    ) in shown
    assert f"(the ND registry at {URL})); the chain ends at #{filed.seq}: events were removed from its end" in shown
    assert shown.count("events were removed") == 1


def test_a_hold_rewritten_with_its_event_and_every_later_event_rehashed_is_withheld_against_the_registrys_anchor(
    linked, in_process_registry, client_for, manager, site, org, monkeypatch
):
    """The hold's event has successors, all rehashed with it, so every link holds and the event
    read alone passes: the chain walked from it to the registry's next head finds that head's
    event no longer has the hash the registry holds. The filing's own row, whose event comes
    before it, is named with it in the one line: the chain after both no longer reads as anchored,
    one break named once."""
    submission, frozen, filed = filed_with_its_hold_last(client_for, manager, site)
    services.connect_registry(  # an audited act after the filing: the hold's event has a successor
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=linked.credential
    )
    anchor_at_the_registry(monkeypatch, org.pk)
    head = chain_head(org.pk)
    assert head.seq > filed.seq
    forge_hold(submission, frozen, frozen.dealers_without_identifier + 2)
    rehashed = AuditEvent.objects.get(chain=head.chain, seq=head.seq)
    assert rehashed.hash != head.hash and rehashed.prev_hash == AuditEvent.objects.get(pk=filed.pk).hash

    shown = withheld(submission, in_process_registry)
    assert (
        f"organization {org.pk} (chain org-{org.pk}), table {FILINGS} id {submission.filing_id}, "
        f"event #{row_event_seq(submission.filing)}, and table {DEALERS} id {frozen.pk}, event #{filed.seq}: "
        f"event #{head.seq} after them: its hash {rehashed.hash} differs from the anchor of "
    ) in shown
    assert f"(the ND registry at {URL}), {head.hash}: the chain was rewritten after it was anchored" in shown
    assert shown.count(f"event #{head.seq} after") == shown.count("the chain was rewritten") == 1


def test_without_an_anchor_at_or_after_it_a_hold_rewritten_with_its_last_event_is_sent_which_is_the_limit(
    linked, in_process_registry, client_for, manager, site
):
    """Nothing outside the organization holds the event yet: the next anchor covers it (and the
    nightly verification reads the chain against it); until then the rewrite reads as filed."""
    submission, frozen, _ = filed_with_its_hold_last(client_for, manager, site)
    forge_hold(submission, frozen, frozen.dealers_without_identifier + 2)
    assert delivered_asking_once(submission, in_process_registry) == "delivered"
    assert ReceivedFiling.objects.get().package["dealers_without_identifier"] == frozen.dealers_without_identifier + 2


def test_rows_written_on_both_sides_of_an_anchor_are_each_read_against_a_head_at_or_after_them(
    linked, in_process_registry, client_for, manager, site, org, monkeypatch
):
    """Rows of one chain checked together (`verify_rows`) whose events lie on both sides of a head
    the registry holds: a slip of the quarter played, anchored, then the quarter filed and anchored
    again. The walk from the slip's event reaches only the first head; the hold after it, rewritten
    with its event and every later event rehashed, is read against the second head, asked for from
    the hold's own event: named, not passed because the slip's walk found its chain whole."""
    slip = Slip.objects.filter(table__site=site).order_by("pk").first()
    anchor_at_the_registry(monkeypatch, org.pk)
    first_head = chain_head(org.pk)
    submission, frozen, filed = filed_with_its_hold_last(client_for, manager, site)
    assert filed.seq > first_head.seq
    services.connect_registry(  # an audited act after the filing: the hold's event has a successor
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=linked.credential
    )
    anchor_at_the_registry(monkeypatch, org.pk)
    head = chain_head(org.pk)
    forge_hold(submission, frozen, frozen.dealers_without_identifier + 2)
    asked_before = len(in_process_registry.requests)

    (problem,) = verify_rows([(Slip, slip.pk), (FiledDealers, frozen.pk)], registries=True)
    assert (problem.table, problem.row_id, problem.seq) == (DEALERS, frozen.pk, filed.seq)
    assert problem.reason.startswith(f"event #{head.seq} after it: its hash ")
    asked = [path for _, path in in_process_registry.requests[asked_before:] if path.startswith(ANCHORS_PATH)]
    assert len(asked) == 2, asked  # from the slip's event, then from the hold's, past the first head
    assert verify_rows([(Slip, slip.pk)], registries=True) == []  # the slip itself reads as anchored
