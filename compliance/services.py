"""Writes of the compliance app: opening alerts (exactly once), their steps, notifications."""

from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from cardroom.access import require_role
from cardroom.audit import record_event, snapshot
from cardroom.models import Membership, Role, Site
from cardroom.rules import HOUSE_CONTROL

from .models import Alert, AlertStep, Notification
from .rules import Finding

# Who may work an alert: acknowledge and document (gaming or shift manager), resolve (gaming manager).
ACKNOWLEDGE_ROLES = (Role.GAMING_MANAGER, Role.SHIFT_MANAGER)
RESOLVE_ROLES = (Role.GAMING_MANAGER,)


def open_alert(finding: Finding, *, organization_id: int) -> tuple[Alert, bool]:
    """Open the alert for a finding unless it is open already; safe to run twice at once."""
    key = {"rule": finding.rule, "site_id": finding.site_id, "period_key": finding.period_key, "subject": finding.subject}
    existing = Alert.objects.filter(**key).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            alert = Alert.objects.create(
                **key, organization_id=organization_id, citation=finding.citation, title=finding.title,
                period_start=finding.period_start, period_end=finding.period_end, figures=finding.figures,
                action_required=finding.action_required, due_date=finding.due_date, opened_at=timezone.now(),
            )
            record_event(actor=None, action="alert.opened", obj=alert, organization_id=organization_id,
                         site_id=finding.site_id, after=snapshot(alert))
    except IntegrityError:
        # Another worker opened it between our look and our insert: the unique constraint won.
        return Alert.objects.get(**key), False
    from .tasks import notify_alert

    notify_alert.delay_on_commit(alert.pk, Notification.Kind.OPENED)
    return alert, True


def flag_tips_at_leaving(found) -> None:
    """Registered with floor.tips (compliance.apps): a dealer's last shift of the day ended with
    tips undeclared or unredeemed (ND 99-01.3-08-06(3)): open the alert, once per dealer and day."""
    from .rules import TipsAtLeaving, tips_not_redeemed

    finding = tips_not_redeemed(
        TipsAtLeaving(
            site_id=found.site.pk,
            gaming_date=found.gaming_date,
            dealer_id=found.dealer.pk,
            dealer=str(found.dealer),
            declared=found.declared,
            unredeemed_cents=found.unredeemed_cents,
            checked_at=found.checked_at,
        )
    )
    open_alert(finding, organization_id=found.site.organization_id)


def _add_step(alert: Alert, *, acting_user, kind: str, note: str = "", documentation: dict | None = None) -> AlertStep:
    with transaction.atomic():
        Site.objects.select_for_update().filter(pk=alert.site_id).exists()  # serialise steps of a site's alerts
        kinds = set(alert.steps.values_list("kind", flat=True))
        if AlertStep.Kind.RESOLVED in kinds:
            raise ValidationError({"alert": "This alert is already resolved; nothing more can be added."})
        if kind == AlertStep.Kind.ACKNOWLEDGED and kind in kinds:
            raise ValidationError({"alert": "This alert is already acknowledged."})
        if kind == AlertStep.Kind.RESOLVED and AlertStep.Kind.DOCUMENTED not in kinds and not documentation:
            raise ValidationError({"documentation": f"{alert.citation}: attach the documentation that resolves this alert first."})
        if kind == AlertStep.Kind.DOCUMENTED and not (note.strip() or documentation):
            raise ValidationError({"note": "Describe the documentation (for example whom you contacted and when)."})
        step = AlertStep.objects.create(alert=alert, kind=kind, by=acting_user, at=timezone.now(), note=note,
                                        documentation=documentation or {})
        record_event(actor=acting_user, action=f"alert.{kind}", obj=step, organization_id=alert.organization_id,
                     site_id=alert.site_id, after=snapshot(step))
    return step


def acknowledge_alert(*, acting_user, alert: Alert, note: str = "") -> AlertStep:
    require_role(acting_user, alert.site, *ACKNOWLEDGE_ROLES, action="acknowledge an alert", rule=HOUSE_CONTROL)
    return _add_step(alert, acting_user=acting_user, kind=AlertStep.Kind.ACKNOWLEDGED, note=note)


def document_alert(*, acting_user, alert: Alert, note: str, documentation: dict | None = None) -> AlertStep:
    require_role(acting_user, alert.site, *ACKNOWLEDGE_ROLES, action="document an alert", rule=HOUSE_CONTROL)
    return _add_step(alert, acting_user=acting_user, kind=AlertStep.Kind.DOCUMENTED, note=note, documentation=documentation)


def resolve_alert(*, acting_user, alert: Alert, note: str = "", documentation: dict | None = None) -> AlertStep:
    require_role(acting_user, alert.site, *RESOLVE_ROLES, action="resolve an alert", rule=HOUSE_CONTROL)
    return _add_step(alert, acting_user=acting_user, kind=AlertStep.Kind.RESOLVED, note=note, documentation=documentation)


def recipients_for(alert: Alert) -> list[str]:
    """The organization's gaming managers, and the site's shift managers."""
    members = Membership.objects.filter(employee__organization_id=alert.organization_id, employee__active=True).filter(
        Q(role=Role.GAMING_MANAGER) | Q(role=Role.SHIFT_MANAGER, site_id=alert.site_id)
    )
    return sorted({m.employee.user.email for m in members.select_related("employee__user") if m.employee.user.email})


def send_notification(alert: Alert, kind: str) -> Notification | None:
    """Send one e-mail of this kind for the alert, once: the row and the mail commit together."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                note = Notification.objects.create(alert=alert, kind=kind, sent_at=timezone.now(),
                                                   recipients=recipients_for(alert))
        except IntegrityError:
            return None
        subject = f"[{alert.citation}] {alert.title} - {alert.site.name}"
        if kind == Notification.Kind.REMINDER:
            subject = f"Reminder, due {alert.due_date}: " + subject
        body = (f"{alert.action_required}\n\nSite: {alert.site.name}\nPeriod: {alert.period_key}\n"
                f"Due: {alert.due_date or 'now'}\nFigures: {alert.figures}\n")
        if note.recipients:
            send_mail(subject, body, None, note.recipients)
    return note
