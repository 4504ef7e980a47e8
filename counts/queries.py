"""Reads used in several places, and the figures other apps take from the count.

`agreed_drop_cents` / `agreed_drops` are what accounting uses as gross proceeds (drop box
cash). The floor's custody models are imported lazily: the apps were built side by side.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from datetime import timezone as dt_timezone
from zoneinfo import ZoneInfo

from django.db.models import Case, Count, Exists, Func, IntegerField, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import TruncDate
from django.db.models.lookups import GreaterThan, GreaterThanOrEqual

from core.rows import shaped_rows
from floor.calculations import gaming_day_bounds as floor_gaming_day_bounds
from floor.queries import LateEntry, last_gaming_date, open_gaming_day, shift_served, shifts_by_id, shifts_of_day

from .models import (
    BoxExchange,
    CountAgreement,
    CountSession,
    CountSettings,
    CountSignature,
    Drop,
    DropBox,
    DropRemoval,
)


def gaming_day_bounds(site, gaming_date: date) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day: from the site's business-day start hour on `gaming_date`
    to the same hour the next calendar day, in the site's time zone (ND 99-01.3-02-01)."""
    return floor_gaming_day_bounds(gaming_date, site.time_zone, site.business_day_start_hour)


def gaming_date_of(site, moment: datetime) -> date:
    local = moment.astimezone(ZoneInfo(site.time_zone))
    return (local - timedelta(hours=site.business_day_start_hour)).date()


def removal_gaming_date(site, now: datetime) -> date:
    """The gaming date a removal form proposes: the site's open gaming day (the floor's day not
    yet closed, its boxes still on their tables) when one is open and has begun, else the site's
    current gaming date. Never a day after the current one (a removal of it is refused)."""
    current = gaming_date_of(site, now)
    day = open_gaming_day(site)
    if day is not None and day.gaming_date <= current:
        return day.gaming_date
    return current


def count_settings(site) -> CountSettings:
    return CountSettings.objects.filter(site=site).first() or CountSettings(site=site)


def box_exchanges(site_ids) -> dict[int, str]:
    """site id -> how its drop boxes are exchanged (`BoxExchange`; once a gaming day where the
    site has no settings). One query."""
    found = dict(CountSettings.objects.filter(site_id__in=site_ids).values_list("site_id", "box_exchange"))
    return {site_id: found.get(site_id, BoxExchange.GAMING_DAY) for site_id in site_ids}


def employee_dealt_on(employee, site, gaming_date: date) -> bool:
    """Did the employee conduct games at the site during that gaming day? Asked of the floor
    (`employee_dealt_at`, or its dealer shifts). Without dealer-shift records the answer is
    "yes": a two-gaming-employee team cannot then be shown to be independent."""
    start, end = gaming_day_bounds(site, gaming_date)
    try:
        from floor.queries import employee_dealt_at
    except ImportError:
        employee_dealt_at = None
    if employee_dealt_at is not None:
        return bool(employee_dealt_at(employee, site, start, end))
    try:
        from floor.models import DealerShift
    except ImportError:
        return True
    overlapping = Q(started_at__lt=end) & (Q(ended_at__isnull=True) | Q(ended_at__gt=start))
    return DealerShift.objects.filter(overlapping, dealer=employee, table__site=site).exists()


def relation_kinds(first, second) -> set[str]:
    """Family and household ties recorded between two employees, in either direction."""
    from cardroom.models import EmployeeRelation

    pair = Q(employee=first, relative=second) | Q(employee=second, relative=first)
    return set(EmployeeRelation.objects.filter(pair).values_list("kind", flat=True))


def is_signed(session) -> bool:
    return CountSignature.objects.filter(session=session).count() >= 2


def rows_counted(queryset) -> Subquery:
    """`(SELECT COUNT(*) FROM ... WHERE ...)` of a correlated queryset: one row always (0 when
    none match), no GROUP BY, and probed per outer row (PostgreSQL never plans it as a hash of
    every row, as it may an EXISTS). COUNT(*), not of a column: an index alone can answer it."""
    counted = queryset.order_by().annotate(n=Func(template="COUNT(*)", output_field=IntegerField())).values("n")
    return Subquery(counted, output_field=IntegerField())


def signed_sessions_filter(prefix: str = "session") -> GreaterThanOrEqual:
    """Sessions with two signatures: `(SELECT COUNT(*) ... WHERE session_id = ...) >= 2`, a
    correlated count without GROUP BY (a third of the cost of EXISTS ... HAVING on SQLite).
    The session is the row's `<prefix>_id`, or the row itself (a CountSession) with prefix ""."""
    signatures = CountSignature.objects.filter(session=OuterRef(f"{prefix}_id" if prefix else "pk"))
    return GreaterThanOrEqual(rows_counted(signatures), 2)


def current_agreements(drops=None, *, signed_only: bool = True):
    """The newest agreement of each drop (an adjustment supersedes the original).

    "Not superseded" is a NOT EXISTS, which PostgreSQL plans as an anti-join with a true row
    estimate; the LEFT JOIN ... IS NULL that `superseded_by__isnull=True` writes was estimated
    at one row, so a scan of one organization's count checks read every agreement ever
    recorded before narrowing to its sessions (1.85 s; 0.15 s as NOT EXISTS)."""
    qs = CountAgreement.objects.exclude(Exists(CountAgreement.objects.filter(supersedes=OuterRef("pk"))))
    if drops is not None:
        qs = qs.filter(drop__in=drops)
    if signed_only:
        qs = qs.filter(signed_sessions_filter())
    return qs


