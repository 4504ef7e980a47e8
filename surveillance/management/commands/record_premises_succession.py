"""`python manage.py record_premises_succession --site 7 --predecessor 3 --acquired-on 2026-07-01 --user gm`:
record that site 7 took over the premises where site 3 (usually another organization's)
conducted twenty-one (ND 99-01.3-08-04: activity counts whichever organization conducted it).

A command rather than a page: the predecessor belongs to another organization, which the
acting gaming manager cannot see; whoever administers the installation checks the premises.
The service decides and refuses as everywhere else."""

from datetime import date

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import CommandError

from cardroom.models import Site
from core.management.base import DatabaseCommand
from surveillance.services import record_premises_succession


class Command(DatabaseCommand):
    help = "Record that a site took over the premises of another (ND 99-01.3-08-04)."

    def add_arguments(self, parser):
        parser.add_argument("--site", type=int, required=True, help="Id of the new site.")
        parser.add_argument("--predecessor", type=int, required=True, help="Id of the site it succeeds.")
        parser.add_argument("--acquired-on", type=date.fromisoformat, required=True, help="YYYY-MM-DD")
        parser.add_argument("--user", required=True, help="Username of the new site's gaming manager.")

    def handle(self, *args, site, predecessor, acquired_on, user, **options):
        try:
            succession = record_premises_succession(
                acting_user=get_user_model().objects.get(username=user),
                site=Site.objects.get(pk=site),
                predecessor=Site.objects.get(pk=predecessor),
                acquired_on=acquired_on,
            )
        except (Site.DoesNotExist, get_user_model().DoesNotExist) as error:
            raise CommandError(str(error)) from error
        except (ValidationError, PermissionDenied) as error:
            raise CommandError("; ".join(getattr(error, "messages", [str(error)]))) from error
        self.stdout.write(f"Recorded: {succession}.")
