"""Reads used in several places: who deals where, open days and tables, registers, queues."""

import json
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from functools import cache
from operator import itemgetter
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import Case, CharField, Exists, F, Max, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import ExtractQuarter, ExtractYear
from django.db.models.lookups import IsNull, LessThan

from cardroom.models import ChipDenomination, Employee, Game, Membership, Site, Table
from core.hooks import CARRIED_NOW
from core.money import format_money
from core.periods import Quarter
from core.plurals import plural
from core.prepared import prepared_cursor
from core.rows import shaped_rows, value_rows

from .calculations import check_series, last_begun_by, site_today
from .chip_log import chips_exist_sql
from .models import (
    CardCheck,
    CarriedItem,
    DealerShift,
    DutyPeriod,
    GamingDay,
    GamingDayClose,
    Slip,
    SlipBook,
    SlipKind,
    SlipLine,
    SlipStep,
    TableInventory,
    TableInventoryLine,
)
from .rules import UNVERIFIED_NOTE_START, card_checks_kept, house_chips, house_dealers


def shifts_overlapping(start: datetime, end: datetime) -> QuerySet[DealerShift]:
    """Dealer shifts that were running at some moment of [start, end)."""
    return DealerShift.objects.filter(started_at__lt=end).filter(Q(ended_at__isnull=True) | Q(ended_at__gt=start))


def employee_dealt_at(employee: Employee, site: Site, start: datetime, end: datetime) -> bool:
    """Did `employee` conduct games (deal or operate a wheel) at `site` in [start, end)?
    Used for ND 99-01.3-08-14(2) (count team) and 08-04(9) (video reviewer)."""
    return shifts_overlapping(start, end).filter(dealer=employee, table__site=site).exists()


def shifts_running(at: datetime) -> QuerySet[DealerShift]:
    """Dealer shifts running at the moment `at` (started at or before it, not yet ended)."""
    return DealerShift.objects.filter(started_at__lte=at).filter(Q(ended_at__isnull=True) | Q(ended_at__gt=at))


def current_shift(table: Table, at: datetime) -> DealerShift | None:
    """The dealer shift running at `table` at the moment `at`, with its day and dealer (and
    `table` itself as its table: ending the shift reads them)."""
    shift = (
        shifts_running(at).filter(table=table).select_related("gaming_day", "dealer").order_by("-started_at").first()
    )
    if shift is not None:
        shift.table = table
    return shift


def shifts_of_day(site: Site, gaming_date: date) -> QuerySet[DealerShift]:
    """The dealer shifts of `site`'s tables on `gaming_date`, each table's in the order begun,
    with their dealer and table."""
    return (
        DealerShift.objects.filter(table__site=site, gaming_day__gaming_date=gaming_date)
        .select_related("dealer__user", "table")
        .order_by("table__number", "started_at", "pk")
    )


def shifts_by_id(shift_ids) -> dict[int, DealerShift]:
    """The dealer shifts of `shift_ids`, with their dealer, by id: one query (none for no ids)."""
    ids = {pk for pk in shift_ids if pk}
    return DealerShift.objects.select_related("dealer__user").in_bulk(ids) if ids else {}


def shift_served(shifts, table_id: int, removed_at: datetime | None) -> DealerShift | None:
    """Of `shifts` (`shifts_of_day`), the one a box of table `table_id` removed at `removed_at`
    served where boxes are exchanged at each dealer change: that table's latest shift begun by
    the removal (`calculations.last_begun_by`, as the day sheet reads its rows). None: no shift
    of the table had begun, and none is invented."""
    at_table = [shift for shift in shifts if shift.table_id == table_id]
    index = last_begun_by([shift.started_at for shift in at_table], removed_at)
    return None if index is None else at_table[index]


def current_dealer(table: Table, at: datetime) -> Employee | None:
    shift = shifts_running(at).filter(table=table).select_related("dealer").order_by("-started_at").first()
    return shift.dealer if shift else None


def is_dealing(employee: Employee, site: Site, at: datetime) -> bool:
    """Is `employee` on a dealer shift at any table of `site` at `at` ("presently dealing")?"""
    return shifts_running(at).filter(dealer=employee, table__site=site).exists()


def roles_held(employee: Employee, site: Site) -> set[str]:
    """The roles `employee` holds at `site` (a membership without a site holds everywhere)."""
    memberships = Membership.objects.filter(employee=employee).filter(Q(site=site) | Q(site__isnull=True))
    return set(memberships.values_list("role", flat=True))


def duty_periods_running(site: Site, at: datetime) -> QuerySet[DutyPeriod]:
    """Duty register entries of `site` running at the moment `at`."""
    periods = DutyPeriod.objects.filter(site=site, started_at__lte=at)
    return periods.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=at))


def on_duty(site: Site, at: datetime, roles) -> list[Employee]:
    """Who is on duty at `site` at `at` in one of `roles`, by the duty register. House control
    (floor.rules.DUTY_REGISTER): a gaming day whose register is empty presumes the shift
    manager who opened it on duty."""
    running = duty_periods_running(site, at).filter(role__in=list(roles))
    people = {p.employee for p in running.select_related("employee__user")}
    days = GamingDay.objects.filter(site=site, opened_at__lte=at).select_related("close", "opened_by__user")
    day = days.order_by("-opened_at").first()  # its close and opener read with it: no query more for either
    if day is not None and not DutyPeriod.objects.filter(gaming_day=day).exists() and day.is_open:
        people.add(day.opened_by)
    return sorted(people, key=lambda e: e.pk)


def verifiers_on_duty(site: Site, at: datetime, roles, *, excluding: Employee | None = None) -> list[Employee]:
    """The people who could verify a slip at `at` (ND 99-01.3-08-05(5)): on duty in a verifier
    role, not presently dealing or operating a wheel, and not `excluding` (its preparer)."""
    dealing = set(shifts_running(at).filter(table__site=site).values_list("dealer_id", flat=True))
    return [e for e in on_duty(site, at, roles) if e.pk not in dealing and (excluding is None or e.pk != excluding.pk)]


def verifiers_not_signed_in(site: Site, at: datetime, roles, *, excluding: Employee) -> list[Employee]:
    """The active people of `site`'s organization holding one of `roles` there (a membership without
    a site holds everywhere) who are neither on the duty register at `at` nor presently dealing, nor
    `excluding`: those who would be on duty by verifying (floor.services.duty.on_duty_by_signing)."""
    on_register = {e.pk for e in on_duty(site, at, roles)}
    dealing = set(shifts_running(at).filter(table__site=site).values_list("dealer_id", flat=True))
    holders = (
        Employee.objects.filter(organization_id=site.organization_id, active=True)
        .filter(Q(memberships__site=site) | Q(memberships__site__isnull=True), memberships__role__in=list(roles))
        .exclude(pk__in=on_register | dealing | {excluding.pk})
        .select_related("user")
        .distinct()
        .order_by("pk")
    )
    return list(holders)


# --- Gaming days and tables -------------------------------------------------------------


def gaming_days_query(*, site_ids, start: date, end: date):
    """(pk, site_id, gaming_date) of each gaming day of the sites in [start, end] (a query for
    core.rows.shaped_rows)."""
    return GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end)).values_list(
        "pk", "site_id", "gaming_date"
    )


def quarters_played(site_ids) -> set[tuple[int, Quarter]]:
    """(site id, quarter) of each quarter in which the site had a gaming day (the quarters it has
    a return for). One query, a row per site and quarter."""
    rows = (
        GamingDay.objects.filter(site_id__in=site_ids)
        .annotate(year=ExtractYear("gaming_date"), number=ExtractQuarter("gaming_date"))
        .order_by()
        .values_list("site_id", "year", "number")
        .distinct()
    )
    return {(site_id, Quarter(year, number)) for site_id, year, number in rows}


def open_gaming_day(site: Site) -> GamingDay | None:
    """The site's gaming day that has no close record (at most one at a time)."""
    return GamingDay.objects.filter(site=site, close__isnull=True).order_by("-gaming_date").first()


def last_gaming_date(site: Site) -> date | None:
    """The site's latest gaming date opened (open or closed), or None when none was opened."""
    return GamingDay.objects.filter(site=site).aggregate(latest=Max("gaming_date"))["latest"]


def next_gaming_date(site: Site) -> date:
    """The gaming date the day-open form proposes: the site's current gaming day, or the day after
    its latest opened day where that is later (never one already opened). A day of play between
    them not yet entered is typed in with its paper's time; proposing it would propose a day over,
    which a blank time (now) cannot open."""
    latest, today = last_gaming_date(site), site_today(site)
    return today if latest is None else max(latest + timedelta(days=1), today)