def uncounted_drops(site, start: date, end: date):
    """The drops of `site`'s gaming days in [start, end] without a standing signed count (no
    current agreement of a signed session, `current_agreements`): what closing the books refuses
    on, and what a day's sessions are set against before its drop is known."""
    drops = Drop.objects.filter(site=site, gaming_date__range=(start, end))
    return drops.exclude(pk__in=current_agreements(drops).values("drop_id"))


def unrecorded_boxes(day) -> list[tuple]:
    """The boxes of the tables opened in the day at which no drop is recorded, one a table, as
    (pk, table id, table number, box number, label, jurisdiction): a box still on its table, its
    use not recorded (one query)."""
    where = {"site_id": day.site_id, "gaming_date": day.gaming_date}
    return _one_per_table(shaped_rows(_unrecorded_boxes_query, day_id=day.pk, **where))


def _unrecorded_boxes_query(day_id: int, site_id: int, gaming_date):
    """The active boxes of the tables opened in the day at which no drop is recorded."""
    from floor.models import TableInventory

    in_play = TableInventory.objects.filter(gaming_day_id=day_id, kind=TableInventory.Kind.OPENER).values("table_id")
    dropped = Drop.objects.filter(site_id=site_id, gaming_date=gaming_date, table_id=OuterRef("table_id"))
    return (
        DropBox.objects.filter(site_id=site_id, active=True, table_id__in=in_play)
        .exclude(Exists(dropped))
        .order_by("table__number", "label")
        .values_list("pk", "table_id", "table__number", "number", "label", "site__jurisdiction")
    )


def _one_per_table(boxes) -> list:
    """A table may have several boxes (one counted while the next is in use): its first one."""
    seen, result = set(), []
    for box in boxes:
        if box[1] not in seen:
            seen.add(box[1])
            result.append(box)
    return result


def drops_not_counted(site, gaming_date: date, day=None) -> list[tuple[int, str]]:
    """The drop boxes of `site`'s gaming date `gaming_date` whose drop has no standing signed count,
    each as (table number, "drop box 1 of table 1 is not removed from its table"): a drop removed
    and not counted (`uncounted_drops`), a drop still on its table, and, where the gaming day `day`
    was opened, a box of a table it opened at which no drop is recorded (counts.open_items). Whether
    carried past the gaming day's close or not: a carry lets the gaming day close, never the books
    (ND 99-01.3-08-14, 08-16(1)(g)). Two queries."""
    rows = uncounted_drops(site, gaming_date, gaming_date).order_by("table__number", "placed_at", "pk")
    boxes = list(rows.values_list("table__number", "drop_box__number", "drop_box__label", "removal__id"))
    if day is not None:  # a box still on its table, no drop recorded: not removed
        boxes += [(table, number, label, None) for _, _, table, number, label, _ in unrecorded_boxes(day)]
    found = [
        (table, f"{DropBox(number=number, label=label)} of table {table} is "
         f"{'removed but not counted and signed' if removed else 'not removed from its table'}")
        for table, number, label, removed in boxes
    ]  # fmt: skip
    return sorted(found, key=lambda row: row[0])


@dataclass(frozen=True)
class AgreedDrop:
    drop_id: int
    table_id: int
    gaming_date: date
    dealer_shift_id: int | None
    amount_cents: int


def agreed_drops(site, start_date: date, end_date: date, *, signed_only: bool = True) -> list[AgreedDrop]:
    """Every counted drop at `site` with gaming dates in [start_date, end_date]: one row per box
    use (per gaming day, or per dealer shift where boxes are exchanged at dealer changes).
    Only signed counts unless `signed_only=False`; adjustments replace what they correct."""
    rows = (
        current_agreements(signed_only=signed_only)
        .filter(drop__site=site, drop__gaming_date__gte=start_date, drop__gaming_date__lte=end_date)
        .values_list("drop_id", "drop__table_id", "drop__gaming_date", "drop__dealer_shift_id", "total_cents")
        .order_by("drop__gaming_date", "drop__table__number", "drop_id")
    )
    return [AgreedDrop(*row) for row in rows]


def agreed_drop_cents(
    table, gaming_date: date, *, dealer_shift_id: int | None = None, signed_only: bool = True
) -> int | None:
    """Gross proceeds (drop box cash) of one table for one gaming day: the sum of the agreed
    counts of every box used there that day, or, given `dealer_shift_id`, of the box that
    covered that dealer shift. None when no box of that period has an agreed (signed) count."""
    qs = current_agreements(signed_only=signed_only).filter(drop__table=table, drop__gaming_date=gaming_date)
    if dealer_shift_id is not None:
        qs = qs.filter(drop__dealer_shift_id=dealer_shift_id)
    totals = list(qs.values_list("total_cents", flat=True))
    return sum(totals) if totals else None


# --- Custody exceptions ---------------------------------------------------------------------


