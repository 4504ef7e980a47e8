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
  for the lowest higher number of the series prepared before it (a subquery on the series'
  number index, only for those).

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

from . import rules
from .models import SlipSeriesCheckpoint

# House control: how long a just-entered slip waits before a checkpoint may pass it (a slip's
# transaction is far shorter; see the module docstring).
SETTLE = timedelta(minutes=10)
BATCH = 200  # checkpoints written per statement: no statement carries a parameter per site


class _Row(NamedTuple):
    """A row of `_judged_rows`: a slip that starts its series' read, leaves a gap before it or
    was used out of order; or (`summary`) a series' totals: its newest slip read and highest
    number read, its newest settled slip and its oldest slip not settled."""

    summary: bool
    site_id: int
    kind: str
    number: int
    prev: int | None  # the next lower number read (of the same side of the checkpoint's highest)
    gaming_date: date | None
    seq: int | None  # the slip's place in the order of preparation
    id: int
    out_of_order: bool | None
    settled_id: int | None
    unsettled_id: int | None


@dataclass
class _Series:
    checkpoint: SlipSeriesCheckpoint | None
    flagged: list[_Row] = field(default_factory=list)  # the slips `_judged_rows` returned
    newest_id: int = 0  # of the slips read
    highest_read: int | None = None

    @property
    def high(self) -> int | None:
        return self.checkpoint.highest_number if self.checkpoint else None


def series_problems(by_id: dict, start: date, end: date) -> list[rules.SlipException]:
    """Missing and out-of-order numbers of every series of the sites `by_id` (site id -> Site),
    judged from each series' checkpoint; moves the checkpoints on. The database orders each
    series (window functions) and returns only the slips that show a problem or start a
    series, with each series' totals for its checkpoint: no row per slip comes back. Four
    queries in all (a fifth in the rare run where a checkpoint must stop short of a series'
    newest slip read)."""
    checkpoints = _checkpoints(by_id, end)
    series: dict[tuple[int, str], _Series] = {}
    newest_settled, oldest_unsettled = 0, None
    for row in _judged_rows(by_id, end, checkpoints):
        key = (row.site_id, row.kind)
        if key not in series:
            series[key] = _Series(checkpoints.get(key))
        one = series[key]
        if row.summary:
            one.newest_id, one.highest_read = row.id, row.number
            newest_settled = max(newest_settled, row.settled_id or 0)
            if row.unsettled_id is not None:
                oldest_unsettled = row.unsettled_id if oldest_unsettled is None else min(oldest_unsettled, row.unsettled_id)
        else:
            one.flagged.append(row)
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


def _new_slips_query(by_id: dict, end: date, checkpoints: dict):
    """The slips of the sites up to `end` newer than their series' usable checkpoint, unordered,
    annotated with `late_low` (used after a higher number although below the checkpoint's
    highest) and `below` (numbered below its usable checkpoint's highest)."""
    from floor.models import Slip, SlipKind

    # The checkpoints are loaded: each series is bounded by its own (one OR term per series of
    # the chunk's sites, no subquery per row); a series with no usable checkpoint is read in full.
    usable = {key: c for key, c in checkpoints.items() if key[0] in by_id and c.checked_through <= end}
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
    # The lowest higher number prepared before the slip, if any: a scalar subquery ordered by
    # number, so that PostgreSQL walks the unique (site, kind, number) index upwards from the
    # slip's number and stops at the first one prepared earlier. (An EXISTS drops the order,
    # and the planner then read every slip of the site through the site_id index.)
    higher_first = (
        Slip.objects.filter(site_id=OuterRef("site_id"), kind=OuterRef("kind"), number__gt=OuterRef("number"),
                            gaming_day__gaming_date__lte=end)
        .filter(Q(prepared_at__lt=OuterRef("prepared_at")) | Q(prepared_at=OuterRef("prepared_at"), pk__lt=OuterRef("pk")))
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
        .annotate(late_low=late_low, below=below)
        .order_by()
    )
    every_series = {series_key(site_id, kind) for site_id in by_id for kind in SlipKind.values}
    if usable and every_series <= set(usable):
        # every series starts after a checkpoint: let the database start at the oldest one by id
        rows = rows.filter(pk__gt=min(c.last_slip_id for c in usable.values()))
    return rows


# Each series ordered by number (the gaps: LAG, on each side of its checkpoint's highest) and
# by preparation (used out of order: below the highest number prepared before it); only the
# slips that start a side, follow a gap or were used out of order come back, then each
# series' totals. `r` is `_new_slips_query` (its columns named here).
_JUDGE_SQL = """
WITH r (id, site_id, kind, number, gaming_date, prepared_at, late_low, below, settled) AS ({inner}),
w AS (
    SELECT r.*,
           LAG(number) OVER (PARTITION BY site_id, kind, below ORDER BY number) AS prev,
           MAX(number) OVER (PARTITION BY site_id, kind ORDER BY prepared_at, id
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prior_high,
           ROW_NUMBER() OVER (PARTITION BY site_id, kind ORDER BY prepared_at, id) AS seq
    FROM r
)
SELECT FALSE, site_id, kind, number, prev, gaming_date, seq, id,
       CASE WHEN below THEN late_low ELSE COALESCE(number < prior_high, FALSE) END, NULL, NULL
FROM w
WHERE (NOT below AND (prev IS NULL OR number - prev > 1 OR number < prior_high)) OR (below AND late_low)
UNION ALL
SELECT TRUE, site_id, kind, MAX(number), NULL, NULL, NULL, MAX(id), NULL,
       MAX(CASE WHEN settled THEN id END), MIN(CASE WHEN settled THEN NULL ELSE id END)
FROM r
GROUP BY site_id, kind
"""


def _judged_rows(by_id: dict, end: date, checkpoints: dict) -> list[_Row]:
    """`_JUDGE_SQL` over the slips newer than their checkpoints (one query)."""
    settled_before = timezone.now() - SETTLE
    settled = Case(When(Q(entered_at__isnull=True) | Q(entered_at__lte=settled_before), then=Value(True)),
                   default=Value(False), output_field=BooleanField())
    inner = (_new_slips_query(by_id, end, checkpoints).annotate(settled=settled)
             .values_list("pk", "site_id", "kind", "number", "gaming_day__gaming_date", "prepared_at", "late_low",
                          "below", "settled"))  # fmt: skip
    sql, params = inner.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(_JUDGE_SQL.format(inner=sql), params)
        rows = cursor.fetchall()
    return [_Row(bool(summary), site_id, kind, number, prev, _as_date(day), *rest)
            for summary, site_id, kind, number, prev, day, *rest in rows]


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
        if (high is None or row.number > high) and before is not None and row.number - before > 1 \
                and low <= row.gaming_date <= end:
            found += [rules.SlipException(site_id, row.gaming_date, kind, n, "missing")
                      for n in range(before + 1, row.number)]
    for row in sorted((r for r in one.flagged if r.out_of_order), key=lambda r: r.seq):
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
