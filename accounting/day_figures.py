"""Per-site, per-day figure snapshots: the read path of the dashboard and the figures pages.

A closed gaming day's custody (each table's drop, fills, credits, opener and closer, and each
dealer shift's figures) is computed once and kept in `DayFigures`; the pages read weeks of
closed days from there instead of aggregating every slip, count and tray again. Open days
are computed live. What a snapshot holds is exactly what the live queries return for that
site-day (`accounting.summaries` and `accounting.dealer_hold` compute both).

Invalidation is exact and transactional: every write that changes a day's custody (a slip, a
void, a tray count, a dealer shift, a drop, a count agreement or correction, a count's
signature) replaces the site-day's `token` and empties its figures in the write's own
transaction (`mark_stale`, from the signals below or, for a write without `save()`, through
`core.figure_days`). A read fills a missing snapshot lazily and stores it only if the
token is still the one it saw before computing, so a write that commits during the
computation is never overwritten by figures that predate it.

Every function issues a fixed number of queries whatever the number of sites, tables and days
(the first read of many missing days writes them in chunks of `FILL_CHUNK`)."""

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Case, Exists, F, JSONField, OuterRef, Value, When
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from cardroom.models import Table
from core.rows import shaped_rows
from floor.models import DealerShift, GamingDay, GamingDayClose, Slip, SlipStep, TableInventory

from . import dealer_hold
from . import table_days as live_days
from .figures import Custody
from .models import DayFigures, FiguresVersion

VERSION = "2"  # of what a snapshot holds: a snapshot of another version is computed again (2: dealer_sums)
FILL_CHUNK = 200  # snapshots written by one UPDATE

Key = tuple[int, date]  # (site_id, gaming_date)


# Writes: mark the site-day stale in the write's transaction.


class _Marked:
    """The site-days marked stale in one savepoint of the current transaction (an on-commit
    callback that does nothing: Django drops it when that savepoint rolls back, and the mark
    with it, so a rolled-back mark is never taken for a standing one)."""

    def __init__(self):
        self.keys: set[Key] = set()

    def __call__(self):
        pass


def _marks(connection):
    return [func for _, func, _ in connection.run_on_commit if isinstance(func, _Marked)]


def mark_stale(site_id: int, gaming_date: date) -> None:
    """The custody of the site's gaming date changed: replace its token and empty its figures
    (an upsert, so a fill that started before this write never stores what it computed).
    Once per site-day and transaction."""
    connection = transaction.get_connection()
    key = (site_id, gaming_date)
    if _marked(connection, key):
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # both upserts in one round trip
            cursor.execute(_MARK_AND_BUMP_SQL, _mark_and_bump_params(site_id, gaming_date))
    else:  # SQLite: the same two upserts, one statement each
        day = connection.ops.adapt_datefield_value(gaming_date)
        with connection.cursor() as cursor:
            cursor.execute(_MARK_SQL, [site_id, day, uuid.uuid4().hex])
            cursor.execute(_BUMP_SQL, [site_id, uuid.uuid4().hex])
    _note_marked(connection, key)


def mark_stale_sql(site_id: int, gaming_date: date) -> tuple[str, list] | None:
    """`mark_stale` as one statement for a service to send in its own message (PostgreSQL: a
    slip's insert sends it with the number's and the chain's, so the snapshot's row lock is
    taken in the same round trip as the others, core.figure_days.day_changed_sql), the
    site-day then taken as marked in the transaction; None on SQLite (a message holds one
    statement) or when the site-day is already marked."""
    connection = transaction.get_connection()
    key = (site_id, gaming_date)
    if connection.vendor != "postgresql" or not connection.in_atomic_block or _marked(connection, key):
        return None
    _note_marked(connection, key)  # the statement fails with its transaction, and the note with it
    return _MARK_AND_BUMP_SQL, _mark_and_bump_params(site_id, gaming_date)


def _mark_and_bump_params(site_id: int, gaming_date: date) -> list:
    return [site_id, gaming_date, uuid.uuid4().hex, site_id, uuid.uuid4().hex]


def _marked(connection, key: Key) -> bool:
    return connection.in_atomic_block and any(key in m.keys for m in _marks(connection))


