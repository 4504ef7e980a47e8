"""The Celery application. Periodic jobs live in `beat_schedule` here, in one place."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Times are UTC: 09:00-10:00 UTC is after every US site's business day has ended.
app.conf.beat_schedule = {
    # From the last checkpoint (core.audit_verify): a change behind it is found by the
    # weekly full pass.
    "verify-audit-log-nightly": {
        "task": "core.tasks.verify_audit_log",
        "schedule": crontab(hour=9, minute=15),
    },
    "verify-audit-log-weekly-full": {
        "task": "core.tasks.verify_audit_log",
        "schedule": crontab(hour=8, minute=0, day_of_week="sun"),
        "kwargs": {"full": True},
    },
    # After the check, so the anchored heads include its event.
    "anchor-audit-log-nightly": {
        "task": "core.tasks.anchor_audit_log",
        "schedule": crontab(hour=9, minute=20),
    },
    "compliance-daily-rules": {
        "task": "compliance.tasks.run_daily_checks",
        "schedule": crontab(hour=9, minute=30),
    },
    # The quarter rules run daily in the first weeks after a quarter ends (late counts and
    # corrections arrive then); they are idempotent, so a rerun opens nothing twice.
    "compliance-quarter-rules": {
        "task": "compliance.tasks.run_quarter_checks",
        "schedule": crontab(hour=9, minute=45, day_of_month="1-21", month_of_year="1,4,7,10"),
    },
    "compliance-reminders": {
        "task": "compliance.tasks.send_due_reminders",
        "schedule": crontab(hour=14, minute=0),
    },
}
