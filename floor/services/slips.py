"""Fill and credit slips: preparing, verifying, receiving and voiding (ND 99-01.3-08-05)."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.signals import post_save
from sequences.models import Sequence

from cardroom.access import require_role
from cardroom.models import Employee, Role, Site, Table
from core import acts, figure_days, limits, moments
from core.audit import appended_at_end, chain_lock_sql, chain_locked, field_values, snapshot
from core.audit import record_site_event as _audit
from core.audit_rows import record_rows
from core.insert_values import insert_plan, insert_values
from core.prepared import bound_sql
from core.rules import HOUSE_CONTROL
from packs import pack_for

from .. import queries, rules
from ..calculations import chips_total_cents
from ..chip_log import refuse_more_than_exist
from ..models import GamingDay, GamingDayClose, Slip, SlipBook, SlipKind, SlipLine, SlipStep
from .duty import on_duty_by_signing
from .steps import (
    chip_lines,
    held_open,
    line_values,
    moment_to_day_end,
    refuse_house_chips_at_fees_site,
    require_in_day,
    require_table_in_use,
)


def prepare_fill(
    *,
    acting_user,
    table: Table,
    chips=None,
    amounts=None,
    purpose: str = Slip.Purpose.REGULAR,
    number: int | None = None,
    at: datetime | None = None,
    cashier: Employee | None = None,
) -> Slip:
    """Prepare a fill slip: chips from the chip bank to one table (ND 99-01.3-08-05(1), (3)),
    given as chip counts (`chips`) or dollar amounts per denomination (`amounts`).
    `cashier`: the chip bank cashier, or a dealer acting as cashier, whose initials the fill
    carries (08-05(3)(c)); needed when the preparer is not a cashier themselves."""
    return _prepare(
        SlipKind.FILL,
        acting_user=acting_user,
        table=table,
        chips=chips,
        amounts=amounts,
        purpose=purpose,
        number=number,
        at=at,
        cashier=cashier,
    )


def prepare_credit(
    *,
    acting_user,
    table: Table,
    chips=None,
    amounts=None,
    purpose: str = Slip.Purpose.REGULAR,
    number: int | None = None,
    at: datetime | None = None,
) -> Slip:
    """Prepare a credit slip: chips from one table back to the chip bank (ND 99-01.3-08-05(1), (3)),
    given as chip counts (`chips`) or dollar amounts per denomination (`amounts`)."""
    return _prepare(
        SlipKind.CREDIT,
        acting_user=acting_user,
        table=table,
        chips=chips,
        amounts=amounts,
        purpose=purpose,
        number=number,
        at=at,
    )


def _require_purpose(site, purpose: str) -> None:
    """A purpose the site's pack has (`rules.slip_purposes`): a jar bar only where its law states
    one (rules.SLIP_JAR_BAR, ND 99-01.3-08-05(1)); refused on `purpose`, naming the site's pack."""
    purposes = rules.slip_purposes(site)
    if purpose in purposes:
        return
    offered = " or ".join(purposes)
    if purpose == rules.JAR_BAR:
        pack = pack_for(site)
        message = (
            f"{rules.SLIP_JAR_BAR.at(site)}: purpose jar_bar is not a slip's purpose in {pack.name}'s law "
            f"({site.name}); the purpose is {offered}."
        )
    else:
        message = f"{rules.SLIP_MOVEMENT.at(site)}: the purpose is {offered}."
    raise ValidationError({"purpose": message})


