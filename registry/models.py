"""The regulator's side: an agency, its own users, the licensees it issues credentials to, and
what they sent it (filed quarters and audit chain heads).

The registry identifies a licensee by the credential it issued, never by the organization's
rows: a registry deployment holds no organization's data but what was filed with it, so this
app imports no organization-side app and runs alone (tests/core/test_layers.py).
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from core.appendonly import AppendOnlyModel
from core.rules import HOUSE_CONTROL
from packs import get_pack

GENESIS = "0" * 64
# One sentence whichever finds the licence taken: the registration's check and the database's
# constraint (core.database_refusals), so two registrations sent at once read as one.
LICENCE_TAKEN = (
    f"{HOUSE_CONTROL}: the agency has registered this licence number already, whatever its case; a licence "
    "identifies one licensee at the agency."
)


class Agency(models.Model):
    """A state's gaming regulator: its licensees file with it under its jurisdiction's pack."""

    name = models.CharField(max_length=200, unique=True)
    jurisdiction = models.CharField(max_length=10)  # a pack's code (packs.registry), e.g. "ND"
    contact = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "agencies"

    def __str__(self):
        return self.name

    @property
    def time_zone(self) -> str:
        """Its state's (the pack's `state_time_zone`): the registry's times and dates are the
        agency's, whatever the server's zone."""
        return get_pack(self.jurisdiction).state_time_zone

    @property
    def rules_name(self) -> str:
        """Its pack's name as its staff read it ("New York games of chance"), not the pack's code."""
        return get_pack(self.jurisdiction).name


class RegulatorRole(models.TextChoices):
    STATE_AUDITOR = "state_auditor", "State auditor"
    STATE_SUPERVISOR = "state_supervisor", "State supervisor"


class Regulator(models.Model):
    """A login of the agency's staff. It belongs to no organization: it reads what its agency
    received, from every licensee of the agency's jurisdiction, and nothing else."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="regulator")
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="regulators")
    role = models.CharField(max_length=20, choices=RegulatorRole.choices)

    def __str__(self):
        return f"{self.user.get_username()} ({self.get_role_display()}, {self.agency})"

    @property
    def supervises(self) -> bool:
        """A state supervisor registers the agency's licensees and issues and revokes their
        credentials (house control); a state auditor reads."""
        return self.role == RegulatorRole.STATE_SUPERVISOR