def unremoved_drops(site, *, now: datetime):
    """Drops whose box was still not removed when their gaming day ended (ND 99-01.3-08-14(1))."""
    removed = DropRemoval.objects.filter(drop=OuterRef("pk"))
    overdue = []
    for drop in Drop.objects.filter(site=site).exclude(Exists(removed)).select_related("drop_box", "table"):
        if gaming_day_bounds(site, drop.gaming_date)[1] <= now:
            overdue.append(drop)
    return overdue


def late_removals(site):
    """Removals recorded after the end of their gaming day (ND 99-01.3-08-14(1))."""
    late = []
    for removal in DropRemoval.objects.filter(drop__site=site).select_related("drop__drop_box", "drop__table"):
        if removal.removed_at >= gaming_day_bounds(site, removal.drop.gaming_date)[1]:
            late.append(removal)
    return late


def open_drop(drop_box):
    """The box's drop that has not been removed yet, if any."""
    return drop_box.drops.filter(removal__isnull=True).order_by("-placed_at").first()


def uncounted_drop(drop_box):
    """The box's newest removed drop without an agreed count (its cash is still inside)."""
    counted = CountAgreement.objects.filter(drop=OuterRef("pk"))
    return drop_box.drops.filter(removal__isnull=False).exclude(Exists(counted)).order_by("-placed_at").first()


# --- Forms found against slips issued -------------------------------------------------------


def slip_period(drop) -> tuple[datetime, datetime]:
    """The time span a drop covers: its dealer shift where boxes follow dealers, else the
    gaming day."""
    start, end = gaming_day_bounds(drop.site, drop.gaming_date)
    if drop.dealer_shift_id:
        shift = _dealer_shift(drop.dealer_shift_id)
        if shift is not None:
            return shift.started_at, shift.ended_at or end
    return start, end


def _dealer_shift(pk):
    try:
        from floor.models import DealerShift
    except ImportError:
        return None
    return DealerShift.objects.filter(pk=pk).first()


def slips_issued(drop) -> set[tuple[str, int]] | None:
    """(kind, number) of the fill and credit slips recorded for the drop's table and period,
    voided ones excluded; None when the floor keeps no slips yet (nothing to reconcile)."""
    from . import slips

    return slips.issued_for(drop, *slip_period(drop))


def forms_reconciliation(drop, found: set[tuple[str, int]]) -> dict:
    """Forms found in the box against slips issued: what is missing, what is unexpected, and
    which of those are explained (an unexplained one stays an exception)."""
    issued = slips_issued(drop)
    return reconciled(issued, found, forms_explanations([drop.pk]).get(drop.pk, {}))


def forms_explanations(drop_ids) -> dict:
    """{drop id: {(kind, number): its FormsExplanation, with who explained it}} of the drops, in
    one query."""
    from .models import FormsExplanation

    found: dict = {}
    for e in FormsExplanation.objects.filter(drop_id__in=list(drop_ids)).select_related("explained_by__user"):
        found.setdefault(e.drop_id, {})[(e.kind, e.number)] = e
    return found


def reconciled(issued: set | None, found: set, explained: dict) -> dict:
    """`forms_reconciliation` of a box from what is read: the slips `issued` for it (None: the
    floor keeps no slips), the forms `found` in it, its explanations by (kind, number)."""
    if issued is None:
        return {"available": False, "missing": [], "unexpected": [], "exceptions": []}
    missing = sorted(issued - found)
    unexpected = sorted(found - issued)
    rows = [("missing", k, n) for k, n in missing] + [("unexpected", k, n) for k, n in unexpected]
    exceptions = [
        {"problem": problem, "kind": kind, "number": number, "explanation": explained.get((kind, number))}
        for problem, kind, number in rows
    ]
    return {"available": True, "missing": missing, "unexpected": unexpected, "exceptions": exceptions}


def unexplained_forms(site, gaming_date: date) -> list[str]:
    """The forms exceptions of the date's counted boxes (their current agreement's forms against
    the slips issued, `forms_reconciliation`) that nobody explained, each as "table 3: fill slip
    #1002 issued, not in the box". A few queries a box: asked once, when the day's books close."""
    agreements = (
        current_agreements(Drop.objects.filter(site=site, gaming_date=gaming_date), signed_only=False)
        .select_related("drop__table", "entry__entered_by")
        .prefetch_related("entry__forms")
        .order_by("drop__table__number", "pk")
    )
    words = {"missing": "issued, not in the box", "unexpected": "in the box, not issued for the table"}
    return [
        f"table {agreement.drop.table.number}: {e['kind']} slip #{e['number']} {words[e['problem']]}"
        for agreement in agreements
        for e in forms_reconciliation(agreement.drop, {(f.kind, f.number) for f in agreement.entry.forms.all()})[
            "exceptions"
        ]
        if e["explanation"] is None
    ]


def box_exchange(site) -> str:
    return count_settings(site).box_exchange or BoxExchange.GAMING_DAY


def exchanges_at_dealer_change(site) -> bool:
    """Does `site` exchange its drop boxes at each dealer change (house control: one drop per dealer
    shift)? The floor's change of dealer asks it (core.hooks.DEALER_CHANGE_BOX)."""
    return box_exchange(site) == BoxExchange.DEALER_SHIFT


