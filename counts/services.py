"""Every write of the drop box count: permission-checked, validated, audited, in one transaction.

The API and the count pages call these and nothing else; bad input raises ValidationError
naming the field and the rule, and changes nothing.
"""

from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom import closing
from cardroom.access import NOT_AN_EMPLOYEE, access_for, require_role
from cardroom.audit import record_site_event as _audit
from cardroom.audit import snapshot
from cardroom.models import Employee, Membership, Role, Site, Table
from cardroom.rules import HOUSE_CONTROL

from . import queries
from .models import (
    BoxExchange,
    CountAgreement,
    CountEntry,
    CountLine,
    CountSession,
    CountSettings,
    CountSignature,
    Drop,
    DropBox,
    DropRemoval,
    EntryKind,
    FormFound,
    FormsExplanation,
    SlipKind,
)
from .rules import (
    BOX_NUMBER_CITATION,
    COUNT_CITATION,
    COUNT_TEAM_CITATION,
    CURRENCY_BY_KEY,
    KEY_CITATION,
    REMOVAL_CITATION,
    count_team_refusal,
    currency_list_text,
    default_form,
)

Figures = dict[tuple[int, str], int]  # (denomination_cents, "bill"|"coin") -> quantity > 0
Forms = set[tuple[str, int]]  # ("fill"|"credit", slip number)


def _acting_employee(acting_user) -> Employee:
    employee = access_for(acting_user).employee
    if employee is None:
        raise PermissionDenied(NOT_AN_EMPLOYEE)
    return employee


def _now(at: datetime | None) -> datetime:
    return at or timezone.now()


def _refuse_closed_books(site: Site, gaming_date: date, what: str, field: str = "gaming_date") -> None:
    """A count of a day whose books are closed stays as closed (cardroom.closing): a correction
    is an adjustment to the closed books, approved by a gaming manager."""
    refusal = closing.closed_books_refusal(site.pk, gaming_date, what)
    if refusal is not None:
        raise ValidationError({field: refusal})


# --- Parsing the figures (one path for API and browser) -------------------------------------


