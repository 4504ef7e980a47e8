"""The Celery application. Periodic jobs live in `beat_schedule` here, in one place."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    "verify-audit-log-nightly": {
        "task": "cardroom.tasks.verify_audit_log",
        "schedule": crontab(hour=9, minute=15),
    },
}