def _prepare(
    kind: str, *, acting_user, table: Table, chips, amounts, purpose: str, number: int | None, at, cashier=None
) -> Slip:
    """One slip = one table. `number` is the printed number of a paper slip from a registered
    book; without it the site's electronic series gives the next number, in the transaction
    that saves the slip, so a rolled-back slip leaves no gap (08-05(2))."""
    site = table.site
    access = require_role(
        acting_user, site, *rules.PREPARERS[kind], action=f"prepare a {kind} slip", rule=rules.SLIP_CONTENT.at(site)
    )
    employee = acts.acting_employee(access)
    refuse_house_chips_at_fees_site(site, "table", f"{kind} slip")
    given, at = at, acts.moment(at, "prepared_at", site=site, what=f"a {kind} slip", rule=rules.RECORD_TIME)
    prepared_as = _capacity(access.roles_at(site.pk) & rules.PREPARERS[kind])
    if kind == SlipKind.FILL:
        signer, signed_as = _fill_signer(employee, access.roles_at(site.pk), cashier, site, at)
    # The two locks a slip waits for come last (README, "Benchmarks"). Its context comes
    # first: one query that on PostgreSQL also draws the slip's id and reads the chips and the
    # credit's dealer, so the checks below keep their order but read nothing more. Its lines go
    # in next (the lines' foreign key is checked at commit), in the message whose slip INSERT
    # draws the series' next number, whose lock lasts to the commit so a rolled-back slip
    # leaves no gap (08-05(2)), and which takes the organization's chain lock; `appended_at_end`
    # then writes the slip's, its lines' and its own events in one INSERT.
    with transaction.atomic(), appended_at_end():
        role = rules.TABLE_ROLE.get(table.game, Role.DEALER) if kind == SlipKind.CREDIT else None
        context = queries.slip_context(table, kind, at=at, preparer=employee, dealer_role=role)
        if kind == SlipKind.CREDIT:
            # The credit's dealer is the one on shift at its time: a paper time outside the open
            # day is said as such first (it named nobody on shift, not the time).
            if given is not None and context.day is not None:
                require_in_day(site, context.day, at, given, "prepared_at")
            signer, signed_as = _credit_signer(employee, prepared_as, table, context.dealer)
        _require_purpose(site, purpose)
        require_table_in_use(table)
        lines = chip_lines(chips, amounts, site, rules.SLIP_CONTENT.at(site), available=context.chips)
        day = _require_table_open(table, context)
        refuse_more_than_exist(site, lines, record=f"{kind} slip", exist=context.chips_exist)
        require_in_day(site, day, at, given, "prepared_at")
        if given is not None:
            _require_open_by(table, day, at)
        slip = Slip(
            id=context.slip_id,
            site=site,
            kind=kind,
            table=table,
            gaming_day=day,
            purpose=purpose,
            game=table.game,
            table_number=table.number,
            prepared_at=at,
            prepared_by=employee,
            prepared_as=prepared_as,
            signed_by=signer,
            signed_initials=signer.initials,
            signed_as=signed_as,
            total_cents=chips_total_cents(line_values(lines).items()),
        )
        slip_lines = [
            SlipLine(slip=slip, denomination=d, value_cents=d.value_cents, quantity=q) for d, q in lines.items()
        ]
        slip.number, slip.slip_book = _slip_number(site, kind, number, uses_books=context.site_uses_books)
        # The day read as open is held open to the commit (steps.held_open), so that a close from
        # another terminal never leaves the slip in closed books: in the message that inserts it
        # on PostgreSQL's electronic series, else first (a no-op on SQLite, whose writers queue).
        if slip.number is None and context.slip_id is not None:
            _insert_drawing_number(slip, _series(kind, site), slip_lines)
        elif held_open(day) is None:
            raise _no_day_open(site)
        elif slip.number is None:
            slip.number = _next_number(_series(kind, site))
            _insert_numbered(slip, slip_lines)
        else:
            if context.slip_id is not None:
                SlipLine.objects.bulk_create(slip_lines)
            slip.save(force_insert=True)
            if context.slip_id is None:
                SlipLine.objects.bulk_create(slip_lines)
        _audit(
            acting_user,
            f"{kind}_slip.prepared",
            slip,
            site=site,
            after={**field_values(slip), "chips": line_values(lines)},  # made JSON-safe by the event, as snapshot()
        )
        if given is None:
            on_duty = context.preparer_on_duty
            on_duty_by_signing(acting_user, site, employee, access.roles_at(site.pk), day, at, on_duty=on_duty)
    return slip


def _capacity(roles) -> str:
    """The capacity (rules.SignedAs) a person holding `roles` acts in, the broadest first."""
    return next(str(role) for role in rules.SIGNING_ORDER if role in roles)


