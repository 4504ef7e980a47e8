"""The alerts' e-mails: who receives them and sending each once (the row and the mail commit
together), one alert or many opened together. Queued by `compliance.mail`'s tasks."""

from collections import defaultdict

from django.core.mail import EmailMessage, get_connection, send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from cardroom.models import Membership, Role, Site
from core.audit import appended_at_end

from .labels import figures_text, period_of
from .models import Alert, Notification


def recipients_for(alert: Alert) -> list[str]:
    """The organization's gaming managers, and the site's shift managers."""
    members = Membership.objects.filter(employee__organization_id=alert.organization_id, employee__active=True).filter(
        Q(role=Role.GAMING_MANAGER) | Q(role=Role.SHIFT_MANAGER, site_id=alert.site_id)
    )
    return sorted({m.employee.user.email for m in members.select_related("employee__user") if m.employee.user.email})


def send_notification(alert: Alert, kind: str) -> Notification | None:
    """Send one e-mail of this kind for the alert, once: the row and the mail commit together."""
    with transaction.atomic(), appended_at_end():  # the chain lock not held while mailing (send_notifications)
        try:
            with transaction.atomic():
                note = Notification.objects.create(
                    alert=alert, kind=kind, sent_at=timezone.now(), recipients=recipients_for(alert)
                )
        except IntegrityError:
            return None
        if note.recipients:
            send_mail(*_mail_text(alert, kind), None, note.recipients)
    return note


def _mail_text(alert: Alert, kind: str) -> tuple[str, str]:
    subject = f"[{alert.citation}] {alert.title} - {alert.site.name}"
    if kind == Notification.Kind.REMINDER:
        subject = f"Reminder, due {alert.due_date}: " + subject
    body = (
        f"{alert.action_required}\n\nSite: {alert.site.name}\nPeriod: {period_of(alert)}\n"
        f"Due: {alert.due_date or 'now'}\nFigures: {figures_text(alert.figures, alert.site)}\n"
    )
    return subject, body


def _recipients_of(alerts: list[Alert]) -> dict[int, list[str]]:
    """alert id -> `recipients_for(alert)`, for many alerts in one query."""
    members = (Membership.objects.filter(employee__organization_id__in={a.organization_id for a in alerts},
                                         employee__active=True)
               .filter(Q(role=Role.GAMING_MANAGER) | Q(role=Role.SHIFT_MANAGER, site_id__in={a.site_id for a in alerts}))
               .exclude(employee__user__email="")
               .values_list("employee__organization_id", "role", "site_id", "employee__user__email"))  # fmt: skip
    by_organization, by_site = defaultdict(set), defaultdict(set)
    for organization_id, role, site_id, email in members:
        if not email:
            continue
        if role == Role.GAMING_MANAGER:
            by_organization[organization_id].add(email)
        else:
            by_site[(organization_id, site_id)].add(email)
    return {a.pk: sorted(by_organization[a.organization_id] | by_site[(a.organization_id, a.site_id)]) for a in alerts}


def send_notifications(alerts: list[Alert], kind: str) -> list[Notification]:
    """`send_notification` for many alerts (those opened together), in a bounded number of
    queries: the rows not sent yet are inserted together (which claims them: a concurrent
    sender of the same alert waits on the unique constraint, then fails and falls back to
    one alert at a time, sending none twice), the mails go over one connection, and both
    commit together. If a mail fails, the transaction is undone and the rows of the mails
    already sent are written again before the error goes on, so a retry sends only the rest."""
    if not alerts:
        return []
    sent_already = set(Notification.objects.filter(alert__in=[a.pk for a in alerts], kind=kind)
                       .values_list("alert_id", flat=True))  # fmt: skip
    todo = [a for a in alerts if a.pk not in sent_already]
    if not todo:
        return []
    uncached = {a.site_id for a in todo if not Alert.site.is_cached(a)}
    sites = Site.objects.in_bulk(uncached) if uncached else {}
    for alert in todo:
        if alert.site_id in sites:
            alert.site = sites[alert.site_id]  # the mails name the site
    recipients, now, delivered = _recipients_of(todo), timezone.now(), []

    def rows(of):
        return [Notification(alert=a, kind=kind, sent_at=now, recipients=recipients[a.pk]) for a in of]

    try:
        # The rows' audit events are appended after the mails went (appended_at_end): the
        # organization's chain lock is held for the last write only, not while mailing, so
        # the night's notification tasks of one organization do not wait on each other's mail.
        with transaction.atomic(), appended_at_end():
            try:
                with transaction.atomic():
                    notes = Notification.objects.bulk_create(rows(todo))
            except IntegrityError:
                notes = None
            if notes is not None:
                mail = get_connection()
                with mail:
                    for alert in todo:
                        if recipients[alert.pk]:
                            subject, body = _mail_text(alert, kind)
                            mail.send_messages([EmailMessage(subject, body, None, recipients[alert.pk])])
                        delivered.append(alert)
    except Exception:
        if delivered:
            Notification.objects.bulk_create(rows(delivered))
        raise
    if notes is None:  # another sender claimed some of them meanwhile
        return [note for alert in todo if (note := send_notification(alert, kind)) is not None]
    return notes