def date_to_count(site, now: datetime) -> date:
    """The gaming date a new count proposes: the latest with a box removed from its table and not
    yet counted (no agreed count, ND 99-01.3-08-14(4) as the pack cites it), else the latest gaming
    day the site opened, else the site's current gaming date (`now`): never a calendar guess such
    as the day before today, which may be a date with no gaming day."""
    counted = CountAgreement.objects.filter(drop=OuterRef("pk"))
    waiting = Drop.objects.filter(site=site, removal__isnull=False).exclude(Exists(counted))
    latest = waiting.order_by("-gaming_date").values_list("gaming_date", flat=True).first()
    return latest or last_gaming_date(site) or gaming_date_of(site, now)


def drops_awaiting_count(site, gaming_date: date):
    counted = CountAgreement.objects.filter(drop=OuterRef("pk"))
    return (
        Drop.objects.filter(site=site, gaming_date=gaming_date, removal__isnull=False)
        .exclude(Exists(counted))
        .select_related("drop_box", "table")
    )


# --- What a count session shows (blind until both members have counted) --------------------


@dataclass(frozen=True)
class MemberFigures:
    member_id: int
    member: str
    initials: str
    entered_at: datetime  # when it was counted
    total_cents: int
    lines: dict  # (denomination_cents, form) -> quantity
    forms: tuple  # ((kind, number), ...)
    recorded_at: datetime | None = None  # when it was entered (None: before this was kept)


@dataclass(frozen=True)
class BoxCount:
    drop: Drop
    status: str  # "awaiting", "counting", "difference", "agreed"
    counted_by: tuple  # employee ids who have submitted
    visible: tuple  # MemberFigures the viewer may see
    both_in: bool
    differences: tuple  # ((denomination_cents, form, first_quantity, second_quantity), ...)
    forms_differ: bool
    agreement: CountAgreement | None
    original_agreement: CountAgreement | None
    agreed_lines: dict
    agreed_forms: tuple
    reconciliation: dict | None

    @property
    def agreed_cents(self) -> int | None:
        return self.agreement.total_cents if self.agreement is not None and self.both_in else None


def member_figures_of(entry) -> MemberFigures:
    lines = {(line.denomination_cents, line.form): line.quantity for line in entry.lines.all()}
    return member_figures(entry, lines, ((f.kind, f.number) for f in entry.forms.all()))


def member_figures(entry, lines: dict, forms) -> MemberFigures:
    """An entry's figures, its lines ({(denomination_cents, form): quantity}) and forms ((kind,
    number), any order) given: read from the entry (`member_figures_of`) or for many entries at
    once (counts.pdf)."""
    return MemberFigures(
        member_id=entry.entered_by_id,
        member=str(entry.entered_by),
        initials=entry.entered_by.initials,
        entered_at=entry.entered_at,
        total_cents=entry.total_cents,
        lines=lines,
        forms=tuple(sorted(forms)),
        recorded_at=entry.recorded_at,
    )


def count_differences(first: MemberFigures, second: MemberFigures) -> tuple:
    keys = sorted(set(first.lines) | set(second.lines), key=lambda k: (-k[0], k[1]))
    return tuple(
        (cents, form, first.lines.get((cents, form), 0), second.lines.get((cents, form), 0))
        for cents, form in keys
        if first.lines.get((cents, form), 0) != second.lines.get((cents, form), 0)
    )


def entry_figures(sessions, entries: list) -> dict:
    """{entry id: MemberFigures} of `entries` (each with who entered it) of `sessions`, their
    lines and forms read as values in one query each, not as a model a line and a form (a
    quarter's count sheets: some 10,000)."""
    from .models import CountLine, FormFound

    lines: dict = {}
    for entry_id, cents, form, quantity in CountLine.objects.filter(entry__session__in=sessions).values_list(
        "entry_id", "denomination_cents", "form", "quantity"
    ):
        lines.setdefault(entry_id, {})[(cents, form)] = quantity
    forms: dict = {}
    for entry_id, kind, number in FormFound.objects.filter(entry__session__in=sessions).values_list(
        "entry_id", "kind", "number"
    ):
        forms.setdefault(entry_id, []).append((kind, number))
    return {e.pk: member_figures(e, lines.get(e.pk, {}), forms.get(e.pk, ())) for e in entries}


@dataclass(frozen=True)
class BoxReads:
    """What the boxes of count sessions show, each kind read once for all of them and looked up by
    id: never a query a box. `read_boxes` reads them for one session's boxes (its page, the API,
    the tablet); counts.pdf for every session of a period (the count sheets)."""

    entries: dict  # (session id, drop id) -> [CountEntry], in the order entered
    figures: dict  # entry id -> MemberFigures
    agreements: dict  # (session id, drop id) -> [CountAgreement], oldest first
    explanations: dict  # drop id -> {(kind, number): FormsExplanation}
    issued: dict | None  # drop id -> {(kind, number)} of the slips issued; None: the floor keeps none

    def box_count(self, session, drop, viewer_id: int | None) -> BoxCount:
        """`box_count` from the reads."""
        entries = self.entries.get((session.pk, drop.pk), [])
        members = {e.entered_by_id: self.figures[e.pk] for e in entries if e.kind == "member"}
        ordered = [members[m] for m in session.member_ids if m in members]
        both_in = len(ordered) == 2
        agreements = self.agreements.get((session.pk, drop.pk), [])
        current = agreements[-1] if agreements else None
        agreed_lines, agreed_forms, reconciliation = {}, (), None
        if current is not None and both_in:
            agreed = self.figures[current.entry_id]
            agreed_lines, agreed_forms = agreed.lines, agreed.forms
            issued = None if self.issued is None else self.issued[drop.pk]
            reconciliation = reconciled(issued, set(agreed.forms), self.explanations.get(drop.pk, {}))
        status = (
            "awaiting" if not ordered else "counting" if not both_in else "difference" if current is None else "agreed"
        )
        return BoxCount(
            drop=drop,
            status=status,
            counted_by=tuple(members),
            visible=tuple(ordered) if both_in else tuple(m for m in ordered if m.member_id == viewer_id),
            both_in=both_in,
            differences=count_differences(*ordered) if both_in else (),
            forms_differ=both_in and ordered[0].forms != ordered[1].forms,
            agreement=current if both_in else None,
            original_agreement=agreements[0] if both_in and agreements else None,
            agreed_lines=agreed_lines,
            agreed_forms=agreed_forms,
            reconciliation=reconciliation,
        )