def table_was_opened(table: Table, day: GamingDay) -> bool:
    """A table is in play in a gaming day once it has an opener or a dealer seated."""
    has_opener = TableInventory.objects.filter(table=table, gaming_day=day, kind=TableInventory.Kind.OPENER)
    return has_opener.exists() or DealerShift.objects.filter(table=table, gaming_day=day).exists()


def table_opened_at(table: Table, day: GamingDay):
    """When `table` was opened in `day`: its opener's count or its first dealer seated,
    whichever came first (None when neither is recorded)."""
    opener = TableInventory.objects.filter(table=table, gaming_day=day, kind=TableInventory.Kind.OPENER)
    seated = DealerShift.objects.filter(table=table, gaming_day=day).order_by("started_at")
    found = [
        moment
        for moment in (
            opener.values_list("counted_at", flat=True).first(),
            seated.values_list("started_at", flat=True).first(),
        )
        if moment is not None
    ]
    return min(found, default=None)


@dataclass(frozen=True)
class SlipContext:
    day: GamingDay | None
    table_state: str  # "closed" (closer recorded), "open" (opener or dealer seated) or "not opened", in the day
    site_uses_books: bool
    # PostgreSQL: an id drawn for the slip from its table's sequence (never reused, gaps in ids
    # are harmless), so its lines go in before the slip takes its number (services.slips).
    slip_id: int | None = None
    # What the slip's other checks read, in the same query: the organization's active chips
    # (as floor.services.steps.active_chips); for a credit, the dealer on shift at the table
    # and whether they hold the table's role at the site (as roles_held), else None; whether
    # the preparer is on the site's duty register at the slip's moment (as
    # duty_periods_running: signing puts a pit boss or shift manager on duty unless they are,
    # floor.services.duty). The chips by their value in cents (`ChipsByValue`).
    chips: "ChipsByValue | None" = None
    dealer: tuple[Employee | None, bool] | None = None
    preparer_on_duty: bool | None = None
    # The chips the organization's inventory log says exist on the open day's gaming date
    # ({value_cents: chips}, as floor.chip_log.chips_exist; None: it keeps no log yet).
    chips_exist: dict[int, int] | None = None


_SLIP_CONTEXT_SQL = """
    SELECT d.id, d.site_id, d.gaming_date, d.opened_at, d.opened_by_id,
        EXISTS (SELECT 1 FROM accounting_tableinventory i
                WHERE i.gaming_day_id = d.id AND i.table_id = %(table)s AND i.kind = 'closer') AS closed,
        (EXISTS (SELECT 1 FROM accounting_tableinventory i
                 WHERE i.gaming_day_id = d.id AND i.table_id = %(table)s AND i.kind = 'opener')
         OR EXISTS (SELECT 1 FROM accounting_dealershift s
                    WHERE s.gaming_day_id = d.id AND s.table_id = %(table)s)) AS opened
        {uses_books}
    FROM accounting_gamingday d
    WHERE d.site_id = %(site)s
      AND NOT EXISTS (SELECT 1 FROM accounting_gamingdayclose c WHERE c.gaming_day_id = d.id)
    ORDER BY d.gaming_date DESC LIMIT 1"""
_USES_BOOKS = (
    "EXISTS (SELECT 1 FROM accounting_slipbook b WHERE b.site_id = %(site)s AND b.kind = %(kind)s) AS uses_books"
)

_DAY_FIELDS = ["id", "site_id", "gaming_date", "opened_at", "opened_by_id"]
_CHIP_NAMES = [f.attname for f in ChipDenomination._meta.concrete_fields]  # integers, strings, booleans: exact in JSON
_CHIP_VALUE = _CHIP_NAMES.index("value_cents")
_DEALER_NAMES = [f.attname for f in Employee._meta.concrete_fields]
_ON_DUTY = f"""EXISTS (SELECT 1 FROM {DutyPeriod._meta.db_table} p WHERE p.site_id = %(site)s
        AND p.employee_id = %(employee)s AND p.started_at <= %(at)s
        AND (p.ended_at IS NULL OR p.ended_at > %(at)s)) AS on_duty"""
_DEALER_HOLDS = """EXISTS (SELECT 1 FROM cardroom_membership m WHERE m.employee_id = e.id
        AND m.role = %(role)s AND (m.site_id = %(site)s OR m.site_id IS NULL)) AS dealer_holds"""
_DEALER_SHIFT = """FROM accounting_dealershift sh JOIN cardroom_employee e ON e.id = sh.dealer_id
        WHERE sh.started_at <= %(at)s AND (sh.ended_at IS NULL OR sh.ended_at > %(at)s) AND sh.table_id = %(table)s
        ORDER BY sh.started_at DESC LIMIT 1"""


def _columns(alias: str, model, names) -> str:
    return ", ".join(f'{alias}."{model._meta.get_field(name).column}"' for name in names)


def _postgresql_context_sql(credit: bool) -> str:
    """One row whatever the day: the open day's columns (NULL without one), the slip's id,
    whether the site uses books, the active chips as JSON, whether the preparer is on duty,
    the chips the inventory log says exist on the day (the cage's expression, floor.chip_log)
    and, for a credit, the dealer's columns (NULL without one). The same reads as
    `active_chips`, `duty_periods_running` and `roles_held` of the dealer on shift."""
    chips = (
        f"(SELECT json_agg(json_build_array({_columns('c', ChipDenomination, _CHIP_NAMES)}) ORDER BY c.value_cents) "
        "FROM cardroom_chipdenomination c WHERE c.active AND c.organization_id = %(organization)s) AS chips"
    )
    dealer_columns = _columns("s", Employee, _DEALER_NAMES)
    dealer = f"""
        LEFT JOIN LATERAL (
            SELECT {_columns("e", Employee, _DEALER_NAMES)}, {_DEALER_HOLDS}
            {_DEALER_SHIFT}
        ) s ON true"""
    table = Slip._meta.db_table
    return f"""
    SELECT d.*, nextval(pg_get_serial_sequence('{table}', 'id')) AS slip_id, {_USES_BOOKS},
        {chips}, {_ON_DUTY}, {chips_exist_sql("postgresql")} AS chips_exist{f", s.dealer_holds, {dealer_columns}" if credit else ""}
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL ({_SLIP_CONTEXT_SQL.format(uses_books="")}) d ON true{dealer if credit else ""}"""


def _sqlite_context_sql(credit: bool) -> str:
    """`_postgresql_context_sql` without the slip's id, in SQLite's words: the chips as a JSON
    array (sorted by the reader), the dealer's shift found by a scalar subquery."""
    chips = (
        f"(SELECT json_group_array(json_array({_columns('c', ChipDenomination, _CHIP_NAMES)})) "
        "FROM cardroom_chipdenomination c WHERE c.active AND c.organization_id = %(organization)s) AS chips"
    )
    dealer = f"""
        LEFT JOIN cardroom_employee e ON e.id = (SELECT sh.dealer_id {_DEALER_SHIFT})"""
    return f"""
    SELECT d.*, {_USES_BOOKS}, {chips}, {_ON_DUTY}, {chips_exist_sql("sqlite")} AS chips_exist{f", {_DEALER_HOLDS}, {_columns('e', Employee, _DEALER_NAMES)}" if credit else ""}
    FROM (SELECT 1) AS one
    LEFT JOIN ({_SLIP_CONTEXT_SQL.format(uses_books="")}) d ON 1{dealer if credit else ""}"""


@cache
def _context_sql(vendor: str, credit: bool) -> str:
    """The context statement, built once per process when first asked (after the apps are ready:
    the chips that exist are the cage's expression, asked through floor.chip_log)."""
    return _postgresql_context_sql(credit) if vendor == "postgresql" else _sqlite_context_sql(credit)


def slip_context(
    table: Table, kind: str, *, at: datetime, preparer: Employee, dealer_role: str | None = None
) -> SlipContext:
    """What preparing a slip needs to know, in one cheap query: the site's open gaming day,
    the table's state in it, whether the site uses pre-printed books for `kind`, the
    organization's active chips and those its inventory log says exist on the day, whether
    `preparer` is on duty at `at` and, given
    `dealer_role`, the dealer on shift at the table at `at` (`SlipContext`). Plain SQL
    because this runs on every slip and the ORM's compilation of the same reads cost more
    than running them (bench_slips). On PostgreSQL the same query draws the slip's id."""
    params = {
        "table": table.pk,
        "site": table.site_id,
        "kind": kind,
        "organization": table.site.organization_id,
        "employee": preparer.pk,
        "at": at,
    }
    credit = dealer_role is not None
    if credit:
        params["role"] = dealer_role
    conn = transaction.get_connection()  # the caller's (looked up once, not through the proxy)
    if conn.vendor == "postgresql":
        with prepared_cursor(conn) as cursor:  # planned once per connection: its planning cost more than running it
            cursor.execute(_context_sql(conn.vendor, credit), params)
            row = cursor.fetchone()
        n = len(_DAY_FIELDS)
        slip_id, row = row[n + 2], (*row[: n + 2], *row[n + 3 :])
        return _context(row, slip_id, credit)
    params["at"] = conn.ops.adapt_datetimefield_value(at)
    with conn.cursor() as cursor:
        cursor.execute(_context_sql(conn.vendor, credit), params)
        row = cursor.fetchone()
    return _context(row, None, credit)