def _fill_signer(preparer: Employee, roles: set[str], cashier: Employee | None, site: Site, at: datetime):
    """ND 99-01.3-08-05(3)(c): a fill carries the initials of a chip bank cashier or a dealer
    acting in the capacity of the cashier: the preparer when they are a cashier, otherwise the
    cashier named."""
    if cashier is None:
        if Role.CASHIER in roles:
            return preparer, rules.SignedAs.CASHIER
        raise ValidationError(
            {
                "cashier": f"{rules.SLIP_INITIALS.at(site)}: a fill slip carries the initials of the chip bank cashier or "
                "a dealer acting as cashier; name who issues the chips."
            }
        )
    held = queries.roles_held(cashier, site) if cashier.organization_id == site.organization_id else set()
    if cashier.active and Role.CASHIER in held:
        return cashier, rules.SignedAs.CASHIER
    if cashier.active and Role.DEALER in held:
        if queries.is_dealing(cashier, site, at):
            raise ValidationError(
                {"cashier": f"{rules.SLIP_INITIALS.at(site)}: {cashier} is dealing at a table, not acting as cashier."}
            )
        return cashier, rules.SignedAs.DEALER_AS_CASHIER
    raise ValidationError(
        {
            "cashier": f"{rules.SLIP_INITIALS.at(site)}: {cashier} is not an active chip bank cashier or dealer at {site}."
        }
    )


def _credit_signer(preparer: Employee, prepared_as: str, table: Table, read: tuple[Employee | None, bool]):
    """ND 99-01.3-08-05(3)(c), (4): a credit carries the initials of the dealer (twenty-one) or
    wheel operator (paddlewheel) on shift at the table, who deposits its original in that
    table's drop box. A dealer or wheel operator therefore prepares a credit only for the table
    they are on shift at; a pit boss or shift manager prepares for any table, and the credit
    carries the initials of the dealer on shift there. `read`: the dealer on shift at the
    slip's moment and whether they hold the role, as the slip's context read them
    (queries.SlipContext.dealer)."""
    role = rules.TABLE_ROLE.get(table.game, Role.DEALER)
    label = Role(role).label.lower()
    dealer, holds_role = read
    if prepared_as in rules.TABLE_BOUND_CREDIT_PREPARERS and dealer != preparer:
        raise ValidationError(
            {
                "table": f"{rules.SLIP_DEPOSIT.at(table)}: a dealer or wheel operator prepares a credit only for the table "
                f"they are on shift at (they deposit its original in its drop box); you are not on shift at {table}."
            }
        )
    if dealer is None:
        raise ValidationError(
            {
                "table": f"{rules.SLIP_INITIALS.at(table)}: a credit slip carries the initials of the {label} at the table; "
                f"nobody is on shift at {table}."
            }
        )
    if not holds_role:
        raise ValidationError(
            {
                "table": f"{rules.SLIP_INITIALS.at(table)}: a credit slip for {table} carries the initials of a {label}; "
                f"{dealer} is not one."
            }
        )
    return dealer, rules.SignedAs(str(role))


def _no_day_open(site: Site) -> ValidationError:
    return ValidationError({"table": f"{rules.GAMING_DAY_STATE}: no gaming day is open at {site}; open one first."})


def _require_table_open(table: Table, context: queries.SlipContext) -> GamingDay:
    if context.day is None:
        raise _no_day_open(table.site)
    if context.table_state == "closed":
        raise ValidationError({"table": f"{rules.TABLE_STATE}: {table} is closed for the gaming day."})
    if context.table_state != "open":
        raise ValidationError({"table": f"{rules.TABLE_STATE}: {table} is not open (no opener, no dealer seated)."})
    return context.day


def _require_open_by(table: Table, day: GamingDay, at: datetime) -> None:
    """A slip from paper is dated once its table was open: chips sent before the opener was
    counted would be counted twice, in the opener and on the slip (live slips are always after)."""
    opened = queries.table_opened_at(table, day)
    if opened is not None and at < opened:
        raise ValidationError(
            {
                "prepared_at": f"{rules.TABLE_STATE}: {table} was not open yet at {moments.shown(table.site, at)}; "
                f"it opened at {moments.shown(table.site, opened)} (its opener or its first dealer seated)."
            }
        )


def _series(kind: str, site: Site) -> str:
    """The name of a site's electronic series of `kind` (a django-sequences row)."""
    return f"{kind}:{site.pk}"


