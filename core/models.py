"""The platform's own records: the audit log (hash-chained events and verification
checkpoints) and the answers kept for idempotent retries.

They moved here from `cardroom` (issue 34) without touching the database: their tables keep
their names (`db_table`), rows, indexes, constraints and append-only triggers (core 0001).
"""

from django.conf import settings
from django.db import models

from .appendonly import AppendOnlyModel


class AuditEvent(AppendOnlyModel):
    """One recorded change. Append-only and hash-chained, one chain per organization: each
    event stores SHA-256(previous hash of its chain + its own canonical content), so any later
    alteration breaks the chain at that event (`manage.py verify_audit_log`). A `row.created`
    event also records the table, id and digest of the append-only row it covers
    (core.audit, core.audit_rows)."""

    audit_rows = False  # the chain itself: covered by its hashes, not by row events

    chain = models.CharField(max_length=24)  # "org-<id>", "system", or the frozen "legacy"
    seq = models.PositiveBigIntegerField()  # 1, 2, 3 ... within the chain
    occurred_at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    actor_label = models.CharField(max_length=150)
    # no index of its own: the (organization, seq) index leads with it
    organization = models.ForeignKey(
        "cardroom.Organization", null=True, on_delete=models.PROTECT, related_name="+", db_index=False
    )
    site = models.ForeignKey("cardroom.Site", null=True, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=80)
    object_type = models.CharField(max_length=80)
    object_id = models.CharField(max_length=40)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    # The append-only row a row event covers: its table (not its app label, which may move),
    # its primary key, and the SHA-256 of its canonical values.
    row_table = models.CharField(max_length=63, blank=True, default="")
    row_pk = models.BigIntegerField(null=True, blank=True)
    row_digest = models.CharField(max_length=64, blank=True, default="")
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        db_table = "cardroom_auditevent"  # cardroom made it; the model moved (issue 34), its table stayed
        ordering = ["chain", "seq"]
        # (organization, id): the organization's events newest first, a page found from its
        # neighbour's last id (dashboard.audit.page_of) without counting the log
        indexes = [models.Index(fields=["object_type", "object_id"]), models.Index(fields=["organization", "id"])]
        constraints = [
            models.UniqueConstraint(fields=["chain", "seq"], name="audit_event_seq_unique_per_chain"),
            models.UniqueConstraint(fields=["row_table", "row_pk"], name="audit_event_one_per_row"),
        ]

    def __str__(self):
        return f"{self.chain} #{self.seq} {self.action} {self.object_type}:{self.object_id}"


class IdempotentRequest(models.Model):
    """A POST sent with an `Idempotency-Key` header and the answer it got (core.idempotency).
    House control: a retry with the same key and body gets this answer again and writes nothing;
    rows expire after `limits.IDEMPOTENCY_KEY_HOURS`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2000)
    fingerprint = models.CharField(max_length=64)  # SHA-256 of the method, path and body
    status_code = models.PositiveSmallIntegerField()
    content_type = models.CharField(max_length=200, blank=True, default="")
    body = models.BinaryField()
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "cardroom_idempotentrequest"  # cardroom made it; the model moved (issue 34), its table stayed
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotent_request_one_per_user_key")]

    def __str__(self):
        return f"{self.method} {self.path} [{self.key}]"


class AuditCheckpoint(AppendOnlyModel):
    """How far `verify_audit_log` has verified: for a chain, the event it resumes from (the
    newest anchored event it matched, else the head it reached) and that event's hash; for an
    append-only table, the highest row id it matched to its event. Each successful verification
    appends the positions that moved; the latest row of a chain or table is where the next
    incremental pass resumes, and the history says which rows were verified when (the nightly
    pass re-reads the rows of its recent nights from it, core.audit_verify). Append-only in the
    database (triggers), so the application's role can neither remove nor rewrite a checkpoint
    (issue 36); operational state, not a record (no row events); `--full` ignores it."""

    audit_rows = False  # the verifier's own state: guarded by its triggers, not by row events

    class Scope(models.TextChoices):
        CHAIN = "chain", "Chain"
        TABLE = "table", "Table"

    scope = models.CharField(max_length=5, choices=Scope.choices)
    name = models.CharField(max_length=100)  # the chain (core.audit_verify.checkpoint_chain) or the table
    position = models.BigIntegerField()  # event number, or row id
    hash = models.CharField(max_length=64, blank=True)
    verified_at = models.DateTimeField()

    class Meta:
        db_table = "cardroom_auditcheckpoint"  # cardroom made it; the model moved (issue 34), its table stayed
        indexes = [models.Index(fields=["scope", "name", "verified_at"], name="audit_checkpoint_history")]

    def __str__(self):
        return f"{self.scope} {self.name} #{self.position}"