def _context(row, slip_id: int | None, credit: bool) -> SlipContext:
    """A context row: the day's columns, closed, opened, uses books, the chips (JSON), on duty,
    the chips that exist (JSON) and for a credit whether the dealer holds the role and the
    dealer's columns."""
    n = len(_DAY_FIELDS)
    closed, opened, uses_books, chips, on_duty, exist = row[n : n + 6]
    day = None if row[0] is None else _from_row(GamingDay, _DAY_FIELDS, row[:n])
    state = "not opened" if day is None else "closed" if closed else "open" if opened else "not opened"
    if isinstance(chips, str):  # SQLite's JSON is text, in no promised order
        chips = sorted(json.loads(chips), key=lambda values: values[_CHIP_VALUE])
    available = ChipsByValue(chips or [])
    dealer = None
    if credit:
        holds, columns = row[n + 6], row[n + 7 :]
        found = columns[0] is not None
        dealer = (_from_row(Employee, _DEALER_NAMES, columns), bool(holds)) if found else (None, False)
    if isinstance(exist, str):  # SQLite's JSON is text
        exist = json.loads(exist)
    exist = {value: quantity for value, quantity in exist} if exist else None  # SQLite: [] for no log
    return SlipContext(day, state, bool(uses_books), slip_id, available, dealer, bool(on_duty), exist)


class ChipsByValue(Mapping):
    """The organization's active chips by their value in cents (what `floor.services.steps`
    looks chips up by), from the context's rows: each chip made a ChipDenomination when first
    asked for, so a slip makes only the two or three it carries, not every chip of the
    organization (bench_slips)."""

    def __init__(self, rows):
        self._rows = {values[_CHIP_VALUE]: values for values in rows}
        self._made: dict[int, ChipDenomination] = {}

    def __getitem__(self, value_cents) -> ChipDenomination:
        chip = self._made.get(value_cents)
        if chip is None:
            chip = self._made[value_cents] = _from_row(ChipDenomination, _CHIP_NAMES, self._rows[value_cents])
        return chip

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


@cache
def _converters(model, names: tuple[str, ...]) -> list[tuple]:
    """Each column's converters, as the ORM applies them to the model's field (SQLite returns
    booleans as integers, and datetimes and dates read through a subquery as text). Once per
    process: they depend on the backend and its settings only (one database a process)."""
    fields = [model._meta.get_field(name) for name in names]
    columns = [field.get_col(model._meta.db_table) for field in fields]
    return [(connection.ops.get_db_converters(c) + c.get_db_converters(connection), c) for c in columns]


def _from_row(model, names, values):
    converted = []
    for value, (functions, column) in zip(values, _converters(model, tuple(names)), strict=True):
        for function in functions:
            value = function(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, names, converted)


def tables_open(day: GamingDay) -> list[Table]:
    """Tables in play in the gaming day without a closer yet."""
    opened = Q(inventories__gaming_day=day, inventories__kind=TableInventory.Kind.OPENER) | Q(
        dealer_shifts__gaming_day=day
    )
    closed = TableInventory.objects.filter(gaming_day=day, kind=TableInventory.Kind.CLOSER).values("table_id")
    return list(Table.objects.filter(opened).exclude(pk__in=closed).distinct().order_by("number"))


def _without_opener(day_id: int) -> QuerySet[Table]:
    with_opener = TableInventory.objects.filter(gaming_day_id=day_id, kind=TableInventory.Kind.OPENER).values(
        "table_id"
    )
    return (
        Table.objects.filter(dealer_shifts__gaming_day_id=day_id)
        .exclude(pk__in=with_opener)
        .distinct()
        .order_by("number")
    )


def tables_without_opener(day: GamingDay) -> list[Table]:
    """Tables with a dealer seated in the gaming day but no opener count recorded."""
    return list(_without_opener(day.pk))


def last_tray_count(table: Table, before: datetime | None = None) -> TableInventory | None:
    """The table's latest closer or dealer-change count (at or before `before`): what its
    next opener should match."""
    counts = TableInventory.objects.filter(
        table=table, kind__in=[TableInventory.Kind.CLOSER, TableInventory.Kind.CHANGE]
    )
    if before is not None:
        counts = counts.filter(counted_at__lte=before)
    return counts.order_by("-counted_at", "-id").first()


def with_last_count(tables: QuerySet[Table]) -> QuerySet[Table]:
    """`tables` annotated with `last_total` (cents) and `last_kind` of each one's latest closer or
    dealer-change count (`last_tray_count`, in the same subquery): what a one-tap opener copies
    as its last closer; None for a table never counted."""
    last = TableInventory.objects.filter(
        table=OuterRef("pk"), kind__in=[TableInventory.Kind.CLOSER, TableInventory.Kind.CHANGE]
    ).order_by("-counted_at", "-id")
    return tables.annotate(
        last_total=Subquery(last.values("total_cents")[:1]), last_kind=Subquery(last.values("kind")[:1])
    )


def next_table_to_open(day: GamingDay) -> Table | None:
    """The lowest-numbered active table of the day's site with neither an opener nor a closer in
    `day`, with its last count (`with_last_count`): the one a table just opened offers to open
    next, for a shift manager who opens every table before seating dealers (one query)."""
    counted = TableInventory.objects.filter(
        gaming_day=day, kind__in=[TableInventory.Kind.OPENER, TableInventory.Kind.CLOSER]
    ).values("table_id")
    tables = Table.objects.filter(site_id=day.site_id, active=True).exclude(pk__in=counted)
    return with_last_count(tables).order_by("number").first()


def opener_denominations(table: Table, day: GamingDay) -> list[int]:
    """The chip values (cents, ascending) of the table's opener in `day`: the denominations its
    closer will count (the closer's page puts the cursor on the first; the figures stay typed)."""
    lines = TableInventoryLine.objects.filter(
        inventory__table=table, inventory__gaming_day=day, inventory__kind=TableInventory.Kind.OPENER
    )
    return sorted(set(lines.values_list("value_cents", flat=True)))


def last_fill_denominations(tables: QuerySet[Table]) -> dict[int, int]:
    """{table id: the chip value (cents) its last fill not voided brought most of}: what its next
    fill most likely brings, where the fill form and the pit terminal put the cursor (the
    quantity is still typed). Two queries whatever the number of tables (the terminal's data is
    read at every poll of the board); a table never filled is left out."""
    voided = SlipStep.objects.filter(slip=OuterRef("pk"), kind=SlipStep.Kind.VOID)
    last = (
        Slip.objects.filter(table=OuterRef("pk"), kind=SlipKind.FILL)
        .exclude(Exists(voided))
        .order_by("-prepared_at", "-id")
        .values("pk")[:1]
    )
    fills = dict(
        tables.annotate(last_fill=Subquery(last)).filter(last_fill__isnull=False).values_list("last_fill", "pk")
    )
    most: dict[int, tuple[int, int]] = {}
    for slip_id, value_cents, quantity in SlipLine.objects.filter(slip_id__in=fills).values_list(
        "slip_id", "value_cents", "quantity"
    ):
        key = (value_cents * quantity, -value_cents)  # the most money; on a tie, the smaller chip
        table_id = fills[slip_id]
        if table_id not in most or key > most[table_id]:
            most[table_id] = key
    return {table_id: -key[1] for table_id, key in most.items()}


# --- Slips --------------------------------------------------------------------------------


def slips_with_status(queryset: QuerySet[Slip] | None = None) -> QuerySet[Slip]:
    """Slips annotated with `status_code`: voided, received, verified or issued (08-05(2), (5), (6))."""
    queryset = Slip.objects.all() if queryset is None else queryset

    def has(kind):
        return Exists(SlipStep.objects.filter(slip=OuterRef("pk"), kind=kind))

    return queryset.annotate(
        status_code=Case(
            When(has(SlipStep.Kind.VOID), then=Value("voided")),
            When(has(SlipStep.Kind.RECEIVE), then=Value("received")),
            When(has(SlipStep.Kind.VERIFY), then=Value("verified")),
            default=Value("issued"),
            output_field=CharField(),
        )
    )