# PostgreSQL: the slip's lines, then the series' next number drawn by the statement that
# inserts the slip (the same upsert as django-sequences' get_next_value), then, in the same
# message, the day's figures marked stale (core.figure_days.day_changed_sql) and the
# organization's chain lock and head (core.audit.chain_lock_sql). From the moment the number
# is drawn to the commit, the transaction sends two more messages: its audit events and the
# commit. The number's row lock is what keeps the series gapless (08-05(2)).
_NEXT_NUMBER = (
    "INSERT INTO {sequences} (name, last) VALUES (%s, 1) "
    "ON CONFLICT (name) DO UPDATE SET last = {sequences}.last + 1 RETURNING last"
)
_INSERT_DRAWING_NUMBER = (
    "WITH n AS (" + _NEXT_NUMBER + ") "
    "INSERT INTO {slips} ({columns}, {number}) VALUES ({values}, (SELECT last FROM n)) RETURNING {number}"
)
_SLIP_FIELDS = [f for f in Slip._meta.concrete_fields if f.attname != "number"]
_LINE_FIELDS = [f for f in SlipLine._meta.concrete_fields if not f.primary_key]
_SLIP_PLAN, _LINE_PLAN = insert_plan(tuple(_SLIP_FIELDS)), insert_plan(tuple(_LINE_FIELDS))


def _quote(name: str) -> str:
    return f'"{name}"'  # PostgreSQL's quoting, as connection.ops.quote_name


_SLIP_SQL = _INSERT_DRAWING_NUMBER.format(
    sequences=_quote(Sequence._meta.db_table),
    slips=_quote(Slip._meta.db_table),
    columns=", ".join(_quote(f.column) for f in _SLIP_FIELDS),
    number=_quote(Slip._meta.get_field("number").column),
    values=", ".join(["%s"] * len(_SLIP_FIELDS)),
)
# SQLite (3.35 or later): the same upsert on its own, in the transaction that saves the slip
# (which holds the database's write lock from its BEGIN IMMEDIATE): one statement where
# django-sequences' get_next_value reads the row, then updates it.
_NEXT_NUMBER_SQL = _NEXT_NUMBER.format(sequences=_quote(Sequence._meta.db_table))
_HOLD_DAY_SQL = f"SELECT 1 FROM {GamingDay._meta.db_table} WHERE id = %s FOR KEY SHARE"
_DAY_CLOSED_SQL = f"SELECT EXISTS (SELECT 1 FROM {GamingDayClose._meta.db_table} WHERE gaming_day_id = %s)"
_LINES_SQL = "INSERT INTO {table} ({columns}) VALUES {{rows}} RETURNING {pk}".format(
    table=_quote(SlipLine._meta.db_table),
    columns=", ".join(_quote(f.column) for f in _LINE_FIELDS),
    pk=_quote(SlipLine._meta.pk.column),
)
_LINE_ROW = "(" + ", ".join(["%s"] * len(_LINE_FIELDS)) + ")"
_NEW_SLIP_FIELDS = [f for f in Slip._meta.concrete_fields if not f.primary_key]
_NEW_SLIP_PLAN = insert_plan(tuple(_NEW_SLIP_FIELDS))
_SLIP_NUMBERED_SQL = "INSERT INTO {table} ({columns}) VALUES ({values}) RETURNING {pk}".format(
    table=_quote(Slip._meta.db_table),
    columns=", ".join(_quote(f.column) for f in _NEW_SLIP_FIELDS),
    values=", ".join(["%s"] * len(_NEW_SLIP_FIELDS)),
    pk=_quote(Slip._meta.pk.column),
)


