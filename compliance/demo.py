"""The demo's compliance checks: run last, once the demo's records exist, as the schedule would
have run them overnight (the quarter just ended, and every week of gaming days the demo built, the
last seven days last), so the compliance page opens on alerts and a last run, and no record of the
demo's older nights goes unjudged (a late deposit in September is flagged as one is this week).
Idempotent: alerts open once, and a check whose scope (that quarter, those seven days) has run
already is not run again, so a second load adds no run. Once a person has entered a gaming day the checks are left to the schedule (Celery
beat): the demo writes no alert about a day it did not build.

The checks first run when the demo loads, which may be after the quarter's alerts fell due
(their due dates are the law's, from the quarter's end; nothing opens an alert in the past).
What the demo's organization did about them in time is its paper, documented as a gaming manager
documents it, dated when it was done: the attorney general contacted within the days the rule
gives, the six weeks of video review the surveillance demo recorded. Those alerts are resolved
with it, so none reads as the organization's failure; one the demo did not answer stays open."""

from datetime import timedelta

from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from core.periods import Quarter

from .models import Alert, AlertStep, ComplianceRun
from .tasks import run_daily_checks, run_quarter_checks


def extend_demo(demo: dict) -> None:
    from floor.demo import entered_by_hand

    if entered_by_hand().exists():
        return
    today = timezone.localdate()  # as the tasks take their scope
    quarter, last = Quarter.containing(today).previous(), today - timedelta(days=1)
    if not _ran({"quarters": [str(quarter)], "day_ranges": []}):
        run_quarter_checks()
    for week_end in _weeks_built(last):
        if not _ran({"quarters": [], "day_ranges": [[str(week_end - timedelta(days=6)), str(week_end)]]}):
            run_daily_checks(None if week_end == last else str(week_end))
    if demo.get("organization") is not None:
        _answered_in_time(demo, quarter, today)
        _old_deposits_answered(demo, last - timedelta(days=6))


def _weeks_built(last) -> list:
    """The last day of each week the nightly checks ran over, the earliest first: weeks of seven
    days ending on `last` (yesterday), back to the first gaming day the demo built."""
    from cardroom.models import Site
    from floor.demo import built_dates

    first = min((min(dates) for site in Site.objects.all() if (dates := built_dates(site))), default=last)
    weeks = [last]
    while weeks[-1] - timedelta(days=6) > first:
        weeks.append(weeks[-1] - timedelta(days=7))
    return weeks[::-1]


def _ran(scope: dict) -> bool:
    """A run of the schedule over `scope` that succeeded: its alerts are open already."""
    return ComplianceRun.objects.filter(
        trigger=ComplianceRun.Trigger.SCHEDULE, scope=scope, status=ComplianceRun.Status.SUCCEEDED
    ).exists()


CONTACTED_DAYS_AFTER = 10  # the demo's letter to the attorney general, well within the rule's days


def _answered_in_time(demo: dict, quarter: Quarter, today) -> None:
    """Resolve the quarter's alerts at the demo's own organization that fell due before today
    and that its records answer: prizes over gross proceeds (the attorney general contacted, on
    paper, CONTACTED_DAYS_AFTER days after the quarter ended) and low hold (a review program's
    weeks all done, from the quarter's end to the alert's due date)."""
    from surveillance.queries import reviews_done

    from .services import resolve_alert_with_documentation

    gm = demo["people"]["gm"].user
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED)
    due = Alert.objects.filter(
        organization=demo["organization"],
        period_key=str(quarter),
        due_date__lt=today,
        opened_at__date__gt=F("due_date"),
    ).filter(~Exists(resolved))
    for alert in due.select_related("site").order_by("pk"):
        if alert.rule == "prizes_over_gp":
            contacted = quarter.end + timedelta(days=CONTACTED_DAYS_AFTER)
            note = (
                f"Demo: reported to the attorney general by letter on {contacted}, within the days "
                f"{alert.citation} gives; the weeks of each dealer's percent-of-hold it asks for are followed by "
                "their own alerts."
            )
            documentation = {"contacted_person": "Attorney General, Gaming Division", "contacted_on": str(contacted)}
        elif alert.rule.startswith("low_hold_") and (
            done := reviews_done(alert.site_id, quarter.end + timedelta(days=1), alert.due_date)
        ):
            note = (
                f"Demo: each active table's video reviewed at least an hour a week from {done[0]} to {done[1]} "
                f"({alert.citation}): the video review program's weeks are done."
            )
            documentation = None
        else:
            continue
        resolve_alert_with_documentation(acting_user=gm, alert=alert, note=note, documentation=documentation)


def _old_deposits_answered(demo: dict, this_week) -> None:
    """The late deposits of the demo's organization before this week are documented and resolved,
    as its gaming manager did at the time: the deposit was made (its date in the alert, its slip on
    the deposits page) and the lateness reported. This week's stays open."""
    from .services import resolve_alert_with_documentation

    gm = demo["people"]["gm"].user
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED)
    late = Alert.objects.filter(
        organization=demo["organization"], rule="deposit_late", period_end__lt=this_week
    ).filter(~Exists(resolved))
    for alert in late.select_related("site").order_by("pk"):
        deposited_on = alert.figures.get("deposited_on")
        if deposited_on is None:
            continue  # not made yet: nothing to document
        note = (
            f"Demo: the deposit for {alert.period_end} was made on {deposited_on}, "
            f"after the day {alert.citation} gives; the lateness was reported to the board and the cashier's "
            "deposit procedure reviewed."
        )
        resolve_alert_with_documentation(acting_user=gm, alert=alert, note=note, documentation=None)
