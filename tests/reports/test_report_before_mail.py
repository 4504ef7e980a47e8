"""A report asked for while alert e-mails wait in the queue is generated before them, on a real
worker, on the embedded filesystem broker as on Redis (issue 33: a report waited 82 s behind 850
e-mails on the filesystem broker, which took its queue first in, first out; core.broker now
takes it by priority, as Redis does)."""

import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_prerun

from cardroom.models import Role
from compliance.mail import MAIL_PRIORITY, notify_alert
from config.celery import app
from reports.models import ReportRun

MAILS = 150  # waiting e-mails (each a quick no-op here: no such alert); the report is sent after them


@pytest.mark.django_db(transaction=True)
def test_a_report_is_generated_before_the_e_mails_queued_ahead_of_it(client_for, cast, site):
    app.control.purge()
    for n in range(MAILS):  # as compliance.services queues an opened alert's e-mail
        notify_alert.apply_async((10_000_000 + n, "opened"), priority=MAIL_PRIORITY)
    created = client_for(cast[Role.AUDITOR]).post(
        "/api/v1/reports/", {"kind": "alerts", "site": site.pk, "quarter": "2026Q3"}, format="json"
    )
    assert created.status_code == 201 and created.json()["status"] == "queued"
    ran = []

    def record(sender=None, **kwargs):
        ran.append(sender.name.rsplit(".", 1)[-1])

    task_prerun.connect(record, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not ReportRun.objects.filter(status=ReportRun.Status.DONE).exists():
                time.sleep(0.05)
    finally:
        task_prerun.disconnect(record)
        app.control.purge()  # the e-mails the worker did not reach
    assert ReportRun.objects.get(pk=created.json()["id"]).status == ReportRun.Status.DONE
    assert ran[0] == "generate_report_task", ran[:5]
    assert ran.count("generate_report_task") == 1 and set(ran[1:]) <= {"notify_alert"}