def _insert_drawing_number(slip: Slip, series: str, lines: list[SlipLine]) -> None:
    """Insert `slip`'s lines and `slip` (its id drawn already) with the next number of
    `series` in one message, and record them as `bulk_create` and `Model.save` would (the
    slip's entry stamp, the row events, lines first; the slip's post_save)."""
    conn = transaction.get_connection()
    slip.stamp_entry()
    # The day's key-share lock first (before the number's and the chain's: a close in progress holds
    # the day's row and then waits for the chain), and its close read again last, after any wait
    # (each statement reads what was committed when it starts): steps.held_open, in this message.
    params = [slip.gaming_day_id]
    params += [value for line in lines for value in insert_values(_LINE_PLAN, line, conn)]
    params += [series, *insert_values(_SLIP_PLAN, slip, conn)]
    statements = [_HOLD_DAY_SQL, _LINES_SQL.format(rows=", ".join([_LINE_ROW] * len(lines))), _SLIP_SQL]
    # The day's figures marked stale (its snapshot's row lock) and the chain's lock, in the same message.
    stale = figure_days.day_changed_sql(slip.site_id, slip.gaming_day.gaming_date)
    lock = chain_lock_sql(slip.site.organization_id)
    for extra in (stale, lock, (_DAY_CLOSED_SQL, [slip.gaming_day_id])):
        if extra:
            statements.append(extra[0])
            params += extra[1]
    sql = bound_sql(conn, "; ".join(statements), params)  # as the cursor would bind them, from a kept Transformer
    with conn.cursor() as cursor:
        cursor.execute(sql)
        cursor.nextset()  # past the day's lock
        ids = cursor.fetchall()
        cursor.nextset()
        (slip.number,) = cursor.fetchone()
        if stale:
            cursor.nextset()
        if lock:
            cursor.nextset()  # the lock's
            cursor.nextset()
            chain_locked(slip.site.organization_id, cursor.fetchone())
        cursor.nextset()
        (closed,) = cursor.fetchone()
    if closed:  # rolled back with the transaction: the number drawn too, so the series keeps no gap
        raise _no_day_open(slip.site)
    _lines_inserted(conn, lines, ids)
    _slip_inserted(conn, slip)  # the day's figure snapshot (accounting.day_figures) finds its day marked already


def _insert_numbered(slip: Slip, lines: list[SlipLine]) -> None:
    """SQLite: insert `slip` (its number drawn) and then its lines by plain SQL, and record
    them as `Model.save` and `bulk_create` would, in the same order: the ORM's compilation of
    the two INSERTs cost more than running them (bench_slips)."""
    conn = transaction.get_connection()
    slip.stamp_entry()
    with conn.cursor() as cursor:
        cursor.execute(_SLIP_NUMBERED_SQL, insert_values(_NEW_SLIP_PLAN, slip, conn))
        (slip.pk,) = cursor.fetchone()
        _slip_inserted(conn, slip)
        for line in lines:
            line.slip = slip  # its id now (the slip cached: its row event finds the organization there)
        params = [value for line in lines for value in insert_values(_LINE_PLAN, line, conn)]
        cursor.execute(_LINES_SQL.format(rows=", ".join([_LINE_ROW] * len(lines))), params)
        ids = cursor.fetchall()
    _lines_inserted(conn, lines, ids)


def _lines_inserted(conn, lines: list[SlipLine], ids) -> None:
    """As `bulk_create` would once the lines are in: their ids, their row events."""
    for line, (pk,) in zip(lines, ids, strict=True):
        line.pk, line._state.adding, line._state.db = pk, False, conn.alias
    record_rows(lines)


def _slip_inserted(conn, slip: Slip) -> None:
    """As `Model.save` would once the slip is in: its state, its row event, and the
    listeners hear it (the day's figure snapshot, accounting.day_figures)."""
    slip._state.adding, slip._state.db = False, conn.alias
    record_rows([slip])
    post_save.send(sender=Slip, instance=slip, created=True, update_fields=None, raw=False, using=conn.alias)


def _next_number(series: str) -> int:
    """The next number of `series` (a django-sequences row, created at 1), drawn in the
    caller's transaction so a rolled-back slip leaves no gap (ND 99-01.3-08-05(2))."""
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(_NEXT_NUMBER_SQL, [series])
        (number,) = cursor.fetchone()
    return number


def _slip_number(site: Site, kind: str, printed: int | None, *, uses_books: bool) -> tuple[int | None, SlipBook | None]:
    """A printed number from a registered book, checked; None for the site's electronic
    series, whose next number the slip's insert draws (ND 99-01.3-08-05(2))."""
    label = SlipKind(kind).label.lower()
    if printed is None:
        if uses_books:
            raise ValidationError(
                {
                    "number": f"{rules.SLIP_NUMBERING.at(site)}: {site} uses pre-printed {label}s; give the printed number."
                }
            )
        return None, None
    books = SlipBook.objects.filter(site=site, kind=kind)
    book = books.filter(first_number__lte=printed, last_number__gte=printed).first()
    if book is None:
        raise ValidationError(
            {"number": f"{rules.SLIP_NUMBERING.at(site)}: {printed} is not in a registered book of {label}s."}
        )
    if Slip.objects.filter(site=site, kind=kind, number=printed).exists():
        raise ValidationError(
            {"number": f"{rules.SLIP_NUMBERING.at(site)}: {label} {printed} is already used; numbers are never reused."}
        )
    return printed, book


