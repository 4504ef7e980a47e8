"""The e-mails of alerts opened together go out in a bounded number of queries
(compliance.notifications.send_notifications), to the same people as one alert's
(`recipients_for`), once each, also when a mail fails midway."""

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from compliance import notifications, services
from compliance.models import Notification
from core import audit
from core.audit_verify import verify_chain
from core.models import AuditEvent
from tests.factories import OrganizationFactory, SiteFactory, make_person

from .test_alerts import finding


def _email(employee, address):
    employee.user.email = address
    employee.user.save()
    return employee


@pytest.fixture
def staff(org, site, other_site):
    """Who hears of which alert: the organization's gaming manager everywhere, each site's
    shift manager at that site; nobody without an address or no longer employed; nobody of
    another organization, even a shift manager placed at this organization's site."""
    _email(make_person(org, Role.GAMING_MANAGER), "gm@example.org")
    _email(make_person(org, Role.SHIFT_MANAGER, site), "sm.elks@example.org")
    _email(make_person(org, Role.SHIFT_MANAGER, other_site), "sm.eagles@example.org")
    _email(make_person(org, Role.SHIFT_MANAGER, site), "")
    gone = _email(make_person(org, Role.GAMING_MANAGER), "gone@example.org")
    gone.active = False
    gone.save()
    _email(make_person(org, Role.PIT_BOSS, site), "boss@example.org")
    other = OrganizationFactory(name="Other Charity")
    _email(make_person(other, Role.GAMING_MANAGER, SiteFactory(organization=other)), "gm@other.example.org")
    _email(make_person(other, Role.SHIFT_MANAGER, site), "stray@other.example.org")


def _alerts(*sites, per_site=2):
    return [
        services.open_alert(finding(s, subject=f"fill:{n}"), organization_id=s.organization_id)[0]
        for s in sites
        for n in range(per_site)
    ]


def test_each_alert_mails_whom_one_alert_would(staff, site, other_site):
    alerts = _alerts(site, other_site)
    mail.outbox.clear()
    notes = notifications.send_notifications(alerts, Notification.Kind.OPENED)
    assert [n.alert_id for n in notes] == [a.pk for a in alerts]
    expected = {a.pk: notifications.recipients_for(a) for a in alerts}
    assert expected[alerts[0].pk] == ["gm@example.org", "sm.elks@example.org"]
    assert expected[alerts[2].pk] == ["gm@example.org", "sm.eagles@example.org"]
    assert [m.to for m in mail.outbox] == [expected[a.pk] for a in alerts]
    assert {n.alert_id: n.recipients for n in Notification.objects.all()} == expected
    assert all(m.subject.startswith("[ND 99-01.3-08-01(3)]") for m in mail.outbox)

    mail.outbox.clear()
    assert notifications.send_notifications(alerts, Notification.Kind.OPENED) == []  # sent once
    assert mail.outbox == []


def test_the_queries_do_not_grow_with_the_alerts(staff, site, other_site):
    few, many = _alerts(site, per_site=1), _alerts(site, other_site, per_site=6)
    with CaptureQueriesContext(connection) as one:
        notifications.send_notifications(few, Notification.Kind.OPENED)
    with CaptureQueriesContext(connection) as twelve:
        notifications.send_notifications(many, Notification.Kind.OPENED)
    assert len(twelve.captured_queries) == len(one.captured_queries) <= 12


class FailsOnThirdMail(EmailBackend):
    sent = 0

    def send_messages(self, messages):
        FailsOnThirdMail.sent += len(messages)
        if FailsOnThirdMail.sent == 3:
            raise ConnectionError("the mail server went away")
        return super().send_messages(messages)


def test_a_mail_that_fails_keeps_the_rows_of_those_sent_and_a_retry_sends_the_rest(staff, site, settings):
    alerts = _alerts(site, per_site=4)
    mail.outbox.clear()
    settings.EMAIL_BACKEND = f"{__name__}.FailsOnThirdMail"
    FailsOnThirdMail.sent = 0
    with pytest.raises(ConnectionError):
        notifications.send_notifications(alerts, Notification.Kind.OPENED)
    assert len(mail.outbox) == 2
    assert sorted(Notification.objects.values_list("alert_id", flat=True)) == [a.pk for a in alerts[:2]]

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox.clear()
    notes = notifications.send_notifications(alerts, Notification.Kind.OPENED)
    assert [n.alert_id for n in notes] == [a.pk for a in alerts[2:]]
    assert len(mail.outbox) == 2
    assert Notification.objects.count() == 4


class NotesTheChainLocks(EmailBackend):
    """Records, as each mail goes, the chains this transaction has appended to (and so holds
    the lock of, core.audit): none, when the rows' events wait for the end."""

    held = []

    def send_messages(self, messages):
        heads = getattr(connection, "_audit_known_heads", {})
        NotesTheChainLocks.held.append(sorted(chain for chain in heads if audit._known_head(connection, chain)))
        return super().send_messages(messages)


@pytest.mark.django_db(transaction=True)
def test_no_chain_lock_is_held_while_mailing(staff, site, other_site, settings):
    """The chain lock serialises every audited write of an organization: a mail server's
    slowness must not hold it. The notification rows' events are appended after the mails,
    in the same transaction, and the chain still verifies."""
    alerts = _alerts(site, other_site)
    settings.EMAIL_BACKEND = f"{__name__}.NotesTheChainLocks"
    NotesTheChainLocks.held = []
    assert len(notifications.send_notifications(alerts[:3], Notification.Kind.OPENED)) == 3
    assert notifications.send_notification(alerts[3], Notification.Kind.OPENED) is not None
    assert NotesTheChainLocks.held == [[], [], [], []]
    assert Notification.objects.count() == 4
    events = AuditEvent.objects.filter(row_table=Notification._meta.db_table)
    assert sorted(events.values_list("row_pk", flat=True)) == sorted(Notification.objects.values_list("pk", flat=True))
    assert verify_chain().ok
