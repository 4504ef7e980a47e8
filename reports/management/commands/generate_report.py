"""`python manage.py generate_report KIND --site ID --user NAME (--quarter 2026Q3 | --date D |
--start D --end D) --format pdf|csv|xlsx --output FILE`: any report kind from the command line,
for cron and for auditors. The report is requested in the named person's name through the
same service as the browser and the API (their role and the kind's reader rule are checked, the
request is audited as `report.requested`, the file stored append-only), generated at once even
when the browser would leave it to a worker, and written to FILE."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import CommandError

from cardroom.models import Site
from core import limits
from core.management.base import DatabaseCommand
from reports import services
from reports.catalogue import load_kinds
from reports.exports import export_csv, export_xlsx
from reports.models import ReportRun

FORMATS = ("pdf", "csv", "xlsx")


class Command(DatabaseCommand):
    help = "Generate a report (any kind) for a site and a period, and write it as PDF, CSV or XLSX."

    def add_arguments(self, parser):
        parser.add_argument("kind", help="the report kind, e.g. daily, quarterly, dealer_hold")
        parser.add_argument("--site", type=int, required=True, help="site id")
        parser.add_argument("--user", help="username of the gaming manager or auditor requesting it (audited)")
        parser.add_argument("--quarter", help="YYYYQn, e.g. 2026Q3 (any kind; the quarterly summary needs one)")
        parser.add_argument("--date", help="YYYY-MM-DD: the as-of date, or a one-day period")
        parser.add_argument("--start", help="YYYY-MM-DD: first day of a period")
        parser.add_argument("--end", help="YYYY-MM-DD: last day of a period")
        parser.add_argument("--format", choices=FORMATS, default="pdf", dest="file_format")
        parser.add_argument("--output", required=True, help="file to write")

    def handle(self, *args, kind, site, user, quarter, date, start, end, file_format, output, **options):
        kinds = load_kinds()
        if kind not in kinds:
            raise CommandError(
                f"{limits.CITED_HOUSE_CONTROL}: unknown report kind {kind!r}; one of: {', '.join(sorted(kinds))}."
            )
        site_obj = Site.objects.filter(pk=site).select_related("organization").first()
        if site_obj is None:
            raise CommandError(f"--site: {limits.CITED_HOUSE_CONTROL}: no site with id {site}.")
        period = self._period(quarter=quarter, date=date, start=start, end=end, as_of=kinds[kind].period == "as_of")
        run = self._generate(kind=kind, site=site_obj, user=self._user(user), period=period, date_given=bool(date))
        written = self._write(run, file_format, Path(output))
        self.stdout.write(f"{kinds[kind].title}, {site_obj.name}, {run.period_label}: {written} bytes to {output}")

    def _user(self, username):
        if not username:
            raise CommandError(f"--user: {limits.CITED_HOUSE_CONTROL}: give the username of the gaming manager or auditor the report is for "
                               "(the request is audited in their name).")  # fmt: skip
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise CommandError(f"--user: {limits.CITED_HOUSE_CONTROL}: no active user {username!r}.")
        return user

    def _period(self, *, quarter, date, start, end, as_of: bool) -> dict:
        if quarter and (date or start or end):
            raise CommandError(
                f"{limits.CITED_HOUSE_CONTROL}: give either --quarter or a date (--date, or --start and --end), not both."
            )
        if date and (start or end):
            raise CommandError(f"{limits.CITED_HOUSE_CONTROL}: give either --date or --start and --end, not both.")
        if date:
            try:
                day = limits.parse_date(date, "date")
            except ValidationError as exc:
                raise CommandError(f"--date: {exc.message_dict['date'][0]}") from exc
            return {"end": day} if as_of else {"start": day, "end": day}
        return {"quarter": quarter, "start": start, "end": end}

    def _generate(self, *, kind: str, site, user, period: dict, date_given: bool) -> ReportRun:
        try:
            run = services.request_report(acting_user=user, kind=kind, site=site, at_once=True, **period)
        except ValidationError as exc:
            messages = [f"{self._option(field, date_given)}: {' '.join(m)}" for field, m in exc.message_dict.items()]
            raise CommandError(" ".join(messages)) from exc
        except PermissionDenied as exc:
            raise CommandError(f"--user: {exc}") from exc
        run.refresh_from_db()
        if run.status != ReportRun.Status.DONE:
            raise CommandError(f"The report was not generated ({run.status}): {run.error}")
        return run

    @staticmethod
    def _option(field: str, date_given: bool) -> str:
        if field in ("start", "end") and date_given:
            return "--date"
        return f"--{field}" if field in ("site", "quarter", "start", "end") else field

    def _write(self, run: ReportRun, file_format: str, path: Path) -> int:
        file = run.file
        if file_format == "pdf":
            content = bytes(file.pdf)
        elif file_format == "csv":
            content = export_csv(file.table)
        else:
            content = export_xlsx(file.table, run.title)
        try:
            path.write_bytes(content)
        except OSError as exc:
            raise CommandError(f"--output: cannot write {path}: {exc.strerror}.") from exc
        return len(content)
