"""Filing with the state's registry: the package a filed quarter sends, its delivery with
retries until the receipt arrives, the chain heads sent with the nightly anchors, and
verification of the organization's chain against the heads the registry holds.

House controls (the regulations we hold do not describe electronic filing): a filing never
waits on the network (the package is queued in the filing's transaction and delivered by a
Celery task); one Idempotency-Key per package, so a retry can never file twice.
"""

import uuid
from dataclasses import dataclass
from datetime import UTC, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounting.models import QuarterFiling
from cardroom.access import require_gaming_manager
from cardroom.models import Organization
from core import filing_package, hooks
from core.audit import chain_head, record_event
from core.models import AuditEvent
from core.rules import HOUSE_CONTROL
from packs.registry import PACKS

from . import client
from .models import FilingReceipt, RegistryLink, Submission

FILINGS_PATH = "/registry/api/v1/filings/"
ANCHORS_PATH = "/registry/api/v1/anchors/"
PAGE = 500

# --- The link to a registry ------------------------------------------------------------------------


def connect_registry(
    *, acting_user, organization: Organization, jurisdiction: str, url: str, credential: str
) -> RegistryLink:
    """Send the organization's filings for `jurisdiction`'s sites to the registry at `url`
    with the credential its agency issued; replaces the pack's earlier link (audited, the
    credential itself is never written in the audit log)."""
    require_gaming_manager(acting_user, organization.pk, action="connect the organization to a state registry")
    if jurisdiction not in PACKS:
        raise ValidationError({"jurisdiction": f"{HOUSE_CONTROL}: no pack {jurisdiction!r}."})
    problem = client.check_url(url or "")
    if problem:
        raise ValidationError({"url": f"{HOUSE_CONTROL}: {problem}"})
    if not 8 <= len(credential or "") <= 200:
        raise ValidationError({"credential": f"{HOUSE_CONTROL}: give the credential the agency issued."})
    with transaction.atomic():
        RegistryLink.objects.filter(organization=organization, jurisdiction=jurisdiction, active=True).update(
            active=False
        )
        link = RegistryLink.objects.create(
            organization=organization, jurisdiction=jurisdiction, url=url, credential=credential
        )
        record_event(
            actor=acting_user,
            action="registry.connected",
            obj=link,
            organization_id=organization.pk,
            after={"jurisdiction": jurisdiction, "url": url, "credential": credential[:12] + "..."},
        )
    return link


def live_link(organization_id: int, jurisdiction: str) -> RegistryLink | None:
    return RegistryLink.objects.filter(organization_id=organization_id, jurisdiction=jurisdiction, active=True).first()


# --- Filing ----------------------------------------------------------------------------------------


def build_package(filing: QuarterFiling, head) -> dict:
    """The version-1 filing package of a filed quarter (core.filing_package)."""
    site = filing.site
    organization = site.organization
    reports = [d for digests in hooks.REPORT_DIGESTS.answers() for d in digests(site.pk, filing.start, filing.end)]
    return {
        "format": filing_package.FORMAT,
        "organization": {"name": organization.name, "licence_number": organization.licence_number},
        "site": {"id": site.pk, "name": site.name, "jurisdiction": site.jurisdiction},
        "quarter": filing.quarter,
        "filed_at": filing.filed_at.astimezone(UTC).isoformat(),
        "filed_by": filing.filed_by.initials,
        "reference": filing.reference,
        "figures": filing.figures,
        "figures_sha256": filing.figures_sha256,
        "tax": filing.figures.get("tax"),
        "chain_head": {"chain": head.chain, "seq": head.seq, "hash": head.hash} if head else None,
        "reports": reports,
        "amends": None,
    }


def queue_filing(filing: QuarterFiling) -> Submission | None:
    """Inside the filing's transaction: queue its package for the registry of the site's pack
    (none configured: nothing to send). Delivered by a Celery task after the commit."""
    site = filing.site
    link = live_link(site.organization_id, site.jurisdiction)
    if link is None:
        return None
    package = build_package(filing, chain_head(site.organization_id))
    submission = Submission.objects.create(
        filing=filing,
        link=link,
        idempotency_key=uuid.uuid4().hex,
        package=package,
        package_sha256=filing_package.digest(package),
        queued_at=timezone.now(),
    )
    from .tasks import deliver_filing

    deliver_filing.delay_on_commit(submission.pk)
    return submission


def deliver(submission_id: int) -> str:
    """Send the package once: "delivered" (the receipt is kept), "pending" (the registry did not
    answer: Unreachable is raised for the task to retry) or "refused" (4xx: kept for a person)."""
    submission = Submission.objects.select_related("link", "filing__site").get(pk=submission_id)
    if submission.delivered_at or submission.refused:
        return "delivered" if submission.delivered_at else "refused"
    link = submission.link
    try:
        _status, answer = client.call(
            link.url,
            link.credential,
            "POST",
            FILINGS_PATH,
            {"package": submission.package},
            {"Idempotency-Key": submission.idempotency_key},
        )
    except client.Refused as exc:
        _attempted(submission, str(exc), refused=True)
        return "refused"
    except client.Unreachable as exc:
        _attempted(submission, str(exc))
        raise
    _record_receipt(submission, answer)
    return "delivered"


def _attempted(submission: Submission, error: str, *, refused: bool = False) -> None:
    Submission.objects.filter(pk=submission.pk).update(
        attempts=F("attempts") + 1, last_attempt_at=timezone.now(), last_error=error[:2000], refused=refused
    )


