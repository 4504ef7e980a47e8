"""Verify the audit log: chains, anchors outside the database, and the append-only rows they
cover (core.audit_verify). Prints OK or the first broken thing; exits non-zero on a break."""

from django.core.management.base import CommandError

from core.audit_anchors import check_against_registries
from core.audit_verify import verify_chain
from core.management.base import DatabaseCommand
from core.models import AuditEvent
from core.plurals import plural
from core.rules import HOUSE_CONTROL

# The organizations the chains are kept for (the model the events point at: `core` imports no domain app).
Organization = AuditEvent._meta.get_field("organization").related_model


class Command(DatabaseCommand):
    help = "Verify the audit chains, their anchors and the append-only rows; print OK or the first broken thing."

    def add_arguments(self, parser):
        parser.add_argument(
            "--progress-every", type=int, default=50_000, help="print progress to stderr every N events or rows"
        )
        parser.add_argument(
            "--organization",
            type=int,
            default=None,
            help="verify this organization's chain, anchors and rows only (by its id; always in full)",
        )
        parser.add_argument(
            "--registry",
            action="store_true",
            help="also check every chain head the state registries hold is still in the chain (statefiling)",
        )
        parser.add_argument(
            "--full", action="store_true", help="verify every event and row, not only those after the last checkpoint"
        )

    def handle(self, *args, progress_every, organization, full=False, registry=False, **options):
        if progress_every < 1:
            raise CommandError(f"--progress-every: {HOUSE_CONTROL}: give at least 1")
        if organization is not None and not Organization.objects.filter(pk=organization).exists():
            raise CommandError(f"--organization: {HOUSE_CONTROL}: there is no organization {organization}")
        result = verify_chain(full=full, progress=self._progress, every=progress_every, organization_id=organization)
        if not result.ok:
            raise CommandError(
                f"BROKEN: {result.problem} ({result.checked} events and {result.rows_checked} rows verified before it)"
            )
        held = self._registry(organization) if registry else ""
        self.stdout.write(
            f"OK: {result.checked} events verified in {plural(result.chains, 'chain')}, "
            f"{plural(result.anchors_checked, 'anchor')} matched, {result.rows_checked} rows match their events "
            f"({'every event and row' if full else 'from the last checkpoint; --full for all'}){held}"
        )

    def _registry(self, organization) -> str:
        check = check_against_registries(organization)
        if not check.ok:
            raise CommandError(f"BROKEN: {check.problem} ({check.heads} registry heads matched before it)")
        return f"; {plural(check.heads, 'head')} held by the state registries match"

    def _progress(self, stage: str, count: int) -> None:
        self.stderr.write(f"... {count} {stage}")