def _note_marked(connection, key: Key) -> None:
    if connection.in_atomic_block:
        here = set(connection.savepoint_ids)
        same_level = [f for sids, f, _ in connection.run_on_commit if isinstance(f, _Marked) and sids == here]
        if same_level:
            same_level[0].keys.add(key)
        else:
            marked = _Marked()
            marked.keys.add(key)
            transaction.on_commit(marked)


# `mark_stale`'s two upserts: the day's snapshot emptied under a new token, the site's figures
# token replaced (as `bump_version`). PostgreSQL: as one statement; a data-modifying WITH runs
# to completion whether or not the outer statement reads it.
_DAY, _SITE = DayFigures._meta, FiguresVersion._meta
_MARK_SQL = f"""
    INSERT INTO "{_DAY.db_table}" ("site_id", "gaming_date", "token", "version", "table_days", "shifts", "dealer_sums",
        "computed_at")
    VALUES (%s, %s, %s, '', NULL, NULL, NULL, NULL)
    ON CONFLICT ("site_id", "gaming_date") DO UPDATE SET "token" = EXCLUDED."token", "version" = '',
        "table_days" = NULL, "shifts" = NULL, "dealer_sums" = NULL, "computed_at" = NULL"""
_BUMP_SQL = (
    f'INSERT INTO "{_SITE.db_table}" ("site_id", "token") VALUES (%s, %s) '
    'ON CONFLICT ("site_id") DO UPDATE SET "token" = EXCLUDED."token"'
)
_MARK_AND_BUMP_SQL = f"WITH day AS ({_MARK_SQL} RETURNING 1) {_BUMP_SQL}"


def bump_version(site_id: int) -> None:
    """The site's figures changed: replace its `FiguresVersion` token (an upsert, in the write's
    transaction), so no fragment cached under the old token is served again."""
    FiguresVersion.objects.bulk_create(
        [FiguresVersion(site_id=site_id, token=uuid.uuid4().hex)],
        update_conflicts=True,
        unique_fields=["site"],
        update_fields=["token"],
    )


def site_versions(site_ids) -> dict[int, str]:
    """{site id: its figures' current token} ("" for a site whose figures never changed)."""
    found = dict(FiguresVersion.objects.filter(site_id__in=list(site_ids)).values_list("site_id", "token"))
    return {site_id: found.get(site_id, "") for site_id in site_ids}


def _forget(keys) -> None:
    """A fill stored these site-days: a later write in this transaction must mark them again."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        for marked in _marks(connection):
            marked.keys.difference_update(keys)


def _slip_saved(sender, instance, created, **kwargs):
    if created:
        mark_stale(instance.site_id, instance.gaming_day.gaming_date)


def _step_saved(sender, instance, created, **kwargs):
    if created and instance.kind == SlipStep.Kind.VOID:  # a voided slip leaves the figures
        mark_stale(instance.slip.site_id, instance.slip.gaming_day.gaming_date)


def _tray_saved(sender, instance, created, **kwargs):
    mark_stale(instance.gaming_day.site_id, instance.gaming_day.gaming_date)


def _shift_changed(sender, instance, **kwargs):
    mark_stale(instance.gaming_day.site_id, instance.gaming_day.gaming_date)


def _drop_saved(sender, instance, created, **kwargs):
    mark_stale(instance.site_id, instance.gaming_date)


def _agreement_saved(sender, instance, created, **kwargs):
    mark_stale(instance.drop.site_id, instance.drop.gaming_date)


def _table_changed(sender, instance, **kwargs):
    """A table's number or game is printed beside its figures: a fragment showing them is stale."""
    bump_version(instance.site_id)


def _signature_saved(sender, instance, created, **kwargs):
    """A signature can make a session's counts signed: every day its drops belong to."""
    from counts.models import CountAgreement

    session = instance.session
    days = {(session.site_id, session.gaming_date)}
    days |= set(
        CountAgreement.objects.filter(session_id=session.pk)
        .order_by()
        .values_list("drop__site_id", "drop__gaming_date")
        .distinct()
    )
    for site_id, gaming_date in sorted(days):
        mark_stale(site_id, gaming_date)


