"""Append the head of every audit chain to its anchor file outside the database
(core.audit_anchors)."""

from core.audit_anchors import anchor_chains, anchor_directory
from core.management.base import DatabaseCommand
from core.plurals import plural


class Command(DatabaseCommand):
    help = "Append each audit chain's head (organization, seq, hash, time) to VAR_DIR/audit-anchors/."

    def handle(self, *args, **options):
        heads = anchor_chains()
        for head in heads:
            self.stdout.write(f"{head.chain}: #{head.seq} {head.hash}")
        self.stdout.write(f"{plural(len(heads), 'chain head')} anchored in {anchor_directory()}")
