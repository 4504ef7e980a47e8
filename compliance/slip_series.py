"""The nightly check of each site's fill and credit series (ND 99-01.3-08-05(2): numbered
consecutively, used in sequential order), read from a checkpoint instead of all history.

A series' checkpoint (compliance.models.SlipSeriesCheckpoint) says that every slip of the
series with an id up to `last_slip_id` was judged by an earlier run, and the highest number
among them. A run reads only the slips newer than the checkpoint (by id, the order slips were
entered, so a paper slip entered late for an old gaming day is still read once) and judges:

- missing numbers: the gaps between consecutive numbers above the checkpoint's highest,
  starting from that highest, so a gap that straddles the checkpoint is found; it is flagged on
  the gaming day of the number after the gap (when the gap shows);
- numbers used out of order: a new number above the checkpoint's highest against the other
  new numbers (every higher number is new), and a new number below it by asking the database
  for the lowest higher number of the series used before it (a subquery on the series'
  number index, only for those). "Before" is strictly earlier: slips used at the same
  moment (paper slips of one minute, entered table by table) are judged by their printed
  numbers, never by the order they were entered.

When a number was used (`used_at`, floor.queries.NUMBER_USED_AT): a printed number (from a
registered book) when the paper says its slip was prepared, whenever it is typed in (a past
gaming day entered from paper after later days is judged as used before them); a number the
site's electronic series drew, when it was drawn, at the slip's entry. A past day's slip typed
in later at such a site draws the next number then, after the later days' numbers: judged by
its paper's time it read as used before them, and every number of the later days as used
after a higher one.

A slip newer than the checkpoint is judged whatever its gaming day up to the run's last day
(a late paper slip is judged when it is first seen). A number entered below the checkpoint's
highest fills an old gap, which was flagged when it showed; it is not flagged again.

A run whose last day is before a checkpoint's (a past quarter) reads that series in full,
as does a series with no checkpoint; both apply the run's period to what they flag. The run
then moves each series' checkpoint to the newest slip it judged, leaving out slips of later
gaming days and slips entered in the last `SETTLE` (a slip's id is taken before its
transaction commits: a slip entered just before the run could still appear below the
newest id read). The engine runs the day checks in one transaction, so a checkpoint never
moves past findings that were not recorded.
"""

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import NamedTuple

from django.db import connection
from django.db.models import BooleanField, Case, Max, Min, OuterRef, Q, Subquery, Value, When
from django.db.models.lookups import IsNull
from django.utils import timezone

from floor.queries import NUMBER_USED_AT

from . import rules
from .models import SlipSeriesCheckpoint

# House control: how long a just-entered slip waits before a checkpoint may pass it (a slip's
# transaction is far shorter; see the module docstring).
SETTLE = timedelta(minutes=10)
BATCH = 200  # checkpoints written per statement: no statement carries a parameter per site


class _Row(NamedTuple):
    """A row of `_judged_rows`: a slip that starts its side of the series (see `_JUDGE_SQL`),
    follows a gap, may have been used after a lower number (`witness`), was used out of order
    (`late_low`, below the checkpoint's highest) or is the last of its side (`last`: its totals,
    those of the slips before it, `*_before`, then its own)."""

    site_id: int
    kind: str
    below: bool
    number: int
    prev: int | None  # the next lower number read (of the same side of the checkpoint's highest)
    gaming_date: date | None
    used_at: object  # when its number was used (floor.queries.NUMBER_USED_AT); with `id`, its place in that order
    id: int
    late_low: bool
    witness: bool  # a lower number of its side was used after it (see _JUDGE_SQL)
    last: bool
    high_id_before: int | None
    settled_before: int | None  # the newest settled slip before it in its side
    unsettled_before: int | None  # the oldest slip not settled before it in its side
    settled: bool

    @property
    def flagged(self) -> bool:
        if self.below:
            return self.late_low
        return self.prev is None or self.number - self.prev > 1


@dataclass
class _Series:
    checkpoint: SlipSeriesCheckpoint | None
    flagged: list[_Row] = field(default_factory=list)  # the slips that start a side or follow a gap
    out_of_order: list[_Row] = field(default_factory=list)
    witnessed: bool = False  # a slip above the checkpoint's highest may have been used out of order
    newest_id: int = 0  # of the slips read
    highest_read: int | None = None

    @property
    def high(self) -> int | None:
        return self.checkpoint.highest_number if self.checkpoint else None