def read_boxes(session, drops: list) -> BoxReads:
    """`BoxReads` of `session`'s boxes `drops` (its own, or those of its gaming day awaiting a
    count): seven queries at most, whatever the number of boxes; the slips issued and the
    explanations only for the boxes agreed (their forms are reconciled: `box_count`)."""
    from . import slips
    from .models import CountEntry

    entries = list(
        CountEntry.objects.filter(session=session)
        .select_related("entered_by__user")
        .order_by("drop_id", "entered_at", "pk")
    )
    agreements = grouped(
        CountAgreement.objects.filter(session=session)
        .select_related("entry", "approved_by__user")
        .order_by("agreed_at", "pk"),
        lambda a: (a.session_id, a.drop_id),
    )
    agreed = [d for d in drops if (session.pk, d.pk) in agreements]
    dates = [d.gaming_date for d in agreed]
    return BoxReads(
        entries=grouped(entries, lambda e: (e.session_id, e.drop_id)),
        figures=entry_figures([session], entries),
        agreements=agreements,
        explanations=forms_explanations(d.pk for d in agreed),
        issued=slips.issued_for_drops(session.site, agreed, min(dates), max(dates)) if agreed else {},
    )


def grouped(rows, key) -> dict:
    """{key(row): [rows with that key, in order]}."""
    found: dict = {}
    for row in rows:
        found.setdefault(key(row), []).append(row)
    return found


def box_count(session, drop, viewer_id: int | None) -> BoxCount:
    """One box of a session as `viewer_id` may see it: a member sees their own figures at once
    and the other's only after both have counted (ND 99-01.3-08-14(4): each counts
    independently); nobody sees the agreed drop before both counts are in."""
    return read_boxes(session, [drop]).box_count(session, drop, viewer_id)


def session_drops(session):
    """Boxes counted in the session, then boxes of its gaming day still awaiting a count."""
    counted = list(Drop.objects.filter(entries__session=session).distinct().select_related("drop_box", "table", "site"))
    awaiting = [
        d for d in drops_awaiting_count(session.site, session.gaming_date).select_related("site") if d not in counted
    ]
    return sorted(counted + awaiting, key=lambda d: (d.table.number, d.placed_at, d.pk))


def session_board(session, viewer_id: int | None) -> list[BoxCount]:
    """Every box of the session (`session_drops`) as `viewer_id` may see it (`box_count`), read in
    a fixed number of queries whatever the number of boxes (`read_boxes`)."""
    drops = session_drops(session)
    reads = read_boxes(session, drops)
    return [reads.box_count(session, drop, viewer_id) for drop in drops]


def visible_sessions(access):
    """Sessions at the sites where the user counts, manages, transports or audits."""
    from .models import CountSession

    return CountSession.objects.filter(site_id__in=count_site_ids(access)).select_related(
        "site", "first_member__user", "second_member__user"
    )


def count_site_ids(access) -> list[int]:
    """The sites whose counts `access` reads (COUNT_RECORDS); a count tablet (a station, house
    control) reads its own site's, and each step on it is initialled with a member's PIN."""
    from .rules import COUNT_RECORDS

    if access.station is not None:
        return [access.station.site_id]
    return COUNT_RECORDS.site_ids(access)


# --- The sessions list: every box's state, in a fixed number of queries ---------------------


@dataclass(frozen=True)
class BoxSummary:
    drop: Drop
    status: str  # as BoxCount.status
    counted_by: tuple  # employee ids who have submitted
    agreed_cents: int | None  # only once both members have counted (blind count, 08-14(4))


def _box_status(entered: list[int], member_ids, agreed: int | None) -> tuple[str, bool]:
    both_in = all(m in entered for m in member_ids)
    if not entered:
        return "awaiting", False
    if not both_in:
        return "counting", False
    return ("difference" if agreed is None else "agreed"), True