def connect() -> None:
    """Watch every row the figures are computed from (accounting.apps)."""
    from core import figure_days
    from counts.models import CountAgreement, CountSignature, Drop

    post_save.connect(_slip_saved, sender=Slip, dispatch_uid="day_figures_slip")
    post_save.connect(_step_saved, sender=SlipStep, dispatch_uid="day_figures_step")
    post_save.connect(_tray_saved, sender=TableInventory, dispatch_uid="day_figures_tray")
    post_save.connect(_shift_changed, sender=DealerShift, dispatch_uid="day_figures_shift")
    post_delete.connect(_shift_changed, sender=DealerShift, dispatch_uid="day_figures_shift_deleted")
    post_save.connect(_drop_saved, sender=Drop, dispatch_uid="day_figures_drop")
    post_save.connect(_agreement_saved, sender=CountAgreement, dispatch_uid="day_figures_agreement")
    post_save.connect(_signature_saved, sender=CountSignature, dispatch_uid="day_figures_signature")
    post_save.connect(_table_changed, sender=Table, dispatch_uid="day_figures_table")
    figure_days.register_day_changed(mark_stale, mark_stale_sql)


# Reads: closed days from their snapshots (filled when missing), open days live.


def _days_query(*, site_ids, start, end):
    closed = GamingDayClose.objects.filter(gaming_day=OuterRef("pk"))
    return (
        GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by()
        .values_list("site_id", "gaming_date", Exists(closed))
    )


@dataclass(frozen=True)
class _Period:
    closed: frozenset  # site-days read from snapshots
    live_from: date  # days from here to the end that are not closed are computed live

    def is_live(self, key: Key) -> bool:
        return key[1] >= self.live_from and key not in self.closed


@dataclass(frozen=True)
class _Stored:
    """A stored DayFigures row as read: the figures asked for (the other None)."""

    site_id: int
    gaming_date: date
    token: str
    version: str
    computed_at: datetime | None
    table_days: dict | None = None
    shifts: list | None = None
    dealer_sums: list | None = None


FIELDS = ("table_days", "shifts", "dealer_sums")  # a snapshot's figures, in the order `_compute` returns them


def _stored_query(*, fields, site_ids, start, end):
    """The stored snapshots' keys and `fields` (of `FIELDS`): values by SQL
    compiled once per fields asked for (core.rows, `shape`), not model instances."""
    return (
        DayFigures.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by()
        .values_list("site_id", "gaming_date", "token", "version", "computed_at", *fields)
    )


def _read(site_ids, start: date, end: date, *fields: str) -> tuple[_Period, dict[Key, _Stored]]:
    """The period's closed days and live days, and the stored snapshots of [start, end] (with
    `field`, table_days or shifts). Closed gaming days come from snapshots; the rest is computed
    live from the first open gaming day (or the day after the last closed one) to the end,
    or from the first date with custody but no gaming day (a drop placed for a date never
    opened: slips, trays and shifts belong to a gaming day, a drop only to a date) if earlier.
    Every such date has a DayFigures row: the drop's write marked it (`mark_stale`, and
    migration 0007 for drops placed before snapshots existed)."""
    rows = shaped_rows(_days_query, site_ids=site_ids, start=start, end=end)
    found = shaped_rows(_stored_query, shape={"fields": fields}, site_ids=site_ids, start=start, end=end)
    stored = {(row[0], row[1]): _Stored(*row[:5], **dict(zip(fields, row[5:], strict=True))) for row in found}
    closed = frozenset((site_id, day) for site_id, day, is_closed in rows if is_closed)
    opened = [day for _, day, is_closed in rows if not is_closed]
    if opened:
        live_from = min(opened)
    elif closed:
        live_from = max(day for _, day in closed) + timedelta(days=1)
    else:
        live_from = start
    gaming_days = {(site_id, day) for site_id, day, _ in rows}
    without_day = [day for key in stored if key not in gaming_days and (day := key[1]) < live_from]
    return _Period(closed, min([live_from, *without_day])), stored


def _usable(found: _Stored) -> bool:
    return found.version == VERSION and found.computed_at is not None


def _snapshots(period: _Period, stored: dict, field: str) -> dict[Key, dict | list]:
    """{site-day: its table days, shifts or dealer sums (`field`)} of every closed day, filling the missing."""
    result = {key: getattr(f, field) for key, f in stored.items() if key in period.closed and _usable(f)}
    missing = sorted(period.closed - set(result))
    if missing:
        position = FIELDS.index(field)
        result.update((key, figures[position]) for key, figures in _fill(missing, stored).items())
    return result


