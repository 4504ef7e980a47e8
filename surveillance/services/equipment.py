"""Surveillance equipment: installing, moving and retiring it, site changes, sample
recordings and their evaluation, vendor purchases (ND 99-01.3-08-04)."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Site, Table
from core import acts
from core.audit import record_event, snapshot
from core.money import format_money
from core.rules import HOUSE_CONTROL

from ..models import Equipment, EquipmentChange, SampleEvaluation, SampleSubmission, VendorPurchase
from ..rules import SAMPLE_DUE, SAMPLE_EVALUATION_FORM, STAFF_ROLES, VENDOR_DEFERRED_SHARE, VIDEO_SAMPLE
from .steps import append_audited, require_same_site


def _change(acting_user, *, site, table, equipment, kind, changed_on, note) -> EquipmentChange:
    change = EquipmentChange(
        site=site,
        table=table,
        equipment=equipment,
        kind=kind,
        changed_on=changed_on,
        sample_due_on=changed_on + SAMPLE_DUE.on(site, changed_on).value,
        note=note,
        recorded_by=acting_user,
        recorded_at=timezone.now(),
    )
    return append_audited(change, acting_user=acting_user, site=site, action="equipment_change.recorded")


def install_equipment(
    *,
    acting_user,
    site: Site,
    kind: str,
    make_model: str,
    installed_on: date,
    table: Table | None = None,
    serial_number: str = "",
    vendor: str = "",
    replaces: Equipment | None = None,
    note: str = "",
) -> Equipment:
    """Install a camera, dome, recorder or time and date generator, optionally replacing one.
    A sample recording becomes due 14 days later (ND 99-01.3-08-04(11))."""
    require_role(acting_user, site, *STAFF_ROLES, action="install surveillance equipment", rule=HOUSE_CONTROL)
    require_same_site(table, site)
    if replaces is not None and (replaces.site_id != site.pk or not replaces.in_service):
        raise ValidationError({"replaces": f"{HOUSE_CONTROL}: only equipment in service at this site can be replaced."})
    with transaction.atomic():
        equipment = Equipment(
            site=site,
            table=table,
            kind=kind,
            make_model=make_model,
            serial_number=serial_number,
            vendor=vendor,
            installed_on=installed_on,
        )
        equipment.full_clean()
        equipment._history_user = acting_user
        equipment.save()
        if replaces is not None:
            _retire(acting_user, replaces, removed_on=installed_on, replaced_by=equipment)
        kind_of_change = EquipmentChange.Kind.REPLACED if replaces else EquipmentChange.Kind.INSTALLED
        _change(
            acting_user,
            site=site,
            table=table,
            equipment=equipment,
            kind=kind_of_change,
            changed_on=installed_on,
            note=note,
        )
    return equipment


def _retire(acting_user, equipment: Equipment, *, removed_on: date, replaced_by: Equipment) -> None:
    before = snapshot(equipment)
    equipment.removed_on, equipment.replaced_by = removed_on, replaced_by
    equipment._history_user = acting_user
    equipment.save(update_fields=["removed_on", "replaced_by"])
    record_event(
        actor=acting_user,
        action="surveillance.equipment.replaced",
        obj=equipment,
        organization_id=equipment.site.organization_id,
        site_id=equipment.site_id,
        before=before,
        after=snapshot(equipment),
    )


def move_equipment(*, acting_user, equipment: Equipment, table: Table, moved_on: date, note: str = "") -> Equipment:
    """Move a camera (or other unit) to another table of the site; a sample becomes due."""
    site = equipment.site
    require_role(acting_user, site, *STAFF_ROLES, action="move surveillance equipment", rule=HOUSE_CONTROL)
    require_same_site(table, site)
    if not equipment.in_service:
        raise ValidationError({"equipment": f"{HOUSE_CONTROL}: this equipment is no longer in service."})
    with transaction.atomic():
        before = snapshot(equipment)
        equipment.table = table
        equipment._history_user = acting_user
        equipment.save(update_fields=["table"])
        record_event(
            actor=acting_user,
            action="surveillance.equipment.moved",
            obj=equipment,
            organization_id=site.organization_id,
            site_id=site.pk,
            before=before,
            after=snapshot(equipment),
        )
        _change(
            acting_user,
            site=site,
            table=table,
            equipment=equipment,
            kind=EquipmentChange.Kind.MOVED,
            changed_on=moved_on,
            note=note,
        )
    return equipment


def record_site_change(
    *, acting_user, site: Site, kind: str, changed_on: date, table: Table | None = None, note: str = ""
) -> EquipmentChange:
    """A site acquired with its equipment, or a table moved at the site: a sample becomes due."""
    require_role(acting_user, site, *STAFF_ROLES, action="record an equipment change", rule=HOUSE_CONTROL)
    require_same_site(table, site)
    if kind not in (EquipmentChange.Kind.SITE_ACQUIRED, EquipmentChange.Kind.TABLE_MOVED):
        raise ValidationError(
            {"kind": f"{HOUSE_CONTROL}: installations, moves and replacements are recorded with the equipment."}
        )
    with transaction.atomic():
        return _change(acting_user, site=site, table=table, equipment=None, kind=kind, changed_on=changed_on, note=note)


def submit_sample(*, acting_user, change: EquipmentChange, submitted_on: date, note: str = "") -> SampleSubmission:
    """Record a sample recording sent to the attorney general (ND 99-01.3-08-04(11)); after an
    unsatisfactory evaluation the new sample points back to the one it replaces."""
    require_role(acting_user, change.site, *STAFF_ROLES, action="record a sample recording", rule=HOUSE_CONTROL)
    _previous_sample(change)
    if submitted_on < change.changed_on:  # the sample shows the change, sent within the days after it
        raise ValidationError(
            {"submitted_on": f"{VIDEO_SAMPLE.at(change.site)}: a sample cannot be sent before the change it shows."}
        )
    with transaction.atomic():
        # The change's row locked, then its samples read again: two samples sent at once for one
        # change, the second waits for the first and is refused (it awaits its evaluation).
        acts.hold(change)
        previous = _previous_sample(change)
        submission = SampleSubmission(
            change=change,
            resubmission_of=previous,
            submitted_on=submitted_on,
            note=note,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return append_audited(submission, acting_user=acting_user, site=change.site, action="sample.submitted")


def _previous_sample(change: EquipmentChange) -> SampleSubmission | None:
    """The change's last sample, which a new one replaces; refused while it awaits its
    evaluation or once approved (`VIDEO_SAMPLE`: a sample is resubmitted only once found not
    satisfactory)."""
    previous = SampleSubmission.objects.filter(change_id=change.pk).order_by("-submitted_on", "-id").first()
    if previous is not None:
        evaluation = SampleEvaluation.objects.filter(submission_id=previous.pk).first()
        if evaluation is None:
            raise ValidationError(
                {
                    "change": f"{VIDEO_SAMPLE.at(change.site)}: the previous sample is still waiting for its "
                    "evaluation; a sample is resubmitted once it is found not satisfactory."
                }
            )
        if evaluation.outcome == SampleEvaluation.Outcome.APPROVED:
            raise ValidationError(
                {
                    "change": f"{VIDEO_SAMPLE.at(change.site)}: the sample for this change is already approved; "
                    "a sample is resubmitted only when found not satisfactory."
                }
            )
    return previous


def record_sample_evaluation(
    *,
    acting_user,
    submission: SampleSubmission,
    evaluated_on: date,
    outcome: str,
    evaluator: str = "",
    findings: str = "",
) -> SampleEvaluation:
    """The evaluation of a sample (on the form the site's pack names, `rules.SAMPLE_EVALUATION_FORM`;
    none elsewhere): approved, or resolve and resubmit."""
    site = submission.change.site
    require_role(acting_user, site, *STAFF_ROLES, action="record a sample evaluation", rule=HOUSE_CONTROL)
    _refuse_evaluated(site, submission)
    if evaluated_on < submission.submitted_on:
        raise ValidationError(
            {"evaluated_on": f"{VIDEO_SAMPLE.at(site)}: the evaluation cannot come before the sample was sent."}
        )
    with transaction.atomic():
        # The sample's row locked, then read again: a second evaluation sent at once waits for the
        # first and is refused, as it is after it.
        acts.hold(submission)
        _refuse_evaluated(site, submission)
        evaluation = SampleEvaluation(
            submission=submission,
            evaluated_on=evaluated_on,
            outcome=outcome,
            evaluator=evaluator,
            findings=findings,
            form_reference=SAMPLE_EVALUATION_FORM.at(site) if SAMPLE_EVALUATION_FORM.applies(site) else "",
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return append_audited(evaluation, acting_user=acting_user, site=site, action="sample.evaluated")


def _refuse_evaluated(site: Site, submission: SampleSubmission) -> None:
    """`VIDEO_SAMPLE`: a sample is evaluated once; one found not satisfactory is resubmitted as a new sample."""
    if SampleEvaluation.objects.filter(submission_id=submission.pk).exists():
        raise ValidationError(
            {
                "submission": f"{VIDEO_SAMPLE.at(site)}: this sample already has its evaluation; "
                "one found not satisfactory is resubmitted as a new sample."
            }
        )


def record_vendor_purchase(
    *,
    acting_user,
    site: Site,
    vendor: str,
    description: str,
    purchased_on: date,
    price_cents: int,
    deferred_cents: int,
    approved_vendor: bool = True,
    change: EquipmentChange | None = None,
) -> VendorPurchase:
    """Equipment bought or leased; from an approved vendor at least half of the price is
    deferred until the attorney general approves the video (ND 99-01.3-08-04(10))."""
    require_role(acting_user, site, *STAFF_ROLES, action="record a vendor purchase", rule=HOUSE_CONTROL)
    if change is not None and change.site_id != site.pk:
        raise ValidationError({"change": f"{HOUSE_CONTROL}: the equipment change is at another site."})
    # An obligation of ND's law only: another pack's site records its purchases as it pays them.
    share = VENDOR_DEFERRED_SHARE.on(site, purchased_on) if VENDOR_DEFERRED_SHARE.rule.applies(site) else None
    numerator, denominator = share.value if share else (0, 1)
    if share and approved_vendor and deferred_cents * denominator < price_cents * numerator:
        raise ValidationError(
            {
                "deferred_cents": (
                    f"{share.citation}: {share.text} of an approved vendor's price "
                    f"({format_money(price_cents)}) must be deferred until the attorney general approves the video; "
                    f"{format_money(deferred_cents)} is not enough."
                )
            }
        )
    with transaction.atomic():
        purchase = VendorPurchase(
            site=site,
            change=change,
            vendor=vendor,
            approved_vendor=approved_vendor,
            description=description,
            purchased_on=purchased_on,
            price_cents=price_cents,
            deferred_cents=deferred_cents,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return append_audited(purchase, acting_user=acting_user, site=site, action="vendor_purchase.recorded")
