"""Per-dealer percent-of-hold: each dealer shift's figures (SFN 18862 model) and a dealer's
summary over a period such as 12 continuous weeks (SFN 18863), beside the site's hold.

A shift has figures of its own only when its drop and its tray can be separated: the drop
box was exchanged at the dealer change (or the dealer had the table the whole day) and the
tray was counted at each change. Otherwise the shift says why, instead of guessing."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db.models import Exists, OuterRef

from . import figures
from .figures import Custody
from .models import DealerShift, Slip, SlipKind, SlipStep, TableInventory

NO_BOX_EXCHANGE = "the drop box was not exchanged at the dealer change"
NO_TRAY_COUNT = "the tray was not counted at the dealer change"
NO_COUNT = "the drop has no signed count yet"


@dataclass(frozen=True)
class ShiftFigures:
    shift_id: int
    site_id: int
    dealer_id: int
    dealer_name: str
    table_number: int
    game: str
    gaming_date: date
    started_at: datetime
    ended_at: datetime | None
    custody: Custody | None  # None when the shift cannot be separated
    not_separable_because: str = ""

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.custody.hold_ratio if self.custody else None


@dataclass(frozen=True)
class _Shift:
    pk: int
    table_id: int
    site_id: int
    table_number: int
    game: str
    dealer_id: int
    dealer_name: str
    gaming_date: date
    started_at: datetime
    ended_at: datetime | None


def _shifts(site_ids, start, end, dealer_ids) -> list[_Shift]:
    """Plain values, not model instances: this runs over every shift of a long period."""
    qs = DealerShift.objects.filter(table__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
    if dealer_ids is not None:
        qs = qs.filter(dealer_id__in=dealer_ids)
    rows = qs.order_by("table_id", "started_at").values_list(
        "pk", "table_id", "table__site_id", "table__number", "table__game", "dealer_id", "dealer__user__first_name",
        "dealer__user__last_name", "dealer__user__username", "gaming_day__gaming_date", "started_at", "ended_at",
    )
    return [_Shift(pk, table, site, number, game, dealer, f"{first} {last}".strip() or username, day, began, ended)
            for pk, table, site, number, game, dealer, first, last, username, day, began, ended in rows]


def _day_shifts(site_ids, start, end):
    """Every shift of the table-days concerned, to know each shift's neighbours."""
    rows = (
        DealerShift.objects.filter(table__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
        .values_list("pk", "table_id", "gaming_day__gaming_date", "started_at")
        .order_by("started_at", "pk")
    )
    by_table_day = defaultdict(list)
    for pk, table_id, day, started in rows:
        by_table_day[(table_id, day)].append((pk, started))
    return by_table_day


def _drops(site_ids, start, end):
    from counts.queries import current_agreements

    by_shift, by_table_day, boxes = {}, defaultdict(int), defaultdict(int)
    rows = (
        current_agreements()
        .filter(drop__site_id__in=site_ids, drop__gaming_date__range=(start, end))
        .values_list("drop__table_id", "drop__gaming_date", "drop__dealer_shift_id", "total_cents")
    )
    for table_id, day, shift_id, cents in rows:
        boxes[(table_id, day)] += 1
        if shift_id is not None:
            by_shift[shift_id] = by_shift.get(shift_id, 0) + cents
        else:
            by_table_day[(table_id, day)] += cents
    return by_shift, by_table_day, boxes


def _trays(site_ids, start, end):
    rows = TableInventory.objects.filter(
        gaming_day__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end)
    ).values_list("table_id", "gaming_day__gaming_date", "kind", "dealer_shift_id", "total_cents")
    day_counts, change_counts = {}, {}
    for table_id, day, kind, shift_id, cents in rows:
        if kind == TableInventory.Kind.CHANGE and shift_id is not None:
            change_counts[shift_id] = cents
        elif kind != TableInventory.Kind.CHANGE:
            day_counts[(table_id, day, kind)] = cents
    return day_counts, change_counts