def session_summaries(sessions) -> dict[int, list[BoxSummary]]:
    """{session id: its boxes, as `session_board` orders them} for a page of sessions: the same
    statuses as `box_count`, read in five queries whatever the number of sessions and boxes."""
    from .models import CountEntry

    ids = [s.pk for s in sessions]
    entered: dict[tuple[int, int], list[int]] = {}
    for session_id, drop_id, member_id in CountEntry.objects.filter(session__in=ids, kind="member").values_list(
        "session_id", "drop_id", "entered_by_id"
    ):
        entered.setdefault((session_id, drop_id), []).append(member_id)
    agreed = {
        (session_id, drop_id): cents
        for session_id, drop_id, cents in CountAgreement.objects.filter(session__in=ids)
        .order_by("agreed_at", "pk")
        .values_list("session_id", "drop_id", "total_cents")
    }
    counted = Drop.objects.filter(pk__in={drop_id for _, drop_id in entered}).select_related("drop_box", "table")
    drops = {d.pk: d for d in counted}
    awaiting = _awaiting_by_day(sessions)
    # Each session's counted drops, grouped once: a page's sessions each looked through every
    # session's entries (and each awaiting drop through the session's list), time that grew
    # with the square of the page (bench_pages: 0.6 ms a session at 12 sessions).
    counted_in: dict[int, list[int]] = {}
    for session_id, drop_id in entered:
        counted_in.setdefault(session_id, []).append(drop_id)
    result = {}
    for session in sessions:
        own_ids = counted_in.get(session.pk, [])
        own = [drops[d] for d in own_ids]
        own += [d for d in awaiting.get((session.site_id, session.gaming_date), []) if d.pk not in own_ids]
        boxes = []
        for drop in sorted(own, key=lambda d: (d.table.number, d.placed_at, d.pk)):
            members = entered.get((session.pk, drop.pk), [])
            status, both_in = _box_status(members, session.member_ids, agreed.get((session.pk, drop.pk)))
            cents = agreed.get((session.pk, drop.pk)) if both_in else None
            boxes.append(BoxSummary(drop, status, tuple(dict.fromkeys(members)), cents))
        result[session.pk] = boxes
    return result


def session_signatures(sessions) -> dict[int, list]:
    """{session id: its signatures in order of signing} for a page of sessions, in one query
    (a prefetch made a queryset for each session: a fifth of the list's time at 100 sessions)."""
    signed: dict[int, list] = {}
    for signature in CountSignature.objects.filter(session__in=[s.pk for s in sessions]).order_by("signed_at", "pk"):
        signed.setdefault(signature.session_id, []).append(signature)
    return signed


def _awaiting_by_day(sessions) -> dict[tuple[int, date], list[Drop]]:
    """Removed, uncounted drops of the sessions' sites and gaming days (one query)."""
    counted = CountAgreement.objects.filter(drop=OuterRef("pk"))
    days = {(s.site_id, s.gaming_date) for s in sessions}
    found = (
        Drop.objects.filter(
            site__in={site for site, _ in days}, gaming_date__in={day for _, day in days}, removal__isnull=False
        )
        .exclude(Exists(counted))
        .select_related("drop_box", "table")
    )
    by_day: dict[tuple[int, date], list[Drop]] = {}
    for drop in found:
        if (drop.site_id, drop.gaming_date) in days:
            by_day.setdefault((drop.site_id, drop.gaming_date), []).append(drop)
    return by_day


# --- A day's boxes, removed in one form --------------------------------------------------------


@dataclass(frozen=True)
class BoxToRemove:
    box: object  # DropBox
    placed: bool  # on its table for the day (a placement recorded)
    in_play: bool  # its table was in play that day, so it holds that day's drop
    proposed: bool  # ticked: in use that day (placed), or the one box of a table in play with none placed
    dealer_shift_id: int | None = None  # the shift it was placed for (boxes exchanged at dealer changes)


def boxes_to_remove(site, gaming_date: date) -> list[BoxToRemove]:
    """The active boxes of `site` that may be removed for `gaming_date`: those placed for that
    day and still on their tables, and those never placed whose table is free (no box on it for
    another day, no uncounted cash: ND 99-01.3-08-14(1)). Proposed (ticked) are the boxes in use
    that day: those placed, and of a table in play that day (the floor's openers and dealer
    shifts) with no box placed, its first free box only: a drop period is one box, and the other
    boxes of the table (1B, 1C) held nothing that day. Five queries."""
    from .models import DropBox

    boxes = list(DropBox.objects.filter(site=site, active=True).select_related("table").order_by("number", "label"))
    site_drops = Drop.objects.filter(site=site)
    placed = dict(
        site_drops.filter(gaming_date=gaming_date, removal__isnull=True).values_list("drop_box_id", "dealer_shift_id")
    )
    used_that_day = set(site_drops.filter(gaming_date=gaming_date).values_list("drop_box_id", flat=True))
    counted = CountAgreement.objects.filter(drop=OuterRef("pk"))
    busy = set(
        site_drops.filter(Q(removal__isnull=True) | Q(removal__isnull=False, gaming_date__lt=gaming_date))
        .exclude(Q(removal__isnull=False) & Exists(counted))
        .values_list("drop_box_id", flat=True)
    )
    in_play = _tables_in_play(site, gaming_date)
    in_use = {box.table_id for box in boxes if box.pk in placed}  # tables whose box in use is known
    result = []
    for box in boxes:
        if box.pk in placed:
            result.append(BoxToRemove(box, True, True, True, placed[box.pk]))
        elif box.pk not in used_that_day and box.pk not in busy:
            playing = in_play is None or box.table_id in in_play
            result.append(BoxToRemove(box, False, playing, playing and box.table_id not in in_use))
            in_use.add(box.table_id)
    return result


