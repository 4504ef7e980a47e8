"""Reads of the compliance app used by the API, the pages and the reports."""

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from cardroom.access import ReadRule
from cardroom.models import Role
from cardroom.rules import HOUSE_CONTROL

from .models import Alert, AlertStep

# Every role at a site reads its alerts (they name what must be done there); house control.
ALERTS = ReadRule(frozenset(Role), HOUSE_CONTROL, "see a site's compliance alerts")


def alerts_for(access) -> QuerySet[Alert]:
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED)
    return (
        Alert.objects.filter(site__in=access.sites())
        .select_related("site")
        .prefetch_related(Prefetch("steps", queryset=AlertStep.objects.select_related("by")))
        .annotate(is_resolved=Exists(resolved))
    )


def status_of(alert: Alert) -> str:
    kinds = {step.kind for step in alert.steps.all()}
    for kind in (AlertStep.Kind.RESOLVED, AlertStep.Kind.DOCUMENTED, AlertStep.Kind.ACKNOWLEDGED):
        if kind in kinds:
            return kind
    return "open"


def obligations(access, *, today) -> list[Alert]:
    """Everything still due across the user's sites, overdue first, then by due date."""
    pending = alerts_for(access).filter(is_resolved=False)
    dated = sorted((a for a in pending if a.due_date), key=lambda a: a.due_date)
    overdue = [a for a in dated if a.due_date < today]
    upcoming = [a for a in dated if a.due_date >= today]
    return overdue + upcoming + [a for a in pending if not a.due_date]