def _fill(missing: list[Key], stored: dict) -> dict[Key, tuple[dict, list, list]]:
    """Compute the missing site-days live and store each whose token did not change meanwhile."""
    absent = [DayFigures(site_id=s, gaming_date=d, token=uuid.uuid4().hex) for s, d in missing if (s, d) not in stored]
    if absent:
        DayFigures.objects.bulk_create(absent, ignore_conflicts=True)
    site_ids = sorted({s for s, _ in missing})
    start, end = min(d for _, d in missing), max(d for _, d in missing)
    wanted = set(missing)
    tokens = {
        (s, d): (pk, token)
        for pk, s, d, token in DayFigures.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by()
        .values_list("pk", "site_id", "gaming_date", "token")
        if (s, d) in wanted
    }
    computed = _compute(site_ids, start, end, wanted)
    _store(computed, tokens)
    _forget(wanted)
    return computed


def _compute(site_ids, start: date, end: date, wanted) -> dict[Key, tuple[dict, list, list]]:
    """Live figures of the wanted site-days, as snapshots hold them (`FIELDS`)."""
    tables: dict[Key, dict] = {key: {} for key in wanted}
    totals = (live_days.drops(site_ids, start, end), live_days.slips(site_ids, start, end))
    trays, _ = live_days.trays(site_ids, start, end)  # closed days: none in play
    for position, found in enumerate((*totals, trays)):
        for (site_id, table_id, day), value in found.items():
            if (site_id, day) in wanted:
                row = tables[(site_id, day)].setdefault(str(table_id), [None, None, None])
                row[position] = list(value) if isinstance(value, tuple) else value
    shifts: dict[Key, list] = {key: [] for key in wanted}
    for shift in dealer_hold.shift_figures(site_ids, start, end):
        key = (shift.site_id, shift.gaming_date)
        if key in wanted:
            shifts[key].append(shift)
    return {key: (tables[key], [_shift_row(s) for s in shifts[key]], _dealer_sums(shifts[key])) for key in wanted}


def _dealer_sums(shifts) -> list[list[int]]:
    """The day's shifts summed per dealer and table: [dealer id, table id, shifts, separable
    shifts, drop, fills, credits, opener, closer] (the separable shifts' cents), as `dealer_totals`
    sums them; by table, not game, as the shifts' rows: a table's game is read when summed."""
    tallies: dict[tuple[int, int], list[int]] = {}
    for shift in shifts:
        tally = tallies.setdefault((shift.dealer_id, shift.table_id), [0, 0, 0, 0, 0, 0, 0])
        tally[0] += 1
        if (c := shift.custody) is not None:
            tally[1] += 1
            cents = (c.drop_cents, c.fills_cents, c.credits_cents, c.opener_cents, c.closer_cents)
            for position, value in enumerate(cents, start=2):
                tally[position] += value
    return [[dealer_id, table_id, *tally] for (dealer_id, table_id), tally in sorted(tallies.items())]


def _shift_row(shift: dealer_hold.ShiftFigures) -> list:
    c = shift.custody
    return [
        shift.shift_id,
        shift.table_id,
        shift.dealer_id,
        shift.started_at.isoformat(),
        shift.ended_at.isoformat() if shift.ended_at else None,
        None if c is None else [c.drop_cents, c.fills_cents, c.credits_cents, c.opener_cents, c.closer_cents],
        shift.not_separable_because,
    ]


def _store(computed: dict, tokens: dict) -> None:
    """One UPDATE per chunk: each row takes its figures only where its token is still the one read."""
    now = timezone.now()
    keys = [key for key in sorted(computed) if key in tokens]
    for i in range(0, len(keys), FILL_CHUNK):
        chunk = keys[i : i + FILL_CHUNK]

        def case(value_of, field, output=None, chunk=chunk):
            whens = [
                When(pk=tokens[k][0], token=tokens[k][1], then=Value(value_of(k), output_field=output)) for k in chunk
            ]
            return Case(*whens, default=F(field), output_field=output)

        DayFigures.objects.filter(pk__in=[tokens[k][0] for k in chunk]).update(
            table_days=case(lambda k: computed[k][0], "table_days", JSONField()),
            shifts=case(lambda k: computed[k][1], "shifts", JSONField()),
            dealer_sums=case(lambda k: computed[k][2], "dealer_sums", JSONField()),
            version=case(lambda k: VERSION, "version", DayFigures._meta.get_field("version")),
            computed_at=case(lambda k: now, "computed_at", DayFigures._meta.get_field("computed_at")),
        )


