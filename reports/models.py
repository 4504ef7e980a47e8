"""Generated reports: a run (what was asked, its progress) and the immutable file it produced."""

from django.conf import settings
from django.db import models

from core.appendonly import AppendOnlyModel


class ReportRun(models.Model):
    """A request for a report. The parameters and requester never change after creation; only
    the status and progress move while a worker generates it."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    kind = models.CharField(max_length=40)
    organization = models.ForeignKey("cardroom.Organization", on_delete=models.PROTECT, related_name="+")
    site = models.ForeignKey("cardroom.Site", null=True, on_delete=models.PROTECT, related_name="+")
    start = models.DateField()
    end = models.DateField()
    period_label = models.CharField(max_length=40)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)  # percent
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        indexes = [models.Index(fields=["organization", "requested_at"])]

    def __str__(self):
        return f"{self.kind} {self.period_label} ({self.status})"

    @property
    def title(self) -> str:
        """The report's title at its site ("Dealer hold", "Quarterly summary (SFN 50901)"), not its key."""
        from .catalogue import load_kinds

        kind = load_kinds().get(self.kind)
        return kind.title_at(self.site) if kind else self.kind


class ReportFile(AppendOnlyModel):
    """The PDF and its data, as generated: who, when, with what parameters, the SHA-256 of
    the file and of the data, and the head of the organization's audit chain when it was
    generated (printed in the footer, kept here so a re-render gives the same bytes).
    Append-only: a report once issued is never changed."""

    # Its run is not append-only; the organization is the run's (core.audit_rows).
    audit_organization = "run__organization"

    run = models.OneToOneField(ReportRun, on_delete=models.PROTECT, related_name="file")
    generated_at = models.DateTimeField()
    generated_by = models.CharField(max_length=150)
    parameters = models.JSONField()
    pdf = models.BinaryField()
    pdf_sha256 = models.CharField(max_length=64)
    data_sha256 = models.CharField(max_length=64)
    table = models.JSONField()  # {"header": [...], "rows": [[...], ...]} for CSV and XLSX
    # The organization's audit chain head at generation; empty for reports made before it was printed.
    audit_chain = models.CharField(max_length=24, blank=True, default="")
    audit_seq = models.PositiveBigIntegerField(null=True, blank=True)
    audit_hash = models.CharField(max_length=64, blank=True, default="")

    def __str__(self):
        return f"{self.run} {self.pdf_sha256[:12]}"
