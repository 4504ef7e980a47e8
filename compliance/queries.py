"""Reads of the compliance app used by the API, the pages and the reports."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from cardroom.access import ReadRule
from cardroom.models import Role
from core.rows import shaped_rows
from core.rules import HOUSE_CONTROL

from .models import Alert, AlertStep, ComplianceRun

# Who reads a site's alerts, their figures and the action each requires: those who answer for
# them (a gaming manager resolves, a shift manager documents) and the auditor; house control.
# One rule for the compliance pages, the alerts and obligations API, the alerts report and the
# dashboard's list of alerts.
ALERTS = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see a site's compliance alerts"
)


def alerts_for(access, *, steps: bool = True) -> QuerySet[Alert]:
    """The alerts of the user's sites where `ALERTS` lets them read, with their site and whether
    resolved; with their steps (and who took them) unless `steps` is False (a list that shows no
    status)."""
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED)
    readable = ALERTS.sites(access)
    alerts = Alert.objects.filter(site__in=readable).select_related("site").annotate(is_resolved=Exists(resolved))
    if steps:
        alerts = alerts.prefetch_related(Prefetch("steps", queryset=AlertStep.objects.select_related("by")))
    return alerts


def status_of(alert: Alert) -> str:
    kinds = {step.kind for step in alert.steps.all()}
    for kind in (AlertStep.Kind.RESOLVED, AlertStep.Kind.DOCUMENTED, AlertStep.Kind.ACKNOWLEDGED):
        if kind in kinds:
            return kind
    return "open"


def is_overdue(alert: Alert, status: str) -> bool:
    """Past its due date and not resolved, judged on its own site's date (`Site.today`): not the
    server's, nor the site of the page that lists it (the alerts of all the user's sites)."""
    return bool(alert.due_date and status != "resolved" and alert.due_date < alert.site.today())


def obligations(access, *, steps: bool = True) -> list[Alert]:
    """Everything still due across the user's sites, overdue first (each on its own site's date),
    then by due date."""
    pending = list(alerts_for(access, steps=steps).filter(is_resolved=False))
    return _in_obligation_order(pending, {a.site_id: a.site.today() for a in pending})


def _in_obligation_order(pending, today_at: Mapping[int, date]) -> list:
    """Overdue first, then by due date, then those without one (each in `pending`'s order); an
    alert is overdue on its own site's date (`today_at`: site id -> that site's today), as
    `is_overdue` says of it, not on the server's or the page's site's."""
    dated = sorted((a for a in pending if a.due_date), key=lambda a: a.due_date)
    overdue = [a for a in dated if a.due_date < today_at[a.site_id]]
    upcoming = [a for a in dated if a.due_date >= today_at[a.site_id]]
    return overdue + upcoming + [a for a in pending if not a.due_date]


@dataclass(frozen=True)
class OpenAlert:
    """An alert not resolved, as values: what the auditor dashboard lists of it (its site is
    named by the page from the sites it already holds)."""

    pk: int
    rule: str
    citation: str
    title: str
    site_id: int
    period_key: str
    subject: str
    period_start: date
    period_end: date
    due_date: date | None


def _open_alerts_query(*, site_ids):
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED)
    return (
        Alert.objects.filter(site_id__in=site_ids)
        .filter(~Exists(resolved))
        .order_by("due_date", "-opened_at")  # Alert's own ordering, as alerts_for reads them
        .values_list(
            "pk",
            "rule",
            "citation",
            "title",
            "site_id",
            "period_key",
            "subject",
            "period_start",
            "period_end",
            "due_date",
        )
    )


def open_alerts(today_at: Mapping[int, date]) -> list[OpenAlert]:
    """`obligations` of the sites of `today_at` (site id -> that site's today) as values: overdue
    first, each on its own site's date, then by due date, then those without one. One query, by
    SQL compiled once (core.rows)."""
    site_ids = list(today_at)
    pending = [OpenAlert(*row) for row in shaped_rows(_open_alerts_query, site_ids=site_ids)] if site_ids else []
    return _in_obligation_order(pending, today_at)


def in_quarter(alerts: QuerySet[Alert], quarter) -> QuerySet[Alert]:
    """The alerts of a quarter: their period overlaps it, or they fall due in it."""
    return alerts.filter(
        Q(period_start__lte=quarter.end, period_end__gte=quarter.start)
        | Q(due_date__range=(quarter.start, quarter.end))
    )


def open_before(alerts: QuerySet[Alert], quarter) -> QuerySet[Alert]:
    """Alerts of earlier periods still not resolved (and not due in the quarter)."""
    earlier = alerts.filter(is_resolved=False, period_end__lt=quarter.start)
    return earlier.exclude(due_date__gte=quarter.start)


def last_run(access, site=None) -> ComplianceRun | None:
    """The latest run of the checks that covered the site (or any of the user's sites): a
    run over every site (the schedule's) or one for the site itself."""
    sites = [site.pk] if site is not None else access.sites().values("pk")
    return (
        ComplianceRun.objects.filter(Q(site__isnull=True) | Q(site__in=sites))
        .select_related("by", "site")
        .order_by("-started_at", "-pk")
        .first()
    )