class Licensee(models.Model):
    """An organization licensed by the agency, as the agency knows it (its name and licence
    number); it files with a credential the agency issued."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="licensees")
    name = models.CharField(max_length=200)
    licence_number = models.CharField(max_length=60)  # stored trimmed (services.register_licensee)
    # The first day of the first quarter whose return the agency expects (late and missing
    # filings are counted from its quarter on).
    expected_from = models.DateField()

    class Meta:
        ordering = ["agency_id", "name"]
        constraints = [
            # "ND-0042" and "nd-0042" are one licence, as the filing check reads it (registry 0006).
            models.UniqueConstraint(
                models.F("agency"),
                Lower("licence_number"),
                name="registry_licence_unique_per_agency_any_case",
                violation_error_message=LICENCE_TAKEN,
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.licence_number})"


class Credential(models.Model):
    """A licensee's credential: only its SHA-256 is kept (the secret is shown once, when it is
    issued). Revoking it stops every request made with it; a revoked credential is never
    reinstated (issue a new one)."""

    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="credentials")
    prefix = models.CharField(max_length=12)  # the secret's first characters, to tell credentials apart
    secret_sha256 = models.CharField(max_length=64, unique=True)
    issued_at = models.DateTimeField()
    issued_by = models.CharField(max_length=150)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.CharField(max_length=150, blank=True)
    # When a request last authenticated with it, to the hour (services.LAST_USE_GRANULARITY);
    # None: never. Not append-only, not audited: the supervisor's evidence before revoking.
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.prefix}... of {self.licensee}"


class ReceivedFiling(AppendOnlyModel):
    """A filing package as received, with the receipt the registry answered. Append-only (the
    database refuses UPDATE and DELETE): what a licensee filed is what the state holds. Each
    row of an agency is chained to the one before (`hash` = SHA-256 of the previous hash and
    this row's receipt), so a row changed or removed at the registry breaks the chain
    (`manage.py verify_registry`). An amendment is a new package pointing back (`amends`)."""

    audit_rows = False  # covered by the registry's own chain, not by an organization's

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="filings")
    seq = models.PositiveBigIntegerField()  # 1, 2, 3 ... within the agency
    receipt_number = models.CharField(max_length=40)  # "ND-2026-000042": unique within the agency
    received_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200)
    site_ref = models.BigIntegerField()  # the site's id in the licensee's own deployment
    site_name = models.CharField(max_length=200)
    quarter = models.CharField(max_length=6)
    amends = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="amended_by")
    package = models.JSONField()
    package_sha256 = models.CharField(max_length=64)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["agency_id", "seq"]
        indexes = [models.Index(fields=["licensee", "quarter"])]
        constraints = [
            models.UniqueConstraint(fields=["agency", "seq"], name="registry_filing_seq_unique_per_agency"),
            models.UniqueConstraint(fields=["agency", "receipt_number"], name="registry_receipt_unique_per_agency"),
            models.UniqueConstraint(fields=["licensee", "idempotency_key"], name="registry_filing_key_unique"),
        ]

    def __str__(self):
        return f"Filing {self.receipt_number}"


class ReceivedAnchor(AppendOnlyModel):
    """The head of a licensee's audit chain as it sent it (chain, seq, hash, the head's time).
    Append-only: a later rewrite of the licensee's history cannot reach it, so verification
    against the registry finds the first head that no longer matches. One row per (licensee,
    chain, seq): a second head at the same place with another hash is refused."""

    audit_rows = False  # the registry's evidence; no organization of this deployment owns it

    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="anchors")
    chain = models.CharField(max_length=24)
    seq = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)
    head_at = models.CharField(max_length=40)
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["licensee_id", "chain", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["licensee", "chain", "seq"], name="registry_anchor_unique_per_place")
        ]

    def __str__(self):
        return f"Anchor {self.chain} #{self.seq} of licensee {self.licensee_id}"


class ReceivedDocument(AppendOnlyModel):
    """A report's PDF as a licensee sent it with a filing, byte for byte. Append-only: the state
    holds the file as received. Its SHA-256 is one the filing's package lists (checked when it
    is received), so the registry's chain of receipts covers it through the package's digest."""

    audit_rows = False  # covered by the registry's own chain, through its filing's package

    filing = models.ForeignKey(ReceivedFiling, on_delete=models.PROTECT, related_name="documents")
    kind = models.CharField(max_length=40)  # the report's kind as the package names it ("quarterly")
    pdf_sha256 = models.CharField(max_length=64)
    size_bytes = models.PositiveIntegerField()
    content = models.BinaryField()
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["filing_id", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["filing", "pdf_sha256"], name="registry_document_once_per_filing")
        ]

    def __str__(self):
        return f"{self.kind} PDF of {self.filing}"


class ReceivedAlert(AppendOnlyModel):
    """A compliance alert of a licensee as it sent it with its nightly anchors: the rule and its
    citation, the site, the period, when it was opened and, once it is, when it was resolved.
    Append-only: one row per alert and state (open, then closed), so the state sees when each
    alert was first reported open and when closed, and a closed alert is never reopened here."""

    audit_rows = False  # the registry's evidence; no organization of this deployment owns it

    class State(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="alerts")
    alert_ref = models.BigIntegerField()  # the alert's id in the licensee's own deployment
    site_ref = models.BigIntegerField()
    site_name = models.CharField(max_length=200)
    rule = models.CharField(max_length=60)
    citation = models.CharField(max_length=80)
    title = models.CharField(max_length=200)
    period_key = models.CharField(max_length=40)
    # As the licensee's alert page tells it apart (blank where it did not send them): its table
    # ("Table 3"), its period in words, its slip or drop box ("Fill slip 12").
    table = models.CharField(max_length=60, blank=True, default="")
    period = models.CharField(max_length=80, blank=True, default="")
    subject = models.CharField(max_length=80, blank=True, default="")
    opened_at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=State.choices)
    resolved_at = models.DateTimeField(null=True, blank=True)
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["licensee_id", "alert_ref", "received_at"]
        constraints = [
            models.UniqueConstraint(fields=["licensee", "alert_ref", "state"], name="registry_alert_once_per_state")
        ]

    def __str__(self):
        return f"Alert {self.alert_ref} of licensee {self.licensee_id} ({self.state})"


class ReceivedDealerHold(AppendOnlyModel):
    """A dealer's hold for a quarter at one site, as a licensee's filing package stated it under
    the identifier the state issued the dealer (the package's `dealers`). Append-only, one row
    per filing, dealer and game: the registry's cross-organization dealer view reads the latest
    filing of each licensee, site and quarter (an amendment restates the dealers' hold now)."""

    audit_rows = False  # covered by the registry's own chain, through its filing's package

    filing = models.ForeignKey(ReceivedFiling, on_delete=models.PROTECT, related_name="dealer_holds")
    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="+")
    identifier = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    site_ref = models.BigIntegerField()
    site_name = models.CharField(max_length=200)
    quarter = models.CharField(max_length=6)
    game = models.CharField(max_length=4)
    shifts = models.PositiveIntegerField()
    separable_shifts = models.PositiveIntegerField()
    drop_cents = models.BigIntegerField()
    gross_proceeds_cents = models.BigIntegerField()
    prizes_cents = models.BigIntegerField()
    agp_cents = models.BigIntegerField()
    hold_ratio = models.CharField(max_length=16, null=True, blank=True)  # a decimal string; None: no proceeds

    class Meta:
        ordering = ["identifier", "quarter", "filing_id"]
        indexes = [models.Index(fields=["identifier", "quarter"])]
        constraints = [
            models.UniqueConstraint(fields=["filing", "identifier", "game"], name="registry_dealer_once_per_filing")
        ]

    def __str__(self):
        return f"Dealer {self.identifier} {self.quarter} in {self.filing}"