def dealer_shift_label(site, shift) -> str:
    """A dealer shift as the floor's pages name it: "Dana Lee (DL) 22:00–02:00" (on shift: "22:00–on
    shift"), in the site's local time."""
    zone = ZoneInfo(site.time_zone)
    ended = shift.ended_at.astimezone(zone).strftime("%H:%M") if shift.ended_at else "on shift"
    return f"{shift.dealer} ({shift.dealer.initials}) {shift.started_at.astimezone(zone):%H:%M}–{ended}"


def shift_labels(site, drops) -> dict[int, str]:
    """{dealer shift id: its label (`dealer_shift_label`)} of the shifts `drops` cover, for a page
    or sheet naming each box's shift as the removal review does, never by its id: one query
    whatever the number of boxes (none where no box covers a shift)."""
    shifts = shifts_by_id(drop.dealer_shift_id for drop in drops)
    return {pk: dealer_shift_label(site, shift) for pk, shift in shifts.items()}


def shift_choices(site, gaming_date: date) -> list[tuple[str, list[tuple[int, str]]]]:
    """The dealer shifts of `gaming_date` a removal may name, grouped by table: [("Table 1",
    [(shift id, label), ...]), ...] (`floor.queries.shifts_of_day`). One query."""
    grouped: dict[str, list[tuple[int, str]]] = {}
    for shift in shifts_of_day(site, gaming_date):
        grouped.setdefault(f"Table {shift.table.number}", []).append((shift.pk, dealer_shift_label(site, shift)))
    return list(grouped.items())


def shift_for_removal(site, drop_box, gaming_date: date, removed_at: datetime) -> int | None:
    """The dealer shift (id) a removal of `drop_box` names where boxes are exchanged at each
    dealer change, none chosen: the one it was placed for, else its table's latest of the day
    begun by the removal (`floor.queries.shift_served`); None when its table has none."""
    drop = open_drop(drop_box)
    if drop is not None:
        return drop.dealer_shift_id
    shift = shift_served(list(shifts_of_day(site, gaming_date)), drop_box.table_id, removed_at)
    return None if shift is None else shift.pk


def shifts_served(site, gaming_date: date, candidates, removed_at: datetime) -> dict[int, object]:
    """{box id: the dealer shift each box's drop covers} of `candidates` (`BoxToRemove`) where
    boxes are exchanged at each dealer change (house control): the shift a box was placed for,
    else its table's latest shift of the day begun by the removal (`floor.queries.shift_served`,
    as the day sheet resolves its drop rows); None for a table with no shift begun (none is
    invented: the removal is refused). Two queries."""
    shifts = list(shifts_of_day(site, gaming_date))
    by_id = {shift.pk: shift for shift in shifts}
    return {
        c.box.pk: by_id.get(c.dealer_shift_id) if c.placed else shift_served(shifts, c.box.table_id, removed_at)
        for c in candidates
    }


def _tables_in_play(site, gaming_date: date) -> set[int] | None:
    """Ids of the tables with an opener or a dealer seated on that gaming day (the floor's
    records); None when the floor keeps none for the day."""
    try:
        from floor.models import DealerShift, TableInventory
    except ImportError:
        return None
    openers = TableInventory.objects.filter(
        table__site=site, gaming_day__gaming_date=gaming_date, kind=TableInventory.Kind.OPENER
    ).values_list("table_id", flat=True)
    dealt = DealerShift.objects.filter(table__site=site, gaming_day__gaming_date=gaming_date).values_list(
        "table_id", flat=True
    )
    tables = set(openers) | set(dealt)
    return tables or None


def member_counts(session, drop_box) -> dict[int, MemberFigures]:
    """{member id: their own count} of `drop_box` in the session. Callers respect the blind
    count: another member's figures are shown only once both are in (ND 99-01.3-08-14(4))."""
    from .models import CountEntry

    entries = (
        CountEntry.objects.filter(session=session, drop__drop_box=drop_box, kind="member")
        .select_related("entered_by__user")
        .prefetch_related("lines", "forms")
    )
    return {e.entered_by_id: member_figures_of(e) for e in entries}


def count_team_at(site):
    """The employees holding the count team role at `site` (or at every site of its organization)."""
    from cardroom.models import Employee, Role

    return Employee.objects.filter(
        Q(memberships__site=site) | Q(memberships__site__isnull=True),
        memberships__role=Role.COUNT_TEAM,
        organization_id=site.organization_id,
    )


# --- The drops compliance's count rules judge (compliance.providers.count_problems) ---------------


