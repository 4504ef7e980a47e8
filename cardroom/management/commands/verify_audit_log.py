from django.core.management.base import BaseCommand, CommandError

from cardroom.audit import verify_chain


class Command(BaseCommand):
    help = "Verify the hash chain of the audit log; print OK or the first broken event."

    def handle(self, *args, **options):
        result = verify_chain()
        if not result.ok:
            raise CommandError(f"BROKEN at event #{result.broken_seq}: {result.reason} ({result.checked} events verified before it)")
        self.stdout.write(f"OK: {result.checked} events verified")
