"""The organization's side of electronic filing: where each pack's filings go (the agency's
registry and the credential it issued), the packages waiting to be delivered, and the
receipts the registry answered."""

from django.db import models

from accounting.models import FilingAmendment, QuarterFiling
from cardroom.models import Organization
from core import filing_package
from core.appendonly import AppendOnlyModel


class RegistryLink(models.Model):
    """The registry of the agency that receives the organization's filings for one pack's
    sites: its address and the credential the agency issued. A gaming manager sets it
    (`manage.py connect_registry`, audited); the credential is the organization's secret."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="+")
    jurisdiction = models.CharField(max_length=10)  # a pack's code
    url = models.URLField(max_length=300)  # the registry's base address, e.g. https://registry.nd.gov
    credential = models.CharField(max_length=200)
    active = models.BooleanField(default=True)
    # The organization's consent, given by its gaming manager when linking: its compliance alerts
    # of the pack's sites go to the registry with the nightly anchors (house control; the packs'
    # texts we hold do not oblige a licensee to report its internal alerts).
    share_alerts = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "jurisdiction"],
                condition=models.Q(active=True),
                name="statefiling_one_live_link_per_pack",
            )
        ]

    def __str__(self):
        return f"{self.jurisdiction} registry {self.url}"


class Submission(models.Model):
    """A filing package on its way to the registry (an outbox row written in the filing's own
    transaction, so no filing is lost to a crash or a network fault): retried with the same
    Idempotency-Key until a receipt arrives. Only its delivery state (with its link) moves.

    One per filed quarter (`amendment` empty) and one per amendment of it (`amendment` set,
    written in the amendment's transaction): an amendment's package names the original's
    receipt in `amends`, filled in before its first attempt once that receipt is kept. Not yet
    delivered when the gaming manager links the pack again, it goes under the new link, naming
    the organization as it then stands (`services.connect_registry`: only that envelope and the
    digest are rebuilt); once delivered, the package and its digest never change."""

    filing = models.ForeignKey(QuarterFiling, on_delete=models.PROTECT, related_name="submissions")
    amendment = models.OneToOneField(
        FilingAmendment, null=True, blank=True, on_delete=models.PROTECT, related_name="submission"
    )
    link = models.ForeignKey(RegistryLink, on_delete=models.PROTECT, related_name="+")
    idempotency_key = models.CharField(max_length=64, unique=True)
    package = models.JSONField()
    package_sha256 = models.CharField(max_length=64)
    queued_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    refused = models.BooleanField(default=False)  # the registry answered 4xx: a person must look
    # Not sent at its last attempt: the filed records it goes with no longer hash as filed
    # (`as_filed.altered`, named in `last_error`); tried again by the sweep, sent once set right.
    withheld = models.BooleanField(default=False)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["delivered_at", "refused"])]
        constraints = [
            models.UniqueConstraint(
                fields=["filing"],
                condition=models.Q(amendment__isnull=True),
                name="statefiling_one_original_per_filing",
            )
        ]

    def __str__(self):
        return f"Submission of {self.filing}"


class FilingReceipt(AppendOnlyModel):
    """The registry's receipt for a filed quarter: its number, the time the registry received
    it, the package digest it received and the receipt's own digest (its place in the
    registry's chain). Append-only: what the state acknowledged never changes."""

    filing = models.OneToOneField(QuarterFiling, on_delete=models.PROTECT, related_name="receipt")
    agency = models.CharField(max_length=200)
    receipt_number = models.CharField(max_length=40)
    received_at = models.DateTimeField()
    package_sha256 = models.CharField(max_length=64)
    receipt_sha256 = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()

    def __str__(self):
        return f"Receipt {self.receipt_number}"


class FiledDealers(AppendOnlyModel):
    """The dealers' hold of a filed quarter as it stood when the quarter was filed: each dealer's
    hold under the identifier the state issued them then, and how many dealt with none
    (`returns.dealer_holds`), with the SHA-256 of both (`digest`). Written in the filing's own
    transaction for every filed quarter, linked to a registry or not, so a package sent later
    (`services.send_earlier_filings`) names the identifiers and names as filed, not as they
    stand at sending. Append-only, like the filed figures beside it: what was filed never
    changes. A quarter filed before these rows were kept has none (never backfilled with
    today's identifiers, which would claim them as filed)."""

    filing = models.OneToOneField(QuarterFiling, on_delete=models.PROTECT, related_name="filed_dealers")
    dealers = models.JSONField(null=True)  # None: the pack names no identifier, or its games have no hold
    dealers_without_identifier = models.PositiveIntegerField(default=0)
    dealers_sha256 = models.CharField(max_length=64)
    frozen_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "filed dealers"

    def __str__(self):
        return f"Dealers' hold of {self.filing}"

    @staticmethod
    def digest(dealers: list[dict] | None, without_identifier: int) -> str:
        """SHA-256 of the frozen hold as canonical JSON (core.filing_package.digest)."""
        return filing_package.digest({"dealers": dealers, "dealers_without_identifier": without_identifier})


class AmendmentReceipt(AppendOnlyModel):
    """The registry's receipt for an amendment of a filed quarter: its own number, pointing
    back at the receipt of the filing it amends (`amends_receipt_number`). Append-only, like
    the filing's receipt."""

    amendment = models.OneToOneField(FilingAmendment, on_delete=models.PROTECT, related_name="receipt")
    filing = models.ForeignKey(QuarterFiling, on_delete=models.PROTECT, related_name="amendment_receipts")
    agency = models.CharField(max_length=200)
    receipt_number = models.CharField(max_length=40)
    amends_receipt_number = models.CharField(max_length=40)
    received_at = models.DateTimeField()
    package_sha256 = models.CharField(max_length=64)
    receipt_sha256 = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()

    def __str__(self):
        return f"Receipt {self.receipt_number} (amends {self.amends_receipt_number})"
