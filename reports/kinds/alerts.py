"""Compliance alerts and obligations for a period (the flag rules of shared/docs/domain.md 4)."""

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from compliance.labels import period_of, subject_of, table_of
from compliance.models import Alert, AlertStep
from compliance.queries import ALERTS, status_of
from core.moments import site_zone
from core.pdf import data_table, para
from core.plurals import plural

from .. import rules as report_rules
from ..columns import DATE, Column
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class AlertRow:
    citation: str
    title: str
    period: str
    subject: str
    opened_on: str
    due: str
    status: str
    last_step: str


@dataclass(frozen=True)
class AlertsReport:
    rows: tuple[AlertRow, ...]
    open_count: int
    overdue_count: int
    # The day overdue is judged at: the period's end, or the day the report was asked for where
    # that comes first (an alert open past its due date counts in a quarter and not in a day before).
    overdue_on: str = ""


def build(context: ReportContext) -> AlertsReport:
    """The site's alerts of the period: those whose own period (`period_start`..`period_end`)
    overlaps it, and those opened or due in it, each once. A quarter's alerts are opened by the
    checks after the quarter ends, so its report lists them as the alerts API does; the report of
    the quarter they were opened or fall due in lists them too. Each day is read in the site's
    time zone (an alert opened at 00:30 in New York is of that New York day, whatever the server's
    zone)."""
    zone = site_zone(context.site)
    with timezone.override(zone):  # `opened_at__date` is the date in the current zone
        return _build(context, zone)


def _build(context: ReportContext, zone) -> AlertsReport:
    alerts = (
        Alert.objects.filter(site=context.site)
        .filter(
            Q(period_start__lte=context.end, period_end__gte=context.start)
            | Q(opened_at__date__range=(context.start, context.end))
            | Q(due_date__range=(context.start, context.end))
        )
        .prefetch_related("steps__by")
        .order_by("due_date", "opened_at", "pk")
    )
    rows = []
    for alert in alerts:
        steps = list(alert.steps.all())
        last = steps[-1] if steps else None
        rows.append(
            AlertRow(
                alert.citation,
                alert.title,
                period_of(alert),
                "; ".join(part for part in (table_of(alert), subject_of(alert)) if part),
                str(alert.opened_at.astimezone(zone).date()),
                str(alert.due_date or ""),
                status_of(alert),
                f"{last.get_kind_display()} by {last.by.username} {last.at.astimezone(zone):%Y-%m-%d}: {last.note}"
                if last
                else "",
            )
        )
    open_rows = [r for r in rows if r.status != AlertStep.Kind.RESOLVED]
    as_of = str(min(context.end, context.as_of))
    overdue = [r for r in open_rows if r.due and r.due < as_of]
    return AlertsReport(tuple(rows), len(open_rows), len(overdue), as_of)


HEADER = ["Rule", "Alert", "Period", "Subject", "Opened", "Due", "Status", "Last step"]


def _cells(row: AlertRow) -> list:
    return [row.citation, row.title, row.period, row.subject, row.opened_on, row.due, row.status, row.last_step]


def render(data: AlertsReport) -> list:
    # Fills a landscape letter page; the period's column holds a date on one line.
    widths = [105, 130, 70, 60, 68, 68, 70, 134]
    at = f" at {data.overdue_on}" if data.overdue_on else ""
    summary = para(
        f"{plural(len(data.rows), 'alert')}; {data.open_count} not resolved; {data.overdue_count} overdue{at}.",
        "subtitle",
    )
    if not data.rows:
        return [summary, para("No alert at this site in the period.")]
    return [summary, data_table(HEADER, [_cells(r) for r in data.rows], col_widths=widths)]


COLUMNS = [Column("rule"), Column("alert"), Column("period"), Column("subject"), Column("opened", DATE),
           Column("due", DATE), Column("status"), Column("last_step")]  # fmt: skip


def table(data: AlertsReport) -> tuple[list[Column], list[list]]:
    return COLUMNS, [_cells(r) for r in data.rows]


KIND = register(
    ReportKind(
        "alerts",
        "Compliance alerts and obligations",
        report_rules.ALERTS,
        "range",
        build,
        render,
        table,
        landscape=True,
        reader=ALERTS,
    )
)