def _slips(site_ids, start, end):
    voided = SlipStep.objects.filter(slip=OuterRef("pk"), kind=SlipStep.Kind.VOID)
    rows = (
        Slip.objects.filter(site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
        .exclude(Exists(voided))
        .values_list("table_id", "gaming_day__gaming_date", "kind", "prepared_at", "total_cents")
    )
    by_table_day = defaultdict(list)
    for table_id, day, kind, at, cents in rows:
        by_table_day[(table_id, day)].append((kind, at, cents))
    return by_table_day


def shift_figures(site_ids, start: date, end: date, *, dealer_ids=None) -> list[ShiftFigures]:
    """Figures of each dealer shift with gaming dates in [start, end] (a fixed number of queries)."""
    site_ids = list(site_ids)
    shifts = _shifts(site_ids, start, end, dealer_ids)
    neighbours = _day_shifts(site_ids, start, end)
    drop_by_shift, drop_by_day, boxes = _drops(site_ids, start, end)
    day_trays, change_trays = _trays(site_ids, start, end)
    slips = _slips(site_ids, start, end)
    return [_one(s, neighbours, drop_by_shift, drop_by_day, boxes, day_trays, change_trays, slips) for s in shifts]


def _one(shift: _Shift, neighbours, drop_by_shift, drop_by_day, boxes, day_trays, change_trays, slips) -> ShiftFigures:
    key = (shift.table_id, shift.gaming_date)
    order = [pk for pk, _ in neighbours[key]]
    position = order.index(shift.pk)
    following = neighbours[key][position + 1] if position + 1 < len(order) else None
    end_at = shift.ended_at or (following[1] if following else None)
    drop = drop_by_shift.get(shift.pk)
    reason = ""
    if drop is None and len(order) == 1 and key in drop_by_day:
        drop = drop_by_day[key]
    if drop is None:
        reason = NO_COUNT if len(order) == 1 or boxes[key] >= len(order) else NO_BOX_EXCHANGE
    opener = day_trays.get((*key, TableInventory.Kind.OPENER)) if position == 0 else change_trays.get(shift.pk)
    closer = change_trays.get(following[0]) if following else day_trays.get((*key, TableInventory.Kind.CLOSER))
    if not reason and (opener is None or closer is None):
        reason = NO_TRAY_COUNT
    custody = None
    if not reason:
        moves = [
            (kind, cents)
            for kind, at, cents in slips[key]
            if at >= shift.started_at and (end_at is None or at < end_at)
        ]
        custody = Custody(
            drop,
            sum(c for k, c in moves if k == SlipKind.FILL),
            sum(c for k, c in moves if k == SlipKind.CREDIT),
            opener,
            closer,
        )
    return ShiftFigures(
        shift.pk,
        shift.site_id,
        shift.dealer_id,
        shift.dealer_name,
        shift.table_number,
        shift.game,
        key[1],
        shift.started_at,
        shift.ended_at,
        custody,
        reason,
    )


@dataclass(frozen=True)
class DealerSummary:
    dealer_id: int
    dealer_name: str
    shifts: tuple[ShiftFigures, ...]
    total: Custody
    separable_shifts: int
    site_total: Custody
    z_score: Decimal | None

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.total.hold_ratio

    @property
    def site_hold_ratio(self) -> Decimal | None:
        return self.site_total.hold_ratio


def dealer_summaries(site_ids, start: date, end: date, *, dealer_ids=None) -> list[DealerSummary]:
    """Each dealer's separable shifts summed, beside the sites' hold over the same period."""
    from .summaries import table_days

    site_ids = list(site_ids)
    days = [d for d in table_days(site_ids, start, end) if d.complete and d.game == "21"]
    site_total = figures.total(d.custody for d in days)
    holds = [d.custody.hold_ratio for d in days if d.custody.hold_ratio is not None]
    grouped = defaultdict(list)
    for shift in shift_figures(site_ids, start, end, dealer_ids=dealer_ids):
        grouped[(shift.dealer_id, shift.dealer_name)].append(shift)
    result = []
    for (dealer_id, name), shifts in sorted(grouped.items(), key=lambda item: item[0][1]):
        total = figures.total(s.custody for s in shifts if s.custody is not None and s.game == "21")
        z = figures.hold_z_score(
            dealer_agp_cents=total.agp_cents,
            dealer_gp_cents=total.gross_proceeds_cents,
            site_agp_cents=site_total.agp_cents,
            site_gp_cents=site_total.gross_proceeds_cents,
            table_day_holds=holds,
        )
        result.append(
            DealerSummary(
                dealer_id, name, tuple(shifts), total, sum(1 for s in shifts if s.custody is not None), site_total, z
            )
        )
    return result