def verify_slip(*, acting_user, slip: Slip, at: datetime | None = None) -> SlipStep:
    """Verify the chips and initial the original (ND 99-01.3-08-05(5)): a shift manager or
    authorized employee who is not presently dealing and did not prepare the slip."""
    access = require_role(
        acting_user, slip.site, *rules.VERIFIERS, action="verify a slip", rule=rules.SLIP_VERIFICATION.at(slip.site)
    )
    live, roles = at is None, access.roles_at(slip.site_id)
    employee, at = acts.acting_employee(access), _step_moment(slip, at, "verified_at")
    check_verifier(slip, employee, at)
    signed_as = _capacity(roles & rules.VERIFIERS)
    return _add_step(
        acting_user, slip, SlipStep.Kind.VERIFY, employee, at, signed_as=signed_as, duty_roles=roles if live else None
    )


def check_verifier(slip: Slip, employee: Employee, at: datetime) -> None:
    """ND 99-01.3-08-05(5): the verifier did not prepare the slip and is not presently dealing.
    The slip page offers Verify only to whom this lets through (one source of truth)."""
    if employee.pk == slip.prepared_by_id:
        raise ValidationError(
            {"slip": f"{rules.SLIP_VERIFICATION.at(slip.site)}: the preparer cannot verify their own slip."}
        )
    if queries.is_dealing(employee, slip.site, at):
        raise ValidationError(
            {"slip": f"{rules.SLIP_VERIFICATION.at(slip.site)}: you are presently dealing; someone else verifies."}
        )


def receive_slip(*, acting_user, slip: Slip, at: datetime | None = None, unverified_reason: str = "") -> SlipStep:
    """Verify and initial the copy on the receiving side (ND 99-01.3-08-05(6)): for a fill the
    dealer on shift at that table, for a credit the cashier or a dealer acting as cashier.
    Without a verification (08-05(5)) the copy is received only when nobody who could verify
    is on duty, as an explicit exception: a live receipt gives `unverified_reason` (house
    control; a receipt entered from paper may leave it blank), and the receipt says so
    (rules.unverified_note, then the reason)."""
    access = require_role(
        acting_user,
        slip.site,
        *rules.RECEIVERS[slip.kind],
        action=f"receive a {slip.kind} slip",
        rule=rules.SLIP_RECEIPT.at(slip.site),
    )
    live = at is None
    employee, at = acts.acting_employee(access), _step_moment(slip, at, "received_at")
    signed_as = receiver_capacity(slip, employee, access.roles_at(slip.site_id), at)
    reason = " ".join((unverified_reason or "").split())
    return _add_step(
        acting_user, slip, SlipStep.Kind.RECEIVE, employee, at, signed_as=signed_as, reason=reason, live=live
    )


def receiver_capacity(slip: Slip, employee: Employee, roles: set[str], at: datetime) -> str:
    """ND 99-01.3-08-05(6): the capacity `employee` (holding `roles`) receives `slip` in, or a
    refusal. The slip page offers Receive only to whom this lets through (one source of truth).
    The receiving side verifies the copy, so it is never the slip's preparer (a pit boss who is
    also the cashier, or seated as the table's dealer, would receive their own slip)."""
    if employee.pk == slip.prepared_by_id:
        raise ValidationError(
            {
                "slip": f"{rules.SLIP_RECEIPT.at(slip.site)}: the preparer cannot receive their own slip; the receiving side verifies it."
            }
        )
    if slip.kind == SlipKind.FILL:
        if queries.current_dealer(slip.table, at) != employee:
            raise ValidationError(
                {
                    "slip": f"{rules.SLIP_RECEIPT.at(slip.site)}: only the dealer on shift at {slip.table} receives this fill."
                }
            )
        signed_as = rules.SignedAs(str(rules.TABLE_ROLE.get(slip.game, Role.DEALER)))
    elif Role.CASHIER in roles:
        signed_as = rules.SignedAs.CASHIER
    elif queries.is_dealing(employee, slip.site, at):
        raise ValidationError(
            {
                "slip": f"{rules.SLIP_RECEIPT.at(slip.site)}: a dealer receives a credit only acting as cashier, not while "
                "dealing at a table."
            }
        )
    else:
        signed_as = rules.SignedAs.DEALER_AS_CASHIER
    return signed_as


