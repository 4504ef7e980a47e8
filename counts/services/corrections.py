"""Corrections after a count is signed: adjusting entries and explaining a forms exception
(ND 99-01.3-08-14)."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from cardroom.access import require_role
from cardroom.models import Role
from core import acts, moments
from core.audit import record_site_event as _audit
from core.rules import HOUSE_CONTROL

from .. import queries
from ..models import CountAgreement, CountSession, Drop, DropBox, EntryKind, FormsExplanation
from ..rules import COUNT
from .counting import agree, entry_after, save_entry
from .figures import entry_figures, parse_currency, parse_forms

# House control: the reconciliation of the forms found with the slips issued keeps one explanation a form.
EXPLAINED = HOUSE_CONTROL + ": {kind} slip {number} is already explained."


def record_count_adjustment(
    *,
    acting_user,
    session: CountSession,
    drop_box: DropBox,
    currency,
    forms=None,
    reason: str = "",
    at: datetime | None = None,
) -> CountAgreement:
    """Correct a signed count: new figures for one box, with a reason, approved by a gaming
    manager. The original count stays as it was; the adjustment supersedes it. Once the day's
    books are closed the count is part of them and is not corrected here: the correction is an
    adjustment to the closed books (core.closing)."""
    require_role(
        acting_user, session.site, Role.GAMING_MANAGER, action="approve a count adjustment", rule=HOUSE_CONTROL
    )
    manager = acts.acting_employee_of(acting_user)
    acts.refuse_closed_books(session.site, session.gaming_date, "the counted drop", field="session")
    if not queries.is_signed(session):
        raise ValidationError(
            {
                "session": f"{COUNT.at(session.site)}: the count is not signed yet: the team resolves differences "
                "by recount before signing."
            }
        )
    if drop_box.site_id != session.site_id:
        raise ValidationError({"box": f"{HOUSE_CONTROL}: {drop_box} belongs to another site than this count."})
    current = queries.current_agreements(signed_only=False).filter(session=session, drop__drop_box=drop_box).first()
    if current is None:
        raise ValidationError({"box": f"{HOUSE_CONTROL}: {drop_box} was not counted in this session."})
    if not (reason or "").strip():
        raise ValidationError({"reason": f"{HOUSE_CONTROL}: an adjusting entry states its reason."})
    figures, found = parse_currency(currency, session.site), parse_forms(forms, session.site)
    when = _adjusted_at(session, current, at)
    with transaction.atomic():
        acts.hold_books_open(session.site, session.gaming_date, "the counted drop", field="session")
        entry = save_entry(
            session, current.drop, EntryKind.ADJUSTMENT, manager, figures, found, when, note=reason.strip()
        )
        _audit(acting_user, "count.adjusted", entry, session.site, after=entry_after(entry, figures, found))
        return agree(
            acting_user,
            session,
            current.drop,
            entry,
            CountAgreement.Source.ADJUSTMENT,
            when,
            supersedes=current,
            reason=reason.strip(),
            approved_by=manager,
        )


def _adjusted_at(session: CountSession, current: CountAgreement, at: datetime | None) -> datetime:
    """When the adjusting entry was made: now, or the time on its paper; never in the future
    beyond the clock tolerance, nor before the signed count it corrects (`COUNT`: the count is
    initialled and dated by both members, and an adjustment corrects that signed record) or the
    agreement it supersedes."""
    site = session.site
    when = acts.moment(at, "adjusted_at", site=site, books_date=session.gaming_date, what="the counted drop")
    signed = session.signatures.aggregate(last=Max("signed_at"))["last"]
    why = "an adjusting entry corrects the count once both members have initialled and dated it"
    moments.refuse_before(
        site, when, signed, field="adjusted_at", rule=COUNT.at(site), why=why, what="the count was signed"
    )
    moments.refuse_before(
        site,
        when,
        current.agreed_at,
        field="adjusted_at",
        rule=COUNT.at(site),
        why="an adjusting entry supersedes the agreed figures",
        what="the figures it corrects were agreed",
    )
    return when


def explain_forms_exception(
    *, acting_user, drop: Drop, kind: str, number: int, explanation: str, at: datetime | None = None
) -> FormsExplanation:
    """Explain a slip missing from a box or a form found that was not expected."""
    site = drop.site
    require_role(
        acting_user,
        site,
        Role.GAMING_MANAGER,
        Role.SHIFT_MANAGER,
        action="explain a forms exception",
        rule=HOUSE_CONTROL,
    )
    employee = acts.acting_employee_of(acting_user)
    if not (explanation or "").strip():
        raise ValidationError({"explanation": f"{HOUSE_CONTROL}: say why the form is missing or unexpected."})
    agreement = queries.current_agreements(signed_only=False).filter(drop=drop).first()
    if agreement is None:
        raise ValidationError(
            {"box": f"{HOUSE_CONTROL}: the box's count is not agreed yet; its forms are reconciled once it is."}
        )
    _lines, found = entry_figures(agreement.entry)
    rows = queries.forms_reconciliation(drop, found)["exceptions"]
    match = next((r for r in rows if (r["kind"], r["number"]) == (kind, number)), None)
    if match is None:
        raise ValidationError(
            {"number": f"{HOUSE_CONTROL}: {kind} slip {number} is not an exception on this box's count."}
        )
    if match["explanation"] is not None:
        raise ValidationError({"number": EXPLAINED.format(kind=kind, number=number)})
    # An explanation entered from paper keeps its time; the exception it explains exists once the
    # box's figures are agreed (a house control: the reconciliation of forms found with slips issued).
    explained_at = acts.moment(at, "explained_at", site=site, books=False, what="a forms explanation")
    moments.refuse_before(
        site,
        explained_at,
        agreement.agreed_at,
        field="explained_at",
        rule=HOUSE_CONTROL,
        why="a form is explained once the box's count shows it missing or unexpected",
        what="the box's count was agreed",
    )
    with transaction.atomic():
        _refuse_explained_meanwhile(drop, kind, number)
        explained = FormsExplanation.objects.create(
            drop=drop,
            kind=kind,
            number=number,
            explanation=explanation.strip(),
            explained_by=employee,
            explained_at=explained_at,
        )
        _audit(acting_user, "count.forms_explained", explained, site)
    return explained


def _refuse_explained_meanwhile(drop: Drop, kind: str, number: int) -> None:
    """The box's drop locked to the end of the explaining's transaction, then its explanations read
    again: the same exception explained on two terminals at once is explained once, the second
    refused as it is afterwards (the reconciliation keeps one explanation of each form)."""
    acts.hold(drop)
    if FormsExplanation.objects.filter(drop_id=drop.pk, kind=kind, number=number).exists():
        raise ValidationError({"number": EXPLAINED.format(kind=kind, number=number)})
