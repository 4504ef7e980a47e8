"""Register a licensee with an agency (created if new) and issue it a credential; prints the
secret once (the registry keeps only its SHA-256). `--revoke PREFIX` revokes a credential."""

from datetime import date

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from core import limits
from core.management.base import DatabaseCommand
from packs.registry import PACKS
from registry import services
from registry.models import Credential


class Command(DatabaseCommand):
    help = "Register a licensee with a state agency's registry and print a new credential for it (once)."

    def add_arguments(self, parser):
        parser.add_argument("--agency", required=True, help="the agency's name (created if new)")
        parser.add_argument(
            "--jurisdiction",
            default=None,
            help="the agency's pack code (a new agency's, ND if not given; an existing agency's must agree)",
        )
        parser.add_argument("--contact", default="", help="the agency's contact (for a new agency)")
        parser.add_argument("--licensee", required=True, help="the licensee's name")
        parser.add_argument("--licence", required=True, help="its licence number (identifies it at the agency)")
        parser.add_argument(
            "--expected-from", default=None, help="first day of the first quarter it files (YYYY-MM-DD)"
        )
        parser.add_argument("--revoke", default=None, help="revoke the licensee's credential with this prefix instead")

    def handle(self, *args, **o):
        if o["jurisdiction"] is not None and o["jurisdiction"] not in PACKS:
            raise CommandError(f"--jurisdiction: {services.HOUSE}: no pack {o['jurisdiction']!r}")
        try:
            expected = date.fromisoformat(o["expected_from"]) if o["expected_from"] else date.today().replace(day=1)
        except ValueError as exc:
            raise CommandError(
                f"--expected-from: {limits.date_text_message(o['expected_from'], 'expected_from')}"
            ) from exc
        if o["revoke"]:
            matching = list(
                Credential.objects.filter(
                    licensee__agency__name=o["agency"],
                    licensee__licence_number__iexact=o["licence"].strip(),  # as registration finds it
                    prefix__startswith=o["revoke"],
                    revoked_at__isnull=True,
                ).order_by("pk")[:2]
            )
            if not matching:
                raise CommandError(f"--revoke: no live credential {o['revoke']!r} of {o['licence']} at {o['agency']}")
            if len(matching) > 1:  # revoking one of them, whichever came first, cut off the wrong one
                raise CommandError(
                    f"--revoke: House control: {o['revoke']!r} begins more than one live credential of "
                    f"{o['licence']} at {o['agency']} ({', '.join(c.prefix for c in matching)}...); give its whole prefix."
                )
            credential = matching[0]
            licensee = credential.licensee
            if o["jurisdiction"] is not None and licensee.agency.jurisdiction != o["jurisdiction"]:
                raise CommandError(
                    f"--jurisdiction: House control: the agency {licensee.agency.name!r} is under "
                    f"{licensee.agency.jurisdiction}, not {o['jurisdiction']}."
                )
            try:
                services.revoke_credential(acting_user=None, credential=credential)
            except ValidationError as exc:
                raise CommandError(exc.messages[0]) from exc
            self.stdout.write(f"Revoked {credential.prefix}... of {licensee}")
            return
        try:
            licensee, _ = services.register_licensee(
                acting_user=None,
                agency_name=o["agency"],
                jurisdiction=o["jurisdiction"],
                contact=o["contact"],
                name=o["licensee"],
                licence_number=o["licence"],
                expected_from=expected,
            )
        except ValidationError as exc:
            raise CommandError(f"--jurisdiction: {exc.messages[0]}") from exc
        issued = services.issue_credential(acting_user=None, licensee=licensee)
        self.stdout.write(issued.secret)