def series_problems(by_id: dict, start: date, end: date) -> list[rules.SlipException]:
    """Missing and out-of-order numbers of every series of the sites `by_id` (site id -> Site),
    judged from each series' checkpoint; moves the checkpoints on. The database orders each
    series by number (one sort, one pass of window functions) and returns only the slips that
    show a problem, start a side or may have been used out of order, with each side's totals
    for its checkpoint: no row per slip comes back. The few series where a slip may have been
    used out of order are then ordered by use too (`_used_out_of_order`, only then).
    Four queries in all (one or two more in the rare run that needs them)."""
    checkpoints = _checkpoints(by_id, end)
    series: dict[tuple[int, str], _Series] = {}
    newest_settled, oldest_unsettled = 0, None
    for row in _judged_rows(by_id, end, checkpoints):
        key = (row.site_id, row.kind)
        if key not in series:
            series[key] = _Series(checkpoints.get(key))
        one = series[key]
        if row.last:  # the side's totals: those of the slips before its last slip, then the last's own
            one.newest_id = max(one.newest_id, row.id, row.high_id_before or 0)
            one.highest_read = max(one.highest_read or 0, row.number)
            newest_settled = max(newest_settled, row.settled_before or 0, row.id if row.settled else 0)
            for unsettled in (row.unsettled_before, None if row.settled else row.id):
                if unsettled is not None:
                    oldest_unsettled = unsettled if oldest_unsettled is None else min(oldest_unsettled, unsettled)
        if row.flagged:
            one.flagged.append(row)
        if row.below and row.late_low:
            one.out_of_order.append(row)
        one.witnessed |= not row.below and row.witness
    for row in _used_out_of_order(by_id, end, checkpoints, [key for key, one in series.items() if one.witnessed]):
        series[row.site_id, row.kind].out_of_order.append(row)
    if oldest_unsettled is not None:
        newest_settled = min(newest_settled, oldest_unsettled - 1)
    found = []
    for key in sorted(series):
        found += _judge(*key, series[key], start, end)
    _advance(by_id, end, checkpoints, series, newest_settled)
    return found


def series_key(site_id: int, kind: str) -> tuple[int, str]:
    return site_id, kind


def _checkpoints(by_id: dict, end: date) -> dict[tuple[int, str], SlipSeriesCheckpoint]:
    rows = SlipSeriesCheckpoint.objects.filter(site_id__in=by_id)
    return {series_key(c.site_id, c.kind): c for c in rows}


def _usable(by_id: dict, end: date, checkpoints: dict) -> dict:
    """The checkpoints a run to `end` starts from: those of the sites' series judged through
    `end` or before (a run of a past period reads its series in full)."""
    return {key: c for key, c in checkpoints.items() if key[0] in by_id and c.checked_through <= end}


def _new_slips_query(by_id: dict, end: date, checkpoints: dict):
    """The slips of the sites up to `end` newer than their series' usable checkpoint, unordered,
    annotated with `late_low` (used after a higher number although below the checkpoint's
    highest) and `below` (numbered below its usable checkpoint's highest)."""
    from floor.models import Slip, SlipKind

    # The checkpoints are loaded: each series is bounded by its own (one OR term per series of
    # the chunk's sites, no subquery per row); a series with no usable checkpoint is read in full.
    usable = _usable(by_id, end, checkpoints)
    newer = Q()
    for kind in SlipKind.values:
        in_full = [site_id for site_id in by_id if series_key(site_id, kind) not in usable]
        if in_full:
            newer |= Q(kind=kind, site_id__in=in_full)
    below_high = Q()  # a new slip numbered below its checkpoint's highest: the only ones that need the subquery
    for (site_id, kind), c in usable.items():
        newer |= Q(site_id=site_id, kind=kind, pk__gt=c.last_slip_id)
        if c.highest_number is not None:
            below_high |= Q(site_id=site_id, kind=kind, number__lt=c.highest_number)
    # The lowest higher number used before the slip, if any: a scalar subquery ordered by
    # number, so that PostgreSQL walks the unique (site, kind, number) index upwards from the
    # slip's number and stops at the first one used earlier. (An EXISTS drops the order,
    # and the planner then read every slip of the site through the site_id index.)
    higher_first = (
        Slip.objects.filter(site_id=OuterRef("site_id"), kind=OuterRef("kind"), number__gt=OuterRef("number"),
                            gaming_day__gaming_date__lte=end)
        .annotate(used_at=NUMBER_USED_AT)
        .filter(used_at__lt=OuterRef("used_at"))  # the same moment: judged by the printed numbers
        .order_by("number").values("pk")[:1]
    )  # fmt: skip
    late_low = below = Value(False, output_field=BooleanField())
    if below_high:  # CASE: the subquery runs only for the slips below their checkpoint's highest
        found = Case(When(IsNull(Subquery(higher_first), False), then=Value(True)), default=Value(False))
        late_low = Case(When(below_high, then=found), default=Value(False), output_field=BooleanField())
        below = Case(When(below_high, then=Value(True)), default=Value(False), output_field=BooleanField())
    rows = (
        # through the sites' gaming days too (a slip's site is its gaming day's, floor migration
        # 0008): the planner then joins only those days, not every site's up to `end`
        Slip.objects.filter(site_id__in=by_id, gaming_day__site_id__in=by_id, gaming_day__gaming_date__lte=end)
        .filter(newer)
        .annotate(used_at=NUMBER_USED_AT)
        .annotate(late_low=late_low, below=below)
        .order_by()
    )
    every_series = {series_key(site_id, kind) for site_id in by_id for kind in SlipKind.values}
    if usable and every_series <= set(usable):
        # every series starts after a checkpoint: let the database start at the oldest one by id
        rows = rows.filter(pk__gt=min(c.last_slip_id for c in usable.values()))
    return rows


