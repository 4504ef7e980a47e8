"""Reads of the compliance app used by the API, the pages and the reports."""

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from cardroom.access import ReadRule
from cardroom.models import Role
from core.rules import HOUSE_CONTROL

from .models import Alert, AlertStep, ComplianceRun

# Every role at a site reads its alerts (they name what must be done there); house control.
ALERTS = ReadRule(frozenset(Role), HOUSE_CONTROL, "see a site's compliance alerts")


def alerts_for(access, *, steps: bool = True) -> QuerySet[Alert]:
    """The alerts of the user's sites, with their site and whether resolved; with their steps
    (and who took them) unless `steps` is False (a list that shows no status)."""
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED)
    alerts = Alert.objects.filter(site__in=access.sites()).select_related("site").annotate(is_resolved=Exists(resolved))
    if steps:
        alerts = alerts.prefetch_related(Prefetch("steps", queryset=AlertStep.objects.select_related("by")))
    return alerts


def status_of(alert: Alert) -> str:
    kinds = {step.kind for step in alert.steps.all()}
    for kind in (AlertStep.Kind.RESOLVED, AlertStep.Kind.DOCUMENTED, AlertStep.Kind.ACKNOWLEDGED):
        if kind in kinds:
            return kind
    return "open"


def obligations(access, *, today, steps: bool = True) -> list[Alert]:
    """Everything still due across the user's sites, overdue first, then by due date."""
    pending = alerts_for(access, steps=steps).filter(is_resolved=False)
    dated = sorted((a for a in pending if a.due_date), key=lambda a: a.due_date)
    overdue = [a for a in dated if a.due_date < today]
    upcoming = [a for a in dated if a.due_date >= today]
    return overdue + upcoming + [a for a in pending if not a.due_date]


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
