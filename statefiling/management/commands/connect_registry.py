"""Send an organization's filings for one pack's sites to a state registry (as a gaming manager)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import CommandError

from cardroom.models import Organization
from core.management.base import DatabaseCommand
from statefiling.services import connect_registry, send_earlier_filings


class Command(DatabaseCommand):
    help = "Connect an organization to the registry of the agency for a pack's sites (URL and credential)."

    def add_arguments(self, parser):
        parser.add_argument("--organization", type=int, required=True)
        parser.add_argument("--jurisdiction", default="ND")
        parser.add_argument("--url", required=True, help="the registry's base address, https://...")
        parser.add_argument("--credential", required=True, help="the credential the agency issued")
        parser.add_argument("--user", required=True, help="a gaming manager of the organization (audited)")
        parser.add_argument(
            "--share-alerts",
            action="store_true",
            help="also send the compliance alerts of the pack's sites with the nightly anchors (the organization's consent)",
        )
        parser.add_argument(
            "--send-earlier",
            action="store_true",
            help=(
                "also send the quarters of the pack's sites filed before this link, each with its amendments "
                "(audited; never sent twice). Not done unless asked: the state may hold those returns on paper"
            ),
        )

    def handle(self, *args, **o):
        organization, user = organization_and_user(o)
        try:
            link = connect_registry(
                acting_user=user,
                organization=organization,
                jurisdiction=o["jurisdiction"],
                url=o["url"],
                credential=o["credential"],
                share_alerts=o["share_alerts"],
            )
            earlier = (
                send_earlier_filings(acting_user=user, organization=organization, jurisdiction=link.jurisdiction)
                if o["send_earlier"]
                else None
            )
        except (ValidationError, PermissionDenied) as exc:
            raise CommandError("; ".join(getattr(exc, "messages", [str(exc)]))) from exc
        self.stdout.write(f"Connected: {organization}'s {link.jurisdiction} filings go to {link.url}")
        if earlier is not None:
            self.stdout.write(earlier_sent(earlier))


def organization_and_user(o) -> tuple:
    """The --organization and the --user (login) the command acts as, or a CommandError naming either."""
    organization = Organization.objects.filter(pk=o["organization"]).first()
    if organization is None:
        raise CommandError(f"--organization: there is no organization {o['organization']}")
    user = get_user_model().objects.filter(username=o["user"]).first()
    if user is None:
        raise CommandError(f"--user: there is no login {o['user']!r}")
    return organization, user


def earlier_sent(queued) -> str:
    """What `--send-earlier` queued, in words."""
    if not queued:
        return "No quarter filed before the link was left unsent."
    quarters = ", ".join(f"{s.package['quarter']} ({s.package['site']['name']})" for s in queued)
    return f"Sending the quarters filed before the link, with their amendments: {quarters}"
