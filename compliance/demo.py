"""The demo's compliance checks: run last, once the demo's records exist, as the schedule would
have run them overnight (the quarter just ended, and the last seven gaming days), so the
compliance page opens on alerts and a last run. Idempotent: alerts open once, and a check whose
scope (that quarter, those seven days) has run already is not run again, so a second load adds
no run. Once a person has entered a gaming day the checks are left to the schedule (Celery
beat): the demo writes no alert about a day it did not build."""

from datetime import timedelta

from django.utils import timezone

from core.periods import Quarter

from .models import ComplianceRun
from .tasks import run_daily_checks, run_quarter_checks


def extend_demo(demo: dict) -> None:
    from floor.demo import entered_by_hand

    if entered_by_hand().exists():
        return
    today = timezone.localdate()  # as the tasks take their scope
    quarter, last = Quarter.containing(today).previous(), today - timedelta(days=1)
    if not _ran({"quarters": [str(quarter)], "day_ranges": []}):
        run_quarter_checks()
    if not _ran({"quarters": [], "day_ranges": [[str(last - timedelta(days=6)), str(last)]]}):
        run_daily_checks()


def _ran(scope: dict) -> bool:
    """A run of the schedule over `scope` that succeeded: its alerts are open already."""
    return ComplianceRun.objects.filter(
        trigger=ComplianceRun.Trigger.SCHEDULE, scope=scope, status=ComplianceRun.Status.SUCCEEDED
    ).exists()