@dataclass(frozen=True)
class Queues:
    awaiting_verification: list[Slip]
    awaiting_receipt: list[Slip]
    tables_without_opener: list[Table]


_UNREAD = object()  # queues(): the open gaming day not read by the caller


def _open_days_query(site_id: int):
    return GamingDay.objects.filter(site_id=site_id, close__isnull=True).order_by().values_list("pk")


def _carried_slips_query(site_id: int):
    return (
        CarriedItem.objects.filter(gaming_day__site_id=site_id, key__startswith="slip:").order_by().values_list("key")
    )


def _waiting_scope(site_id: int) -> tuple[list[int], list[int]]:
    """Where a slip still waiting can be: the site's gaming days not closed, and the slips carried
    past a close (their ids). A day closes only once each of its slips is voided, or verified and
    received, or carried (floor.services.close_gaming_day, house control), and a closed day takes no
    new slip, so every other slip is done: the queues read these, not every slip the site made."""
    days = [pk for (pk,) in shaped_rows(_open_days_query, site_id=site_id)]
    carried = [int(key.removeprefix("slip:")) for (key,) in shaped_rows(_carried_slips_query, site_id=site_id)]
    return days, carried


def queues(site: Site, day=_UNREAD) -> Queues:
    """Work waiting at a site: slips to verify (08-05(5)), slips to receive (08-05(6)), and
    tables of the open gaming day (`day`, None for none; read here if not given) running without an opener. Both
    queues come from one query (and one of each prefetch) over the slips that may wait (`_waiting_scope`)."""
    days, carried = _waiting_scope(site.pk)
    slips = slips_with_status(Slip.objects.filter(site=site).filter(Q(gaming_day_id__in=days) | Q(pk__in=carried)))
    slips = slips.select_related("table", "prepared_by")
    slips = slips.prefetch_related("lines", "steps").order_by("kind", "number")
    waiting = list(slips.filter(status_code__in=["issued", "verified"]))
    day = open_gaming_day(site) if day is _UNREAD else day
    return Queues(
        awaiting_verification=[slip for slip in waiting if slip.status_code == "issued"],
        awaiting_receipt=[slip for slip in waiting if slip.status_code == "verified"],
        tables_without_opener=tables_without_opener(day) if day else [],
    )


@dataclass(frozen=True)
class WaitingSlip:
    """A slip in the queues page's lists (`page_queues`): what its row shows, read as values."""

    pk: int
    kind: str
    number: int
    table_number: int
    prepared_at: datetime
    preparer_initials: str
    total_cents: int
    status_code: str

    @property
    def kind_label(self) -> str:
        return SlipKind(self.kind).label


# A WaitingSlip's fields, read as values.
_WAITING_FIELDS = (
    "pk",
    "kind",
    "number",
    "table_number",
    "prepared_at",
    "prepared_by__initials",
    "total_cents",
    "status_code",
)


def _waiting_slips_query(site_id: int, day_ids: list[int] | None = None, slip_ids: list[int] | None = None):
    """The slips of the days `day_ids`, or the slips `slip_ids`, still waiting (one of the two)."""
    scope = Q(gaming_day_id__in=day_ids) if day_ids is not None else Q(pk__in=slip_ids)
    return (
        slips_with_status(Slip.objects.filter(scope, site_id=site_id))
        .filter(status_code__in=["issued", "verified"])
        .order_by("kind", "number")
        .values_list(*_WAITING_FIELDS)
    )


def _tables_without_opener_query(day_id: int):
    return _without_opener(day_id).values_list("number")


@dataclass(frozen=True)
class PageQueues:
    awaiting_verification: list[WaitingSlip]
    awaiting_receipt: list[WaitingSlip]
    table_numbers_without_opener: list[int]


def page_queues(site: Site, day: GamingDay | None) -> PageQueues:
    """`queues` as the queues page shows them (each slip's row, the tables' numbers), by SQL
    compiled once per process (core.rows.shaped_rows): at most five queries whatever the queues
    and the site's history hold (`_waiting_scope`), where the API's `queues` reads each slip
    with its lines and steps as models."""
    days, carried = _waiting_scope(site.pk)
    rows = shaped_rows(_waiting_slips_query, site_id=site.pk, day_ids=days) if days else []
    if carried:  # slips carried past a close that are not of a day still open
        rows += shaped_rows(_waiting_slips_query, site_id=site.pk, slip_ids=carried)
    waiting = sorted({row[0]: WaitingSlip(*row) for row in rows}.values(), key=lambda slip: (slip.kind, slip.number))
    numbers = [number for (number,) in shaped_rows(_tables_without_opener_query, day_id=day.pk)] if day else []
    return PageQueues(
        awaiting_verification=[slip for slip in waiting if slip.status_code == "issued"],
        awaiting_receipt=[slip for slip in waiting if slip.status_code == "verified"],
        table_numbers_without_opener=numbers,
    )


def awaiting_receipt_at_table(table: Table) -> list[WaitingSlip]:
    """The table's slips not yet received nor voided (08-05(6)): those a closer leaves waiting,
    which the day's close lists and carries (floor.open_items). Three queries whatever the
    table's history holds: the slips that may wait (`_waiting_scope`), then these of the table."""
    return _waiting_at_table(table, statuses=["issued", "verified"], kinds=SlipKind.values)


def fills_to_receive_at(table: Table) -> list[WaitingSlip]:
    """The table's fills verified and not yet received nor voided (08-05(5), (6)): what its dealer
    on shift receives, polled by their home page. The queues' slips awaiting receipt (`page_queues`:
    of a gaming day not closed, or carried past a close) of that table and series, in their order
    (by number), read in three queries whatever the site's slips, not the site's whole queues."""
    return _waiting_at_table(table, statuses=["verified"], kinds=[SlipKind.FILL])


def _waiting_at_table(table: Table, *, statuses: list[str], kinds: list[str]) -> list[WaitingSlip]:
    """The table's slips of `kinds` in `statuses` among those that may wait (`_waiting_scope`),
    by series then number."""
    days, carried = _waiting_scope(table.site_id)
    if not days and not carried:
        return []
    slips = Slip.objects.filter(Q(gaming_day_id__in=days) | Q(pk__in=carried), table=table, kind__in=kinds)
    rows = (
        slips_with_status(slips)
        .filter(status_code__in=statuses)
        .order_by("kind", "number")
        .values_list(*_WAITING_FIELDS)
    )
    return [WaitingSlip(*row) for row in rows]


# --- Slip register ------------------------------------------------------------------------


@dataclass(frozen=True)
class RegisterEntry:
    number: int
    status: str  # issued, verified, received, voided, missing, unused
    slip: Slip | None = None
    out_of_order: bool = False


@dataclass(frozen=True)
class SeriesRegister:
    kind: str
    entries: list[RegisterEntry]
    missing: list[int]
    out_of_order: list[int]
    unused: list[int]


@dataclass(frozen=True)
class SlipRegister:
    site: Site
    start: date
    end: date
    series: list[SeriesRegister]


# Slip.number_used_at in SQL: when a slip's number was used (ND 99-01.3-08-05(2)), the order
# the register and the nightly check (compliance.slip_series) judge "used in sequential order" by.
NUMBER_USED_AT = Case(
    When(slip_book__isnull=True, entered_at__isnull=False, then=F("entered_at")), default=F("prepared_at")
)


def slip_register(site: Site, start: date, end: date) -> SlipRegister:
    """Every number of each series used in gaming dates [start, end], in order, with its
    status, and the missing and out-of-order numbers (ND 99-01.3-08-05(2)). For pre-printed
    books that a slip of the period comes from, the book's numbers not yet used are listed.
    One read of each kind of row for both series, so the query count does not depend on
    whether one series happens to be empty in the period."""
    in_period = Slip.objects.filter(site=site, gaming_day__gaming_date__range=(start, end))
    # The gaming day is read per row by the register page and report: joined here, not one query per slip.
    slips = list(
        slips_with_status(in_period)
        .select_related("table", "prepared_by", "gaming_day")
        .prefetch_related("lines", "steps")
    )
    used_anywhere: dict[str, set[int]] = {kind: set() for kind in SlipKind.values}
    for kind, number in Slip.objects.filter(site=site).values_list("kind", "number"):
        used_anywhere[kind].add(number)
    books = list(SlipBook.objects.filter(site=site))
    return SlipRegister(
        site,
        start,
        end,
        [
            _series_register(
                kind,
                [s for s in slips if s.kind == kind],
                used_anywhere[kind],
                [b for b in books if b.kind == kind],
            )
            for kind in SlipKind.values
        ],
    )


