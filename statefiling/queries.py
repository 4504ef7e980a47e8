"""What the organization's pages and reports say about a filed quarter at the state's registry."""

from .models import FilingReceipt, Submission


def receipt_statement(filed) -> str:
    """The state registry's receipt of a filed quarter, in one sentence; the delivery state
    while it is on its way; empty where the quarter is not filed or no registry is connected."""
    if filed is None:  # accounting.books.Filed: the quarter is not filed
        return ""
    receipt = FilingReceipt.objects.filter(filing_id=filed.filing_id).first()
    if receipt is not None:
        return (
            f"Received by {receipt.agency or 'the state registry'} on {receipt.received_at:%Y-%m-%d %H:%M} UTC, "
            f"receipt {receipt.receipt_number} (receipt SHA-256 {receipt.receipt_sha256}; "
            f"package SHA-256 {receipt.package_sha256})."
        )
    submission = Submission.objects.filter(filing_id=filed.filing_id).first()
    if submission is None:
        return ""
    if submission.refused:
        return f"Refused by the state registry: {submission.last_error}"
    tried = f" ({submission.attempts} attempt(s); last: {submission.last_error})" if submission.attempts else ""
    return f"Sent to the state registry, waiting for its receipt{tried}."