def fill(site_ids, start: date, end: date) -> int:
    """Compute and store the missing snapshots of the sites' closed days in [start, end] (what
    the first read would do), e.g. after loading data; the number of closed days."""
    period, stored = _read(sorted(site_ids), start, end, "shifts")
    return len(_snapshots(period, stored, "shifts"))


def table_days(site_ids, start: date, end: date) -> list[live_days.TableDay]:
    """`accounting.table_days.table_days`, closed days from their snapshots."""
    site_ids = sorted(site_ids)
    period, stored = _read(site_ids, start, end, "table_days")
    return _table_days(site_ids, end, period, _snapshots(period, stored, "table_days"))


def _closed(site_ids, start: date, end: date, *fields: str) -> tuple[_Period, list[dict]]:
    """The period, and {site-day: figures} of each of `fields` (of `FIELDS`) for its closed days,
    from one read of its snapshots (one fill computes and stores them all where missing)."""
    period, stored = _read(site_ids, start, end, *fields)
    usable = {key: f for key, f in stored.items() if key in period.closed and _usable(f)}
    found = [{key: getattr(f, field) for key, f in usable.items()} for field in fields]
    missing = sorted(period.closed - set(usable))
    if missing:  # one fill computes and stores every field
        positions = [FIELDS.index(field) for field in fields]
        for key, figures in _fill(missing, stored).items():
            for into, position in zip(found, positions, strict=True):
                into[key] = figures[position]
    return period, found


def table_days_and_shifts(site_ids, start: date, end: date):
    """`table_days` and `shift_figures` of the same period, from one read of its days and snapshots."""
    site_ids = sorted(site_ids)
    period, (tables, shifts) = _closed(site_ids, start, end, "table_days", "shifts")
    days = _table_days(site_ids, end, period, tables)
    known = {d.table_id: (d.table_number, d.game) for d in days}  # the shifts' tables, read once
    return days, _shift_figures(site_ids, end, period, shifts, known)


def dealer_totals(site_ids, start: date, end: date, games) -> dict[str, dealer_hold.GameTotals]:
    """{game: `dealer_summaries` of the game, each dealer's number of shifts for its shifts
    (`dealer_hold.DealerTotals`), and each site's total}, from one read of the snapshots: each
    closed day's shifts as summed per dealer and table when it was snapshotted (`dealer_sums`,
    not its shift rows), and its table days per site, without making an object of each shift and
    table-day (the percent-of-hold report of a quarter made 1,656 shifts to sum 12 dealers).
    Open days live, summed as their shifts are read (`dealer_hold.dealer_sums`)."""
    site_ids = sorted(site_ids)
    period, (snapshots, sums) = _closed(site_ids, start, end, "table_days", "dealer_sums")
    drops, slips, trays, _ = _table_day_totals(site_ids, end, period, snapshots)
    # Open site-days: summed as a closed day's were when snapshotted, without each shift's figures.
    live, names = dealer_hold.dealer_sums(site_ids, period.live_from, end) if period.live_from <= end else ({}, {})
    sums.update((key, day) for key, day in live.items() if period.is_live(key))
    table_ids = {k[1] for found in (drops, slips, trays) for k in found}
    table_ids.update(row[1] for day in sums.values() for row in day)
    tables = {pk: (n, g) for pk, n, g in shaped_rows(live_days.table_numbers_query, ids=sorted(table_ids))}
    tallies: dict[tuple, list[int]] = {}
    for (site_id, _day), day in sums.items():
        for dealer_id, table_id, count, separable, drop, fills, credits, opener, closer in day:
            key = (dealer_id, site_id, tables[table_id][1])
            tally = tallies.get(key) or tallies.setdefault(key, [0, 0, 0, 0, 0, 0, 0])
            tally[0] += count  # inline: it runs for every dealer and table of every day
            tally[1] += separable
            tally[2] += drop
            tally[3] += fills
            tally[4] += credits
            tally[5] += opener
            tally[6] += closer
    wanted = sorted({key[0] for key in tallies} - set(names))
    names.update(
        (pk, f"{first} {last}".strip() or username)
        for pk, first, last, username in shaped_rows(dealer_hold.dealers_query, ids=wanted)
    )
    holds = dealer_hold.site_holds_of_totals(drops, slips, trays, tables)
    return {game: dealer_hold.totals_of_tallies(tallies, names, holds.get(game, {}), game) for game in games}