def record_receipt(submission: Submission, answer: dict) -> FilingReceipt:
    """Keep the registry's answer to a submission as its receipt (the demo, which delivers in
    the same process, and `deliver`)."""
    return _record_receipt(submission, answer)


def _record_receipt(submission: Submission, answer: dict) -> FilingReceipt:
    if answer.get("package_sha256") != submission.package_sha256:
        _attempted(submission, f"the receipt names another package: {answer!r}"[:2000], refused=True)
        raise client.Refused(200, "the receipt's package digest is not the package sent")
    filing = submission.filing
    with transaction.atomic():
        # The task and the sweep may deliver the same package at once (the registry answers
        # both with the same receipt): the first to lock the row keeps it.
        if Submission.objects.select_for_update().filter(pk=submission.pk, delivered_at__isnull=False).exists():
            return FilingReceipt.objects.get(filing=filing)
        receipt = FilingReceipt.objects.create(
            filing=filing,
            agency=str(answer.get("agency", ""))[:200],
            receipt_number=str(answer["receipt_number"])[:40],
            received_at=parse_datetime(answer["received_at"]),
            package_sha256=answer["package_sha256"],
            receipt_sha256=str(answer["receipt_sha256"])[:64],
            recorded_at=timezone.now(),
        )
        Submission.objects.filter(pk=submission.pk).update(
            attempts=F("attempts") + 1, last_attempt_at=timezone.now(), delivered_at=timezone.now(), last_error=""
        )
        record_event(
            actor=None,
            action="quarter.receipt_received",
            obj=receipt,
            organization_id=filing.site.organization_id,
            site_id=filing.site_id,
            after={"receipt_number": receipt.receipt_number, "package_sha256": receipt.package_sha256},
        )
    return receipt


SWEEP_AFTER = timedelta(minutes=5)


def pending_submissions():
    """Packages not yet delivered nor refused that failed once or were queued a while ago,
    oldest first (the sweep retries them; a fresh one is its own task's)."""
    fresh = timezone.now() - SWEEP_AFTER
    return Submission.objects.filter(
        Q(attempts__gt=0) | Q(queued_at__lte=fresh), delivered_at__isnull=True, refused=False
    ).order_by("queued_at")


# --- Anchors ---------------------------------------------------------------------------------------


def queue_anchors(heads) -> None:
    """After the nightly anchor: send each organization's head to every registry it files with."""
    by_org = {h.organization_id: h for h in heads if h.organization_id is not None}
    from .tasks import push_anchor

    for link in RegistryLink.objects.filter(active=True, organization_id__in=by_org):
        head = by_org[link.organization_id]
        push_anchor.delay(link.pk, anchor_json(head))


def anchor_json(head) -> dict:
    return {
        "chain": head.chain,
        "seq": head.seq,
        "hash": head.hash,
        "head_at": head.occurred_at.astimezone(UTC).isoformat(),
    }


def push_anchors(link: RegistryLink, anchors: list[dict]) -> dict:
    """Send chain heads to the link's registry; Unreachable or Refused as the client raises."""
    _status, answer = client.call(link.url, link.credential, "POST", ANCHORS_PATH, {"anchors": anchors})
    return answer


# --- Verification against the registry -------------------------------------------------------------


@dataclass(frozen=True)
class RegistryCheck:
    ok: bool
    heads: int
    problem: str = ""


def registry_heads(link: RegistryLink) -> list[dict]:
    """Every head the registry holds for the organization, oldest first, page by page."""
    heads, offset = [], 0
    while True:
        _status, page = client.call(link.url, link.credential, "GET", f"{ANCHORS_PATH}?limit={PAGE}&offset={offset}")
        rows = page.get("results", [])
        heads.extend(rows)
        if not page.get("next") or not rows:
            return heads
        offset += len(rows)


def verify_against_registry(organization_id: int | None = None) -> RegistryCheck:
    """Every head each registry holds is still in the organization's chain at its seq with its
    hash; names the first that no longer matches (rewriting history and the local anchors
    together is found here: the registry's copy is beyond the organization's reach)."""
    links = RegistryLink.objects.filter(active=True).select_related("organization").order_by("organization_id", "pk")
    if organization_id is not None:
        links = links.filter(organization_id=organization_id)
    checked = 0
    for link in links:
        try:
            heads = registry_heads(link)
        except (client.Unreachable, client.Refused) as exc:
            return RegistryCheck(
                False, checked, f"the {link.jurisdiction} registry at {link.url} did not answer: {exc}"
            )
        problem = _first_mismatch(link, heads)
        if problem:
            return RegistryCheck(False, checked, problem)
        checked += len(heads)
    return RegistryCheck(True, checked)


def _first_mismatch(link: RegistryLink, heads: list[dict]) -> str:
    """One query per chain: the hashes of the events at the seqs the registry holds."""
    by_chain: dict[str, list[dict]] = {}
    for head in heads:
        by_chain.setdefault(head["chain"], []).append(head)
    for chain, held in sorted(by_chain.items()):
        held.sort(key=lambda h: h["seq"])
        ours = dict(AuditEvent.objects.filter(chain=chain, seq__in=[h["seq"] for h in held]).values_list("seq", "hash"))
        for head in held:
            where = (
                f"organization {link.organization_id} (chain {chain}), event #{head['seq']}: the {link.jurisdiction} "
                f"registry's head of {head.get('head_at', '')} (received {head.get('received_at', '')})"
            )
            if head["seq"] not in ours:
                return f"{where} is missing from the chain: events were removed from its end"
            if ours[head["seq"]] != head["hash"]:
                return f"{where} has hash {head['hash']}, the chain now {ours[head['seq']]}: the chain was rewritten"
    return ""