def _series_register(kind: str, slips: list[Slip], used_anywhere: set[int], books: list[SlipBook]) -> SeriesRegister:
    by_use = [s.number for s in sorted(slips, key=lambda s: (s.number_used_at, s.number))]  # a minute's: by number
    series = check_series(by_use)
    missing = [n for n in series.missing if n not in used_anywhere]
    book_missing, unused = _book_gaps(books, slips, used_anywhere)
    missing = sorted(set(missing) | set(book_missing))
    entries = [RegisterEntry(s.number, s.status_code, s, s.number in series.out_of_order) for s in slips]
    entries += [RegisterEntry(n, "missing") for n in missing]
    entries += [RegisterEntry(n, "unused") for n in unused]
    return SeriesRegister(kind, sorted(entries, key=lambda e: e.number), missing, series.out_of_order, unused)


def _book_gaps(books: list[SlipBook], slips: list[Slip], used: set[int]) -> tuple[list[int], list[int]]:
    """Numbers of the period's books: skipped below the highest used (missing) and above it (unused)."""
    book_ids = {s.slip_book_id for s in slips if s.slip_book_id}
    missing, unused = [], []
    for book in (b for b in books if b.pk in book_ids):
        numbers = range(book.first_number, book.last_number + 1)
        highest = max((n for n in numbers if n in used), default=book.first_number - 1)
        missing += [n for n in numbers if n < highest and n not in used]
        unused += [n for n in numbers if n > highest]
    return missing, unused


# --- Late entries (core.moments) ----------------------------------------------------------


@dataclass(frozen=True)
class UnverifiedReceipt:
    """A slip whose copy was received with no verification (rules.SLIP_VERIFICATION's exception)."""

    gaming_date: date
    what: str  # "Fill slip 12, table 1"
    received_by_initials: str
    received_at: datetime
    reason: str  # rules.unverified_note, then the receiver's reason


def unverified_receipts(site: Site, start: date, end: date) -> list[UnverifiedReceipt]:
    """The slips of `site`'s gaming dates [start, end] received unverified, in the order
    received, with the reason the receipt states (one query)."""
    verified = SlipStep.objects.filter(slip=OuterRef("slip"), kind=SlipStep.Kind.VERIFY)
    receipts = (
        SlipStep.objects.filter(
            kind=SlipStep.Kind.RECEIVE, slip__site=site, slip__gaming_day__gaming_date__range=(start, end)
        )
        .exclude(Exists(verified))
        .select_related("slip__gaming_day")
        .order_by("at", "pk")
    )
    return [
        UnverifiedReceipt(
            r.slip.gaming_day.gaming_date,
            f"{SlipKind(r.slip.kind).label} {r.slip.number}, table {r.slip.table_number}",
            r.initials,
            r.at,
            r.reason,
        )
        for r in receipts
    ]


@dataclass(frozen=True)
class LateEntry:
    gaming_date: date
    what: str  # "Fill slip 12", "Opener, table 1", ...
    occurred_at: datetime
    entered_at: datetime
    # Its gaming day's end, where the record happened after it (a bank count, an IOU, tips declared
    # at a shift's end, a fee count: `core.moments.EnteredRecord.day_field`): its lateness runs from
    # that end, not from its own moment (set by the daily report, reports.kinds.daily._late).
    after_day_end: datetime | None = None


def late_entries(site: Site, start: date, end: date) -> list[LateEntry]:
    """The floor's records of gaming dates [start, end] entered past the site's late entry
    threshold, in the order they happened (house control, core.moments)."""
    period = {"gaming_day__site": site, "gaming_day__gaming_date__range": (start, end), "entered_late": True}
    entries = [
        LateEntry(d.gaming_date, "Gaming day opened", d.opened_at, d.entered_at)
        for d in GamingDay.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True)
    ]
    entries += [
        LateEntry(c.gaming_day.gaming_date, "Gaming day closed", c.closed_at, c.entered_at)
        for c in GamingDayClose.objects.filter(**period).select_related("gaming_day")
    ]
    entries += [
        LateEntry(
            i.gaming_day.gaming_date,
            f"{i.get_kind_display()} count, table {i.table.number}",
            i.counted_at,
            i.entered_at,
        )
        for i in TableInventory.objects.filter(**period).select_related("gaming_day", "table")
    ]
    entries += [
        LateEntry(
            s.gaming_day.gaming_date, f"Dealer shift of {s.dealer}, table {s.table.number}", s.started_at, s.entered_at
        )
        for s in DealerShift.objects.filter(**period).select_related("gaming_day", "table", "dealer__user")
    ]
    entries += [
        LateEntry(s.gaming_day.gaming_date, f"{s.get_kind_display()} {s.number}", s.prepared_at, s.entered_at)
        for s in Slip.objects.filter(**period).select_related("gaming_day")
    ]
    steps = SlipStep.objects.filter(**{f"slip__{key}": value for key, value in period.items() if key != "entered_late"})
    entries += [
        LateEntry(
            step.slip.gaming_day.gaming_date,
            f"{step.get_kind_display()}: {step.slip.get_kind_display().lower()} {step.slip.number}",
            step.at,
            step.entered_at,
        )
        for step in steps.filter(entered_late=True).select_related("slip__gaming_day")
    ]
    return sorted(entries, key=lambda e: (e.gaming_date, e.occurred_at, e.what))


@dataclass(frozen=True)
class Carried:
    """An open item carried past a gaming day's close (models.CarriedItem), with its site and
    day, as values: what the daily page, the dashboard and the daily report show."""

    key: str
    gaming_date: date
    site_id: int
    site_name: str
    description: str
    citation: str
    carried_by_initials: str
    carried_at: datetime
    reason: str
    # What became of it since (its state now): "since received 2026-12-08 03:10"; "" while still open.
    now: str = ""

    @property
    def statement(self) -> str:
        """The item as carried and, resolved since, what became of it: "Drop box 1 of table 1 is
        removed but not counted (as carried; since counted, $420.00 signed 2026-12-08 03:10)"."""
        return f"{self.description} (as carried; {self.now})" if self.now else self.description


_CARRIED_COLUMNS = (
    "key",
    "gaming_day__gaming_date",
    "gaming_day__site_id",
    "gaming_day__site__name",
    "description",
    "citation",
    "carried_by__initials",
    "carried_at",
    "reason",
)


