"""Delivering a queued filing package to the state's registry and keeping its receipt, and
sending chain heads: what the Celery tasks (`statefiling.tasks`) run, apart from the services
that queue them (`statefiling.services`), so neither imports the other back."""

import base64
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core import filing_package, hooks
from core.audit import record_event

from . import as_filed, client
from .models import AmendmentReceipt, FilingReceipt, RegistryLink, Submission

FILINGS_PATH = "/registry/api/v1/filings/"
ANCHORS_PATH = "/registry/api/v1/anchors/"
ALERTS_PATH = "/registry/api/v1/alerts/"


def post_filing(link: RegistryLink, body: dict, idempotency_key: str) -> dict:
    """POST a filing's body ({package, pdfs}) to the link's registry; its answer, the receipt."""
    _status, answer = client.call(
        link.url, link.credential, "POST", FILINGS_PATH, body, {"Idempotency-Key": idempotency_key}
    )
    return answer


def deliver(submission_id: int, send=post_filing) -> str:
    """Send the package once with the quarter's PDF (`quarterly_pdfs`): "delivered" (the receipt
    is kept), "pending" (the registry did not answer: Unreachable is raised for the task to retry),
    "refused" (4xx: kept for a person) or "withheld" (not sent: the filed records it goes with
    were altered, `_withheld`; the sweep tries again). `send(link, body, key)` answers the receipt: over
    HTTP, or in this process where the registry is this deployment (the demo)."""
    submission = Submission.objects.select_related("link", "filing__site").get(pk=submission_id)
    if submission.delivered_at or submission.refused:
        return "delivered" if submission.delivered_at else "refused"
    if _withheld(submission):
        return "withheld"
    if submission.amendment_id:
        _after_earlier_amendments(submission)
        if not submission.package.get("amends"):
            try:
                _point_back(submission)
            except FilingRefused as exc:
                _attempted(submission, str(exc), refused=True)
                return "refused"
    try:
        body = {"package": submission.package, "pdfs": quarterly_pdfs(submission)}
        answer = send(submission.link, body, submission.idempotency_key)
    except client.Refused as exc:
        _attempted(submission, str(exc), refused=True)
        return "refused"
    except client.Unreachable as exc:
        _attempted(submission, str(exc))
        raise
    _record_receipt(submission, answer)
    return "delivered"


PDF_KINDS = ("quarterly",)  # the filed quarter's own report goes with the package, byte for byte


def quarterly_pdfs(submission: Submission) -> list[dict]:
    """The latest quarterly report PDF among those the package lists, as the registry takes it
    ({pdf_sha256, content_base64}); none when the quarter's report was not generated before the
    filing. Read from the reports' store at each attempt (the outbox keeps the digest only)."""
    listed = [r for r in submission.package.get("reports") or [] if r.get("kind") in PDF_KINDS]
    if not listed:
        return []
    sha = listed[-1]["pdf_sha256"]
    content = hooks.REPORT_PDF(submission.filing.site_id, sha)
    return [] if content is None else [{"pdf_sha256": sha, "content_base64": base64.b64encode(content).decode()}]


def _after_earlier_amendments(submission: Submission) -> None:
    """Amendments of one filing reach the registry in the order they were queued (recorded): one
    waits while an earlier one is neither delivered nor refused (Unreachable: retried)."""
    earlier = Submission.objects.filter(
        filing_id=submission.filing_id,
        amendment__isnull=False,
        pk__lt=submission.pk,
        delivered_at__isnull=True,
        refused=False,
    )
    if earlier.exists():
        _attempted(submission, "waiting for an earlier amendment of the filing to be delivered")
        raise client.Unreachable("an earlier amendment of the filing is not delivered yet")


class FilingRefused(Exception):
    """The registry refused the filing an amendment amends: nothing there for it to point back to."""


def _point_back(submission: Submission) -> None:
    """An amendment's package names the receipt of the filing it amends; queued before that
    receipt came, it waits for it (Unreachable: retried like a registry that did not answer).
    Where the registry refused the filing itself (every package of it refused), no receipt will
    come: the amendment is refused with it (FilingRefused), kept for a person as the filing is,
    and both go again when the organization links again (`services._resend_undelivered`), rather
    than tried at every sweep for ever."""
    number = FilingReceipt.objects.filter(filing_id=submission.filing_id).values_list("receipt_number", flat=True)
    if not number:
        originals = Submission.objects.filter(filing_id=submission.filing_id, amendment__isnull=True)
        if originals.exists() and not originals.filter(refused=False).exists():
            raise FilingRefused("the registry refused the filing it amends; it goes again with it on a new link")
        _attempted(submission, "waiting for the registry's receipt of the filing it amends")
        raise client.Unreachable("the filing it amends has no receipt yet")
    package = {**submission.package, "amends": number[0]}
    submission.package, submission.package_sha256 = package, filing_package.digest(package)
    Submission.objects.filter(pk=submission.pk).update(package=package, package_sha256=submission.package_sha256)


