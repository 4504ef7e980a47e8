"""The demo's compliance checks: run last, once the demo's records exist, as the schedule would
have run them overnight (the quarter just ended, and the last seven gaming days), so the
compliance page opens on alerts and a last run. Idempotent: alerts open once. Once a person has
entered a gaming day the checks are left to the schedule (Celery beat): the demo writes no
alert about a day it did not build."""

from .tasks import run_daily_checks, run_quarter_checks


def extend_demo(demo: dict) -> None:
    from floor.demo import entered_by_hand

    if entered_by_hand().exists():
        return
    run_quarter_checks()
    run_daily_checks()