def _carried_query(*, latest, site_ids, start, end):
    found = CarriedItem.objects.filter(gaming_day__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
    if latest is None:
        return found.order_by("gaming_day__gaming_date", "carried_at", "pk").values_list(*_CARRIED_COLUMNS)
    return found.order_by("-gaming_day__gaming_date", "-carried_at", "-pk").values_list(*_CARRIED_COLUMNS)[:latest]


def carried_items(site_ids, start: date, end: date, *, latest: int | None = None, since: bool = True) -> list[Carried]:
    """Open items carried past the close of the sites' gaming days in [start, end], by day and
    then as carried; or the `latest` of them, the latest first. One query, by SQL compiled
    once for each `latest` (core.rows). With `since`, what became of each item since (a query a
    kind of item carried: none where nothing is carried); the dashboard's list of the latest, a
    glance linking each day's page that says it, reads none, so its queries never vary with them."""
    rows = shaped_rows(_carried_query, shape={"latest": latest}, site_ids=list(site_ids), start=start, end=end)
    carried = [Carried(*row) for row in rows]
    if not carried or not since:
        return carried
    now = _slips_now(carried)
    for provider in CARRIED_NOW.answers():
        now.update(provider(carried))
    return [replace(c, now=now.get((c.gaming_date, c.key), "")) for c in carried]


def _slips_now(carried: list[Carried]) -> dict[tuple[date, str], str]:
    """The carried slips received or voided since (one query): each item's state now, not as carried."""
    ids = {int(c.key.removeprefix("slip:")): c for c in carried if c.key.startswith("slip:")}
    if not ids:
        return {}
    steps = (
        SlipStep.objects.filter(slip_id__in=ids, kind__in=[SlipStep.Kind.RECEIVE, SlipStep.Kind.VOID])
        .order_by("at", "pk")
        .values_list("slip_id", "kind", "at", "slip__site__time_zone")
    )
    words = {SlipStep.Kind.RECEIVE: "since received", SlipStep.Kind.VOID: "since voided"}
    return {
        (ids[slip_id].gaming_date, ids[slip_id].key): f"{words[kind]} {at.astimezone(ZoneInfo(zone)):%Y-%m-%d %H:%M}"
        for slip_id, kind, at, zone in steps
    }


# --- Opener variances (rules.TRAY_COUNT) ---------------------------------------------------


@dataclass(frozen=True)
class OpenerVariance:
    """An opener that differs from the table's previous count (its last closer, or a count at a
    dealer change), with the reason given when it was recorded (TableInventory.variance_cents and
    variance_reason): a variance to explain, as the daily page and the daily report show it."""

    gaming_date: date
    table_number: int
    opener_cents: int
    previous_cents: int
    previous_kind: str  # TableInventory.Kind of the count it follows
    previous_date: date
    variance_cents: int  # opener - previous
    reason: str

    @property
    def statement(self) -> str:
        """ "Opener $1,231.00 is $10.00 under the last closer $1,241.00 (2026-10-29): <reason>"."""
        last = "closer" if self.previous_kind == TableInventory.Kind.CLOSER else "dealer-change count"
        if self.variance_cents:
            side = "under" if self.variance_cents < 0 else "over"
            difference = f"is {format_money(abs(self.variance_cents))} {side} the last {last}"
        else:  # the same total in other chips (floor.calculations.tray_differs)
            difference = f"equals in total but not chip for chip the last {last}"
        said = self.reason or "no reason given"
        return (
            f"Opener {format_money(self.opener_cents)} {difference} {format_money(self.previous_cents)} "
            f"({self.previous_date}): {said}"
        )


_VARIANCE_COLUMNS = (
    "gaming_day__gaming_date",
    "table__number",
    "total_cents",
    "previous__total_cents",
    "previous__kind",
    "previous__gaming_day__gaming_date",
    "variance_cents",
    "variance_reason",
)


def _variances_query(*, site_ids, start, end):
    differs = ~Q(variance_cents=0) | ~Q(variance_reason="")
    return (
        TableInventory.objects.filter(
            differs,
            gaming_day__site_id__in=site_ids,
            gaming_day__gaming_date__range=(start, end),
            kind=TableInventory.Kind.OPENER,
            variance_cents__isnull=False,
        )
        .order_by("gaming_day__gaming_date", "table__number", "pk")
        .values_list(*_VARIANCE_COLUMNS)
    )


def opener_variances(site_ids, start: date, end: date) -> list[OpenerVariance]:
    """The openers of the sites' gaming days in [start, end] that differ from the count before
    them (in value, or chip for chip), by day and table: one query, by SQL compiled once (core.rows)."""
    rows = shaped_rows(_variances_query, site_ids=list(site_ids), start=start, end=end)
    return [OpenerVariance(*row[:-1], reason=row[-1].strip()) for row in rows]


# --- The live pit view ----------------------------------------------------------------------


@dataclass(frozen=True)
class PitRow:
    """One table on the pit board: its state in the open gaming day, who deals there, and its
    slips still waiting for verification (08-05(5)) or receipt (08-05(6))."""

    table: Table
    state: str  # open, open without opener, closed, not opened (fees-only: dealing, no dealer; player-dealt)
    shift: DealerShift | None
    unverified: list[Slip]
    unreceived: list[Slip]
    # The table's last card check of each kind in the open day (rules.CARD_CHECK_RULES), by kind;
    # empty where the site's pack keeps none.
    checks: Mapping[str, CardCheck] = field(default_factory=dict)

    @property
    def needs_card_checks(self) -> bool:
        """An open twenty-one table (its opener counted, no closer) whose cards are checked where the
        site's pack states it (ND 99-01.3-08-07(1), (2)): the board shows its checks."""
        return self.state in ("open", "open without opener") and self.table.game == Game.TWENTY_ONE

    @property
    def takes_slips(self) -> bool:
        """In play and not closed: a fill or credit may be prepared for it."""
        return self.state in ("open", "open without opener")


@dataclass(frozen=True)
class PitBoard:
    site: Site
    day: GamingDay | None
    rows: list[PitRow]
    at: datetime
    house_dealers: bool = True  # False where a player deals and banks the game (rules.PLAYER_DEALER)

    @property
    def awaiting_verification(self) -> int:
        return sum(len(row.unverified) for row in self.rows)

    @property
    def awaiting_receipt(self) -> int:
        return sum(len(row.unreceived) for row in self.rows)

    @property
    def tables_in_play(self) -> int:
        """Tables in play: taking slips, or dealing at a fees-only site (which takes none)."""
        return sum(1 for row in self.rows if row.takes_slips or row.state == "dealing")

    @property
    def in_play_text(self) -> str:
        """'2 of 3 tables in play', '0 of 1 table in play'; where players deal and bank the game
        (no dealer shift tells the house when a table plays), '1 active table'."""
        if not self.house_dealers:
            return plural(len(self.rows), "active table")
        return f"{self.tables_in_play} of {plural(len(self.rows), 'table')} in play"


def pit_board(site: Site, at: datetime) -> PitBoard:
    """Every active table of `site` at the moment `at`, read in a fixed number of queries
    (open day, tables, tray counts, running shifts, open slips) whatever the number of tables."""
    day = open_gaming_day(site)
    tables = list(Table.objects.filter(site=site, active=True).order_by("number"))
    kinds: dict[int, set[str]] = {}
    shifts: dict[int, DealerShift] = {}
    if day is not None:
        counted = TableInventory.objects.filter(gaming_day=day).exclude(kind=TableInventory.Kind.CHANGE)
        for table_id, kind in counted.values_list("table_id", "kind"):
            kinds.setdefault(table_id, set()).add(kind)
        shifts = running_shifts(day, at)
    waiting = slips_with_status(Slip.objects.filter(site=site, table__active=True))
    waiting = waiting.filter(status_code__in=["issued", "verified"]).select_related("prepared_by")
    slips: dict[tuple[int, str], list[Slip]] = {}
    for slip in waiting.order_by("prepared_at", "kind", "number"):
        slips.setdefault((slip.table_id, slip.status_code), []).append(slip)
    chips, dealers = house_chips(site), house_dealers(site)
    checks = card_checks_of_day(day) if day is not None and card_checks_kept(site) else {}
    rows = [
        PitRow(
            table=table,
            state=board_state(kinds.get(table.pk, set()), shifts.get(table.pk), chips, dealers),
            shift=shifts.get(table.pk),
            unverified=slips.get((table.pk, "issued"), []),
            unreceived=slips.get((table.pk, "verified"), []),
            checks=checks.get(table.pk, {}),
        )
        for table in tables
    ]
    return PitBoard(site=site, day=day, rows=rows, at=at, house_dealers=dealers)


def card_checks_of_day(day: GamingDay) -> dict[int, dict[str, CardCheck]]:
    """{table id: {kind: the table's last card check of that kind in `day`}}, with who checked; one query."""
    found: dict[int, dict[str, CardCheck]] = {}
    checks = CardCheck.objects.filter(gaming_day=day).select_related("checked_by__user").order_by("checked_at", "id")
    for check in checks:
        found.setdefault(check.table_id, {})[check.kind] = check  # the latest wins
    return found


def running_shifts(day: GamingDay, at: datetime) -> dict[int, DealerShift]:
    """{table id: the dealer shift running there at `at`} in the gaming day, with its dealer; one query."""
    running = shifts_running(at).filter(gaming_day=day).select_related("dealer__user").order_by("started_at")
    return {shift.table_id: shift for shift in running}  # the latest start wins


def board_state(
    kinds: set[str], shift: DealerShift | None, house_chips: bool = True, house_dealers: bool = True
) -> str:
    """A table's state in the open day from its tray counts' `kinds` and the dealer `shift` running
    there: closed, open, open without opener (a dealer seated before the opener was counted) or
    not opened. Where the house's chips do not go to the tables (a fees-only site: no tray is
    counted, rules.house_chips) a table is dealing or has no dealer; where a player deals and
    banks the game (rules.house_dealers), it is player-dealt."""
    if not house_dealers:
        return "player-dealt"
    if not house_chips:
        return "dealing" if shift is not None else "no dealer"
    if TableInventory.Kind.CLOSER in kinds:
        return "closed"
    if TableInventory.Kind.OPENER in kinds:
        return "open"
    return "open without opener" if shift is not None else "not opened"


# --- The slips of a window of gaming days (compliance's slip rules read them here) ---------------


def slip_steps(*conditions: Q, **lookups):
    """The steps of the slip `OuterRef("pk")` (at most one of each kind: SlipStep's slip_step_once_per_kind)."""
    return SlipStep.objects.filter(*conditions, slip_id=OuterRef("pk"), **lookups).order_by()


def gaming_days_with_close(site_ids, start: date, end: date):
    """The sites' gaming days in [start, end], each with its close's time (`closed_at`, null while
    not closed). The close is a probe per day (a scalar subquery): as a join, PostgreSQL hashed
    every close ever signed (530,000 at state scale) to keep the few thousand of the window."""
    closed_at = GamingDayClose.objects.filter(gaming_day_id=OuterRef("pk")).values("closed_at")
    return (GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
            .annotate(closed_at=Subquery(closed_at)).order_by())  # fmt: skip


def unvoided_slips_of(days):
    """The slips of these gaming days, not voided (08-05(2): a void needs no signature). Reached
    from the days (by the slip's gaming day), never from all the sites' slips of every year."""
    return (Slip.objects.filter(gaming_day__in=days.values("pk"))
            .filter(~Exists(slip_steps(kind=SlipStep.Kind.VOID))).order_by())  # fmt: skip


# The signatures of a slip of a closed day, one bit per fact (a slip has at most one step of each
# kind, so the sum of its steps' bits is their union).
SLIP_VOIDED, SLIP_VERIFIED, SLIP_RECEIVED, SLIP_EXEMPT = 1, 2, 4, 8

# The days are computed once (MATERIALIZED): inlined, their close's subquery would run at each
# reference. A slip's signatures are read in two steps: first the bits its steps' kinds and times
# give (a probe of the index of (slip, kind, time), answered by the index alone), keeping the
# slips that may be kept whatever their exemption; then, for those few, the receipt's reason (a
# probe reading the step itself). The reason is free text, so no index holds it.
_CLOSED_DAY_SLIPS_SQL = """
    WITH day (id, gaming_date, closed_at) AS {once} ({days}),
    candidate (id, site_id, kind, number, gaming_date, signatures) AS {once} (
        SELECT id, site_id, kind, number, gaming_date, signatures FROM (
            SELECT s.id, s.site_id, s.kind, s.number, day.gaming_date, (
                SELECT COALESCE(SUM(CASE
                    WHEN st.kind = %s THEN {voided}
                    WHEN st.kind = %s THEN CASE WHEN st.at <= day.closed_at THEN {verified} ELSE 0 END
                    WHEN st.kind = %s THEN CASE WHEN st.at <= day.closed_at THEN {received} ELSE 0 END
                    ELSE 0 END), 0)
                FROM {step} st WHERE st.slip_id = s.id
            ) AS signatures
            FROM day JOIN {slip} s ON s.gaming_day_id = day.id
            WHERE day.closed_at <= %s
        ) timed
        WHERE signatures IN ({candidates})
    )
    SELECT site_id, kind, number, gaming_date, signatures FROM (
        SELECT c.site_id, c.kind, c.number, c.gaming_date, c.signatures + CASE WHEN EXISTS (
            SELECT 1 FROM {step} st WHERE st.slip_id = c.id AND st.kind = %s AND st.reason LIKE %s
        ) THEN {exempt} ELSE 0 END AS signatures
        FROM candidate c
    ) signed
    WHERE signatures IN ({kept})
"""


def closed_day_slip_signatures(site_ids, start: date, end: date, now, kept: tuple[int, ...]) -> list[tuple]:
    """(site id, kind, number, gaming date, signatures) of the slips of the sites' days in
    [start, end] closed by `now` whose signatures (the SLIP_* bits: voided; verified, received
    at or before the close; received with the unverified note, floor.rules.unverified_note) are
    among `kept`. One query, returning those slips only.

    It reads the window's days (a few thousand for fifty sites and a quarter), their slips by
    gaming day, and each slip's steps once, summed into bits from the index of (slip, kind, time)
    alone (`slip_step_times`); the receipt's reason only for the few slips that may be kept. An
    EXISTS per question probed the steps three times, and starting from the sites' slips read
    every slip of every year and hashed every close."""
    if not site_ids or not kept:
        return []  # no SQL for no sites (an empty IN)
    days = gaming_days_with_close(site_ids, start, end).values_list("pk", "gaming_date", "closed_at")
    days_sql, day_params = days.query.sql_with_params()
    candidates = sorted({bits & ~SLIP_EXEMPT for bits in kept})  # kept with or without the exemption
    sql = _CLOSED_DAY_SLIPS_SQL.format(
        once=_computed_once(), days=days_sql, step=SlipStep._meta.db_table, slip=Slip._meta.db_table,
        voided=SLIP_VOIDED, verified=SLIP_VERIFIED, received=SLIP_RECEIVED, exempt=SLIP_EXEMPT,
        candidates=", ".join(map(str, candidates)), kept=", ".join(map(str, kept)),
    )  # fmt: skip
    kinds = [SlipStep.Kind.VOID.value, SlipStep.Kind.VERIFY.value, SlipStep.Kind.RECEIVE.value]
    closed_by = connection.ops.adapt_datetimefield_value(now)
    unverified = f"{UNVERIFIED_NOTE_START} (%"  # the note at any site, its citation the site's pack's
    with connection.cursor() as cursor:
        cursor.execute(sql, [*day_params, *kinds, closed_by, SlipStep.Kind.RECEIVE.value, unverified])
        rows = cursor.fetchall()
    return [(site_id, kind, number, as_date(day), signatures) for site_id, kind, number, day, signatures in rows]


def _computed_once() -> str:
    """The keyword making a CTE a table computed once: PostgreSQL inlines a CTE used once, and
    would then evaluate a subquery of it at each reference (SQLite knows the word from 3.35)."""
    old_sqlite = connection.vendor == "sqlite" and connection.Database.sqlite_version_info < (3, 35)
    return "" if old_sqlite else "MATERIALIZED"


def open_day_slip_steps(site_ids, start: date, end: date):
    """(site id, kind, number, gaming date, verified at, received at, receipt reason) of the
    unvoided slips of the sites' days in [start, end] not closed. One query, reached from the
    window's days without a close (a probe of the close per day, not a hash of all)."""

    def step(kind, field):  # a scalar subquery: a probe by slip id, never a hashed scan of all the steps
        return Subquery(slip_steps(kind=kind).values(field)[:1])

    return (
        unvoided_slips_of(gaming_days_with_close(site_ids, start, end).filter(closed_at__isnull=True))
        .annotate(verified_at=step(SlipStep.Kind.VERIFY, "at"), received_at=step(SlipStep.Kind.RECEIVE, "at"),
                  receipt_reason=step(SlipStep.Kind.RECEIVE, "reason"))
        .values_list("site_id", "kind", "number", "gaming_day__gaming_date", "verified_at", "received_at",
                     "receipt_reason")
    )  # fmt: skip


def as_date(value) -> date:
    """A date column read by plain SQL: SQLite hands back its text."""
    return date.fromisoformat(value) if isinstance(value, str) else value


# --- Dealing (compliance's surveillance rules read it here) ----------------------------------------


def tables_dealt(site_ids, start: date, end: date) -> set[tuple]:
    """{(site id, gaming date, table number, table id, table location)} of every table with a
    dealer shift on a gaming day of the sites in [start, end]."""
    return set(
        DealerShift.objects.filter(table__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
        .values_list("table__site_id", "gaming_day__gaming_date", "table__number", "table_id", "table__location")
        .distinct()
    )


CARD_CHECKS_MIGRATION = ("floor", "0015_card_checks")  # the migration that made the card checks' table


def card_checks_kept_since() -> date | None:
    """The date this database began keeping card checks: when the migration that made their table
    was applied here (None where its record is gone). A day up to it had no record to keep, so a
    house that ran the product before is not flagged for its earlier nights; one query."""
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    app, name = CARD_CHECKS_MIGRATION
    applied = MigrationRecorder(connection).migration_qs.filter(app=app, name=name).values_list("applied", flat=True)
    return applied[0].date() if applied else None


def card_checks_of_tables_played(site_ids, start: date, end: date) -> list[tuple[int, date, int, frozenset[str]]]:
    """[(site id, gaming date, table number, the kinds of card check recorded that day)] of every
    twenty-one table in play (its opener counted) on a closed gaming day of the sites in [start, end]
    after the card checks were kept (`card_checks_kept_since`: its date in UTC, so the day after it
    wherever the site is), by site, day and table: three queries."""
    days = GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end), close__isnull=False)
    kept_since = card_checks_kept_since()
    if kept_since is not None:
        days = days.filter(gaming_date__gt=kept_since)
    openers = TableInventory.objects.filter(
        gaming_day__in=days, kind=TableInventory.Kind.OPENER, table__game=Game.TWENTY_ONE
    ).values_list("gaming_day__site_id", "gaming_day__gaming_date", "table__number", "gaming_day_id", "table_id")
    checked: dict[tuple[int, int], set[str]] = {}
    for day_id, table_id, kind in CardCheck.objects.filter(gaming_day__in=days).values_list(
        "gaming_day_id", "table_id", "kind"
    ):
        checked.setdefault((day_id, table_id), set()).add(kind)
    return sorted(
        (site_id, gaming_date, number, frozenset(checked.get((day_id, table_id), ())))
        for site_id, gaming_date, number, day_id, table_id in openers
    )