def _withheld(submission: Submission) -> bool:
    """Before each attempt: the filing's figures and frozen dealers' hold still hash as filed and
    read as their row events recorded them, those events also against the heads the state
    registries hold of their chain, once (`as_filed.read(registries=True)`), and an original
    package carries them. Else nothing is sent: the attempt is kept with the problem named (the
    quarter's page and the API show it), audited the first time it is found, and the sweep tries
    again; once the rows are set right the same package goes under its Idempotency-Key (House
    control: what reaches the state is what was filed)."""
    filing = submission.filing
    _, problem = as_filed.read(filing, None if submission.amendment_id else submission, registries=True)
    if not problem:
        return False
    with transaction.atomic():
        _attempted(submission, problem, withheld=True)
        if not submission.withheld or submission.last_error != problem[:2000]:
            record_event(
                actor=None,
                action="quarter.package_withheld",
                obj=submission,
                organization_id=filing.site.organization_id,
                site_id=filing.site_id,
                after={"filing": filing.pk, "amendment": submission.amendment_id, "problem": problem},
            )
    return True


def _attempted(submission: Submission, error: str, *, refused: bool = False, withheld: bool = False) -> None:
    Submission.objects.filter(pk=submission.pk).update(
        attempts=F("attempts") + 1,
        last_attempt_at=timezone.now(),
        last_error=error[:2000],
        refused=refused,
        withheld=withheld,
    )


def _record_receipt(submission: Submission, answer: dict) -> FilingReceipt | AmendmentReceipt:
    amends = submission.package.get("amends")
    if answer.get("package_sha256") != submission.package_sha256 or answer.get("amends") != amends:
        _attempted(submission, f"the receipt names another package: {answer!r}"[:2000], refused=True)
        raise client.Refused(200, "the receipt's package digest is not the package sent")
    filing = submission.filing
    model = AmendmentReceipt if submission.amendment_id else FilingReceipt
    with transaction.atomic():
        # The task and the sweep may deliver the same package at once (the registry answers
        # both with the same receipt): the first to lock the row keeps it.
        if Submission.objects.select_for_update().filter(pk=submission.pk, delivered_at__isnull=False).exists():
            if submission.amendment_id:
                return AmendmentReceipt.objects.get(amendment_id=submission.amendment_id)
            return FilingReceipt.objects.get(filing=filing)
        values = {
            "filing": filing,
            "agency": str(answer.get("agency", ""))[:200],
            "receipt_number": str(answer["receipt_number"])[:40],
            "received_at": parse_datetime(answer["received_at"]),
            "package_sha256": answer["package_sha256"],
            "receipt_sha256": str(answer["receipt_sha256"])[:64],
            "recorded_at": timezone.now(),
        }
        if submission.amendment_id:
            values.update(amendment_id=submission.amendment_id, amends_receipt_number=amends)
        receipt = model.objects.create(**values)
        Submission.objects.filter(pk=submission.pk).update(
            attempts=F("attempts") + 1,
            last_attempt_at=timezone.now(),
            delivered_at=timezone.now(),
            last_error="",
            withheld=False,
        )
        record_event(
            actor=None,
            action="quarter.amendment_receipt_received" if submission.amendment_id else "quarter.receipt_received",
            obj=receipt,
            organization_id=filing.site.organization_id,
            site_id=filing.site_id,
            after={
                "receipt_number": receipt.receipt_number,
                "package_sha256": receipt.package_sha256,
                "amends": amends,
            },
        )
    return receipt


SWEEP_AFTER = timedelta(minutes=5)


def pending_submissions():
    """Packages not yet delivered nor refused that failed once or were queued a while ago,
    oldest first (the sweep retries them; a fresh one is its own task's)."""
    fresh = timezone.now() - SWEEP_AFTER
    return Submission.objects.filter(
        Q(attempts__gt=0) | Q(queued_at__lte=fresh), delivered_at__isnull=True, refused=False
    ).order_by("queued_at", "pk")


def push_anchors(link: RegistryLink, anchors: list[dict]) -> dict:
    """Send chain heads to the link's registry; Unreachable or Refused as the client raises."""
    _status, answer = client.call(link.url, link.credential, "POST", ANCHORS_PATH, {"anchors": anchors})
    return answer


def push_alerts(link: RegistryLink, alerts: list[dict]) -> dict:
    """Send compliance alerts to the link's registry; Unreachable or Refused as the client raises."""
    _status, answer = client.call(link.url, link.credential, "POST", ALERTS_PATH, {"alerts": alerts})
    return answer