def void_slip(*, acting_user, slip: Slip, reason: str, at: datetime | None = None) -> SlipStep:
    """Mark a slip VOID (ND 99-01.3-08-05(2)): never edited, it keeps its number; initialed by
    its preparer, who says why. House controls beyond the text (rules.VOID_CITATION): only
    before the slip is received and while its gaming day is open. Past either point the slip
    stands and the correction is a gaming manager's adjustment to the closed books
    (accounting.services.record_adjustment), counted on the day it is entered."""
    access = require_role(
        acting_user, slip.site, *rules.ALL_SITE_ROLES, action="void a slip", rule=rules.SLIP_NUMBERING.at(slip.site)
    )
    employee, at = acts.acting_employee(access), _step_moment(slip, at, "voided_at")
    if employee.pk != slip.prepared_by_id:
        raise ValidationError(
            {
                "slip": f"{rules.VOID_CITATION.at(slip.site)}: a voided slip is initialed by its preparer; only "
                f"{slip.prepared_by} may void {_slip_label(slip)}. Ask them to void it while its gaming day is "
                "open; otherwise the slip stands and a gaming manager corrects the day with an adjustment "
                "once its books are closed."
            }
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": f"{rules.SLIP_NUMBERING.at(slip.site)}: say why the slip is void."})
    return _add_step(
        acting_user, slip, SlipStep.Kind.VOID, employee, at, reason=reason.strip(), signed_as=slip.prepared_as
    )


STEP_FIELDS = {
    SlipStep.Kind.VERIFY: "verified_at",
    SlipStep.Kind.RECEIVE: "received_at",
    SlipStep.Kind.VOID: "voided_at",
}


def _step_moment(slip: Slip, at: datetime | None, field: str) -> datetime:
    """A step written on paper: in the slip's gaming day (or just after its last hour), not
    before the slip was prepared (core.moments; the order of the steps: `_check_step_time`)."""
    at = moment_to_day_end(slip.site, slip.gaming_day.gaming_date, at, field, "a slip")
    kind = next(k for k, name in STEP_FIELDS.items() if name == field)
    # A time given is to the second (a terminal's queued moment, a paper slip's minute): judged
    # at that precision, a step in the same second as the preparation is not before it.
    if at < slip.prepared_at.replace(microsecond=0):
        _refuse_step_before(slip, kind, at, "its preparation", slip.prepared_at)
    return at


def _check_step_time(slip: Slip, kind: str, at: datetime, done: dict[str, datetime]) -> None:
    """A receipt is dated after the slip's verification (ND 99-01.3-08-05(6) follows 08-05(5)):
    the copy is received once the chips were verified, never before."""
    verified_at = done.get(SlipStep.Kind.VERIFY)
    if kind == SlipStep.Kind.RECEIVE and verified_at is not None and at < verified_at.replace(microsecond=0):
        _refuse_step_before(slip, kind, at, "its verification", verified_at)


def _refuse_step_before(slip: Slip, kind: str, at: datetime, act: str, act_at: datetime) -> None:
    zone = moments.site_zone(slip.site)
    shown = [moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") for moment in (at, act_at)]
    step = SlipStep.Kind(kind).label.lower()
    raise ValidationError(
        {
            STEP_FIELDS[kind]: f"{rules.step_citation(kind, slip.site)}: {_slip_label(slip)} is {step} after {act}; "
            f"{shown[0]} is before {act} ({shown[1]})."
        }
    )


def _slip_label(slip: Slip) -> str:
    return f"{SlipKind(slip.kind).label.lower()} {slip.number}"


def _check_void(slip: Slip, done: set[str]) -> None:
    """The house controls on a VOID (rules.VOID_CITATION), read under the gaming day's lock so
    a void and the day's close never cross."""
    day = GamingDay.objects.select_for_update().get(pk=slip.gaming_day_id)
    instead = (
        f"If it is wrong, a gaming manager records an adjustment to the books of {day.gaming_date} once they "
        "are closed, counted on the gaming day it is entered."
    )
    if GamingDayClose.objects.filter(gaming_day=day).exists():
        raise ValidationError(
            {
                "slip": f"{rules.VOID_HOUSE_CONTROL}: the gaming day {day.gaming_date} of {_slip_label(slip)} is "
                "closed, so its slips can no longer be voided (its figures are what its books close on, "
                f"{rules.DAILY_SUMMARY.at(slip.site)}). {instead}"
            }
        )
    if SlipStep.Kind.RECEIVE in done:
        raise ValidationError(
            {
                "slip": f"{HOUSE_CONTROL}: a received slip cannot be voided; {_slip_label(slip)} was received "
                f"(its copy initialed, {rules.SLIP_RECEIPT.at(slip.site)}), so it can no longer be voided: the chips "
                f"moved with it. {instead}"
            }
        )


def _add_step(
    acting_user,
    slip: Slip,
    kind: str,
    employee: Employee,
    at: datetime,
    reason: str = "",
    signed_as: str = "",
    duty_roles: set[str] | None = None,
    live: bool = False,
) -> SlipStep:
    """`duty_roles`: the roles of a live signer, who goes on duty if a pit boss or shift manager
    (on_duty_by_signing). `reason` of a receipt: why it is received unverified, if it is."""
    with transaction.atomic(), appended_at_end():
        Slip.objects.select_for_update().filter(pk=slip.pk).first()  # one signer at a time per slip
        done = dict(SlipStep.objects.filter(slip=slip).values_list("kind", "at"))
        _check_step_order(slip, kind, set(done), at)
        _check_step_time(slip, kind, at, done)
        if kind == SlipStep.Kind.VOID:
            _check_void(slip, done)
        if kind == SlipStep.Kind.RECEIVE:
            reason = _receipt_reason(slip, done, reason, live)
        if duty_roles is not None:
            on_duty_by_signing(acting_user, slip.site, employee, duty_roles, slip.gaming_day, at)
        step = SlipStep.objects.create(
            slip=slip,
            kind=kind,
            employee=employee,
            initials=employee.initials,
            at=at,
            reason=reason,
            signed_as=signed_as,
        )
        _audit(
            acting_user,
            f"{slip.kind}_slip.{kind}",
            step,
            site=slip.site,
            after={**snapshot(step), "number": slip.number},
        )
    return step


def _receipt_reason(slip: Slip, done: set[str], given: str, live: bool) -> str:
    """A verified slip's receipt records no reason. An unverified one (_check_step_order found
    nobody on duty to verify) is an exception the receiver states (house control, live
    receipts) and records after the rule's note, so the daily report and the slip show it."""
    if SlipStep.Kind.VERIFY in done:
        return ""
    if live and not given:
        raise ValidationError(
            {
                "unverified_reason": f"{rules.SLIP_VERIFICATION.at(slip.site)}: nobody who could verify is on duty; "
                "receiving unverified is an exception: say why (who was asked, what happened)."
            }
        )
    if len(given) > limits.MAX_TEXT_LENGTH:
        raise ValidationError(
            {"unverified_reason": f"{HOUSE_CONTROL}: a reason is at most {limits.MAX_TEXT_LENGTH} characters."}
        )
    note = rules.unverified_note(slip.site)
    return f"{note} Reason: {given}" if given else note


def _check_step_order(slip: Slip, kind: str, done: set[str], at: datetime) -> None:
    label = f"{SlipKind(slip.kind).label.lower()} {slip.number}"
    if SlipStep.Kind.VOID in done:
        raise ValidationError({"slip": f"{rules.SLIP_NUMBERING.at(slip.site)}: {label} is void."})
    if kind in done:
        raise ValidationError(
            {"slip": f"{rules.step_citation(kind, slip.site)}: {label} is already {SlipStep.Kind(kind).label.lower()}."}
        )
    if kind == SlipStep.Kind.RECEIVE and rules.RECEIPT_REQUIRES_VERIFICATION and SlipStep.Kind.VERIFY not in done:
        prepared_by = Employee.objects.get(pk=slip.prepared_by_id)
        on_duty = queries.verifiers_on_duty(slip.site, at, rules.VERIFIERS, excluding=prepared_by)
        if on_duty:
            raise ValidationError(
                {
                    "slip": f"{rules.SLIP_VERIFICATION.at(slip.site)}: {label} must be verified before it is received; "
                    f"{', '.join(str(e) for e in on_duty)} is on duty and not dealing."
                }
            )
