"""Create a shared terminal's login (a pit terminal or count tablet) at one site.

    manage.py create_station --site 3 --username pit-1 [--name "Pit 1 terminal"] [--kind pit|count|both]

The station only presents forms, those of its kind (a pit terminal's slips, a count tablet's drop
counts, or both; both when not given); each step on it is initialled with a person's badge and PIN
(cardroom.pins). The password is read from the environment variable named by --password-env
(default CARDROOM_STATION_PASSWORD) or asked for at the terminal."""

import getpass
import os

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from cardroom import pins
from cardroom.models import Site, Station
from core.management.base import DatabaseCommand
from core.rules import HOUSE_CONTROL


class Command(DatabaseCommand):
    help = "Create a station (shared terminal) login at a site."

    def add_arguments(self, parser):
        parser.add_argument("--site", type=int, required=True)
        parser.add_argument("--username", required=True)
        parser.add_argument("--name", default="")
        parser.add_argument("--kind", choices=Station.Kind.values, default=Station.Kind.BOTH)
        parser.add_argument("--password-env", default="CARDROOM_STATION_PASSWORD")

    def handle(self, *args, **options):
        site = Site.objects.filter(pk=options["site"]).first()
        if site is None:
            raise CommandError(f"--site: {HOUSE_CONTROL}: no site with id {options['site']}.")
        password = os.environ.get(options["password_env"]) or getpass.getpass("The station's password: ")
        try:
            station = pins.create_station(
                acting_user=None,
                site=site,
                username=options["username"],
                password=password,
                name=options["name"],
                kind=options["kind"],
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(
            f"Created station {station.user.username} ({station.get_kind_display().lower()}) at {site} "
            f"(station {station.pk})."
        )
