"""Create an organization and its first gaming manager (the platform operator's command).

    manage.py create_organization "Prairie Charities" --licence G-1234 \\
        --manager-username ann --manager-initials AB [--manager-first-name Ann --manager-last-name Berg]

The password is read from the environment variable named by --password-env (default
CARDROOM_MANAGER_PASSWORD) or asked for at the terminal: it never goes on the command line."""

import getpass
import os

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from cardroom import services
from core.management.base import DatabaseCommand


class Command(DatabaseCommand):
    help = "Create an organization and its first gaming manager."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--licence", default="")
        parser.add_argument("--manager-username", required=True)
        parser.add_argument("--manager-initials", required=True)
        parser.add_argument("--manager-first-name", default="")
        parser.add_argument("--manager-last-name", default="")
        parser.add_argument("--password-env", default="CARDROOM_MANAGER_PASSWORD")

    def handle(self, *args, **options):
        password = os.environ.get(options["password_env"]) or getpass.getpass("The gaming manager's password: ")
        try:
            organization, manager = services.create_organization(
                acting_user=None,
                name=options["name"],
                licence_number=options["licence"],
                manager_username=options["manager_username"],
                manager_password=password,
                manager_initials=options["manager_initials"],
                manager_first_name=options["manager_first_name"],
                manager_last_name=options["manager_last_name"],
            )
        except ValidationError as exc:
            raise CommandError("; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from exc
        self.stdout.write(
            f"Created organization {organization.pk} ({organization.name}) "
            f"and gaming manager {manager.user.username} (employee {manager.pk})."
        )
