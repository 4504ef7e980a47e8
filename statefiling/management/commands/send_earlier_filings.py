"""Send the quarters filed before an organization linked to a state's registry (as a gaming manager)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import CommandError

from cardroom.models import Organization
from core.management.base import DatabaseCommand
from statefiling.services import send_earlier_filings

from .connect_registry import earlier_sent


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
        organization = Organization.objects.filter(pk=o["organization"]).first()
        if organization is None:
            raise CommandError(f"--organization: there is no organization {o['organization']}")
        user = get_user_model().objects.filter(username=o["user"]).first()
        if user is None:
            raise CommandError(f"--user: there is no login {o['user']!r}")
        try:
            queued = send_earlier_filings(acting_user=user, organization=organization, jurisdiction=o["jurisdiction"])
        except (ValidationError, PermissionDenied) as exc:
            raise CommandError("; ".join(getattr(exc, "messages", [str(exc)]))) from exc
        self.stdout.write(earlier_sent(queued))
