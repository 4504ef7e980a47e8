from celery import shared_task

from .generation import generate_report


@shared_task
def generate_report_task(run_id: int) -> bool:
    """Generate one requested report (claimed with a conditional update: never twice)."""
    return generate_report(run_id)
