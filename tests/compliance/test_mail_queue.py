"""A report is never queued behind the alerts' e-mails, on the embedded (filesystem) broker
too, which ignores priorities: the e-mails go to a queue of their own and a worker, consuming
every declared queue, takes from them in turn. Checked on the real broker the settings name
(the filesystem one on the SQLite run), consumed as a worker consumes it."""

from cardroom.celery import app
from compliance.tasks import MAIL_PRIORITY, notify_alerts
from reports.tasks import generate_report_task

MAILS = 30


def test_the_alerts_e_mails_have_a_queue_of_their_own_and_every_worker_consumes_it():
    route = app.amqp.router.route({}, notify_alerts.name)["queue"].name
    assert route != app.conf.task_default_queue
    assert app.amqp.router.route({}, generate_report_task.name)["queue"].name == app.conf.task_default_queue
    assert {route, app.conf.task_default_queue} <= set(app.amqp.queues)  # a worker without -Q takes both


def test_a_report_queued_after_hundreds_of_e_mails_is_taken_within_two_tasks():
    queues = list(app.amqp.queues.values())
    taken: list[str] = []
    with app.connection_for_write() as connection:
        for queue in queues:
            queue(connection.default_channel).declare()
            queue(connection.default_channel).purge()
        with app.producer_or_acquire() as producer:
            for n in range(MAILS):  # ids of no alert: a worker would send nothing
                notify_alerts.apply_async(([-n], "opened"), priority=MAIL_PRIORITY, producer=producer)
            generate_report_task.apply_async((-1,), producer=producer)

        def take(body, message):
            taken.append(message.headers["task"])
            message.ack()

        with connection.Consumer(queues, callbacks=[take], prefetch_count=1):
            while len(taken) < MAILS + 1:
                connection.drain_events(timeout=10)
    assert taken.count(generate_report_task.name) == 1 and taken.count(notify_alerts.name) == MAILS
    assert taken.index(generate_report_task.name) <= 1, taken[:5]