def shifts_of_tables(table_ids, since: datetime) -> dict[int, list[tuple[datetime, datetime | None]]]:
    """table id -> (started at, ended at or None) of its dealer shifts started at or after
    `since`; `table_ids` may be a subquery."""
    shifts: dict[int, list] = {}
    rows = DealerShift.objects.filter(table_id__in=table_ids, started_at__gte=since)
    for table_id, began, ended in rows.values_list("table_id", "started_at", "ended_at"):
        shifts.setdefault(table_id, []).append((began, ended))
    return shifts


@dataclass(frozen=True)
class TablePlay:
    """One twenty-one table's play on a gaming day: its minimum wager as it stood at the day's last
    count (its closer), the moments its openers and closers were counted, its dealer shifts
    (started, ended or None) and the table's minimum-wager history up to that count (moment the
    record was saved, minimum), oldest first: the minimum in force at any moment of the day,
    whatever the table says now."""

    table_id: int
    number: int
    min_wager_cents: int
    openers: tuple[datetime, ...]
    closers: tuple[datetime, ...]
    shifts: tuple[tuple[datetime, datetime | None], ...]
    minimums: tuple[tuple[datetime, int], ...] = ()

    def active_at(self, at: datetime) -> bool:
        """A dealer and chips present at `at` (ND 99-01.3-08-09(1), as `floor.active_tables` reads
        it): an opener counted by then with no closer since, and a dealer shift running."""
        opened = [o for o in self.openers if o <= at]
        if not opened or any(max(opened) <= c <= at for c in self.closers):
            return False
        return any(began <= at and (ended is None or ended > at) for began, ended in self.shifts)

    def minimum_at(self, at: datetime) -> int:
        """The minimum wager in force at `at`: the table's last record saved by then; before its
        first record (a table whose history begins later), the first one."""
        return _minimum_in(self.minimums, at) if self.minimums else self.min_wager_cents


