from celery import shared_task


@shared_task
def generate_report_task(run_id: int) -> bool:
    """Generate one requested report (claimed with a conditional update: never twice)."""
    from .services import generate_report

    return generate_report(run_id)
