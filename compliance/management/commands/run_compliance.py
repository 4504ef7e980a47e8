from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from cardroom.models import Site
from compliance.engine import run_checks
from compliance.models import ComplianceRun
from core.management.base import DatabaseCommand
from core.periods import Quarter
from core.plurals import plural
from core.rules import HOUSE_CONTROL


class Command(DatabaseCommand):
    help = "Run the compliance rules for a quarter: `--site <id> --quarter 2026Q3`, or `--all`."

    def add_arguments(self, parser):
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--site", type=int, action="append", help="site id (repeatable)")
        target.add_argument("--all", action="store_true", help="every active site")
        parser.add_argument("--quarter", required=True, help="for example 2026Q3")

    def handle(self, *args, site=None, all=False, quarter=None, **options):
        try:
            period = Quarter.parse(quarter)
        except ValidationError as exc:
            raise CommandError(exc.message_dict["quarter"][0]) from exc
        if site:
            missing = set(site) - set(Site.objects.filter(pk__in=site).values_list("pk", flat=True))
            if missing:
                raise CommandError(f"--site: {HOUSE_CONTROL}: no site with id {', '.join(map(str, sorted(missing)))}")
        try:
            result = run_checks(site_ids=None if all else site, quarter=period, trigger=ComplianceRun.Trigger.COMMAND)
        except ValidationError as exc:  # a quarter before the law held (engine.refuse_before_the_law)
            raise CommandError(exc.message_dict["quarter"][0]) from exc
        for alert in result.opened:
            self.stdout.write(
                f"OPENED {alert.citation} {alert.title} - {alert.site.name} {alert.period_key} (due {alert.due_date})"
            )
        self.stdout.write(f"{plural(len(result.opened), 'alert')} opened, {result.already_open} already open.")
