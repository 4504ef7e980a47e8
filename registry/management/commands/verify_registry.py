"""Verify the registry's chains of receipts: each filing links to the one before and its
package still hashes to the digest its receipt names. Prints OK or the first broken filing."""

from django.core.management.base import CommandError

from core.management.base import DatabaseCommand
from registry.models import Agency
from registry.services import verify_filings


class Command(DatabaseCommand):
    help = "Verify every agency's chain of received filings; print OK or the first broken filing."

    def handle(self, *args, **options):
        total = 0
        for agency in Agency.objects.order_by("pk"):
            check = verify_filings(agency)
            if not check.ok:
                raise CommandError(f"BROKEN: {check.problem} ({total + check.filings} filings verified before it)")
            total += check.filings
        self.stdout.write(f"OK: {total} filings verified")