# Each side of each series (the slips numbered above the checkpoint's highest, and those below
# it) ordered by number, one sort and one pass of window functions over the frame of the slips
# before: the gaps (LAG), a `witness` (a slip with a lower number used strictly after it, by
# `used_at`), and the side's totals on its last slip. A side has a witness exactly when one of its
# slips was used out of order (after a higher number was used before it). Slips used at the same
# moment (paper slips of one minute, entered table by table) are judged by their printed
# numbers, never by the order they were entered: the lower number is taken as used first. Which
# slips were used out of order is then found for the sides with a witness (`_used_out_of_order`).
# Only the slips that start a side, follow a gap, witness or were used out of order (below the
# checkpoint's highest: `late_low`), and each side's last, come back. `r` is `_new_slips_query`
# (its columns named here; used once, PostgreSQL inlines it).
_WINDOWS = """
           LAG(number) OVER s AS prev,
           COALESCE(MAX(used_at) OVER s > used_at, FALSE) AS witness,
           LEAD(number) OVER s IS NULL AS last,
           MAX(id) OVER s AS high_id_before,
           MAX(CASE WHEN settled THEN id END) OVER s AS settled_before,
           MIN(CASE WHEN settled THEN NULL ELSE id END) OVER s AS unsettled_before"""
_OUTPUT = """site_id, kind, below, number, prev, gaming_date, used_at, id, late_low, witness, last,
       high_id_before, settled_before, unsettled_before, settled"""
_KEPT = "last OR (NOT below AND (prev IS NULL OR number - prev > 1 OR witness)) OR (below AND late_low)"
_COLUMN_NAMES = "id, site_id, kind, number, gaming_date, used_at, late_low, below, settled"
_FRAME = "ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING"

_JUDGE_SQL = f"""
WITH r ({_COLUMN_NAMES}) AS ({{inner}})
SELECT {_OUTPUT}
FROM (
    SELECT r.*,{_WINDOWS}
    FROM r
    WINDOW s AS (PARTITION BY site_id, kind, below {_FRAME})
) w
WHERE {_KEPT}
"""

# PostgreSQL, when every series of the chunk is read in full (no usable checkpoint: a state's
# first run, or a past period): the same judgement one series at a time, a LATERAL subquery
# per site and kind, so that each series is sorted by number on its own. One sort of the
# largest chunk's 265,710 slips by (site, kind, number) took 0.3 s of the query's 0.66 s;
# 112 sorts of about 2,400 numbers take a few ms each (the whole read 0.40 s). Its slips are
# `_new_slips_query`'s when no series has a checkpoint (every slip of the site and kind up to
# `end`, nothing below a checkpoint), written here per series: through the ORM's query the
# site lists it carries made the planner expect a few slips per series and probe each one's
# gaming day. A run from checkpoints keeps `_JUDGE_SQL`: its slips are found by id across
# the series, which a read per series would lose.
_USED_AT_SQL = (  # floor.queries.NUMBER_USED_AT, over `sl`
    "CASE WHEN sl.slip_book_id IS NULL AND sl.entered_at IS NOT NULL THEN sl.entered_at ELSE sl.prepared_at END"
)
_JUDGE_BY_SERIES_SQL = f"""
SELECT w.* FROM unnest(%s::bigint[]) AS series_site (id)
CROSS JOIN unnest(%s::text[]) AS series_kind (kind)
CROSS JOIN LATERAL (
    SELECT {_OUTPUT}
    FROM (
        SELECT r.*,{_WINDOWS}
        FROM (
            SELECT sl.id, sl.site_id, sl.kind, sl.number, g.gaming_date, {_USED_AT_SQL} AS used_at, FALSE AS late_low,
                   FALSE AS below, (sl.entered_at IS NULL OR sl.entered_at <= %s) AS settled
            FROM {{slip}} sl JOIN {{gaming_day}} g ON g.id = sl.gaming_day_id
            WHERE sl.site_id = series_site.id AND sl.kind = series_kind.kind
              AND g.site_id = series_site.id AND g.gaming_date <= %s
        ) r
        WINDOW s AS ({_FRAME})
    ) one
    WHERE {_KEPT}
) w
"""

