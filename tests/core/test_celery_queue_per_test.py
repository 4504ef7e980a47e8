"""A message a test sends and no worker takes does not wait in the process's queue for the next
test's real worker (tests/conftest.py: `_no_message_outlives_its_test`)."""

import pytest

from config.celery import app
from statefiling.tasks import push_anchor
from tests.conftest import drop_the_messages_left


def waiting() -> int:
    with app.connection_for_write() as connection:
        return connection.default_channel.queue_declare(app.conf.task_default_queue).message_count


@pytest.mark.django_db
def test_a_message_no_worker_took_is_dropped_when_its_test_ends():
    before = waiting()
    push_anchor.delay(0, {})  # no link 0: a worker taking it would fail, in whatever test it ran
    assert waiting() == before + 1
    drop_the_messages_left()
    assert waiting() == 0
