"""The alerts opened in one transaction are e-mailed by tasks queued when it commits, in
tasks of NOTIFY_BATCH alerts (compliance.services._notify_when_committed): a run's rules
share tasks instead of queueing one small task each; nothing is queued before the commit;
an alert rolled back is not mailed, and one opened after a rolled-back savepoint still is."""

import pytest
from celery.signals import task_prerun
from django.core import mail
from django.db import transaction

from cardroom.models import Role
from compliance import services
from compliance.models import Alert, Notification

from .test_alerts import finding


class Boom(Exception):
    pass


@pytest.fixture
def eager_tasks(settings):
    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def tasks_run():
    """The alert ids of each notify_alerts task run, in order (a real Celery signal)."""
    ran = []

    def seen(sender=None, args=None, **kwargs):
        if sender.name == "compliance.tasks.notify_alerts":
            ran.append(list(args[0]))

    task_prerun.connect(seen, weak=False)
    yield ran
    task_prerun.disconnect(seen)


@pytest.fixture
def mailed(site, cast):
    manager = cast[Role.GAMING_MANAGER].user
    manager.email = "gm@example.org"
    manager.save()


def _open(site, *subjects, rule="prizes_over_gp"):
    alerts, _ = services.open_alerts(
        [finding(site, rule=rule, subject=s) for s in subjects], organization_of={site.pk: site.organization_id}
    )
    return [a.pk for a in alerts]


@pytest.mark.django_db(transaction=True)
def test_the_rules_of_one_transaction_share_their_tasks(site, mailed, eager_tasks, tasks_run, monkeypatch):
    monkeypatch.setattr(services, "NOTIFY_BATCH", 2)
    with transaction.atomic():
        first = _open(site, "a", "b", "c")
        second = _open(site, "d", "e", rule="low_hold_21")
        assert tasks_run == []  # nothing is queued before the commit
    opened = first + second
    assert tasks_run == [opened[0:2], opened[2:4], opened[4:5]]  # three tasks, not one per rule and batch
    assert sorted(Notification.objects.values_list("alert_id", flat=True)) == sorted(opened)
    assert len(mail.outbox) == 5


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_tasks_are_queued_at_once(site, mailed, eager_tasks, tasks_run):
    opened = _open(site, "a", "b")
    assert tasks_run == [opened]
    assert Notification.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_an_alert_rolled_back_is_not_mailed_and_one_opened_after_is(site, mailed, eager_tasks, tasks_run):
    with transaction.atomic():
        kept = _open(site, "kept")
        with pytest.raises(Boom), transaction.atomic():
            _open(site, "rolled back inside")  # joins the hook added outside the savepoint
            raise Boom
    assert list(Alert.objects.values_list("pk", flat=True)) == kept
    assert list(Notification.objects.values_list("alert_id", flat=True)) == kept

    with transaction.atomic():
        with pytest.raises(Boom), transaction.atomic():
            _open(site, "first, rolled back")  # its hook goes with the savepoint
            raise Boom
        after = _open(site, "after the savepoint")  # a new hook
    assert sorted(Notification.objects.values_list("alert_id", flat=True)) == sorted(kept + after)
    assert len(mail.outbox) == 2