def drops_to_judge(sites, start: date, end: date):
    """(site id, gaming date, table number, box label, removed at, agreed, member totals) of
    the sites' drops of [start, end] that may break ND 99-01.3-08-14: the database leaves out
    those surely removed by their day's end (`removed_in_time`) and agreed. One query. A
    drop's removal is probed by the drop (the join it replaces scanned every removal ever
    recorded), and its agreement is looked up among the current agreements of the range's
    count sessions (`_agreed_by_session`) before it is asked of the drop itself. `member
    totals`: how many different totals the count's members entered (more than one: a
    difference not resolved), counted only for a drop not agreed."""
    from .models import CountEntry

    site_ids = [s.pk for s in sites]
    member_totals = (
        CountEntry.objects.filter(drop=OuterRef("pk"), kind="member").order_by().values("drop")
        .annotate(n=Count("total_cents", distinct=True)).values("n")
    )  # fmt: skip
    # A count of the drop's current agreements, not an EXISTS: PostgreSQL may plan an EXISTS
    # in the select list as one hash of every agreement ever recorded, read for a few rows
    # (2.3 s for the largest organization at 250 sites); a count is probed by the drop.
    agreed = GreaterThan(rows_counted(current_agreements().filter(drop=OuterRef("pk"))), 0)
    agreed_by_session_or_drop = Q(pk__in=_agreed_by_session(site_ids, start, end)) | Q(agreed=True)
    return (
        Drop.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .annotate(agreed=agreed).exclude(removed_in_time(sites, start, end) & agreed_by_session_or_drop)
        # the member totals are counted only for a drop not agreed (CASE: no subquery for the others)
        .annotate(totals=Case(When(agreed=False, then=Subquery(member_totals)), default=Value(0)),
                  removed_at=Subquery(DropRemoval.objects.filter(drop=OuterRef("pk")).values("removed_at")))
        .values_list("site_id", "gaming_date", "table__number", "drop_box__label", "removed_at", "agreed", "totals")
    )  # fmt: skip


def _agreed_by_session(site_ids: list[int], start: date, end: date):
    """The drops (ids) with a current agreement made in a count session of the sites' gaming
    dates in [start, end]: `current_agreements()` narrowed, so a drop among them is agreed. A
    drop agreed in another session is not among them; `drops_to_judge` then asks its own
    agreements (an OR after this hashed set)."""
    from .models import CountSession

    sessions = CountSession.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
    # current_agreements(), its signatures counted once per session rather than per agreement
    signed = sessions.filter(signed_sessions_filter(""))
    return current_agreements(signed_only=False).filter(session__in=signed).values("drop_id")


def removed_in_time(sites, start: date, end: date) -> Q:
    """Drops of the sites' gaming dates in [start, end] surely removed by their day's end.

    A site's day ends `lead` whole hours or more after midnight UTC at the start of the next
    calendar day (its start hour, less its UTC offset on that day; the least over the window).
    A removal whose date at the fixed offset UTC-`lead` is at most the gaming date came before
    midnight UTC plus `lead`, so before the day's end. `lead` is kept within UTC-12 to UTC+14
    (a smaller one only leaves more drops to be judged in Python). The removal is an EXISTS by
    its drop: one index probe per drop, where a join scanned every removal ever recorded."""
    days = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    leads, by_lead = {}, {}
    for site in sites:
        key = (site.time_zone, site.business_day_start_hour)
        if key not in leads:
            ends = (
                floor_gaming_day_bounds(d, *key)[1] - datetime.combine(d + timedelta(days=1), time(), UTC) for d in days
            )
            leads[key] = max(-14, min(12, min(ends) // timedelta(hours=1)))
        by_lead.setdefault(leads[key], []).append(site.pk)
    in_time = Q(pk__in=[])
    for lead, site_ids in by_lead.items():
        removed_on = TruncDate("removed_at", tzinfo=dt_timezone(timedelta(hours=-lead)))
        removals = DropRemoval.objects.annotate(removed_on=removed_on).filter(
            drop=OuterRef("pk"), removed_on__lte=OuterRef("gaming_date")
        )
        in_time |= Q(site_id__in=site_ids) & Q(Exists(removals))
    return in_time


# --- Records entered late (the daily report) -------------------------------------------------


def late_entries(site, start: date, end: date) -> list[LateEntry]:
    """The drop's and the count's records of gaming dates [start, end] entered past the site's late
    entry threshold (house control, core.moments), as the floor's (floor.queries.late_entries), in
    the order they happened: drop boxes placed and removed, count sessions opened, the members'
    signatures on the count; each of the gaming date whose drop it is. One query a kind (four),
    however many rows. Not listed: a forms explanation (outside the books: `books=False`) and a
    member's count entry (not an `EnteredRecord`: it keeps when it was recorded, no late mark)."""
    drops = Drop.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True)
    removals = DropRemoval.objects.filter(drop__site=site, drop__gaming_date__range=(start, end), entered_late=True)
    sessions = CountSession.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True)
    signatures = CountSignature.objects.filter(
        session__site=site, session__gaming_date__range=(start, end), entered_late=True
    )
    entries = [
        LateEntry(d.gaming_date, f"{d.drop_box} placed, table {d.table.number}", d.placed_at, d.entered_at)
        for d in drops.select_related("drop_box", "table")
    ]
    entries += [
        LateEntry(
            r.drop.gaming_date,
            f"{r.drop.drop_box} removed, table {r.drop.table.number}",
            r.removed_at,
            r.entered_at,
        )
        for r in removals.select_related("drop__drop_box", "drop__table")
    ]
    entries += [LateEntry(s.gaming_date, "Count session opened", s.opened_at, s.entered_at) for s in sessions]
    entries += [
        LateEntry(s.session.gaming_date, f"Count initialled and dated by {s.initials}", s.signed_at, s.entered_at)
        for s in signatures.select_related("session")
    ]
    return sorted(entries, key=lambda e: (e.gaming_date, e.occurred_at, e.what))
