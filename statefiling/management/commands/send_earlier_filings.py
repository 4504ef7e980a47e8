"""Send the quarters filed before an organization linked to a state's registry (as a gaming manager)."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import CommandError

from core.management.base import DatabaseCommand
from statefiling.services import send_earlier_filings

from .connect_registry import earlier_sent, organization_and_user


class Command(DatabaseCommand):
    help = (
        "Send to the linked registry the quarters of a pack's sites filed before the organization linked, "
        "each with its amendments (audited; run again, nothing is sent twice). Linking never sends them "
        "by itself: the state may hold those returns on paper."
    )

    def add_arguments(self, parser):
        parser.add_argument("--organization", type=int, required=True)
        parser.add_argument("--jurisdiction", default="ND")
        parser.add_argument("--user", required=True, help="a gaming manager of the organization (audited)")

    def handle(self, *args, **o):
        organization, user = organization_and_user(o)
        try:
            queued = send_earlier_filings(acting_user=user, organization=organization, jurisdiction=o["jurisdiction"])
        except (ValidationError, PermissionDenied) as exc:
            raise CommandError("; ".join(getattr(exc, "messages", [str(exc)]))) from exc
        self.stdout.write(earlier_sent(queued))