def _table_days(site_ids, end: date, period: _Period, snapshots: dict) -> list[live_days.TableDay]:
    return live_days.assemble_table_days(*_table_day_totals(site_ids, end, period, snapshots))


def _table_day_totals(site_ids, end: date, period: _Period, snapshots: dict) -> tuple[dict, dict, dict, frozenset]:
    """The drops, slips, trays and days in play `assemble_table_days` takes: closed days' from
    their snapshots (a closed day is not in play)."""
    drops, slips, trays, in_play = {}, {}, {}, frozenset()
    for (site_id, day), tables in snapshots.items():
        for table_id, (drop, slip, tray) in tables.items():
            key = (site_id, int(table_id), day)
            if drop is not None:
                drops[key] = drop
            if slip is not None:
                slips[key] = tuple(slip)
            if tray is not None:
                trays[key] = tuple(tray)
    if period.live_from <= end:
        live_trays, in_play = live_days.trays(site_ids, period.live_from, end)
        live = (
            live_days.drops(site_ids, period.live_from, end),
            live_days.slips(site_ids, period.live_from, end),
            live_trays,
        )
        for found, into in zip(live, (drops, slips, trays), strict=True):
            into.update((key, value) for key, value in found.items() if period.is_live((key[0], key[2])))
    return drops, slips, trays, in_play


def shift_figures(site_ids, start: date, end: date) -> list[dealer_hold.ShiftFigures]:
    """`dealer_hold.shift_figures`, closed days from their snapshots; ordered by table and start."""
    site_ids = sorted(site_ids)
    period, stored = _read(site_ids, start, end, "shifts")
    return _shift_figures(site_ids, end, period, _snapshots(period, stored, "shifts"))


def _shift_figures(
    site_ids, end: date, period: _Period, snapshots: dict, tables: dict | None = None
) -> list[dealer_hold.ShiftFigures]:
    rows = []
    for (site_id, day), shifts in snapshots.items():
        rows.extend((site_id, day, row) for row in shifts)
    result = _live_shifts(site_ids, end, period) + _shifts_from_rows(rows, tables or {})
    result.sort(key=lambda s: (s.table_id, s.started_at, s.shift_id))
    return result


def _live_shifts(site_ids, end: date, period: _Period) -> list[dealer_hold.ShiftFigures]:
    if period.live_from > end:
        return []
    found = dealer_hold.shift_figures(site_ids, period.live_from, end)
    return [s for s in found if period.is_live((s.site_id, s.gaming_date))]


def dealer_summaries(site_ids, start: date, end: date, *, dealer_ids=None, game: str = "21"):
    """`dealer_hold.dealer_summaries`, closed days from their snapshots (the dealers pages, the
    dealer API and the dealer reports read this)."""
    days, shifts = table_days_and_shifts(site_ids, start, end)  # one read of the snapshots
    if dealer_ids is not None:
        wanted = set(dealer_ids)
        shifts = [s for s in shifts if s.dealer_id in wanted]
    return dealer_hold.summarize_dealers(shifts, days, game)


def _shifts_from_rows(rows, known: dict) -> list[dealer_hold.ShiftFigures]:
    """ShiftFigures from snapshot rows; table numbers and dealers' names read now (they may change).
    `known`: {table id: (number, game)} already read in this call (the table days')."""
    if not rows:
        return []
    table_ids = sorted({row[1] for _, _, row in rows} - set(known))
    dealer_ids = sorted({row[2] for _, _, row in rows})
    tables = dict(known)
    if table_ids:
        tables.update((pk, (n, g)) for pk, n, g in shaped_rows(live_days.table_numbers_query, ids=table_ids))
    names = {
        pk: f"{first} {last}".strip() or username
        for pk, first, last, username in shaped_rows(dealer_hold.dealers_query, ids=dealer_ids)
    }
    result = []
    for site_id, day, (pk, table_id, dealer_id, started, ended, custody, reason) in rows:
        number, game = tables[table_id]
        result.append(
            dealer_hold.ShiftFigures(
                pk,
                site_id,
                dealer_id,
                names[dealer_id],
                number,
                game,
                day,
                datetime.fromisoformat(started),
                datetime.fromisoformat(ended) if ended else None,
                None if custody is None else Custody(*custody),
                reason,
                table_id,
            )
        )
    return result