def _minimum_in(history: tuple[tuple[datetime, int], ...], at: datetime) -> int:
    """The minimum of the last record of `history` (oldest first) saved by `at`, else its first:
    found by bisection, as a day is judged at many moments against two years of history."""
    index = bisect_right(history, at, key=itemgetter(0))
    return history[index - 1][1] if index else history[0][1]


def twenty_one_play(
    site_ids, start: date, end: date, *, dealt_past_a_closer: timedelta | None = None
) -> dict[tuple[int, date], list[TablePlay]]:
    """(site id, gaming date) -> each twenty-one table's play that day, for the gaming days of
    the sites in [start, end] with a closer counted. Each table's minimum is the one in force on
    the day (its history, `Table.history`), not as configured now. Three queries.

    `dealt_past_a_closer` (a grace): only the days on which another table may still be active
    that long after a table's closer or a dealer's relief with no one seated after
    (`closer_beside_a_dealer`, `relief_beside_a_dealer`), the only days on which
    `compliance.rules.low_table_closings` can find anything; the database picks them, so the
    days where every dealer left by the closers, and every relief was a handover, are neither
    read nor built."""
    from cardroom.models import Game

    days = GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
    if dealt_past_a_closer is not None:
        days = days.filter(closer_beside_a_dealer(dealt_past_a_closer) | relief_beside_a_dealer(dealt_past_a_closer))
    counts = TableInventory.objects.filter(
        gaming_day__in=days,
        table__game=Game.TWENTY_ONE,
        kind__in=(TableInventory.Kind.OPENER, TableInventory.Kind.CLOSER),  # a dealer change neither opens nor closes
    ).values_list("gaming_day__site_id", "gaming_day__gaming_date", "table_id", "table__number", "kind", "counted_at")
    tables: dict[tuple, dict] = {}
    for site_id, day, table_id, number, kind, at in value_rows(counts):  # converted a column at a time
        row = tables.setdefault((site_id, day, table_id), {"number": number, "opener": [], "closer": []})
        row[kind].append(at)
    if not tables:
        return {}
    shifts: dict[tuple, list] = {}
    rows = DealerShift.objects.filter(gaming_day__in=days, table__game=Game.TWENTY_ONE).values_list(
        "gaming_day__site_id", "gaming_day__gaming_date", "table_id", "started_at", "ended_at"
    )
    for site_id, day, table_id, began, ended in value_rows(rows):
        shifts.setdefault((site_id, day, table_id), []).append((began, ended))
    # The minimums in force up to the day's last count or relief (a relief is judged at its minimum too).
    moments = [at for row in tables.values() for at in row["opener"] + row["closer"]]
    until = max(moments + [ended for spans in shifts.values() for _, ended in spans if ended is not None])
    minimums = _minimum_history({key[2] for key in tables}, until)
    histories = {table_id: tuple(history) for table_id, history in minimums.items()}
    play: dict[tuple[int, date], list[TablePlay]] = {}
    for (site_id, day, table_id), row in sorted(tables.items(), key=lambda item: (item[0][:2], item[1]["number"])):
        history, openers, closers = histories[table_id], tuple(sorted(row["opener"])), tuple(sorted(row["closer"]))
        minimum = _minimum_in(history, max(openers + closers))  # as it stood at the day's last count
        table = TablePlay(table_id, row["number"], minimum, openers, closers,
                          tuple(shifts.get((site_id, day, table_id), ())), history)  # fmt: skip
        play.setdefault((site_id, day), []).append(table)
    return play


def closer_beside_a_dealer(grace: timedelta) -> Q:
    """Of a gaming day: a twenty-one table's closer counted while a dealer shift at another
    twenty-one table of the day ran past it, `grace` later. What any table needs to be active
    (`TablePlay.active_at`: a dealer on shift) at a closer plus the grace; a weaker test where the
    grace is not zero (a shift not ended by the closer, or, for a grace below zero, any shift),
    so no date arithmetic in SQL: never a day that can hold a finding left out. Found from the
    dealer shifts (few days have one running past a closer), each probing its day's closers."""
    from cardroom.models import Game

    closers = TableInventory.objects.filter(
        gaming_day_id=OuterRef("gaming_day_id"), kind=TableInventory.Kind.CLOSER, table__game=Game.TWENTY_ONE
    ).exclude(table_id=OuterRef("table_id"))
    if grace >= timedelta(0):  # not ended by the closer
        closers = closers.filter(
            Q(IsNull(OuterRef("ended_at"), True)) | Q(LessThan(F("counted_at"), OuterRef("ended_at")))
        )
    if not grace:  # and begun by it: active at the closer itself
        closers = closers.filter(counted_at__gte=OuterRef("started_at"))
    dealt = DealerShift.objects.filter(table__game=Game.TWENTY_ONE).filter(Exists(closers))
    return Q(pk__in=dealt.values("gaming_day_id"))


def relief_beside_a_dealer(grace: timedelta) -> Q:
    """Of a gaming day: a dealer shift at a twenty-one table ended with no shift begun at that table
    at its end (not a handover: `start_dealer_shift` relieves at the moment it seats), while a
    shift at another twenty-one table ran past it, `grace` later. As `closer_beside_a_dealer`, a
    weaker test where the grace is not zero, so never a day that can hold a finding left out."""
    from cardroom.models import Game

    handover = DealerShift.objects.filter(table_id=OuterRef("table_id"), started_at=OuterRef("ended_at"))
    others = DealerShift.objects.filter(gaming_day_id=OuterRef("gaming_day_id"), table__game=Game.TWENTY_ONE).exclude(
        table_id=OuterRef("table_id")
    )
    if grace >= timedelta(0):  # not ended by the relief
        others = others.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=OuterRef("ended_at")))
    if not grace:  # and begun by it
        others = others.filter(started_at__lte=OuterRef("ended_at"))
    relieved = DealerShift.objects.filter(table__game=Game.TWENTY_ONE, ended_at__isnull=False).filter(
        ~Exists(handover), Exists(others)
    )
    return Q(pk__in=relieved.values("gaming_day_id"))


def _minimum_history(table_ids, until: datetime) -> dict[int, list[tuple[datetime, int]]]:
    """Table id -> (moment saved, minimum wager) of each of its history records up to `until`,
    oldest first, with the first record saved after `until` (a table's history begun after its
    play: its first known minimum); the current minimum for a table with no history. One query
    (and one more only for tables without any history record)."""
    found: dict[int, list[tuple[datetime, int]]] = {}
    rows = Table.history.filter(id__in=table_ids).order_by("id", "history_date", "history_id")
    for table_id, saved, cents in rows.values_list("id", "history_date", "min_wager_cents"):
        kept = found.setdefault(table_id, [])
        if saved <= until or not kept:
            kept.append((saved, cents))
    missing = set(table_ids) - set(found)
    if missing:
        for table_id, cents in Table.objects.filter(pk__in=missing).values_list("pk", "min_wager_cents"):
            found[table_id] = [(until, cents)]
    return found
