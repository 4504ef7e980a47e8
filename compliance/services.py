"""Writes of the compliance app: opening alerts (exactly once, their e-mails queued:
`compliance.mail`), their steps, the runs of the rules."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Role, Site
from core.audit import record_event, snapshot
from core.moments import local_date
from core.rules import HOUSE_CONTROL

from .mail import MAIL_PRIORITY, notify_alert, notify_alerts
from .models import Alert, AlertStep, ComplianceRun, Notification
from .rules import Finding

# Who may work an alert: acknowledge and document (gaming or shift manager), resolve (gaming manager).
ACKNOWLEDGE_ROLES = (Role.GAMING_MANAGER, Role.SHIFT_MANAGER)
RESOLVE_ROLES = (Role.GAMING_MANAGER,)


def open_alert(finding: Finding, *, organization_id: int) -> tuple[Alert, bool]:
    """Open the alert for a finding unless it is open already; safe to run twice at once."""
    key = {
        "rule": finding.rule,
        "site_id": finding.site_id,
        "period_key": finding.period_key,
        "subject": finding.subject,
    }
    existing = Alert.objects.filter(**key).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():  # the row's event is its audit (`alert.opened`: Alert.audit_created_action)
            alert = Alert.objects.create(
                **key,
                organization_id=organization_id,
                citation=finding.citation,
                title=finding.title,
                period_start=finding.period_start,
                period_end=finding.period_end,
                figures=finding.figures,
                action_required=finding.action_required,
                due_date=finding.due_date,
                opened_at=timezone.now(),
            )
    except IntegrityError:
        # Another worker opened it between our look and our insert: the unique constraint won.
        return Alert.objects.get(**key), False
    notify_alert.apply_async_on_commit((alert.pk, Notification.Kind.OPENED), priority=MAIL_PRIORITY)
    return alert, True


NOTIFY_BATCH = 200  # alerts per notification task of a batch opening
ALERT_BATCH = 500  # alerts per INSERT (and audit events per INSERT) of a batch opening


def open_alerts(findings: list[Finding], *, organization_of: dict[int, int]) -> tuple[list[Alert], int]:
    """`open_alert` for many findings of one run chunk, in a bounded number of queries: one
    query finds which are open already, the new alerts are inserted together (with their
    audit events, appended per organization), and their e-mails are queued in tasks of
    `NOTIFY_BATCH` alerts. Returns (the alerts opened, how many findings were open already).
    If another run opened one of them meanwhile (the unique constraint), falls back to
    `open_alert` one finding at a time."""
    by_key: dict[tuple, Finding] = {}
    for finding in findings:
        by_key.setdefault((finding.rule, finding.site_id, finding.period_key, finding.subject), finding)
    if not by_key:
        return [], 0
    # Bounded lists: the sites of one chunk, the rules of one provider, the periods of one run.
    existing = set(
        Alert.objects.filter(
            site_id__in={k[1] for k in by_key},
            rule__in={k[0] for k in by_key},
            period_key__in={k[2] for k in by_key},
        ).values_list("rule", "site_id", "period_key", "subject")
    )
    already = sum(
        1 for finding in findings if (finding.rule, finding.site_id, finding.period_key, finding.subject) in existing
    )
    new = [f for key, f in by_key.items() if key not in existing]
    if not new:
        return [], already
    now, alerts = timezone.now(), []
    try:
        with transaction.atomic():
            # INSERTs of at most ALERT_BATCH rows: a statement's parameters stay bounded. Each
            # row's event (`alert.opened`, Alert.audit_created_action) is its audit.
            for start in range(0, len(new), ALERT_BATCH):
                alerts += Alert.objects.bulk_create(
                    [
                        Alert(
                            rule=f.rule,
                            site_id=f.site_id,
                            period_key=f.period_key,
                            subject=f.subject,
                            organization_id=organization_of[f.site_id],
                            citation=f.citation,
                            title=f.title,
                            period_start=f.period_start,
                            period_end=f.period_end,
                            figures=f.figures,
                            action_required=f.action_required,
                            due_date=f.due_date,
                            opened_at=now,
                        )
                        for f in new[start : start + ALERT_BATCH]
                    ]
                )
    except IntegrityError:
        opened = []
        for finding in new:
            alert, created = open_alert(finding, organization_id=organization_of[finding.site_id])
            if created:
                opened.append(alert)
            else:
                already += 1
        return opened, already
    _notify_when_committed([a.pk for a in alerts])
    return alerts, already


class _OpenedInTransaction:
    """The alerts opened in one transaction, whose e-mails are queued when it commits, in tasks
    of `NOTIFY_BATCH` alerts: one on-commit hook per transaction, so a run's day checks (one
    transaction, dozens of rules) queue a few full tasks rather than one small task per rule,
    each paying a task's fixed queries and commit for a handful of alerts. Django drops the
    hook, with the alerts it holds, if a savepoint active when it was added rolls back (the
    alerts roll back with it); an alert added later is added inside that savepoint too, or
    after it was released, when it can no longer roll back."""

    def __init__(self):
        self.alert_ids: list[int] = []

    def __call__(self):
        for start in range(0, len(self.alert_ids), NOTIFY_BATCH):
            notify_alerts.apply_async(
                (self.alert_ids[start : start + NOTIFY_BATCH], Notification.Kind.OPENED), priority=MAIL_PRIORITY
            )


def _notify_when_committed(alert_ids: list[int]) -> None:
    if not alert_ids:
        return
    conn = transaction.get_connection()
    pending = next((hook for _, hook, _ in conn.run_on_commit if isinstance(hook, _OpenedInTransaction)), None)
    if pending is not None and conn.in_atomic_block:
        pending.alert_ids += alert_ids
        return
    pending = _OpenedInTransaction()
    pending.alert_ids += alert_ids
    transaction.on_commit(pending)  # outside a transaction: runs at once


def flag_tips_at_leaving(found) -> None:
    """Registered with floor.tips (compliance.apps): a dealer's last shift of the day ended with
    tips undeclared or unredeemed: open the alert, once per dealer and day, where the site's pack
    states the rule (`rules.TIPS_BEFORE_LEAVING`, ND 99-01.3-08-06(3)). Elsewhere no alert: a
    dealer keeping tips past their shift is the house's own matter, not a state's obligation."""
    from .rules import TIPS_BEFORE_LEAVING, TipsAtLeaving, tips_not_redeemed

    if not TIPS_BEFORE_LEAVING.applies(found.site):
        return
    finding = tips_not_redeemed(
        TipsAtLeaving(
            site_id=found.site.pk,
            gaming_date=found.gaming_date,
            dealer_id=found.dealer.pk,
            dealer=str(found.dealer),
            declared=found.declared,
            unredeemed_cents=found.unredeemed_cents,
            checked_at=found.checked_at,
        ),
        at=found.site,
    )
    open_alert(finding, organization_id=found.site.organization_id)


def flag_filed_return_amended(amendment) -> None:
    """Registered with accounting.amendments (compliance.apps): a figure entered after a
    quarter was filed changed its return; open the alert for the gaming manager, once per
    amendment, citing the filing rule of the site's pack (ND 99-01.3-08-16(1)(g); a house
    control where the pack states none)."""
    from accounting.published import amendment_entry, filed_line_label
    from accounting.rules import QUARTERLY_SUMMARY

    from .rules import FiledReturnAmended, filed_return_amended

    filing = amendment.filing
    site = filing.site
    entry = amendment_entry(amendment, site)
    found = FiledReturnAmended(
        site_id=site.pk,
        site=str(site),
        quarter=filing.quarter,
        period_start=filing.start,
        period_end=filing.end,
        filing_id=filing.pk,
        filed_on=local_date(site, filing.filed_at),  # the site's date, as every page shows it
        filed_sha256=filing.figures_sha256,
        amendment_id=amendment.pk,
        figure=filed_line_label(amendment.get_figure_display(), site),  # in the pack's words (Win, AGP)
        delta_cents=amendment.delta_cents,
        entry=entry,
    )
    open_alert(filed_return_amended(found, citation=QUARTERLY_SUMMARY.at(site)), organization_id=site.organization_id)


def flag_tournament_fee_before_announcement(found) -> None:
    """Registered with tournaments.services (compliance.apps): a tournament fee dated before its
    tournament's announcement; open the alert once per fee, a house control (the disclosure rule,
    ND 99-01.3-08-15, states no time: tournaments.services.flag_fee_before_announcement)."""
    from tournaments.rules import DISCLOSURE

    from .rules import EarlyTournamentFee, tournament_fee_before_announcement

    fee, tournament, site = found.fee, found.tournament, found.site
    early = EarlyTournamentFee(
        site_id=site.pk, time_zone=site.time_zone, tournament_id=tournament.pk, tournament=tournament.name,
        fee_id=fee.pk, fee=fee.get_kind_display().lower(), player=fee.player.name, fee_cents=fee.fee_cents,
        gaming_date=fee.gaming_date, collected_at=fee.collected_at, announced_at=tournament.announced_at,
    )  # fmt: skip
    finding = tournament_fee_before_announcement(early, disclosure=DISCLOSURE.at(site))
    open_alert(finding, organization_id=site.organization_id)


def _add_step(alert: Alert, *, acting_user, kind: str, note: str = "", documentation: dict | None = None) -> AlertStep:
    with transaction.atomic():
        Site.objects.select_for_update().filter(pk=alert.site_id).exists()  # serialise steps of a site's alerts
        kinds = set(alert.steps.values_list("kind", flat=True))
        if AlertStep.Kind.RESOLVED in kinds:
            raise ValidationError(
                {"alert": f"{HOUSE_CONTROL}: this alert is already resolved; nothing more can be added."}
            )
        if kind == AlertStep.Kind.ACKNOWLEDGED and kind in kinds:
            raise ValidationError({"alert": f"{HOUSE_CONTROL}: this alert is already acknowledged."})
        if kind == AlertStep.Kind.RESOLVED and AlertStep.Kind.DOCUMENTED not in kinds and not documentation:
            raise ValidationError(
                {"documentation": f"{alert.citation}: attach the documentation that resolves this alert first."}
            )
        if kind == AlertStep.Kind.DOCUMENTED and not (note.strip() or documentation):
            raise ValidationError(
                {
                    "note": f"{HOUSE_CONTROL}: note describes the documentation (for example whom you contacted and when)."
                }
            )
        step = AlertStep.objects.create(
            alert=alert, kind=kind, by=acting_user, at=timezone.now(), note=note, documentation=documentation or {}
        )
        record_event(
            actor=acting_user,
            action=f"alert.{kind}",
            obj=step,
            organization_id=alert.organization_id,
            site_id=alert.site_id,
            after=snapshot(step),
        )
    return step


def acknowledge_alert(*, acting_user, alert: Alert, note: str = "") -> AlertStep:
    require_role(acting_user, alert.site, *ACKNOWLEDGE_ROLES, action="acknowledge an alert", rule=HOUSE_CONTROL)
    return _add_step(alert, acting_user=acting_user, kind=AlertStep.Kind.ACKNOWLEDGED, note=note)


def document_alert(*, acting_user, alert: Alert, note: str, documentation: dict | None = None) -> AlertStep:
    require_role(acting_user, alert.site, *ACKNOWLEDGE_ROLES, action="document an alert", rule=HOUSE_CONTROL)
    return _add_step(
        alert, acting_user=acting_user, kind=AlertStep.Kind.DOCUMENTED, note=note, documentation=documentation
    )


def resolve_alert(*, acting_user, alert: Alert, note: str = "", documentation: dict | None = None) -> AlertStep:
    require_role(acting_user, alert.site, *RESOLVE_ROLES, action="resolve an alert", rule=HOUSE_CONTROL)
    return _add_step(
        alert, acting_user=acting_user, kind=AlertStep.Kind.RESOLVED, note=note, documentation=documentation
    )


def resolve_alert_with_documentation(
    *, acting_user, alert: Alert, note: str, documentation: dict | None = None
) -> AlertStep:
    """The browser's one resolve action: the documentation that resolves the alert is required
    (the note, and whom was contacted when, if anyone), then the alert is acknowledged (unless
    it was), documented and resolved in one transaction, each step its own audited row, as the
    three API steps would record them. House control: only a gaming manager resolves."""
    require_role(acting_user, alert.site, *RESOLVE_ROLES, action="resolve an alert", rule=HOUSE_CONTROL)
    if not note.strip():
        raise ValidationError(
            {
                "note": f"{alert.citation}: describe the documentation that resolves this alert "
                "(for example whom you contacted and when, or the documented reason)."
            }
        )
    with transaction.atomic():
        if not alert.steps.filter(kind=AlertStep.Kind.ACKNOWLEDGED).exists():
            _add_step(alert, acting_user=acting_user, kind=AlertStep.Kind.ACKNOWLEDGED)
        _add_step(
            alert, acting_user=acting_user, kind=AlertStep.Kind.DOCUMENTED, note=note, documentation=documentation
        )
        return _add_step(alert, acting_user=acting_user, kind=AlertStep.Kind.RESOLVED, note=note)


def start_run(*, trigger: str, scope: dict, acting_user=None, site: Site | None = None) -> ComplianceRun:
    """The row that says a run of the rules began (shown as the last run on the compliance page)."""
    return ComplianceRun.objects.create(
        trigger=trigger,
        by=acting_user if acting_user and acting_user.is_authenticated else None,
        site=site,
        scope=scope,
        started_at=timezone.now(),
    )


def finish_run(run_id: int, *, result: dict | None = None, error: str = "") -> ComplianceRun | None:
    """Record how a run ended: the alerts opened and found already open, or the error. A run
    started by a person is audited against its site (the alerts it opened are audited each)."""
    with transaction.atomic():
        run = ComplianceRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None:
            return None
        run.finished_at = timezone.now()
        run.status = ComplianceRun.Status.FAILED if error else ComplianceRun.Status.SUCCEEDED
        run.opened, run.already_open = (None, None) if error else (result["opened"], result["already_open"])
        run.error = error[:2000]
        run.save(update_fields=["finished_at", "status", "opened", "already_open", "error"])
        if run.by_id and run.site_id:
            record_event(
                actor=run.by,
                action="compliance.run",
                obj=run,
                organization_id=run.site.organization_id,
                site_id=run.site_id,
                after=snapshot(run),
            )
    return run
