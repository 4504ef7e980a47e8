"""The count: its team (`counts.rules.COUNT_TEAM`), the session, the blind counts, resolving a
difference, and signing."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from cardroom.access import require_role
from cardroom.models import Employee, Membership, Role, Site
from core import acts, moments
from core.audit import appended_at_end, snapshot
from core.audit import record_site_event as _audit
from core.rules import HOUSE_CONTROL

from .. import queries
from ..models import (
    CountAgreement,
    CountEntry,
    CountLine,
    CountSession,
    CountSignature,
    Drop,
    DropBox,
    EntryKind,
    FormFound,
)
from ..rules import COUNT, COUNT_TEAM, KEYS, REMOVAL, count_team_refusal, refuse_drop_boxes
from .custody import holds_count_role
from .figures import entry_figures, figures_total, parse_currency, parse_forms
from .steps import Figures, Forms


def check_count_team(site: Site, first: Employee, second: Employee, *, gaming_date: date, count_date: date):
    """Raise the count-team refusal (`COUNT_TEAM`, cited at the site) for this team, if any."""
    refusal = count_team_refusal(
        first,
        second,
        relation_kinds=queries.relation_kinds,
        dealt_on=lambda employee, day: queries.employee_dealt_on(employee, site, day),
        activity_date=gaming_date,
        count_date=count_date,
        twenty_one_auditor_id=queries.count_settings(site).twenty_one_auditor_id,
        roles_of=lambda employee: set(Membership.objects.filter(employee=employee).values_list("role", flat=True)),
        site=site,
    )
    if refusal is not None:
        raise ValidationError({refusal.field: str(refusal)})


def seating_breaks_a_count_team(dealer: Employee, site: Site, gaming_date: date, started_at: datetime) -> str | None:
    """The floor asks before seating `dealer` at `site` on `gaming_date` (`floor.seating`; the rule
    reads the day, not `started_at`, the moment seated): a count
    team is judged when its count opens (`check_count_team`), so a dealer shift recorded afterwards
    (dealt later on the count day, or entered later from paper) is judged here against every count
    of the site whose activity day or count day it falls on and whose team has `dealer` in it. Refused
    where the team passed without the shift and fails with it (`COUNT_TEAM`)."""
    start, end = queries.gaming_day_bounds(site, gaming_date)
    on_the_day = Q(gaming_date=gaming_date) | Q(opened_at__gte=start, opened_at__lt=end)
    member = Q(first_member=dealer) | Q(second_member=dealer)
    sessions = CountSession.objects.filter(on_the_day, member, site=site).select_related(
        "first_member__user", "second_member__user"
    )
    for session in sessions.order_by("gaming_date", "pk"):
        count_date = queries.gaming_date_of(site, session.opened_at)
        judged = [_team_refusal(session, site, count_date, seated) for seated in (None, (dealer.pk, gaming_date))]
        if judged[0] is None and judged[1] is not None:
            other = session.second_member if session.first_member_id == dealer.pk else session.first_member
            return (
                f"{COUNT_TEAM.at(site)}: {dealer} counts the drop boxes of {session.gaming_date} at {site} with {other}, "
                "two gaming employees, which the rule allows only while one of them conducts no games here on the "
                f"activity day ({session.gaming_date}) and the count day ({count_date}); seating {dealer} on "
                f"{gaming_date} would leave neither. Seat another dealer."
            )
    return None


def _team_refusal(session: CountSession, site: Site, count_date: date, seated: tuple[int, date] | None):
    """The session's team judged on the records, with `seated` (employee id, gaming date) counted as
    having dealt too."""

    def dealt_on(employee, day: date) -> bool:
        return (employee.pk, day) == seated or queries.employee_dealt_on(employee, site, day)

    return count_team_refusal(
        session.first_member,
        session.second_member,
        relation_kinds=queries.relation_kinds,
        dealt_on=dealt_on,
        activity_date=session.gaming_date,
        count_date=count_date,
        twenty_one_auditor_id=None,
        site=site,
    )


def open_count_session(
    *, acting_user, site: Site, gaming_date: date, members, at: datetime | None = None
) -> CountSession:
    """Open the count of a site's gaming day for a two-person team, after checking the team's
    independence (`COUNT_TEAM`) before anything is counted. Refused where the house's revenue is
    fees only (`refuse_drop_boxes`)."""
    require_role(acting_user, site, Role.COUNT_TEAM, action="open a count session", rule=COUNT_TEAM.at(site))
    refuse_drop_boxes(site, "gaming_date")
    opener = acts.acting_employee_of(acting_user)
    opened_at = acts.moment(at, "opened_at", books_date=gaming_date, what="the count", site=site)
    members = list(members or [])
    if len(members) != 2 or members[0].pk == members[1].pk:
        raise ValidationError({"members": f"{COUNT_TEAM.at(site)}: a count team is exactly two persons."})
    if opener.pk not in {m.pk for m in members}:
        raise ValidationError({"members": f"{HOUSE_CONTROL}: you open a count session as one of its two members."})
    for member in members:
        if member.organization_id != site.organization_id or not member.active or not holds_count_role(member, site):
            raise ValidationError(
                {"members": f"{HOUSE_CONTROL}: {member} is not an active count team member at {site}."}
            )
    # A day's drop boxes are counted after its activity (`COUNT`): never a day not begun, nor at a
    # moment (from paper) before the day began.
    moments.refuse_day_not_begun(site, gaming_date, rule=COUNT.at(site), why="a count follows the day's activity")
    moments.refuse_before(
        site,
        opened_at,
        moments.gaming_day_bounds(site, gaming_date)[0],
        field="opened_at",
        rule=COUNT.at(site),
        why="a count follows the day's activity",
        what=f"the gaming day {gaming_date} began",
    )
    count_date = queries.gaming_date_of(site, opened_at)
    acts.refuse_closed_books(site, gaming_date, "the count")
    _refuse_opened_twice(site, gaming_date)
    check_count_team(site, members[0], members[1], gaming_date=gaming_date, count_date=count_date)
    with transaction.atomic(), appended_at_end():
        # The books' close and the day's count opened on another terminal wait; read again here.
        acts.hold(site)
        acts.refuse_closed_books(site, gaming_date, "the count")
        _refuse_opened_twice(site, gaming_date)
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


def _refuse_opened_twice(site: Site, gaming_date: date) -> None:
    if CountSession.objects.filter(site=site, gaming_date=gaming_date).exists():
        # House control: one session counts a gaming day's boxes (no pack's text says how many).
        raise ValidationError(
            {"gaming_date": f"{HOUSE_CONTROL}: the count of {gaming_date} at {site} is already open; count in it."}
        )


def _hold(session: CountSession) -> None:
    """The session's row locked to the end of the transaction: its acts are read and written one
    at a time, so a copy sent twice at once finds the first and is refused (`COUNT`)."""
    acts.hold(session)


def _member_of(acting_user, session: CountSession, action: str) -> Employee:
    require_role(acting_user, session.site, Role.COUNT_TEAM, action=action, rule=COUNT.at(session.site))
    employee = acts.acting_employee_of(acting_user)
    if employee.pk not in session.member_ids:
        raise ValidationError(
            {
                "member": f"{COUNT_TEAM.at(session.site)}: only the two members of this session's count team may {action}."
            }
        )
    return employee


def _open_for_entries(session: CountSession) -> None:
    acts.refuse_closed_books(session.site, session.gaming_date, "the count", field="session")
    _refuse_signed(session)


def _refuse_signed(session: CountSession) -> None:
    """Refuse an entry into a signed count: read again under the session's lock (`_hold`), so an
    entry sent while a member signs waits for the signature and finds it."""
    if session.signatures.exists():
        raise ValidationError(
            {
                "session": f"{COUNT.at(session.site)}: this count has been signed; a correction is an adjusting entry approved by a gaming manager."
            }
        )


def _drop_to_count(session: CountSession, drop_box: DropBox) -> Drop:
    """The box's use on the session's gaming date that has been removed from its table."""
    if drop_box.site_id != session.site_id:
        raise ValidationError({"box": f"{HOUSE_CONTROL}: {drop_box} belongs to another site than this count."})
    # One query: each use with its removal and whether it is counted in this session or agreed.
    drops = list(
        drop_box.drops.filter(gaming_date=session.gaming_date)
        .select_related("table", "removal")
        .annotate(
            in_session=Exists(CountEntry.objects.filter(drop=OuterRef("pk"), session=session)),
            agreed=Exists(CountAgreement.objects.filter(drop=OuterRef("pk"))),
        )
        .order_by("placed_at")
    )
    removed = [d for d in drops if hasattr(d, "removal")]
    in_session = [d for d in removed if d.in_session]
    if in_session:
        return in_session[0]
    awaiting = [d for d in removed if not d.agreed]
    if awaiting:
        return awaiting[0]
    if drops and not removed:
        raise ValidationError(
            {
                "box": f"{REMOVAL.at(session.site)}: {drop_box} has not been removed from its table; record its removal before the count."
            }
        )
    raise ValidationError(
        {
            "box": f"{HOUSE_CONTROL}: {drop_box} was not removed from a table on {session.gaming_date}; "
            "there is nothing in it to count."
        }
    )


def _check_key_holders(session: CountSession, drop: Drop) -> None:
    """`KEYS`: the key to the box's contents is controlled by one count team member
    (the key to a second lock by the other), and only the two-person team accesses the box
    before the count. So the box is counted only by a team one of whose two members holds
    its key, the other the second key if there is one."""
    removal = getattr(drop, "removal", None)
    if removal is None:
        return
    members = set(session.member_ids)
    if removal.key_holder_id not in members:
        raise ValidationError(
            {
                "box": f"{KEYS.at(session.site)}: the key to {drop.drop_box} is held by {removal.key_holder}, who is not one of "
                "this count's two members; the key holder counts the box with the other member."
            }
        )
    second = removal.second_key_holder_id
    if second is not None and (second not in members or second == removal.key_holder_id):
        raise ValidationError(
            {
                "box": f"{KEYS.at(session.site)}: the key to the second lock of {drop.drop_box} is held by "
                f"{removal.second_key_holder}, who is not the other member of this count."
            }
        )


def save_entry(session, drop, kind, employee, figures: Figures, forms: Forms, when, note="") -> CountEntry:
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


def entry_after(entry: CountEntry, figures: Figures, forms: Forms) -> dict:
    return {
        **snapshot(entry),
        "currency": [{"denomination_cents": c, "form": f, "quantity": q} for (c, f), q in sorted(figures.items())],
        "forms": [{"kind": k, "number": n} for k, n in sorted(forms)],
    }


def agree(acting_user, session, drop, entry, source, when, **extra) -> CountAgreement:
    agreement = CountAgreement.objects.create(
        session=session, drop=drop, entry=entry, source=source, total_cents=entry.total_cents, agreed_at=when, **extra
    )
    _audit(acting_user, f"count.agreed_{source}", agreement, session.site)
    return agreement


def _refuse_counting_before_removal(session: CountSession, drop: Drop, counted_at: datetime) -> None:
    """ND 99-01.3-08-14(1): a box is counted after it is removed from its table and brought to
    the count, so a count is not dated before the box's removal."""
    removal = getattr(drop, "removal", None)
    if removal is not None and counted_at < removal.removed_at:
        zone = moments.site_zone(session.site)
        shown = [moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") for moment in (counted_at, removal.removed_at)]
        raise ValidationError(
            {
                "counted_at": f"{REMOVAL.at(session.site)}: {drop.drop_box} is counted after it is removed from table "
                f"{drop.table.number}; {shown[0]} is before its removal ({shown[1]})."
            }
        )


def _refuse_blank_count(session: CountSession, currency) -> None:
    """A count states the cash found, denomination by denomination (`COUNT`): a count with no
    currency line at all is a blank form, not a count, and is refused (saved, it took the member's
    one count of the box at $0.00, to be undone only by a recount). A box found empty is counted
    deliberately: a line with a quantity of 0 (on the page, 0 entered against any denomination)."""
    if not currency:
        raise ValidationError(
            {
                "currency": f"{COUNT.at(session.site)}: enter the quantity of each denomination found "
                "(a blank count is not recorded); a box found empty is counted by entering 0 against a denomination."
            }
        )


def _refuse_counting_twice(session: CountSession, drop: Drop, employee: Employee) -> None:
    if drop.entries.filter(kind=EntryKind.MEMBER, entered_by=employee).exists():
        raise ValidationError(
            {
                "member": f"{COUNT.at(session.site)}: you have already counted {drop.drop_box}; a difference is resolved by recount."
            }
        )


def record_blind_count(
    *, acting_user, session: CountSession, drop_box: DropBox, currency, forms=None, at: datetime | None = None
) -> CountEntry:
    """A member's own count of a box: cash by denomination and the forms found. When both
    members have counted and the figures are the same, the box's count is agreed."""
    employee = _member_of(acting_user, session, "count")
    _open_for_entries(session)
    drop = _drop_to_count(session, drop_box)
    _check_key_holders(session, drop)
    _refuse_counting_twice(session, drop, employee)
    figures, found = parse_currency(currency, session.site), parse_forms(forms, session.site)
    _refuse_blank_count(session, currency)
    # A count entered from paper keeps the time it was counted, within the session.
    when = acts.moment(
        at,
        "counted_at",
        books_date=session.gaming_date,
        not_before=session.opened_at,
        what="the count",
        site=session.site,
    )
    _refuse_counting_before_removal(session, drop, when)
    with transaction.atomic(), appended_at_end():
        _hold(session)
        _refuse_signed(session)
        _refuse_counting_twice(session, drop, employee)
        entry = save_entry(session, drop, EntryKind.MEMBER, employee, figures, found, when)
        _audit(acting_user, "count.member_counted", entry, session.site, after=entry_after(entry, figures, found))
        other = drop.entries.filter(kind=EntryKind.MEMBER).exclude(pk=entry.pk).first()
        if other is not None and entry_figures(other) == (figures, found):
            agree(acting_user, session, drop, entry, CountAgreement.Source.MATCH, when)
    return entry


def _refuse_agreed(session: CountSession, drop: Drop) -> None:
    """`COUNT`: the members resolve a difference between their two counts; an agreed count has none."""
    if drop.agreements.exists():
        raise ValidationError(
            {
                "box": f"{COUNT.at(session.site)}: the count of {drop.drop_box} is already agreed; "
                "there is no difference to resolve."
            }
        )


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
    note saying what the recount found (`COUNT`)."""
    employee = _member_of(acting_user, session, "resolve a difference")
    _open_for_entries(session)
    drop = _drop_to_count(session, drop_box)
    if drop.entries.filter(kind=EntryKind.MEMBER).count() < 2:
        raise ValidationError(
            {
                "box": f"{COUNT.at(session.site)}: both members count {drop_box} independently before a difference is resolved."
            }
        )
    _refuse_agreed(session, drop)
    if not (note or "").strip():
        raise ValidationError(
            {"note": f"{COUNT.at(session.site)}: say what the recount found; a difference is resolved with a note."}
        )
    figures, found = parse_currency(currency, session.site), parse_forms(forms, session.site)
    _refuse_blank_count(session, currency)
    # A recount entered from paper keeps its time: after the members' counts it resolves.
    counted = drop.entries.filter(kind=EntryKind.MEMBER).aggregate(last=Max("entered_at"))["last"]
    when = acts.moment(
        at, "counted_at", books_date=session.gaming_date, not_before=counted, what="the count", site=session.site
    )
    _refuse_counting_before_removal(session, drop, when)
    with transaction.atomic(), appended_at_end():
        _hold(session)
        _refuse_signed(session)
        _refuse_agreed(session, drop)
        entry = save_entry(session, drop, EntryKind.RECOUNT, employee, figures, found, when, note=note.strip())
        _audit(acting_user, "count.recounted", entry, session.site, after=entry_after(entry, figures, found))
        return agree(acting_user, session, drop, entry, CountAgreement.Source.RECOUNT, when, reason=note.strip())


def signing_problems(session: CountSession) -> list[str]:
    """What stands between this session and both signatures, box by box."""
    problems = []
    member_counts = (
        CountEntry.objects.filter(drop=OuterRef("pk"), session=session, kind=EntryKind.MEMBER)
        .order_by()
        .values("drop")
        .annotate(n=Count("pk"))
        .values("n")
    )
    drops = (
        Drop.objects.filter(entries__session=session)
        .distinct()
        .select_related("drop_box")
        .annotate(
            members=Coalesce(Subquery(member_counts), 0),
            agreed=Exists(CountAgreement.objects.filter(drop=OuterRef("pk"))),
        )
    )  # one query for every box of the session
    for drop in drops:
        if drop.members < 2:
            problems.append(f"{drop.drop_box} has only one member's count; both count independently.")
        elif not drop.agreed:
            problems.append(f"{drop.drop_box}: the two counts differ; resolve the difference by recount, with a note.")
    for drop in queries.drops_awaiting_count(session.site, session.gaming_date).exclude(entries__session=session):
        problems.append(f"{drop.drop_box} was removed from table {drop.table.number} but has not been counted.")
    if not drops:
        problems.append("Nothing has been counted in this session.")
    return problems


def _refuse_unfinished(session: CountSession) -> None:
    problems = signing_problems(session)
    if problems:
        raise ValidationError({"box": [f"{COUNT.at(session.site)}: {p}" for p in problems]})


def _refuse_signing_before_counting(session: CountSession, signed_at: datetime) -> None:
    """ND 99-01.3-08-14(4): the documentation of the count is initialled and dated by both
    members, so it is dated once the count is done: not before the session's last count."""
    last = CountEntry.objects.filter(session=session).aggregate(last=Max("entered_at"))["last"]
    if last is not None and signed_at < last:
        zone = moments.site_zone(session.site)
        shown = [moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") for moment in (signed_at, last)]
        raise ValidationError(
            {
                "signed_at": f"{COUNT.at(session.site)}: the count is initialled and dated once it is counted; "
                f"{shown[0]} is before its last count ({shown[1]})."
            }
        )


def _refuse_signing_twice(session: CountSession, employee: Employee) -> None:
    if session.signatures.filter(member=employee).exists():
        raise ValidationError(
            {"member": f"{COUNT.at(session.site)}: each member signs the count once; you have already signed it."}
        )


def sign_count(*, acting_user, session: CountSession, at: datetime | None = None) -> CountSignature:
    """A member initials and dates the count (`COUNT`); the second signature locks
    the session. Refused while any box is uncounted or has an unresolved difference."""
    employee = _member_of(acting_user, session, "sign the count")
    _refuse_signing_twice(session, employee)
    acts.refuse_closed_books(session.site, session.gaming_date, "the count", field="session")
    signed_at = acts.moment(
        at,
        "signed_at",
        books_date=session.gaming_date,
        not_before=session.opened_at,
        what="the count",
        site=session.site,
    )
    _refuse_unfinished(session)
    _refuse_signing_before_counting(session, signed_at)
    with transaction.atomic(), appended_at_end():
        _hold(session)
        _refuse_signing_twice(session, employee)
        # Read again under the session's lock: a box removed meanwhile is not signed for
        # uncounted, and an entry sent meanwhile waits for the signature (`_refuse_signed`).
        _refuse_unfinished(session)
        signature = CountSignature.objects.create(
            session=session, member=employee, initials=employee.initials, signed_at=signed_at
        )
        _audit(acting_user, "count.signed", signature, session.site)
    return signature