# The series' slips above the checkpoint's highest in the order their numbers were used: those
# numbered below the highest number used before them were used out of order.
_OUT_OF_ORDER_SQL = """
WITH r (id, site_id, kind, number, gaming_date, used_at, late_low, below) AS ({inner})
SELECT site_id, kind, number, gaming_date, used_at, id FROM (
    SELECT r.*, MAX(number) OVER (PARTITION BY site_id, kind ORDER BY used_at, number
                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prior_high
    FROM r
    WHERE NOT below
) w
WHERE number < prior_high
"""

_COLUMNS = ("pk", "site_id", "kind", "number", "gaming_day__gaming_date", "used_at", "late_low", "below")


def _judged_rows(by_id: dict, end: date, checkpoints: dict) -> list[_Row]:
    """`_JUDGE_SQL` over the slips newer than their checkpoints (one query; `_JUDGE_BY_SERIES_SQL`
    on PostgreSQL when every series is read in full)."""
    from floor.models import GamingDay, Slip, SlipKind

    settled_before = timezone.now() - SETTLE
    if connection.vendor == "postgresql" and not _usable(by_id, end, checkpoints):
        sql = _JUDGE_BY_SERIES_SQL.format(slip=Slip._meta.db_table, gaming_day=GamingDay._meta.db_table)
        params = [sorted(by_id), list(SlipKind.values), settled_before, end]
    else:
        sql, params = _judge_sql(by_id, end, checkpoints, settled_before)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return _judged(cursor.fetchall())


def _judged(rows) -> list[_Row]:
    """The rows of `_JUDGE_SQL` or `_JUDGE_BY_SERIES_SQL` as they come from the database."""
    return [_Row(site_id, kind, bool(below), number, prev, _as_date(day), _as_aware(used_at), pk, bool(late_low),
                 bool(witness), bool(last), high_id, settled_id, unsettled_id, bool(settled))
            for (site_id, kind, below, number, prev, day, used_at, pk, late_low, witness, last, high_id,
                 settled_id, unsettled_id, settled) in rows]  # fmt: skip