def _whole_number(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def parse_currency(raw) -> Figures:
    """[{"denomination_cents": n, "quantity": q, "form": "bill"|"coin"?}] -> {(n, form): q}.
    Quantities are whole numbers, never negative; only US bills and coins; each once."""
    if not isinstance(raw, list | tuple):
        raise ValidationError({"currency": "Give the currency as a list of denominations and quantities."})
    figures: Figures = {}
    errors = []
    for item in raw:
        if not isinstance(item, dict):
            errors.append("Each currency line needs a denomination_cents and a quantity.")
            continue
        cents = _whole_number(item.get("denomination_cents"))
        form = item.get("form") or (default_form(cents) if cents is not None else None)
        denomination = CURRENCY_BY_KEY.get(f"{form}_{cents}")
        if denomination is None:
            errors.append(
                f"{item.get('denomination_cents')!r} cents is not a US bill or coin the count records "
                f"({currency_list_text()})."
            )
            continue
        quantity = _whole_number(item.get("quantity"))
        if quantity is None or quantity < 0:
            errors.append(
                f"The quantity of {denomination.label}s must be a whole number, zero or more "
                f"(got {item.get('quantity')!r})."
            )
            continue
        if (cents, form) in figures:
            errors.append(f"{denomination.label} is listed twice.")
            continue
        figures[(cents, form)] = quantity
    if errors:
        raise ValidationError({"currency": errors})
    return {key: q for key, q in figures.items() if q > 0}


def parse_forms(raw) -> Forms:
    """[{"kind": "fill"|"credit", "number": n}] -> {(kind, n)}: fill-slip copies and
    credit-slip originals found in the box, each number once."""
    if raw in (None, ""):
        return set()
    if not isinstance(raw, list | tuple):
        raise ValidationError({"forms": "Give the forms found as a list of slip kinds and numbers."})
    forms: Forms = set()
    errors = []
    for item in raw:
        kind = item.get("kind") if isinstance(item, dict) else None
        number = _whole_number(item.get("number")) if isinstance(item, dict) else None
        if kind not in SlipKind.values:
            errors.append(
                f"A form found is a fill slip copy or a credit slip original (kind 'fill' or 'credit'), not {kind!r}."
            )
        elif number is None or number < 1:
            errors.append(f"A {kind} slip number is a whole number from 1 (got {item.get('number')!r}).")
        elif (kind, number) in forms:
            errors.append(f"{kind.capitalize()} slip {number} is listed twice.")
        else:
            forms.add((kind, number))
    if errors:
        raise ValidationError({"forms": errors})
    return forms


def figures_total(figures: Figures) -> int:
    return sum(cents * quantity for (cents, _form), quantity in figures.items())


def entry_figures(entry: CountEntry) -> tuple[Figures, Forms]:
    lines = {(line.denomination_cents, line.form): line.quantity for line in entry.lines.all()}
    return lines, {(f.kind, f.number) for f in entry.forms.all()}


# --- Settings and the box register ----------------------------------------------------------


def update_count_settings(*, acting_user, site: Site, **values) -> CountSettings:
    """A site's box exchange (per gaming day or per dealer shift) and its twenty-one auditor."""
    require_role(acting_user, site, Role.GAMING_MANAGER, action="change the count settings", rule=HOUSE_CONTROL)
    auditor = values.get("twenty_one_auditor")
    if auditor is not None and auditor.organization_id != site.organization_id:
        raise ValidationError({"twenty_one_auditor": "The auditor must be a person of this organization."})
    with transaction.atomic():
        settings = CountSettings.objects.select_for_update().filter(site=site).first() or CountSettings(site=site)
        before = None if settings._state.adding else snapshot(settings)
        for name, value in values.items():
            setattr(settings, name, value)
        settings.full_clean()
        settings._history_user = acting_user
        settings.save()
        _audit(acting_user, "count_settings.updated", settings, site, before=before)
    return settings


def register_drop_box(
    *, acting_user, table: Table, number: int | None = None, label: str = "", locks: int = 1
) -> DropBox:
    """Register a drop box for a table; its number matches the table's (ND 99-01.3-08-02(2))."""
    site = table.site
    require_role(acting_user, site, Role.GAMING_MANAGER, action="register a drop box", rule=HOUSE_CONTROL)
    number = table.number if number is None else number
    if number != table.number and site.tables.count() > 1:
        raise ValidationError(
            {"number": f"{BOX_NUMBER_CITATION}: a drop box must have the number of its table ({table.number})."}
        )
    box = DropBox(site=site, table=table, number=number, label=(label or "").strip(), locks=locks)
    with transaction.atomic():
        box.full_clean()
        box._history_user = acting_user
        box.save()
        _audit(acting_user, "drop_box.registered", box, site)
    return box


# --- Custody: placing and removing a box ------------------------------------------------------


def _validate_dealer_shift(site: Site, table: Table, gaming_date: date, dealer_shift_id: int | None) -> None:
    exchange = queries.box_exchange(site)
    if exchange == BoxExchange.DEALER_SHIFT and dealer_shift_id is None:
        raise ValidationError(
            {"dealer_shift": "This site exchanges drop boxes at each dealer change: name the dealer shift."}
        )
    if exchange == BoxExchange.GAMING_DAY and dealer_shift_id is not None:
        raise ValidationError(
            {"dealer_shift": "This site exchanges drop boxes once per gaming day, not per dealer shift."}
        )
    if dealer_shift_id is not None:
        try:
            from accounting.models import DealerShift
        except ImportError:
            return
        if not DealerShift.objects.filter(
            pk=dealer_shift_id, table=table, gaming_day__gaming_date=gaming_date
        ).exists():
            raise ValidationError(
                {"dealer_shift": f"No dealer shift {dealer_shift_id} at table {table.number} on {gaming_date}."}
            )


def _validate_reuse(drop_box: DropBox) -> None:
    if queries.open_drop(drop_box) is not None:
        raise ValidationError({"box": f"{drop_box} is still on its table: record its removal first."})
    if queries.uncounted_drop(drop_box) is not None:
        raise ValidationError(
            {
                "box": f"{REMOVAL_CITATION}: {drop_box} still holds uncounted cash; it is counted before it is used again."
            }
        )


def place_drop_box(
    *, acting_user, drop_box: DropBox, gaming_date: date, dealer_shift_id: int | None = None, at: datetime | None = None
) -> Drop:
    """Put a box on its table for a gaming day (or a dealer shift)."""
    site = drop_box.site
    require_role(acting_user, site, Role.SHIFT_MANAGER, action="place a drop box", rule=HOUSE_CONTROL)
    employee = _acting_employee(acting_user)
    if not drop_box.active:
        raise ValidationError({"box": f"{drop_box} is retired."})
    _refuse_closed_books(site, gaming_date, "the drop")
    _validate_reuse(drop_box)
    _validate_dealer_shift(site, drop_box.table, gaming_date, dealer_shift_id)
    with transaction.atomic():
        drop = Drop.objects.create(
            site=site,
            drop_box=drop_box,
            table=drop_box.table,
            gaming_date=gaming_date,
            dealer_shift_id=dealer_shift_id,
            placed_at=_now(at),
            placed_by=employee,
        )
        _audit(acting_user, "drop.placed", drop, site)
    return drop


def _holds_count_role(employee: Employee | None, site: Site) -> bool:
    return (
        employee is not None and Membership.objects.filter(employee=employee, site=site, role=Role.COUNT_TEAM).exists()
    )


def _validate_custody(
    site, drop_box, transporter, *, escorted_by, sole_employee_on_duty, storage_place, key_holder, second_key_holder
):
    if escorted_by is None and not sole_employee_on_duty:
        raise ValidationError(
            {
                "escorted_by": f"{REMOVAL_CITATION}: with more than one employee on duty, the shift manager transporting the box is escorted by another employee."
            }
        )
    if escorted_by is not None and escorted_by.pk == transporter.pk:
        raise ValidationError(
            {"escorted_by": "The escort is another employee than the shift manager transporting the box."}
        )
    if escorted_by is not None and escorted_by.organization_id != site.organization_id:
        raise ValidationError({"escorted_by": "The escort must be an employee of this organization."})
    if not (storage_place or "").strip():
        raise ValidationError({"storage_place": f"{REMOVAL_CITATION}: say where the box is stored until the count."})
    if not _holds_count_role(key_holder, site):
        raise ValidationError(
            {
                "key_holder": f"{KEY_CITATION}: the key to the box's contents is controlled by a count team member of this site."
            }
        )
    if drop_box.locks == 2:
        if not _holds_count_role(second_key_holder, site) or second_key_holder.pk == key_holder.pk:
            raise ValidationError(
                {
                    "second_key_holder": f"{KEY_CITATION}: the key to the second lock is controlled by the other count team member."
                }
            )
    elif second_key_holder is not None:
        raise ValidationError({"second_key_holder": f"{drop_box} has one lock; there is no second key."})


def remove_drop_box(
    *,
    acting_user,
    drop_box: DropBox,
    storage_place: str,
    key_holder: Employee | None,
    second_key_holder: Employee | None = None,
    escorted_by: Employee | None = None,
    sole_employee_on_duty: bool = False,
    gaming_date: date | None = None,
    dealer_shift_id: int | None = None,
    removed_at: datetime | None = None,
    at: datetime | None = None,
) -> DropRemoval:
    """Record that a shift manager removed a used box from its table and took it, escorted,
    to safe storage (ND 99-01.3-08-14(1)), and who holds its keys (08-14(3)). A box placed
    earlier is found; otherwise the removal also records its use for `gaming_date`."""
    site = drop_box.site
    require_role(acting_user, site, Role.SHIFT_MANAGER, action="remove and transport a drop box", rule=REMOVAL_CITATION)
    transporter = _acting_employee(acting_user)
    removed_at = removed_at or _now(at)
    if removed_at > timezone.now():
        raise ValidationError({"removed_at": "A removal cannot be recorded in the future."})
    drop = queries.open_drop(drop_box)
    if drop is not None and gaming_date is not None and drop.gaming_date != gaming_date:
        raise ValidationError({"gaming_date": f"{drop_box} is on its table for {drop.gaming_date}, not {gaming_date}."})
    if drop is None:
        if gaming_date is None:
            raise ValidationError(
                {"gaming_date": f"{drop_box} was not placed on a table: give the gaming date it was used."}
            )
        _refuse_closed_books(site, gaming_date, "the drop")
        _validate_reuse(drop_box)
        _validate_dealer_shift(site, drop_box.table, gaming_date, dealer_shift_id)
    _validate_custody(
        site,
        drop_box,
        transporter,
        escorted_by=escorted_by,
        sole_employee_on_duty=sole_employee_on_duty,
        storage_place=storage_place,
        key_holder=key_holder,
        second_key_holder=second_key_holder,
    )
    with transaction.atomic():
        if drop is None:
            drop = Drop.objects.create(
                site=site,
                drop_box=drop_box,
                table=drop_box.table,
                gaming_date=gaming_date,
                dealer_shift_id=dealer_shift_id,
                placed_at=min(removed_at, queries.gaming_day_bounds(site, gaming_date)[0]),
                placed_by=transporter,
            )
            _audit(acting_user, "drop.placed", drop, site)
        removal = DropRemoval.objects.create(
            drop=drop,
            removed_at=removed_at,
            transported_by=transporter,
            escorted_by=escorted_by,
            sole_employee_on_duty=sole_employee_on_duty,
            storage_place=storage_place.strip(),
            key_holder=key_holder,
            second_key_holder=second_key_holder,
            recorded_at=_now(at),
        )
        _audit(acting_user, "drop.removed", removal, site)
    return removal


# --- The count session ------------------------------------------------------------------------


def check_count_team(site: Site, first: Employee, second: Employee, *, gaming_date: date, count_date: date):
    """Raise the ND 99-01.3-08-14(2) refusal for this team, if any."""
    refusal = count_team_refusal(
        first,
        second,
        relation_kinds=queries.relation_kinds,
        dealt_on=lambda employee, day: queries.employee_dealt_on(employee, site, day),
        activity_date=gaming_date,
        count_date=count_date,
        twenty_one_auditor_id=queries.count_settings(site).twenty_one_auditor_id,
    )
    if refusal is not None:
        raise ValidationError({refusal.field: str(refusal)})


def open_count_session(
    *, acting_user, site: Site, gaming_date: date, members, at: datetime | None = None
) -> CountSession:
    """Open the count of a site's gaming day for a two-person team, after checking the team's
    independence (ND 99-01.3-08-14(2)) before anything is counted."""
    require_role(acting_user, site, Role.COUNT_TEAM, action="open a count session", rule=COUNT_TEAM_CITATION)
    opener = _acting_employee(acting_user)
    opened_at = _now(at)
    members = list(members or [])
    if len(members) != 2:
        raise ValidationError({"members": f"{COUNT_TEAM_CITATION}: a count team is exactly two persons."})
    if opener.pk not in {m.pk for m in members}:
        raise ValidationError({"members": "You open a count session as one of its two members."})
    for member in members:
        if member.organization_id != site.organization_id or not member.active or not _holds_count_role(member, site):
            raise ValidationError({"members": f"{member} is not an active count team member at {site}."})
    count_date = queries.gaming_date_of(site, opened_at)
    if gaming_date > count_date:
        raise ValidationError({"gaming_date": f"{gaming_date} has not begun; a count follows the day's activity."})
    _refuse_closed_books(site, gaming_date, "the count")
    if CountSession.objects.filter(site=site, gaming_date=gaming_date).exists():
        raise ValidationError({"gaming_date": f"The count of {gaming_date} at {site} is already open."})
    check_count_team(site, members[0], members[1], gaming_date=gaming_date, count_date=count_date)
    with transaction.atomic():
        session = CountSession.objects.create(
            site=site,
            gaming_date=gaming_date,
            first_member=members[0],
            second_member=members[1],
            opened_by=opener,
            opened_at=opened_at,
        )
        _audit(acting_user, "count_session.opened", session, site)
    return session


def _member_of(acting_user, session: CountSession, action: str) -> Employee:
    require_role(acting_user, session.site, Role.COUNT_TEAM, action=action, rule=COUNT_CITATION)
    employee = _acting_employee(acting_user)
    if employee.pk not in session.member_ids:
        raise ValidationError(
            {"member": f"{COUNT_TEAM_CITATION}: only the two members of this session's count team may {action}."}
        )
    return employee


def _open_for_entries(session: CountSession) -> None:
    _refuse_closed_books(session.site, session.gaming_date, "the count", field="session")
    if session.signatures.exists():
        raise ValidationError(
            {
                "session": f"{COUNT_CITATION}: this count has been signed; a correction is an adjusting entry approved by a gaming manager."
            }
        )


def _drop_to_count(session: CountSession, drop_box: DropBox) -> Drop:
    """The box's use on the session's gaming date that has been removed from its table."""
    if drop_box.site_id != session.site_id:
        raise ValidationError({"box": f"{drop_box} belongs to another site than this count."})
    drops = list(drop_box.drops.filter(gaming_date=session.gaming_date).select_related("table").order_by("placed_at"))
    removed = [d for d in drops if hasattr(d, "removal")]
    in_session = [d for d in removed if d.entries.filter(session=session).exists()]
    if in_session:
        return in_session[0]
    awaiting = [d for d in removed if not d.agreements.exists()]
    if awaiting:
        return awaiting[0]
    if drops and not removed:
        raise ValidationError(
            {
                "box": f"{REMOVAL_CITATION}: {drop_box} has not been removed from its table; record its removal before the count."
            }
        )
    raise ValidationError(
        {"box": f"{drop_box} was not removed from a table on {session.gaming_date}; there is nothing in it to count."}
    )


def _save_entry(session, drop, kind, employee, figures: Figures, forms: Forms, when, note="") -> CountEntry:
    entry = CountEntry.objects.create(
        session=session,
        drop=drop,
        kind=kind,
        entered_by=employee,
        entered_at=when,
        total_cents=figures_total(figures),
        note=note,
    )
    CountLine.objects.bulk_create(
        [CountLine(entry=entry, denomination_cents=c, form=f, quantity=q) for (c, f), q in sorted(figures.items())]
    )
    FormFound.objects.bulk_create([FormFound(entry=entry, kind=k, number=n) for k, n in sorted(forms)])
    return entry


def _entry_after(entry: CountEntry, figures: Figures, forms: Forms) -> dict:
    return {
        **snapshot(entry),
        "currency": [{"denomination_cents": c, "form": f, "quantity": q} for (c, f), q in sorted(figures.items())],
        "forms": [{"kind": k, "number": n} for k, n in sorted(forms)],
    }


def _agree(acting_user, session, drop, entry, source, when, **extra) -> CountAgreement:
    agreement = CountAgreement.objects.create(
        session=session, drop=drop, entry=entry, source=source, total_cents=entry.total_cents, agreed_at=when, **extra
    )
    _audit(acting_user, f"count.agreed_{source}", agreement, session.site)
    return agreement


def record_blind_count(
    *, acting_user, session: CountSession, drop_box: DropBox, currency, forms=None, at: datetime | None = None
) -> CountEntry:
    """A member's own count of a box: cash by denomination and the forms found. When both
    members have counted and the figures are the same, the box's count is agreed."""
    employee = _member_of(acting_user, session, "count")
    _open_for_entries(session)
    drop = _drop_to_count(session, drop_box)
    if drop.entries.filter(kind=EntryKind.MEMBER, entered_by=employee).exists():
        raise ValidationError(
            {"member": f"{COUNT_CITATION}: you have already counted {drop_box}; a difference is resolved by recount."}
        )
    figures, found = parse_currency(currency), parse_forms(forms)
    when = _now(at)
    with transaction.atomic():
        CountSession.objects.select_for_update().filter(pk=session.pk).first()  # one count at a time per session
        entry = _save_entry(session, drop, EntryKind.MEMBER, employee, figures, found, when)
        _audit(acting_user, "count.member_counted", entry, session.site, after=_entry_after(entry, figures, found))
        other = drop.entries.filter(kind=EntryKind.MEMBER).exclude(pk=entry.pk).first()
        if other is not None and entry_figures(other) == (figures, found):
            _agree(acting_user, session, drop, entry, CountAgreement.Source.MATCH, when)
    return entry


def resolve_difference(
    *,
    acting_user,
    session: CountSession,
    drop_box: DropBox,
    currency,
    forms=None,
    note: str = "",
    at: datetime | None = None,
) -> CountAgreement:
    """After a recount, record the agreed figures of a box whose two counts differed, with a
    note saying what the recount found (ND 99-01.3-08-14(4))."""
    employee = _member_of(acting_user, session, "resolve a difference")
    _open_for_entries(session)
    drop = _drop_to_count(session, drop_box)
    if drop.entries.filter(kind=EntryKind.MEMBER).count() < 2:
        raise ValidationError(
            {"box": f"{COUNT_CITATION}: both members count {drop_box} independently before a difference is resolved."}
        )
    if drop.agreements.exists():
        raise ValidationError({"box": f"The count of {drop_box} is already agreed; there is no difference to resolve."})
    if not (note or "").strip():
        raise ValidationError(
            {"note": f"{COUNT_CITATION}: say what the recount found; a difference is resolved with a note."}
        )
    figures, found = parse_currency(currency), parse_forms(forms)
    when = _now(at)
    with transaction.atomic():
        entry = _save_entry(session, drop, EntryKind.RECOUNT, employee, figures, found, when, note=note.strip())
        _audit(acting_user, "count.recounted", entry, session.site, after=_entry_after(entry, figures, found))
        return _agree(acting_user, session, drop, entry, CountAgreement.Source.RECOUNT, when, reason=note.strip())


def signing_problems(session: CountSession) -> list[str]:
    """What stands between this session and both signatures, box by box."""
    problems = []
    drops = Drop.objects.filter(entries__session=session).distinct().select_related("drop_box")
    for drop in drops:
        members = drop.entries.filter(session=session, kind=EntryKind.MEMBER).count()
        if members < 2:
            problems.append(f"{drop.drop_box} has only one member's count; both count independently.")
        elif not drop.agreements.exists():
            problems.append(f"{drop.drop_box}: the two counts differ; resolve the difference by recount, with a note.")
    for drop in queries.drops_awaiting_count(session.site, session.gaming_date).exclude(entries__session=session):
        problems.append(f"{drop.drop_box} was removed from table {drop.table.number} but has not been counted.")
    if not drops:
        problems.append("Nothing has been counted in this session.")
    return problems


def sign_count(*, acting_user, session: CountSession, at: datetime | None = None) -> CountSignature:
    """A member initials and dates the count (ND 99-01.3-08-14(4)); the second signature locks
    the session. Refused while any box is uncounted or has an unresolved difference."""
    employee = _member_of(acting_user, session, "sign the count")
    if session.signatures.filter(member=employee).exists():
        raise ValidationError({"member": "You have already signed this count."})
    _refuse_closed_books(session.site, session.gaming_date, "the count", field="session")
    problems = signing_problems(session)
    if problems:
        raise ValidationError({"box": [f"{COUNT_CITATION}: {p}" for p in problems]})
    with transaction.atomic():
        CountSession.objects.select_for_update().filter(pk=session.pk).first()
        signature = CountSignature.objects.create(
            session=session, member=employee, initials=employee.initials, signed_at=_now(at)
        )
        _audit(acting_user, "count.signed", signature, session.site)
    return signature


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
    adjustment to the closed books (cardroom.closing)."""
    require_role(acting_user, session.site, Role.GAMING_MANAGER, action="approve a count adjustment", rule=HOUSE_CONTROL)
    manager = _acting_employee(acting_user)
    _refuse_closed_books(session.site, session.gaming_date, "the counted drop", field="session")
    if not queries.is_signed(session):
        raise ValidationError(
            {"session": "The count is not signed yet: the team resolves differences by recount before signing."}
        )
    if drop_box.site_id != session.site_id:
        raise ValidationError({"box": f"{drop_box} belongs to another site than this count."})
    current = queries.current_agreements(signed_only=False).filter(session=session, drop__drop_box=drop_box).first()
    if current is None:
        raise ValidationError({"box": f"{drop_box} was not counted in this session."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "An adjusting entry states its reason."})
    figures, found = parse_currency(currency), parse_forms(forms)
    when = _now(at)
    with transaction.atomic():
        entry = _save_entry(
            session, current.drop, EntryKind.ADJUSTMENT, manager, figures, found, when, note=reason.strip()
        )
        _audit(acting_user, "count.adjusted", entry, session.site, after=_entry_after(entry, figures, found))
        return _agree(
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


def explain_forms_exception(
    *, acting_user, drop: Drop, kind: str, number: int, explanation: str, at: datetime | None = None
) -> FormsExplanation:
    """Explain a slip missing from a box or a form found that was not expected."""
    site = drop.site
    require_role(acting_user, site, Role.GAMING_MANAGER, Role.SHIFT_MANAGER, action="explain a forms exception", rule=HOUSE_CONTROL)
    employee = _acting_employee(acting_user)
    if not (explanation or "").strip():
        raise ValidationError({"explanation": "Say why the form is missing or unexpected."})
    agreement = queries.current_agreements(signed_only=False).filter(drop=drop).first()
    if agreement is None:
        raise ValidationError({"box": "The box's count is not agreed yet; its forms are reconciled once it is."})
    _lines, found = entry_figures(agreement.entry)
    rows = queries.forms_reconciliation(drop, found)["exceptions"]
    match = next((r for r in rows if (r["kind"], r["number"]) == (kind, number)), None)
    if match is None:
        raise ValidationError({"number": f"{kind} slip {number} is not an exception on this box's count."})
    if match["explanation"] is not None:
        raise ValidationError({"number": f"{kind} slip {number} is already explained."})
    with transaction.atomic():
        explained = FormsExplanation.objects.create(
            drop=drop,
            kind=kind,
            number=number,
            explanation=explanation.strip(),
            explained_by=employee,
            explained_at=_now(at),
        )
        _audit(acting_user, "count.forms_explained", explained, site)
    return explained
