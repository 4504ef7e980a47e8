"""Compliance: regulatory thresholds as effective-dated data, and the alerts they raise."""

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from core import hooks, limits
from core.appendonly import AppendOnlyModel


class ThresholdQuerySet(models.QuerySet):
    """Writes in bulk pass the same refusal as a row saved alone (`Threshold.save`)."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for obj in objs:
            hooks.THRESHOLD_DATED(obj.code, obj.effective_from)
        return super().bulk_create(objs, *args, **kwargs)

    def update(self, **kwargs):
        # Each (code, date) the rows have once updated: a few dozen codes at most, one query.
        rows = self.values_list("code", "effective_from").distinct()
        for code, effective_from in rows:
            hooks.THRESHOLD_DATED(kwargs.get("code", code), kwargs.get("effective_from", effective_from))
        return super().update(**kwargs)


class Threshold(models.Model):
    """A number from a regulation, with its citation, in force from `effective_from`.

    Rules read thresholds through `compliance.thresholds.threshold(code, on)`; a change of
    regulation is a new row with a later date, never an edit of the old one. Every write (the
    admin, the ORM in a shell or script, an API) is refused where its date falls inside a quarter
    filed at a site whose pack reads the threshold (house control: `hooks.THRESHOLD_DATED`, answered
    by `compliance.thresholds.refuse_backdating`); the data migrations' historical models, which
    seed the law as first held, do not pass here."""

    class Unit(models.TextChoices):
        RATIO = "ratio", "Ratio"
        CENTS = "cents", "Cents"
        DAYS = "days", "Days"
        HOURS = "hours", "Hours"
        WEEKS = "weeks", "Weeks"
        MINUTES = "minutes", "Minutes"
        COUNT = "count", "Count"

    code = models.CharField(max_length=60)
    value = models.DecimalField(max_digits=18, decimal_places=6)
    unit = models.CharField(max_length=10, choices=Unit.choices)
    citation = models.CharField(max_length=80)
    summary = models.CharField(max_length=300)
    effective_from = models.DateField()
    history = HistoricalRecords()

    objects = ThresholdQuerySet.as_manager()

    class Meta:
        ordering = ["code", "-effective_from"]
        constraints = [models.UniqueConstraint(fields=["code", "effective_from"], name="threshold_once_per_date")]

    def __str__(self):
        return f"{self.code} = {self.value} {self.unit} ({self.citation}, from {self.effective_from})"

    def save(self, *args, **kwargs):
        hooks.THRESHOLD_DATED(self.code, self.effective_from)
        super().save(*args, **kwargs)

    def clean(self):
        # A form shows the refusal at its field (the admin's, through `full_clean`).
        super().clean()
        hooks.THRESHOLD_DATED(self.code, self.effective_from)


class Alert(AppendOnlyModel):
    """A rule that fired for a site and period. Append-only: what fired, with the figures that
    triggered it, never changes; acknowledging, documenting and resolving are AlertStep rows.

    One alert per (rule, site, period, subject): the unique constraint is what makes the jobs
    idempotent, even with two workers running the same check at once.

    Its opening is audited by the row's own event (`alert.opened`, the row's values and digest:
    AppendOnlyModel.audit_created_action), one event per alert."""

    audit_created_action = "alert.opened"

    rule = models.CharField(max_length=60)
    citation = models.CharField(max_length=80)
    title = models.CharField(max_length=200)
    organization = models.ForeignKey("cardroom.Organization", on_delete=models.PROTECT, related_name="+")
    # no index of its own: the (site, due_date) index below leads with it
    site = models.ForeignKey("cardroom.Site", on_delete=models.PROTECT, related_name="alerts", db_index=False)
    period_key = models.CharField(max_length=40)
    subject = models.CharField(max_length=80, blank=True, default="")
    period_start = models.DateField()
    period_end = models.DateField()
    figures = models.JSONField(default=dict)
    action_required = models.TextField()
    due_date = models.DateField(null=True)
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["due_date", "-opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["rule", "site", "period_key", "subject"], name="alert_once_per_subject")
        ]
        indexes = [models.Index(fields=["site", "due_date"])]

    def __str__(self):
        return f"{self.citation}: {self.title} ({self.site}, {self.period_key})"


class AlertStep(AppendOnlyModel):
    """Acknowledging, documenting or resolving an alert: who, when, and the documentation."""

    class Kind(models.TextChoices):
        ACKNOWLEDGED = "acknowledged", "Acknowledged"
        DOCUMENTED = "documented", "Documentation attached"
        RESOLVED = "resolved", "Resolved"

    alert = models.ForeignKey(Alert, on_delete=models.PROTECT, related_name="steps")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    note = models.TextField(max_length=limits.MAX_TEXT_LENGTH, blank=True)
    documentation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]


class Notification(AppendOnlyModel):
    """An e-mail sent about an alert; unique per kind so a retried job never sends twice."""

    class Kind(models.TextChoices):
        OPENED = "opened", "Alert opened"
        REMINDER = "reminder", "Reminder before the due date"

    # no index of its own: the unique (alert, kind) index leads with it
    alert = models.ForeignKey(Alert, on_delete=models.PROTECT, related_name="notifications", db_index=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    sent_at = models.DateTimeField()
    recipients = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["alert", "kind"], name="notification_once_per_kind")]


class SlipSeriesCheckpoint(models.Model):
    """How far the nightly slip-series check (ND 99-01.3-08-05(2)) has read one series of a
    site: every slip of the series with an id up to `last_slip_id` was judged by a nightly run
    whose findings are recorded, and `highest_number` is the highest number among them. The
    next run reads only newer slips (compliance.slip_series). Operational state, not a record:
    it is replaced as the check moves on; deleting it makes the check read the whole series
    again. `highest_number` is empty while the series has no slip."""

    site = models.ForeignKey("cardroom.Site", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10)
    last_slip_id = models.BigIntegerField()
    highest_number = models.PositiveIntegerField(null=True, blank=True)
    checked_through = models.DateField()  # the last gaming date of the run that set it
    checked_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["site", "kind"], name="slip_checkpoint_once_per_series")]

    def __str__(self):
        return f"{self.site_id} {self.kind} through #{self.highest_number} (slip {self.last_slip_id})"


class ComplianceRun(models.Model):
    """One run of the rules: when, who started it (a person, or the schedule), for which sites
    and periods, and its result. Operational state, not a record: a run's row is finished
    (result or error) when the run ends. The alerts it opens are the records, each audited.
    `site` is empty for a run over every site in scope (the scheduled runs)."""

    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", "the schedule"
        BROWSER = "browser", "the compliance page"
        API = "api", "the API"
        COMMAND = "command", "the command line"

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    trigger = models.CharField(max_length=10, choices=Trigger.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    site = models.ForeignKey("cardroom.Site", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    scope = models.JSONField(default=dict)  # {"quarters": ["2026Q3"], "day_ranges": [["2026-11-18", "2026-11-24"]]}
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    opened = models.PositiveIntegerField(null=True, blank=True)
    already_open = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-pk"]
        indexes = [models.Index(fields=["site", "-started_at"])]

    def __str__(self):
        return f"{self.get_trigger_display()} {self.started_at:%Y-%m-%d %H:%M} {self.status}"
