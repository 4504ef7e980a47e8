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

from django.db.models import BooleanField, Case, Min, OuterRef, Q, Subquery, Value, When
from django.db.models.lookups import IsNull
from django.utils import timezone

from . import rules
from .models import SlipSeriesCheckpoint

# House control: how long a just-entered slip waits before a checkpoint may pass it (a slip's
# transaction is far shorter; see the module docstring).
SETTLE = timedelta(minutes=10)
BATCH = 200  # checkpoints written per statement: no statement carries a parameter per site


@dataclass
class _Series:
    checkpoint: SlipSeriesCheckpoint | None
    used: list[tuple[int, date, int, bool]] = field(default_factory=list)  # number, day, id, below checkpoint used late

    @property
    def high(self) -> int | None:
        return self.checkpoint.highest_number if self.checkpoint else None


def series_problems(by_id: dict, start: date, end: date) -> list[rules.SlipException]:
    """Missing and out-of-order numbers of every series of the sites `by_id` (site id -> Site),
    judged from each series' checkpoint; moves the checkpoints on. Four queries in all."""
    checkpoints = _checkpoints(by_id, end)
    series: dict[tuple[int, str], _Series] = {}
    newest_settled, oldest_unsettled = 0, None
    settled_before = timezone.now() - SETTLE
    for pk, site_id, kind, number, day, entered_at, late_low in _new_slips(by_id, end, checkpoints):
        key = (site_id, kind)
        if key not in series:
            series[key] = _Series(checkpoints.get(key))
        series[key].used.append((number, day, pk, late_low))
        if entered_at is None or entered_at <= settled_before:
            newest_settled = max(newest_settled, pk)
        else:
            oldest_unsettled = pk if oldest_unsettled is None else min(oldest_unsettled, pk)
    if oldest_unsettled is not None:
        newest_settled = min(newest_settled, oldest_unsettled - 1)
    found = []
    for (site_id, kind), one in series.items():
        found += _judge(site_id, kind, one, start, end)
    _advance(by_id, end, checkpoints, series, newest_settled)
    return found


def series_key(site_id: int, kind: str) -> tuple[int, str]:
    return site_id, kind


def _checkpoints(by_id: dict, end: date) -> dict[tuple[int, str], SlipSeriesCheckpoint]:
    rows = SlipSeriesCheckpoint.objects.filter(site_id__in=by_id)
    return {series_key(c.site_id, c.kind): c for c in rows}


def _new_slips(by_id: dict, end: date, checkpoints: dict):
    """The slips of the sites up to `end` newer than their series' usable checkpoint, in order
    of preparation: (id, site, kind, number, gaming date, entered at, used after a higher
    number although below the checkpoint's highest)."""
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
    late_low = Value(False, output_field=BooleanField())
    if below_high:  # CASE: the subquery runs only for the slips below their checkpoint's highest
        found = Case(When(IsNull(Subquery(higher_first), False), then=Value(True)), default=Value(False))
        late_low = Case(When(below_high, then=found), default=Value(False), output_field=BooleanField())
    rows = (
        Slip.objects.filter(site_id__in=by_id, gaming_day__gaming_date__lte=end)
        .filter(newer)
        .annotate(late_low=late_low)
        .order_by("prepared_at", "pk")
    )
    every_series = {series_key(site_id, kind) for site_id in by_id for kind in SlipKind.values}
    if usable and every_series <= set(usable):
        # every series starts after a checkpoint: let the database start at the oldest one by id
        rows = rows.filter(pk__gt=min(c.last_slip_id for c in usable.values()))
    fields = ("pk", "site_id", "kind", "number", "gaming_day__gaming_date", "entered_at", "late_low")
    return rows.values_list(*fields)


def _judge(site_id: int, kind: str, one: _Series, start: date, end: date) -> list[rules.SlipException]:
    from floor.calculations import check_series

    incremental = one.checkpoint is not None and one.checkpoint.checked_through <= end
    low = start if not incremental else date.min  # a new slip is judged whatever its day
    high = one.high if incremental else None
    day_of = {number: day for number, day, _, _ in one.used}
    above = [number for number, _, _, _ in one.used if high is None or number > high]
    found = []
    ordered = sorted(above) if high is None else [high, *sorted(above)]
    for before, after in zip(ordered, ordered[1:], strict=False):
        day = day_of[after]  # the gap shows when the next number is used
        if after - before > 1 and low <= day <= end:
            found += [rules.SlipException(site_id, day, kind, n, "missing") for n in range(before + 1, after)]
    out_of_order = set(check_series(above).out_of_order)
    out_of_order |= {number for number, _, _, late_low in one.used if high is not None and number < high and late_low}
    for number in [n for n, _, _, _ in one.used if n in out_of_order]:  # in order of use
        if low <= day_of[number] <= end:
            found.append(rules.SlipException(site_id, day_of[number], kind, number, "out_of_order"))
    return found


def _advance(by_id: dict, end: date, checkpoints: dict, series: dict, newest_settled: int) -> None:
    """Move each series' checkpoint to the newest settled slip judged (see the module docstring)."""
    from floor.models import Slip

    every_series = {series_key(site_id, kind) for site_id in by_id for kind in ("fill", "credit")}
    oldest = min(c.last_slip_id for c in checkpoints.values()) if every_series <= set(checkpoints) else 0
    later = (
        Slip.objects.filter(site_id__in=by_id, gaming_day__gaming_date__gt=end, pk__gt=oldest)
        .values("site_id", "kind").annotate(first=Min("pk")).values_list("site_id", "kind", "first")
    )  # fmt: skip
    first_later = {series_key(site_id, kind): first for site_id, kind, first in later}
    now, rows = timezone.now(), []
    for site_id in by_id:
        for kind in ("fill", "credit"):
            key = series_key(site_id, kind)
            old = checkpoints.get(key)
            if old is not None and old.checked_through > end:
                continue  # a past period: the checkpoint stays where the nightly run left it
            through = min(newest_settled, first_later.get(key, newest_settled + 1) - 1)
            done = old.last_slip_id if old else 0
            if through <= done:
                continue
            numbers = [n for n, _, pk, _ in series.get(key, _Series(None)).used if pk <= through]
            highs = [n for n in (old.highest_number if old else None, *numbers) if n is not None]
            rows.append(SlipSeriesCheckpoint(site_id=site_id, kind=kind, last_slip_id=through,
                                             highest_number=max(highs, default=None), checked_through=end,
                                             checked_at=now))  # fmt: skip
    SlipSeriesCheckpoint.objects.bulk_create(
        rows, batch_size=BATCH, update_conflicts=True, unique_fields=["site", "kind"],
        update_fields=["last_slip_id", "highest_number", "checked_through", "checked_at"],
    )  # fmt: skip
