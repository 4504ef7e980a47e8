"""What the organization's pages and reports say about a filed quarter at the state's registry."""

from dataclasses import dataclass

from core.moments import shown
from core.plurals import plural

from .models import AmendmentReceipt, FilingReceipt, Submission


def receipt_statement(filed, site) -> str:
    """The state registry's receipt of a filed quarter, in one sentence (its time the site's
    local time, as every filing's); the delivery state while it is on its way; empty where the
    quarter is not filed or no registry is connected."""
    if filed is None:  # accounting.books.Filed: the quarter is not filed
        return ""
    receipt = FilingReceipt.objects.filter(filing_id=filed.filing_id).first()
    if receipt is not None:
        return (
            f"Received by {receipt.agency or 'the state registry'} on {shown(site, receipt.received_at)}, "
            f"receipt {receipt.receipt_number} (receipt SHA-256 {receipt.receipt_sha256}; "
            f"package SHA-256 {receipt.package_sha256})."
        )
    submission = Submission.objects.filter(filing_id=filed.filing_id, amendment__isnull=True).first()
    return _on_its_way(submission) if submission else ""


def _on_its_way(submission: Submission) -> str:
    if submission.withheld:
        return f"Not sent to the state registry: {submission.last_error}"
    if submission.refused:
        return f"Refused by the state registry: {submission.last_error}"
    tried = f" ({plural(submission.attempts, 'attempt')}; last: {submission.last_error})" if submission.attempts else ""
    return f"Sent to the state registry, waiting for its receipt{tried}."


@dataclass(frozen=True)
class AmendmentAtRegistry:
    amendment_id: int
    label: str  # "Amendment 4": its figure and change are listed in words with the filing (accounting.books)
    statement: str  # its receipt, or where it is on its way


def amendment_statements(filed, site) -> list[AmendmentAtRegistry]:
    """Each amendment of a filed quarter sent to the state's registry, with its receipt (pointing
    back at the filing's) or its delivery state, dated in the site's local time; two queries."""
    if filed is None:
        return []
    receipts = {r.amendment_id: r for r in AmendmentReceipt.objects.filter(filing_id=filed.filing_id)}
    submissions = (
        Submission.objects.filter(filing_id=filed.filing_id, amendment__isnull=False)
        .select_related("amendment")
        .order_by("amendment__recorded_at", "amendment_id")
    )
    out = []
    for s in submissions:
        a, receipt = s.amendment, receipts.get(s.amendment_id)
        # Its figure and change are in words beside it (accounting.books.filing_amendment_json).
        label = f"Amendment {a.pk}"
        statement = (
            f"Received by {receipt.agency or 'the state registry'} on {shown(site, receipt.received_at)}, "
            f"receipt {receipt.receipt_number} amending {receipt.amends_receipt_number} "
            f"(receipt SHA-256 {receipt.receipt_sha256})."
            if receipt
            else _on_its_way(s)
        )
        out.append(AmendmentAtRegistry(a.pk, label, statement))
    return out
