"""The demo's compliance checks: run last, once the demo's records exist, as the schedule would
have run them overnight (the quarter just ended, and the last seven gaming days), so the
compliance page opens on alerts and a last run. Idempotent: alerts open once."""

from .tasks import run_daily_checks, run_quarter_checks


def extend_demo(demo: dict) -> None:
    run_quarter_checks()
    run_daily_checks()