def _judge_sql(by_id: dict, end: date, checkpoints: dict, settled_before) -> tuple[str, list]:
    """`_JUDGE_SQL` over `_new_slips_query`, with its parameters."""
    settled = Case(
        When(Q(entered_at__isnull=True) | Q(entered_at__lte=settled_before), then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    inner = _new_slips_query(by_id, end, checkpoints).annotate(settled=settled).values_list(*_COLUMNS, "settled")
    sql, params = inner.query.sql_with_params()
    return _JUDGE_SQL.format(inner=sql), list(params)


def _used_out_of_order(by_id: dict, end: date, checkpoints: dict, keys: list[tuple[int, str]]) -> list[_Row]:
    """The slips above their checkpoint's highest used after a higher number, in the series
    `keys` (those with a witness): one query, only when there are some."""
    if not keys:
        return []
    which = Q()
    for site_id, kind in keys:
        which |= Q(site_id=site_id, kind=kind)
    sites = {site_id: by_id[site_id] for site_id, _ in keys}
    inner = _new_slips_query(sites, end, checkpoints).filter(which).values_list(*_COLUMNS)
    sql, params = inner.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(_OUT_OF_ORDER_SQL.format(inner=sql), params)
        rows = cursor.fetchall()
    return [_Row(site_id, kind, False, number, None, _as_date(day), _as_aware(used_at), pk, False, False, False,
                 None, None, None, False)
            for site_id, kind, number, day, used_at, pk in rows]  # fmt: skip


def _as_aware(value):
    """A datetime as the database returns it (SQLite: text), comparable with the others."""
    if isinstance(value, str):
        return connection.ops.convert_datetimefield_value(value, None, connection)
    return value


def _as_date(value) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) else value  # SQLite returns text


def _judge(site_id: int, kind: str, one: _Series, start: date, end: date) -> list[rules.SlipException]:
    """The series' findings from the slips `_judged_rows` returned for it: the numbers missing
    before each slip that follows a gap (above the checkpoint's highest, starting from it), in
    number order; then the slips used out of order, in order of use."""
    incremental = one.checkpoint is not None and one.checkpoint.checked_through <= end
    low = start if not incremental else date.min  # a new slip is judged whatever its day
    high = one.high if incremental else None
    found = []
    for row in sorted(one.flagged, key=lambda r: r.number):
        before = row.prev if row.prev is not None else high
        # the gap shows when the next number is used; a slip below the checkpoint's highest fills an old gap
        if (
            (high is None or row.number > high)
            and before is not None
            and row.number - before > 1
            and low <= row.gaming_date <= end
        ):
            found += [
                rules.SlipException(site_id, row.gaming_date, kind, n, "missing") for n in range(before + 1, row.number)
            ]
    for row in sorted(one.out_of_order, key=lambda r: (r.used_at, r.number)):
        if low <= row.gaming_date <= end:
            found.append(rules.SlipException(site_id, row.gaming_date, kind, row.number, "out_of_order"))
    return found


def _advance(by_id: dict, end: date, checkpoints: dict, series: dict, newest_settled: int) -> None:
    """Move each series' checkpoint to the newest settled slip judged (see the module docstring)."""
    from floor.models import Slip

    every_series = {series_key(site_id, kind) for site_id in by_id for kind in ("fill", "credit")}
    oldest = min(c.last_slip_id for c in checkpoints.values()) if every_series <= set(checkpoints) else 0
    # Only a later gaming day's slip below the newest settled one can hold a checkpoint back.
    later = (
        Slip.objects.filter(site_id__in=by_id, gaming_day__site_id__in=by_id, gaming_day__gaming_date__gt=end,
                            pk__gt=oldest, pk__lte=newest_settled)
        .values("site_id", "kind").annotate(first=Min("pk")).values_list("site_id", "kind", "first")
    )  # fmt: skip
    first_later = {series_key(site_id, kind): first for site_id, kind, first in later}
    moves = {}  # series -> (the old checkpoint, the newest slip it may pass)
    for site_id in by_id:
        for kind in ("fill", "credit"):
            key = series_key(site_id, kind)
            old = checkpoints.get(key)
            if old is not None and old.checked_through > end:
                continue  # a past period: the checkpoint stays where the nightly run left it
            through = min(newest_settled, first_later.get(key, newest_settled + 1) - 1)
            if through > (old.last_slip_id if old else 0):
                moves[key] = (old, through)
    highest = _highest_read(by_id, end, checkpoints, series, moves)
    now = timezone.now()
    rows = []
    for (site_id, kind), (old, through) in moves.items():
        highs = [n for n in (old.highest_number if old else None, highest.get((site_id, kind))) if n is not None]
        rows.append(SlipSeriesCheckpoint(site_id=site_id, kind=kind, last_slip_id=through,
                                         highest_number=max(highs, default=None), checked_through=end,
                                         checked_at=now))  # fmt: skip
    SlipSeriesCheckpoint.objects.bulk_create(
        rows, batch_size=BATCH, update_conflicts=True, unique_fields=["site", "kind"],
        update_fields=["last_slip_id", "highest_number", "checked_through", "checked_at"],
    )  # fmt: skip


def _highest_read(by_id: dict, end: date, checkpoints: dict, series: dict, moves: dict) -> dict:
    """series -> the highest number read up to the slip its checkpoint moves to: the series'
    highest read, unless the checkpoint stops short of its newest slip read (a slip not
    settled yet, or a later gaming day's slip before it); those are asked of the database
    together (one query, only then)."""
    highest, short = {}, Q()
    for key, (_, through) in moves.items():
        one = series.get(key)
        if one is None:
            continue
        if through >= one.newest_id:
            highest[key] = one.highest_read
        else:
            short |= Q(site_id=key[0], kind=key[1], pk__lte=through)
    if short:
        found = (_new_slips_query(by_id, end, checkpoints).filter(short).values("site_id", "kind")
                 .annotate(high=Max("number")).values_list("site_id", "kind", "high"))  # fmt: skip
        highest.update((series_key(site_id, kind), high) for site_id, kind, high in found)
    return highest
